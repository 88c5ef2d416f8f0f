"""The open ends' row of the colour boards (ui/paint.py ends): in the Fives family, whose count takes
a double at an end twice, such an end is shown as the whole double (5-5 lying), so the row reads as
the count adds up; every end and the count fit the row beside the stock. The 128x64 OLED's summary
is a key away (its scores page): the ends in words, a double as 5:5, with the count."""
import pytest

from domino.match import Match
from domino.rules import Rules

from tools.sim import ui_host

SIZES = ((240, 240), (320, 240), (240, 135))


class Rec(ui_host.Recorder):
    def __init__(self, w, h):
        ui_host.Recorder.__init__(self, w, h)
        self.drawn = []

    def square(self, x, y, v, s, mark=-1):
        self.drawn.append(("half", x, v, s))

    def tile(self, x, y, a, b, horiz, s, flags=0, mark=-1):
        self.drawn.append(("double", x, a, s))
        assert a == b and horiz


def rounds_with_a_double_at_an_end(vid="fives"):
    """Positions of seeded rounds where an open end (not the lead's alone) is a double."""
    found = []
    for seed in range(1, 40):
        m = Match(Rules(vid, 2), seed)
        m.start_round()
        rd = m.round
        while not m.round_over() and len(found) < 12:
            lay = rd.layout
            if lay.lead != 255 and (lay.n[0] or lay.n[1]) and any(
                    lay.is_open(a) and lay.dbl[a] for a in range(4)):
                found.append(m)
                break
            if rd.legal() == 0:
                m.forced()
            else:
                m.play(rd.buf[0])
        if len(found) >= 6:
            break
    assert found
    return found


@pytest.mark.parametrize("size", SIZES)
def test_a_double_at_an_end_is_shown_whole(size):
    w, h = size
    for m in rounds_with_a_double_at_an_end():
        t = ui_host.table.Table(ui_host.App(w, h), ui_host.table.Game(m, ["human", "medium"], ["You", "Bob"]))
        g = Rec(w, h)
        t.app.g = g
        ui_host.paint.ends(t, g)
        lay = m.round.layout
        want = []
        for a in (0, 2, 3, 1):
            if lay.is_open(a):
                want.append(("double" if lay.dbl[a] else "half", lay.end[a]))
        assert [(k, v) for k, _, v, _ in g.drawn] == want
        s = g.drawn[0][3]
        total = sum(v * (2 if k == "double" else 1) for k, v in want)
        count = [c for c in g.calls if c[0].endswith(str(lay.count(m.rules.spinner_keeps)))]
        assert count and total == lay.count(False)          # the row adds up as the count does
        texts = sorted(g.calls, key=lambda c: c[1])
        k, x, v, _ = g.drawn[-1]
        end = x + (2 * s if k == "double" else s)
        assert end <= count[0][1], (g.drawn, g.calls)       # the ends before the count ...
        for c in texts:
            assert c[1] + g.cw * len(c[0]) <= w             # ... and every text inside the row


@pytest.mark.parametrize("cols", [16, 21])
def test_the_oled_summary_says_the_ends_and_marks_the_doubles(cols):
    """The 128x64 OLED's scores page (ui/sheet.py ends): the ends in words, a double at an end
    as 5:5, the count, in the 8x8 font's 16 columns and the 6x12 font's 21: the label gives way
    first."""
    sheet = ui_host.device_module("ui.sheet")
    for m in rounds_with_a_double_at_an_end():
        lay = m.round.layout
        line = sheet.ends(m.round, cols)
        assert len(line) <= cols, line
        vals = [("%d:%d" % (lay.end[a], lay.end[a]) if lay.dbl[a] else str(lay.end[a]))
                for a in (0, 2, 3, 1) if lay.is_open(a)]
        count = "=%d" % lay.count(m.rules.spinner_keeps)
        assert line.endswith(" ".join(vals) + " " + count), (line, vals, count)
