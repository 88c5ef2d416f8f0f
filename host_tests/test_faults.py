"""The fault-injection proof, smoke set (make test; the whole set is `make soak-faults`,
tools/proofs/faults.py). The real app under the MicroPython unix port on a flash that fails (EIO or a
MemoryError at one file operation, ENOSPC or EROFS from one on) during a game and at a finished
match's end, and booted on data files replaced by oversized, nested, mistyped, CRLF, binary,
directory and device-node variants: a power-on always resumes the newest save the flash took (or
the backup, with a one-line message, when game.txt itself is what was replaced) or starts clean
with a one-line message; "Game saved" is said only over a save that holds the match; a finished
match is counted once or the player is told. A different slice of the cases runs each time (the
offset comes from the clock and is printed), so CI covers the whole set over a few runs.
"""
import os
import time

import pytest

HERE = os.path.dirname(os.path.abspath(__file__))
from tools.proofs.harness import frames  # noqa: E402
from tools.proofs import faults  # noqa: E402

pytestmark = pytest.mark.skipif(frames.find() is None, reason="no micropython binary")

STRIDE = 31


def test_fault_injection_smoke(tmp_path, record_property, capsys):
    offset = int(time.time()) % STRIDE
    with capsys.disabled():
        print("\nfault injection smoke: every %d-th case from %d (replay: faults.proof(%d, offset=%d))"
              % (STRIDE, offset, STRIDE, offset))
    out = faults.proof(STRIDE, work=str(tmp_path), offset=offset, file_stride=3)
    text = faults.report(out)
    print(text)
    resumed, clean, failed = faults.tally(out)
    record_property("fault_cases", out["cases"])
    assert out["failures"] == [] and failed == 0, text
    assert out["cases"] > 80 and resumed > 60, text
    assert out["ops"]["play"]["total"] > 200 and out["said"]["play"]["Game saved"] >= 1, text
    assert out["said"]["play"]["Undone"] >= 1, text          # a practice game's Undo, faults and all
    groups = out["groups"]
    assert any(g.startswith("file game.txt") for g in groups) and any("settings" in g for g in groups), text
