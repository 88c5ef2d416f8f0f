# drivers: display drivers for the boards (see docs/BOARDS.md). No game knowledge here.
