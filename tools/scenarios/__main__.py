"""Replay a scenario file through the real engine: `python -m tools.scenarios --help`."""
import sys

from tools.scenarios.replay import main

sys.exit(main(sys.argv[1:]))
