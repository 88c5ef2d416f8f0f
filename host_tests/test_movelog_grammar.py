"""The move log and the table speak of the person playing in the verb's form for "you" and of the
other players in a form that fits any of them: "You pass", "Ann passes"; in Russian "Вы
пропускаете", "Лиза пропускает" (a present tense: a Russian past tense has a gender, and the names
may be anyone's). Checked on the catalogue's templates and on logs built by ui/movelog.py from
seeded rounds where the person draws and passes."""
import re
import types

import pytest

from domino.match import Match
from domino.rules import Rules
from tools.sim import ui_host
from ui import lang, langfile

movelog = ui_host.device_module("ui.movelog")
words = ui_host.words

# The texts said of the person, and of another player (their English as the catalogue has it)
YOU = ("You pass", "You drew {0}", "You drew {0}\\n", "You went out", "You out")
OTHERS = ("{0} passes", "{0} drew {1}", "{0} drew {1}\\n", " drew {0} tiles", " draws", " went out",
          " out", " scores {0}", "{0} thinking", ", scores {0}", ", records {0}", "Round to {0}")
PAST = re.compile(r"[а-яё]+л[аои]?\b")          # a Russian past tense: взял, вышла, ...
YOUR = re.compile(r"[а-яё]+(те|ли)\b")          # ... the "вы" forms: пропускаете, берёте, вышли


def ru():
    out = {}
    with open(lang.folder() + "ru.txt", encoding="utf-8") as f:
        for ln in f:
            k, v = ln.rstrip("\n").split("\t")
            out[k] = v
    return out


def test_russian_verbs_fit_the_person_and_any_other_player():
    t = ru()
    for k in YOU:
        assert k in t and YOUR.search(t[k]), (k, t.get(k))
    for k in OTHERS:
        assert k in t and not PAST.search(t[k]) and not YOUR.search(t[k]), (k, t[k])


def game_with(kinds, names, want):
    """A seeded Block round (no stock: passes) played on until the person has done what `want`
    says (an event kind: 2 draw, 3 pass), as a Game the log reads."""
    for seed in range(1, 200):
        m = Match(Rules("draw" if want == 2 else "block", 2), seed)
        m.start_round()
        rd = m.round
        while not m.round_over():
            if any(rd.events[2 * i] >> 4 == want and rd.events[2 * i] & 15 == 0 for i in range(rd.nev)):
                return ui_host.table.Game(m, kinds, names)
            if rd.legal() == 0:
                m.forced()
            else:
                m.play(rd.buf[rd.legal() - 1])
    raise AssertionError("no such round")


@pytest.mark.parametrize("code", ["en", "ru"])
@pytest.mark.parametrize("want", [2, 3])
def test_the_log_names_the_person_in_the_person_s_form(code, want):
    langfile.use(code)
    try:
        game = game_with(["human", "medium"], ["You", "Bob"], want)
        log = movelog.lines(game).split("\n")
        mine = [ln for ln in log if ln.startswith(lang.tr("You"))]
        theirs = [ln for ln in log if ln.startswith(lang.tr("Bob"))]
        assert mine and theirs and len(mine) + len(theirs) == len(log), log
        assert log[-1]                                   # no empty line at the end
        if code == "en":
            assert not [ln for ln in mine if re.search(r"\b(passes|draws|scores)\b", ln)], mine
            assert [ln for ln in mine if ln in ("You pass",) or ln.startswith("You drew ")], mine
        else:
            assert not [ln for ln in mine if re.search(r"\b(пропускает|берёт|получает|взял)\b", ln)], mine
            assert [ln for ln in mine if YOUR.search(ln)], mine
            assert not [ln for ln in theirs if PAST.search(ln) or YOUR.search(ln)], theirs
    finally:
        langfile.use("en")


@pytest.mark.parametrize("code", ["en", "ru"])
def test_the_table_says_the_person_s_move_in_the_person_s_form(code):
    langfile.use(code)
    try:
        you = lang.tr("You")                 # (what a move scores is said of the move: any player)
        assert words.played(you, "3-5", 10) == you + ": 3-5" + lang.tr(" scores {0}").format(10)
        assert words.passes(None) == lang.tr("You pass")
        assert words.drew(None, 5) == lang.tr("You drew {0}").format("0-5")
    finally:
        langfile.use("en")


@pytest.mark.parametrize("code", ["en", "ru"])
@pytest.mark.parametrize("w,h", [(240, 240), (320, 240), (240, 135), (128, 64)])
def test_the_log_s_footer_is_one_line_and_counts_its_lines(code, w, h):
    """The footer says where the page is on one line of the screen (in words where they fit), and
    counts the log's lines: no empty one after the last move."""
    langfile.use(code)
    try:
        cols = w // (8 if h < 100 and code == "en" else ui_host.Recorder(w, h).cw if h >= 100 else 6)
        log = movelog.MoveLog.__new__(movelog.MoveLog)
        log.app = types.SimpleNamespace(g=types.SimpleNamespace(cols=cols))
        for n in (1, 7, 12, 99):
            for top in range(0, n, 5):
                log.lines = ["x"] * n
                log.top = top
                log.vis = 8
                for more in (False, True):
                    foot = log.footer(more)
                    assert len(foot) <= cols - 1, (foot, cols)
                    assert str(n) in foot
        game = game_with(["human", "medium"], ["You", "Bob"], 3)
        text = movelog.lines(game)
        assert len(text.split("\n")) == sum(1 for ln in text.split("\n") if ln.strip())
    finally:
        langfile.use("en")
