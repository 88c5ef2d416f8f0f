"""Every screen in Russian, whole: the legibility recorder (tools/legibility/record.py: the menus, the
forms and editors, the safe start, seeded games of solo Fives, Goat 2v2, pass-and-play Draw and
Blitz with their game menu, move log, score sheet, hint, curtain and round-end pages) drives every
board with the language set to Russian and records every text drawn. No English word is left on a
screen (but deal codes and the keys' letters: the AI players' names are Russian too), and every
text is whole on the screen, over no other text (the same rule as in English,
tools/legibility/report.py misfits)."""
import os
import re

import pytest

from tools.legibility import gallery, report, todo

NAMES = set()     # names left in Latin letters: none (the AI players' are the catalogue's, "Боря")
KEYS = {"OK", "Enter", "USB"}               # written as on the device's buttons and ports
CODE = re.compile(r"\b[A-Z0-9]{3}-[A-Z0-9]{3}\b")     # a deal code
WORD = re.compile(r"[A-Za-z]{2,}")
# Screens whose Russian is not written yet: none (the rules help pages are ui/help_ru.txt)
NOT_YET = set()
# The first boot's question names each language in itself, in both: "Language / Язык", "English"
BOTH = {"AskLang": {"Language", "English"}}


@pytest.fixture(scope="module")
def recordings(micropython):
    return {b: report.record(b, 7, micropython, "ru", shots=True) for b in report.BOARDS}


def english(text):
    """The English words left in a text drawn (a name cut to its column, "Ca", is a name)."""
    return [w for w in WORD.findall(CODE.sub("", text))
            if w not in KEYS and not any(n.startswith(w) for n in NAMES)]


@pytest.mark.parametrize("board", report.BOARDS)
def test_no_english_on_any_screen(recordings, board):
    rec = recordings[board]
    assert len(rec["seen"]) >= 15 and rec["texts"]
    left = {}
    for scr, s, *_ in rec["texts"]:
        if scr not in NOT_YET and set(english(s)) - BOTH.get(scr, set()):
            left.setdefault(scr, set()).add(s)
    assert not left, "%s: English on the Russian screens: %r" % (board, left)
    cyr = [s for _, s, *_ in rec["texts"] if re.search("[а-яА-ЯёЁ]", s)]
    assert len(cyr) > 100                    # (the language was in use)


@pytest.mark.parametrize("board", report.BOARDS)
def test_every_text_whole_in_russian(recordings, board):
    assert not report.misfits(recordings[board])


def test_the_check_sees_english():
    assert english("Боря: 3-5 на 3") == [] and english("Раздача AG5-3S7") == []
    assert english("Bob думает") == ["Bob"]
    assert english("Боря passes") == ["passes"] and english("A далее/OK B назад") == []


@pytest.mark.parametrize("board", report.BOARDS)
def test_every_screen_has_its_russian_picture(recordings, board):
    """Every screen the rule covers was reached and kept whole (its first complete frame), and
    docs/UI.md shows its picture (`make screenshots` writes them: tools/legibility/gallery.py)."""
    rec = recordings[board]
    shots = rec["shots"]
    assert not [s for s in todo.SCREENS if s not in shots]
    size = rec["w"] * rec["h"] // 8 if rec["h"] == 64 else (rec["w"] + 1) // 2 * rec["h"]
    assert all(len(h) == 2 * size for h in shots.values())
    with open(gallery.DOC, encoding="utf-8") as f:
        doc = f.read().split("<!-- screens-ru -->", 1)[1].split("<!-- /screens-ru -->", 1)[0]
    for s in shots:
        rel = "img/screens/ru/%s/%s.png" % (board, gallery.slug(s))
        assert "](%s)" % rel in doc, rel
        assert os.path.exists(os.path.join(os.path.dirname(gallery.DOC), rel)), rel


@pytest.mark.parametrize("board", report.BOARDS)
def test_the_legibility_rule_holds_in_russian(recordings, board):
    """Capitals >= 1.2 mm and the hand's and open ends' pips >= 0.4 mm on every screen in Russian too
    (the same fonts, and on the OLED its 6x12 Terminus instead of the 8x8: 1.35 mm capitals)."""
    rec = recordings[board]
    assert not report.failures(rec), report.failures(rec)
    if board == "oled_diy":
        assert min(t[6] for t in rec["texts"]) >= 8        # every text in the 6x12 font's capitals


@pytest.mark.parametrize("board", report.BOARDS)
def test_the_round_result_keeps_its_deal_code_in_russian(recordings, board):
    """The round's result names the deal (its code a friend can type in), on the 128x64 OLED's
    12-pixel font too (at the right of the title's line when it has no line of its own)."""
    shown = [s for scr, s, *_ in recordings[board]["texts"] if scr == "RoundEnd"]
    assert any(CODE.search(s) for s in shown), shown
    assert any(s.startswith("Победа в коне: ") for s in shown), shown
