"""AI level A against level B over full matches: `python -m tools.arena --help` (docs/AI.md)."""
import sys

from tools.arena.arena import main

sys.exit(main(sys.argv[1:]))
