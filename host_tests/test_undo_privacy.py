"""Undo against the AI never shows the AI's tiles: every move of every human turn is played and taken
back by every route the game menu offers (tools/proofs/harness/undopeek.py, the real app under
MicroPython, firmware compiled to .mpy as deployed), and at every moment the person chooses a move,
no tile they saw another seat play is back in a hidden hand. Undo stays offered where it shows
nothing: B pressed with the move's A, before the AI starts."""
import os

import pytest

HERE = os.path.dirname(os.path.abspath(__file__))
from tools.proofs.harness import frames  # noqa: E402

pytestmark = pytest.mark.skipif(frames.find() is None, reason="no micropython binary")


@pytest.mark.parametrize("variant,seed", [("fives", 11), ("block", 11), ("block", 4)])
def test_undo_never_shows_a_hidden_tile(mpy, tmp_path, variant, seed):
    out = frames.run({"seed": seed, "think": 100, "ai_ms_per_call": 10, "root": str(tmp_path / "flash"),
                      "do": [["new", variant, 2, ["human", "medium"]], ["undo_peek", 14, 3]]},
                     code=mpy[0], boards=mpy[1])
    assert out["errors"] == 0, out.get("last_error")
    p = out["undo_peek"]
    assert p["peeks"] == [], p                  # [nmoves, seat, mask of seen tiles back in a hand]
    assert p["turns"] >= 8 and p["decisions"] >= p["turns"] + p["early"], p
    assert p["early"] >= p["turns"], p          # Undo before the AI acts: offered, and it works
    assert p["late"] == 0, p                    # (after it: never)
