"""What players of domino apps expect, through the real app under MicroPython
(tools/proofs/harness/driver.py, firmware compiled to .mpy as deployed): undo against the AI, the
move log, pass-and-play names, settings from the game menu, the OLED's scores page, rounds in the
statistics, help pages with the match's options, the 2v2 partner named at set-up, menu notes in the
right colour."""
import json
import os
import re

import pytest

HERE = os.path.dirname(os.path.abspath(__file__))
from tools.proofs.harness import frames  # noqa: E402

pytestmark = pytest.mark.skipif(frames.find() is None, reason="no micropython binary")
FG, WARN = 1, 10                     # colour indices (docs/BOARDS.md)


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
    assert "Moves" in rows and not [r for r in rows if r.startswith("Undo ")], rows
    assert "Undo" in rows                                 # in its place, dim


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
    for word in ("Scores, to 150", "You", "Bob", "Stock"):
        assert word in shown, (word, shown)
    assert re.search(r"[0-6](:[0-6])?( [0-6](:[0-6])?)* =\d+", shown), shown   # the open ends, counted


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


def test_pair_goat_is_the_four_players_goat_and_the_partner_is_named(mpy, tmp_path):
    """Goat with four players starts in pairs (pair goat, docs/RULES.md), its partner named; the
    Teams row turns them off; other variants with four start without teams."""
    out = run(mpy, {"do": [["menu", "New game"], ["keys", "right right right right down right right"],
                           ["state"], ["menu", "Teams"], ["state"],
                           ["keys", "up up left left"], ["state"]]}, tmp_path)
    paired, single, fives = out["states"]
    assert paired["values"][paired["rows"].index("Variant")] == "Goat"
    assert paired["values"][paired["rows"].index("Teams")] == "2 v 2"
    assert paired["values"][paired["rows"].index("Partner")] == "Cat"
    assert single["values"][single["rows"].index("Teams")] == "off" and "Partner" not in single["rows"]
    assert fives["values"][fives["rows"].index("Variant")] == "Fives", fives
    assert fives["values"][fives["rows"].index("Teams")] == "off"


def test_game_saved_is_not_an_error(mpy, tmp_path):
    out = run(mpy, {"seed": 21, "do": [
        ["new", "fives", 2, ["human", "easy"]], ["settle"], ["keys", "b"], ["menu", "Save and quit"],
        ["settle"], ["state"]]}, tmp_path)
    st = out["states"][0]
    assert st["screen"] == "MainMenu" and st["note"] == "Game saved" and st["note_col"] == FG


def undo_cycle():
    """Open the game menu on your turn, choose Undo, wait for the table: [menu, after] states."""
    return [["keys", "b"], ["state"], ["pick", "Undo"], ["settle"], ["state"]]


def same_position(a, b):
    return [a[k] for k in ("nmoves", "hand", "scores", "inplay", "events", "turn", "saved")] == \
        [b[k] for k in ("nmoves", "hand", "scores", "inplay", "events", "turn", "saved")]


def test_practice_undo_takes_back_your_move_and_the_answer_every_time(mpy, tmp_path):
    """A practice game against Medium: play, see the answer, Undo: back before your move (hand,
    table, scores, the save), and again, from the same position (your second turn), with other
    tiles."""
    do = [["new", "fives", 2, ["human", "medium"], False, None, True], ["match", 1], ["state"]]
    for _ in range(4):
        do += [["match", 1], ["state"]] + undo_cycle()
    out = run(mpy, {"seed": 11, "think": 100, "do": do}, tmp_path)
    start = out["states"][0]
    assert start["practice"] and start["saved"]["practice"] and start["mode"] == 1
    assert "Practice: your turn" in start["now"]                  # the table says so
    tried = set()
    for k in range(4):
        answered, menu, undone = out["states"][1 + 3 * k: 4 + 3 * k]
        assert answered["nmoves"] >= start["nmoves"] + 2, answered      # your move, its answer
        assert answered["saved"]["rounds"][-1] == answered["nmoves"]
        undo = [r for r in menu["rows"] if r.startswith("Undo ")]
        assert undo and menu["rows"].index(undo[0]) == 2, menu["rows"]
        assert undone["screen"] == "Table" and undone["mode"] == 1 and undone["practice"]
        assert undone["msg"] == "Undone: " + undo[0][5:]
        assert same_position(undone, start), (undone, start)      # the save holds no more moves
        tried.add(tuple(answered["events"][len(start["events"])]))
    assert len(tried) > 1                         # another tile played after each undo


def test_practice_undo_goes_back_move_by_move_to_the_round_start(mpy, tmp_path):
    do = [["new", "block", 2, ["human", "medium"], False, None, True], ["settle"], ["state"],
          ["match", 3], ["state"]]
    for _ in range(4):
        do += undo_cycle()
    out = run(mpy, {"seed": 4, "think": 100, "do": do}, tmp_path)
    start, played = out["states"][:2]
    assert played["nmoves"] >= start["nmoves"] + 5
    afters = [out["states"][3 + 2 * k] for k in range(4)]
    menus = [out["states"][2 + 2 * k] for k in range(4)]
    seen = [played["nmoves"]] + [a["nmoves"] for a in afters[:3]]
    assert seen == sorted(seen, reverse=True) and len(set(seen)) == 4, seen   # a move of yours each
    assert same_position(afters[2], start)
    for a in afters[:3]:
        assert a["mode"] == 1 and a["saved"]["rounds"] == [a["nmoves"]]
    # nothing of yours left this round: Undo dim, and says why
    assert "Undo" in menus[3]["rows"] and afters[3]["screen"] == "Pause"
    assert afters[3]["note"] == "Undo: no move of yours this round"


def test_a_practice_match_is_not_counted(mpy, tmp_path):
    """A counted match writes the statistics; a practice match after it, in the same variant, leaves
    them as they were (its rounds too), and its finished save is retired all the same."""
    stats = tmp_path / "flash" / "stats.json"
    out = run(mpy, {"seed": 3, "think": 100, "do": [
        ["new", "block", 2, ["human", "easy"]], ["match"]]}, tmp_path)
    assert out["result"] == "over" and not out["match_end"]["practice"]
    counted = stats.read_text()
    out = run(mpy, {"seed": 3, "think": 100, "do": [
        ["new", "block", 2, ["human", "easy"], False, None, True], ["match"], ["state"]]}, tmp_path)
    assert out["result"] == "over" and out["match_end"]["practice"]
    assert out["match_end"]["history"] >= 1
    assert stats.read_text() == counted
    assert not (tmp_path / "flash" / "game.txt").exists()       # the finished match retired
    assert out["states"][0]["screen"] == "MainMenu"


def test_a_saved_practice_game_resumes_as_practice(mpy, tmp_path):
    job = {"seed": 11, "think": 100, "do": [
        ["new", "fives", 2, ["human", "medium"], False, None, True], ["match", 2], ["state"],
        ["keys", "b"], ["menu", "Save and quit"], ["menu", "Continue"], ["settle"], ["state"],
        ["match", 1]] + undo_cycle()}
    out = run(mpy, job, tmp_path)
    before, resumed, menu, undone = out["states"]
    assert resumed["practice"] and resumed["nmoves"] == before["nmoves"]
    assert resumed["hand"] == before["hand"] and "Practice" in resumed["now"]
    assert undone["nmoves"] == before["nmoves"] and undone["practice"]


def test_a_save_without_the_practice_line_resumes_counted(mpy, tmp_path):
    """Saves written before practice games existed have no such line: counted, today's undo rule."""
    out = run(mpy, {"seed": 11, "think": 100, "do": [
        ["new", "fives", 2, ["human", "medium"]], ["match", 1], ["keys", "b"], ["menu", "Save and quit"],
        ["menu", "Continue"], ["settle"], ["state"], ["keys", "b"], ["pick", "Undo"], ["state"]]}, tmp_path)
    resumed, chosen = out["states"]
    assert not resumed["practice"] and not resumed["saved"]["practice"]
    assert chosen["screen"] == "Pause" and chosen["note"] == "Undo: only before the next player moves"
    assert "practice" not in (tmp_path / "flash" / "game.txt").read_text()


def test_the_new_game_form_offers_practice_only_against_the_ai(mpy, tmp_path):
    """Off by default, below the seats; with a second person the row gives way to Names (taking a
    move back would show the hand that made it to the next player) and the game starts counted."""
    out = run(mpy, {"do": [
        ["menu", "New game"], ["state"], ["keys", "down down down down a"], ["state"],
        ["keys", "up left left"], ["state"], ["pick", "Start game"], ["steps", 5], ["state"]]}, tmp_path)
    first, on, two, started = out["states"]
    assert first["rows"][:5] == ["Variant", "Players", "Seat 1", "Seat 2", "Practice"], first["rows"]
    assert first["values"][4] == "off"
    assert on["values"][4] == "on"
    assert "Practice" not in two["rows"] and "Names" in two["rows"], two["rows"]
    assert started["screen"] in ("Curtain", "Table") and started["practice"] is False
    assert "practice" not in (tmp_path / "flash" / "game.txt").read_text()
