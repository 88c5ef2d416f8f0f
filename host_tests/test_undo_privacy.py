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


def _undo_rows(state):
    return [r for r in state.get("rows", []) if r.startswith("Undo ")]


@pytest.mark.parametrize("level", ["easy", "medium", "hard"])
def test_undo_is_offered_while_the_ai_answers_in_a_counted_game(mpy, tmp_path, level):
    """B while the AI thinks about its answer (Hard) or in the beat before it plays (every level)
    opens the menu with Undo offered: nothing of its hand has been shown yet. The AI's move is not
    played; taking the person's move back leaves the table as it was before it."""
    if level == "hard":                          # B down on every AI tick while it searches
        go = [["mash", "b"], ["until", "Pause"], ["mash", ""]]
    else:                                        # the hinted tile played, B in the beat after it
        go = [["hint"], ["keys", "a"], ["keys", "b"]]
    job = {"seed": 12, "think": 500, "ai_ms_per_call": 10, "anim": 2, "root": str(tmp_path / "flash"),
           "do": [["new", "fives", 2, ["human", level]], ["settle"], ["state"]] + go +
                 [["state"], ["pick", "Undo "], ["settle"], ["state"]]}
    out = frames.run(job, code=mpy[0], boards=mpy[1])
    assert out["errors"] == 0, out.get("last_error")
    before, paused, back = out["states"]
    assert paused["screen"] == "Pause" and _undo_rows(paused), paused
    assert paused["nmoves"] == before["nmoves"] + 1          # the person's move; the AI's not played
    assert back["screen"] == "Table" and back["mode"] == 1 and back["nmoves"] == before["nmoves"]
    assert back["hand"] == before["hand"]


def test_undo_is_not_offered_once_the_ai_has_played(mpy, tmp_path):
    job = {"seed": 12, "think": 100, "ai_ms_per_call": 10, "anim": 2, "root": str(tmp_path / "flash"),
           "do": [["new", "fives", 2, ["human", "medium"]], ["settle"], ["hint"], ["keys", "a"], ["settle"],
                  ["state"], ["keys", "b"], ["state"]]}
    out = frames.run(job, code=mpy[0], boards=mpy[1])
    assert out["errors"] == 0, out.get("last_error")
    played, paused = out["states"]
    assert played["screen"] == "Table" and played["mode"] == 1      # the AI answered: your turn
    assert paused["screen"] == "Pause" and not _undo_rows(paused), paused
