"""The emulated Pico: `python -m tools.emu setup|check` (docs/PICO_EMU.md)."""
import sys

from tools.emu.harness import main

sys.exit(main(sys.argv[1:]))
