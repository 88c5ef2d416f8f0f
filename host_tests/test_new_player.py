"""What a new player trips on, tried as one would, through the real app under MicroPython
(tools/proofs/harness/driver.py) and, where the engine alone can tell, under CPython: settings in a
player's words, the main menu's cursor kept, the game menu's rows in fixed places, the players'
names shown, points scored in play in the move log and where its page is, the AI's move kept over
your forced draw, the hint named on the 128x64 screen with its end marked, every number of the
round-end pages labelled."""
import os
import random
import re
import types

import pytest

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
from tools.proofs.harness import frames  # noqa: E402
from tools.sim.ui_host import device_module  # noqa: E402

needs_mp = pytest.mark.skipif(frames.find() is None, reason="no micropython binary")


def run(job, tmp_path, name="flash"):
    job.setdefault("root", str(tmp_path / name))
    out = frames.run(job)
    assert out["errors"] == 0, out.get("last_error")
    return out


def texts(out):
    return [t[1] for t in out.get("texts", [])]


@needs_mp
def test_settings_say_what_the_watchdog_does(tmp_path):
    out = run({"do": [["menu", "Settings"], ["state"]]}, tmp_path)
    rows = out["states"][0]["rows"]
    assert "Restart if stuck" in rows and not [r for r in rows if "atchdog" in r], rows


@needs_mp
def test_main_menu_cursor_comes_back_to_the_row_chosen(tmp_path):
    out = run({"do": [["menu", "Settings"], ["keys", "b"], ["steps", 3], ["state"],
                      ["menu", "Rules help"], ["keys", "b"], ["steps", 3], ["state"]]}, tmp_path)
    after_settings, after_help = out["states"]
    assert after_settings["screen"] == "MainMenu"
    assert after_settings["rows"][after_settings["sel"]] == "Settings"
    assert after_help["rows"][after_help["sel"]] == "Rules help"


@needs_mp
def test_game_menu_rows_stay_in_place_and_a_dim_row_says_why(tmp_path):
    out = run({"seed": 31, "do": [
        ["new", "fives", 2, ["human", "easy"]], ["settle"], ["keys", "b"], ["state"],
        ["pick", "Undo"], ["state"]]}, tmp_path)
    first, chosen = out["states"]
    out = run({"seed": 31, "do": [
        ["new", "fives", 2, ["human", "easy"]], ["settle"], ["match", 1], ["keys", "b"], ["state"],
        ["pick", "Undo"], ["state"]]}, tmp_path, "flash2")
    answered, chosen_later = out["states"]
    assert len(first["rows"]) == len(answered["rows"])
    assert first["rows"] == answered["rows"]                              # every row in its place
    assert first["rows"][:3] == ["Resume", "Hint", "Undo"]                # Undo dim, not offered
    assert chosen_later["note"] == "Undo: only before the next player moves", chosen_later
    assert chosen["screen"] == "Pause" and chosen["note"] == "Undo: only before the next player moves"


@needs_mp
def test_hint_is_dim_on_the_curtain_and_says_why(tmp_path):
    out = run({"seed": 8, "do": [
        ["new", "draw", 2, ["human", "human"]], ["until", "Curtain"], ["steps", 50], ["state"],
        ["keys", "b"], ["state"], ["pick", "Hint"], ["state"]]}, tmp_path)
    curtain, menu, chosen = out["states"]
    assert curtain["screen"] == "Curtain" and menu["screen"] == "Pause"
    assert menu["rows"][1] == "Hint" and chosen["screen"] == "Pause"
    assert chosen["note"] == "Hint: on your turn"


@needs_mp
def test_names_row_shows_the_names_and_the_editor_says_whose(tmp_path):
    out = run({"do": [["menu", "New game"], ["keys", "down down down left left"], ["state"],
                      ["pick", "Names"], ["pick", "Seat 2"], ["state"]]}, tmp_path)
    form, editor = out["states"]
    i = form["rows"].index("Names")
    assert form["values"][i] == "P1,P2", form
    assert editor["screen"] == "NameEditor" and editor["title"] == "Player 2's name"


@pytest.mark.parametrize("vid", ["fives", "muggins", "threes", "telephone", "draw"])
def test_move_log_shows_what_each_play_scored(vid):
    """Random rounds: the points the log gives each player add up to what the engine scored them
    in play, and a play says "scores" exactly when it scored."""
    from domino.match import Match
    from domino.rules import Rules
    movelog = device_module("ui.movelog")
    names = ["ANN", "BOB", "CAT"]
    seen = 0
    for seed in range(12):
        rnd = random.Random(seed)
        m = Match(Rules(vid, 3), seed + 1)
        m.start_round()
        rd = m.round
        while not m.round_over():
            n = rd.legal()
            if n == 0:
                m.forced()
                continue
            m.play(rd.buf[rnd.randrange(n)])
        got = [0, 0, 0]
        for ln in movelog.lines(types.SimpleNamespace(match=m, names=names, saved_names=names)).splitlines():
            hit = re.match(r"(\w+): .* scores (\d+)$", ln)
            if hit:
                got[names.index(hit.group(1))] += int(hit.group(2))
        assert got == rd.inplay[:3], (seed, got, rd.inplay)
        seen += sum(got)
    assert (seen > 0) == bool(Rules(vid, 3).inplay_mod)


@needs_mp
def test_oled_move_log_shows_there_is_more(tmp_path):
    out = run({"size": "128x64", "seed": 5, "do": [
        ["new", "draw", 2, ["human", "easy"]], ["match", 4], ["keys", "b"], ["texts"],
        ["pick", "Moves"], ["state"], ["keys", "up"]]}, tmp_path)
    assert len(out["states"][0]["text"].splitlines()) > 4
    shown = texts(out)
    foot = [t for t in shown if t.endswith("B back")]
    assert re.match(r"^\^ (\d+)/\1 B back$", foot[0]), foot             # the end: more above
    assert re.match(r"^\^v\d+/\d+ B back$", foot[-1]), foot              # scrolled up: both ways


@needs_mp
def test_the_ais_move_stays_over_your_forced_draw(tmp_path):
    """Against the AI in Draw: when you must draw right after its move, the message area shows its
    move and your draw until you play; then only your move."""
    do = [["new", "draw", 2, ["human", "easy"]]] + [["match", 1], ["state"]] * 8
    out = run({"seed": 1, "do": do}, tmp_path)
    held = [st for st in out["states"] if st["screen"] == "Table" and st["held_text"]]
    assert held, "no forced draw after an AI move in this deal"
    for st in held:
        assert st["held_text"].startswith("Bob: ") and st["last_text"].startswith("You drew ")
        assert st["now"].startswith(st["held_text"] + "\n" + st["last_text"]), st["now"]
    k = out["states"].index(held[0])
    nxt = out["states"][k + 1]
    assert not nxt["held_text"] or nxt["held_text"] != held[0]["held_text"]


@needs_mp
def test_oled_hint_names_the_tile_and_marks_its_end(tmp_path):
    out = run({"size": "128x64", "seed": 3, "do": [
        ["new", "fives", 2, ["human", "easy"]], ["match", 1], ["settle"], ["hint"], ["state"],
        ["png", "hinted"], ["keys", "left"], ["png", "moved"], ["state"]]}, tmp_path)
    st, moved = out["states"]
    assert re.match(r"Hint: \d-\d( on \d)?\n.+", st["msg"]) or re.match(r"\d-\d(\+\d-\d)+\n", st["msg"]), \
        st["msg"]
    w, h, a = frames.pixels(out["frames"]["hinted"])
    _, _, b = frames.pixels(out["frames"]["moved"])
    top = min(r[1] for r in st["hand_rects"]) - 3      # the table area: above the hand row
    diff = sum(1 for y in range(10, top) for x in range(w) if a[y][x] != b[y][x])
    assert diff >= 16, diff                                # a mark, not four single pixels


@needs_mp
@pytest.mark.parametrize("size", ["240x240", "128x64"])
def test_round_end_pages_label_every_number(size, tmp_path):
    out = run({"size": size, "seed": 11, "do": [
        ["new", "goat", 4, ["human", "easy", "easy", "easy"]], ["until", "RoundEnd"], ["texts"],
        ["bands"], ["keys", "a"], ["keys", "a"]]}, tmp_path)
    shown = texts(out)
    assert "count" in shown, shown                         # the hands' counts' column
    assert "adds" in shown or any(", records " in t or ": count " in t for t in shown), shown
    assert "Total" in shown or "Tot" in shown
    assert [t for t in shown if t.startswith("Goat at ")], shown
    for nm in ("You", "Bob", "Cat", "Dan"):                 # the sheet's heads, whole
        assert nm in shown, (nm, shown)
