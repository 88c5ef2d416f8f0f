"""The PC simulator: `python -m tools.sim --help` (docs/SIM.md)."""
import sys

from tools.sim.main import main

sys.exit(main())
