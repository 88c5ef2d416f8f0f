"""Replay a scenario file (docs/SCENARIOS.md) through the real engine and print the JSON result.

The scenario format's own entry point: `python3 tools/replay.py FILE.json` or `python3 -m
tools.replay FILE.json`, with any Python 3 and no venv (the checks from outside the project call it
so). The code is tools/scenarios/replay.py, also `python -m tools.scenarios`."""
import os
import sys

if __name__ == "__main__":
    _root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    sys.path[:0] = [_root, os.path.join(_root, "firmware")]     # the import roots (tools/paths.py)
    from tools.scenarios.replay import main
    sys.exit(main(sys.argv[1:]))
