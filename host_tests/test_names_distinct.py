"""Two pass-and-play players never share a name (both curtains would say "Pass to ANN": nobody would
know whose turn it is). Typed: the second is refused with a message, the first kept. Found in the
settings file (written by an older firmware, or a seat's kind changed since): the later seat gets
its own default name. The real app under MicroPython (tools/proofs/harness/driver.py)."""
import json
import os
import re
import types

import pytest

HERE = os.path.dirname(os.path.abspath(__file__))
from tools.proofs.harness import frames  # noqa: E402

needs_mp = pytest.mark.skipif(frames.find() is None, reason="no micropython binary")

# Seat 1's editor starts from "P1", seat 2's from "P2" (the letters: blank, A-Z, 0-9; DOWN goes
# back): P down to B is 14 steps, 1 down to O 13, 2 down to O 14; A goes on, confirming on the last
TYPE_BO_1 = "down " * 14 + "a " + "down " * 13 + "a a a a"
TYPE_BO_2 = "down " * 14 + "a " + "down " * 14 + "a a a a"


def run(mpy, job, tmp_path):
    job.setdefault("root", str(tmp_path / "flash"))
    out = frames.run(job, code=mpy[0], boards=mpy[1])
    assert out["errors"] == 0, out.get("last_error")
    return out


@needs_mp
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


@needs_mp
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


# The names the firmware gives (ui/menus.py, ui/linkstart.py), and the seats they sit in
GIVEN = ("You", "Host", "Guest", "Ann", "Bob", "Cat", "Dan")
SCRIPT = {"en": re.compile(r"^[A-Za-z]+$"), "ru": re.compile(r"^[А-ЯЁа-яё]+$")}
# Cyrillic capitals a Latin capital or a digit looks like: an AI's initial must not be one, as it
# meets typed names (Latin capitals and digits) in pass-and-play games with AI seats
LOOKALIKE = set("АВЕЗКМНОРСТУХЬ")


@pytest.fixture(params=["en", "ru"])
def language(request):
    from ui import lang, langfile
    langfile.use(request.param)
    yield request.param, lang.tr
    langfile.use("en")


def test_the_given_names_are_the_languages_own_with_distinct_initials(language):
    """The header's one-letter columns (4 players on 240x240) tell every seat apart: the names the
    firmware gives are in the language's own script ("Bob думает" is not Russian) and their initials
    are distinct; in Russian no AI's initial is a Cyrillic letter a Latin one looks like."""
    code, tr = language
    names = [tr(n) for n in GIVEN]
    assert all(SCRIPT[code].match(n) for n in names), names
    initials = [n[0] for n in names]
    assert len(set(initials)) == len(initials), names
    if code == "ru":
        assert not LOOKALIKE & set(initials[3:]), names


@pytest.mark.parametrize("kinds,teams", [(["human", "medium", "medium", "medium"], True),
                                         (["human", "hard", "easy", "medium"], False),
                                         (["easy", "easy", "easy", "easy"], False),
                                         (["human", "human", "human", "human"], False),
                                         (["human", "medium", "human", "medium"], True)])
def test_the_four_players_header_shows_distinct_initials(language, kinds, teams):
    """The real header drawn on 240x240 (the one-row header with the names cut to their first
    letters): each column's name differs from every other one, and partners are marked by more
    than colour (the first side's columns underlined)."""
    from domino.match import Match
    from domino.rules import Rules
    from tools.sim import ui_host
    menus = ui_host.device_module("ui.menus")
    code, tr = language
    m = Match(Rules("goat" if teams else "fives", 4, teams), 1)
    m.start_round()
    app = ui_host.App(240, 240)
    g = app.g
    lines = []
    g.fb = types.SimpleNamespace(fill_rect=lambda *a: None, text=g._fb_text, vline=lambda *a: None,
                                 hline=lambda x, y, w, c: lines.append((x, y, w, c)))
    t = ui_host.table.Table(app, ui_host.table.Game(m, kinds, menus.seat_names(kinds)))
    assert t.head_name and t.head_h        # the short header (else this test sees nothing)
    g.calls = []
    ui_host.paint.head(t, g)
    colw = 240 // 4
    shown = []
    for s in range(4):
        texts = [c for c in g.calls if c[2] == 0 and s * colw <= c[1] < s * colw + colw
                 and not c[0].isdigit()]
        assert texts, (s, g.calls)
        shown.append(texts[0][0])
    assert len(set(shown)) == 4, shown
    assert all(SCRIPT[code].match(n) or re.match(r"^P\d?$", n) for n in shown), shown   # (P1..P4)
    marked = sorted(x // colw for x, y, w, c in lines if y == t.head_h - 1)
    assert marked == ([0, 2] if teams else []), lines
