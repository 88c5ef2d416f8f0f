"""Build the firmware and put it on a Pico: `python -m tools.deploy --help` (docs/DEPLOY.md)."""
import sys

from tools.deploy.main import main

sys.exit(main())
