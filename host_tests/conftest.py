"""pytest: make the firmware importable the way the device sees it (firmware/ and the repo root)."""
import os
import sys

import pytest

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
for p in (os.path.join(ROOT, "firmware"), ROOT):
    if p not in sys.path:
        sys.path.insert(0, p)


@pytest.fixture(scope="session")
def micropython():
    """Path of the real `micropython` binary (tools/find_micropython.py decides which)."""
    sys.path.insert(0, os.path.join(ROOT, "tools"))
    from find_micropython import find
    mp = find()
    if not mp:
        pytest.fail("no micropython binary: `make venv` installs one (Linux x86_64 / macOS arm64)")
    return mp
