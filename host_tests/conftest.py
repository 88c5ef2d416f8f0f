"""pytest: the import roots every process of the project uses (the repo and firmware/, as the venv's
.pth sets them: tools/paths.py), and the host's additions to the engine: the arena's baseline levels
and the 64-bit PRNG twin (tools/arena: same numbers, half the work)."""
import os
import sys

import pytest

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
for p in (os.path.join(ROOT, "firmware"), ROOT):
    if p not in sys.path:
        sys.path.insert(0, p)

from tools import paths  # noqa: E402
from tools.arena import baselines, rng32  # noqa: E402

os.environ["PYTHONPATH"] = paths.env()["PYTHONPATH"]    # every CPython subprocess of a test

baselines.install()
rng32.install()


@pytest.fixture(scope="session")
def micropython():
    """Path of the real `micropython` binary (tools/find_micropython.py decides which)."""
    from tools.find_micropython import find
    mp = find()
    if not mp:
        pytest.fail("no micropython binary: `make venv` installs one (Linux x86_64 / macOS arm64)")
    return mp


@pytest.fixture(scope="session")
def mpy(tmp_path_factory):
    """(firmware tree, boards root) compiled with mpy-cross as deployed, once for the whole run: the
    UI harness's processes run on it (tools/proofs/harness/frames.py)."""
    from tools.proofs.harness import frames
    code, boards, _arch = frames.build_mpy(str(tmp_path_factory.mktemp("mpy")))
    return code, boards
