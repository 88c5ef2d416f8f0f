"""What players of domino apps expect, through the real app under MicroPython
(host_tests/ui_fakes/driver.py, firmware compiled to .mpy as deployed): undo against the AI, the
move log, pass-and-play names, settings from the game menu, the OLED's scores page, rounds in the
statistics, help pages with the match's options, the 2v2 partner named at set-up, menu notes in the
right colour."""
import json
import os
import re
import sys

import pytest

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "ui_fakes"))
import frames  # noqa: E402

pytestmark = pytest.mark.skipif(frames.find() is None, reason="no micropython binary")
FG, WARN = 1, 10                     # colour indices (docs/BOARDS.md)


@pytest.fixture(scope="module")
def mpy(tmp_path_factory):
    code, boards, _ = frames.build_mpy(str(tmp_path_factory.mktemp("featmpy")))
    return code, boards


def run(mpy, job, tmp_path):
    job.setdefault("root", str(tmp_path / "flash"))
    out = frames.run(job, code=mpy[0], boards=mpy[1])
    assert out["errors"] == 0, out.get("last_error")
    return out


def rounds(flash):
    return [ln.split()[1:] for ln in (flash / "game.txt").read_text().splitlines()
            if ln.startswith("round")]


def test_undo_takes_back_your_move_before_the_ai_answers(mpy, tmp_path):
    """B pressed with the move's A opens the game menu before the AI starts: Undo is offered there
    and takes the move back (once the AI has answered it is not: host_tests/test_undo_privacy.py)."""
    out = run(mpy, {"seed": 31, "do": [
        ["new", "fives", 2, ["human", "easy"]], ["settle"], ["state"],
        ["keys", "down"], ["hold", "a+b", 1], ["state"], ["pick", "Undo"], ["settle"], ["state"]]},
        tmp_path)
    before, menu, undone = out["states"]
    assert menu["screen"] == "Pause" and menu["nmoves"] == before["nmoves"] + 1   # the AI waits
    assert [r for r in menu["rows"] if r.startswith("Undo ")], menu["rows"]
    assert undone["screen"] == "Table" and undone["mode"] == 1
    assert undone["nmoves"] == before["nmoves"] and undone["hand"] == before["hand"]
    assert undone["msg"].startswith("Undone: ")
    assert len(rounds(tmp_path / "flash")[0]) == before["nmoves"]  # the save holds no more


def test_no_undo_in_pass_and_play(mpy, tmp_path):
    out = run(mpy, {"seed": 8, "do": [
        ["new", "draw", 2, ["human", "human"]], ["match", 2], ["keys", "b"], ["state"]]}, tmp_path)
    rows = out["states"][0]["rows"]
    assert "Moves" in rows and not [r for r in rows if r.startswith("Undo")], rows


def test_move_log_lists_every_move_and_draws_as_counts(mpy, tmp_path):
    out = run(mpy, {"seed": 5, "do": [
        ["new", "draw", 2, ["human", "easy"]], ["match", 6], ["state"],
        ["keys", "b"], ["menu", "Moves"], ["state"]]}, tmp_path)
    table, log = out["states"]
    assert log["screen"] == "MoveLog"
    lines = [ln for ln in log["text"].split("\n") if ln]
    plays = [e for e in table["events"] if e[0] == 1]
    draws = [e for e in table["events"] if e[0] == 2]
    names = table["names"]
    assert len([ln for ln in lines if ": " in ln]) == len(plays) > 5
    drawn = [ln for ln in lines if " drew " in ln]
    assert all(re.match(r"^\w+ drew \d+$", ln) for ln in drawn), drawn     # counts, never a tile
    assert sum(int(ln.split()[-1]) for ln in drawn) == len(draws)
    assert lines[0].startswith(names[plays[0][1]] + ": ")


def test_pass_and_play_names_are_typed_once_and_remembered(mpy, tmp_path):
    # Names row -> Seat 1 -> the editor starts from "P1": P down to B is 14 steps, 1 down to O 13
    # (the letters: blank, A-Z, 0-9); A goes on over the blank slots and confirms on the last
    typing = "down " * 14 + "a " + "down " * 13 + "a a a a"
    out = run(mpy, {"seed": 3, "do": [
        ["menu", "New game"], ["keys", "down down down right right"],    # Seat 2: Medium -> Human
        ["menu", "Names"], ["state"], ["menu", "Seat 1"], ["keys", typing], ["state"],
        ["keys", "b"], ["menu", "Start game"], ["state"]]}, tmp_path)
    names_screen, typed, started = out["states"]
    assert names_screen["rows"] == ["Seat 1", "Seat 2", "Back"]
    assert names_screen["values"][:2] == ["P1", "P2"]
    assert typed["screen"] == "Names" and typed["values"][0] == "BO"
    assert started["names"] == ["BO", "P2"]
    # remembered: a later game has the name without typing it again
    out = run(mpy, {"seed": 3, "do": [["settle"], ["steps", 40], ["keys", "b"], ["menu", "Save and quit"],
                                      ["settle"],
                                      ["menu", "New game"], ["menu", "Names"], ["state"]]}, tmp_path)
    assert out["states"][-1]["values"][0] == "BO"


def test_settings_from_the_game_menu_come_back_to_the_game(mpy, tmp_path):
    out = run(mpy, {"seed": 21, "do": [
        ["new", "fives", 2, ["human", "easy"]], ["settle"], ["state"],
        ["keys", "b"], ["menu", "Settings"], ["steps", 2], ["state"],
        ["keys", "right"], ["keys", "b"], ["settle"], ["state"]]}, tmp_path)
    table, settings, back = out["states"]
    assert settings["screen"] == "Settings"
    assert back["screen"] == "Table" and back["nmoves"] == table["nmoves"] and back["mode"] == 1
    text = (tmp_path / "flash" / "settings.json").read_text().split("\n")[0]
    assert json.loads(text)["bright"] != 80                   # changed and saved


def test_oled_scores_page_is_one_press_away(mpy, tmp_path):
    out = run(mpy, {"size": "128x64", "seed": 21, "do": [
        ["new", "fives", 2, ["human", "easy"]], ["settle"], ["texts"], ["keys", "y"], ["state"],
        ["keys", "a"], ["state"]]}, tmp_path)
    page, back = out["states"]
    assert page["screen"] == "ScoresView" and back["screen"] == "Table"
    shown = " ".join(t[1] for t in out["texts"])
    for word in ("Scores, to 150", "You", "Bob", "Stock", "Count"):
        assert word in shown, (word, shown)


def test_statistics_count_rounds(mpy, tmp_path):
    end = run(mpy, {"seed": 104, "do": [["new", "draw", 2, ["human", "easy"]], ["match"]]},
              tmp_path)["match_end"]
    text = (tmp_path / "flash" / "stats.json").read_text().split("\n")[0]
    row = json.loads(text)["draw"]
    assert len(row) == 7 and row[0] == 1 and row[5] == end["history"] and 0 <= row[6] <= row[5], row
    out = run(mpy, {"do": [["menu", "Statistics"], ["state"]]}, tmp_path)
    st = out["states"][0]
    assert " rounds won" in st["rows"]
    assert st["values"][st["rows"].index(" rounds won")] == "%d/%d" % (row[6], row[5])


def test_help_page_shows_the_match_options(mpy, tmp_path):
    out = run(mpy, {"seed": 21, "do": [
        ["new", "fives", 2, ["human", "easy"], False, {"target": 100}], ["settle"],
        ["keys", "b"], ["menu", "Rules help"], ["state"]]}, tmp_path)
    text = out["states"][0]["text"]
    assert text.startswith("This match: Target 100")
    assert "First to 100 wins" in text and "150" not in text


def test_partner_is_named_at_set_up(mpy, tmp_path):
    out = run(mpy, {"do": [["menu", "New game"], ["keys", "right right right right down right right"],
                           ["menu", "Teams"], ["state"]]}, tmp_path)
    st = out["states"][0]
    assert st["values"][st["rows"].index("Teams")] == "2 v 2"
    assert st["values"][st["rows"].index("Partner")] == "Cat"


def test_game_saved_is_not_an_error(mpy, tmp_path):
    out = run(mpy, {"seed": 21, "do": [
        ["new", "fives", 2, ["human", "easy"]], ["settle"], ["keys", "b"], ["menu", "Save and quit"],
        ["settle"], ["state"]]}, tmp_path)
    st = out["states"][0]
    assert st["screen"] == "MainMenu" and st["note"] == "Game saved" and st["note_col"] == FG
