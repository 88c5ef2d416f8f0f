"""Rules engine: pure, no I/O, no time, no hardware. Runs unchanged under CPython and MicroPython."""
