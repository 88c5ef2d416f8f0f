"""Two pass-and-play players never share a name (both curtains would say "Pass to ANN": nobody would
know whose turn it is). Typed: the second is refused with a message, the first kept. Found in the
settings file (written by an older firmware, or a seat's kind changed since): the later seat gets
its own default name. The real app under MicroPython (tools/proofs/harness/driver.py)."""
import json
import os

import pytest

HERE = os.path.dirname(os.path.abspath(__file__))
from tools.proofs.harness import frames  # noqa: E402

pytestmark = pytest.mark.skipif(frames.find() is None, reason="no micropython binary")

# Seat 1's editor starts from "P1", seat 2's from "P2" (the letters: blank, A-Z, 0-9; DOWN goes
# back): P down to B is 14 steps, 1 down to O 13, 2 down to O 14; A goes on, confirming on the last
TYPE_BO_1 = "down " * 14 + "a " + "down " * 13 + "a a a a"
TYPE_BO_2 = "down " * 14 + "a " + "down " * 14 + "a a a a"


def run(mpy, job, tmp_path):
    job.setdefault("root", str(tmp_path / "flash"))
    out = frames.run(job, code=mpy[0], boards=mpy[1])
    assert out["errors"] == 0, out.get("last_error")
    return out


def test_a_name_another_player_has_is_refused_with_a_message(mpy, tmp_path):
    out = run(mpy, {"seed": 3, "do": [
        ["menu", "New game"], ["keys", "down down down right right"],    # Seat 2: Medium -> Human
        ["menu", "Names"], ["menu", "Seat 1"], ["keys", TYPE_BO_1], ["state"],
        ["menu", "Seat 2"], ["keys", TYPE_BO_2], ["state"],
        ["keys", "b"], ["menu", "Start game"], ["state"]]}, tmp_path)
    one, two, started = out["states"]
    assert one["values"][:2] == ["BO", "P2"] and not one["note"]
    assert two["screen"] == "Names" and two["values"][:2] == ["BO", "P2"]     # refused, kept
    assert two["note"] == "BO is Seat 1's name", two
    assert started["names"] == ["BO", "P2"]


def test_equal_names_in_the_settings_file_are_made_distinct(mpy, tmp_path):
    flash = tmp_path / "flash"
    flash.mkdir()
    last = {"variant": "draw", "players": 4, "teams": 0, "seats": ["human"] * 4,
            "names": ["ANN", "ANN", "P1", "ANN"]}
    (flash / "settings.json").write_text(json.dumps({"v": 1, "last": last}) + "\n")
    out = run(mpy, {"seed": 3, "do": [["menu", "New game"], ["menu", "Start game"], ["state"]]},
              tmp_path)
    names = out["states"][0]["names"]
    assert len(set(names)) == 4, names
    assert names[0] == "ANN", names
