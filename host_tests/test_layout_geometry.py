"""The table reads like a real table (docs/UI.md, "The layout"): checked from the layout's own geometry
(ui/place.py into ui/gfx.py's TableView, tools/proofs/harness/geometry.py) after every move of 200
seeded 4-player rounds per layout kind (a line: Goat; a spinner: Fives; a cross: Donkey) on the table
area of every screen size the boards have:

- no two tiles touch unless they are joined (SEP pixels at least), joints show the same number on
  both sides, doubles lie across the line, every tile inside the table (or the tall, scrolling one);
- tiles keep their places when a move is added, except when the table is fitted again, and that
  happens about once a round (the first fit, at the lead, is one), never every move.

The UI's own frames are checked the same way in host_tests/test_ui.py (a 4-player Goat game through
the real app under MicroPython)."""
import os
import random

import pytest

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
from tools.proofs.harness import geometry  # noqa: E402

from domino.match import Match  # noqa: E402
from domino.record import run_forced  # noqa: E402
from domino.rules import Rules  # noqa: E402


from tools.sim import ui_host  # noqa: E402

gfx = ui_host.gfx
place = ui_host.place

# the table area of each screen with four players (ui/table.py's Table: the header, in the board's
# font, two rows where two players' columns cannot hold name, tiles and score, else one with the
# names cut; the open ends' row; one or two message lines; the hand row of legible tiles; on the OLED
# two dark rows above the raised cursor tile's outline)
AREAS = {"240x240": (2, 22, 236, 92, False), "320x240": (2, 16, 316, 113, False),
         "240x135": (2, 20, 236, 42, False), "128x64": (0, 10, 128, 34, True)}
KINDS = {"line": "goat", "spinner": "fives", "cross": "donkey"}
ROUNDS = 200


def test_areas_are_the_tables():
    """The areas above are the ones the Table screen lays out (ui/table.py)."""
    for size, area in AREAS.items():
        w, h = (int(v) for v in size.split("x"))
        assert ui_host.area(w, h) == area, size


def played(kind, r):
    """Seeded 4-player round r of a layout kind, random legal moves: its round after every move."""
    rng = random.Random(r)
    m = Match(Rules(KINDS[kind], 4, False), 1000 + r)
    m.start_round()
    rd = m.round
    while True:
        run_forced(m)
        if m.round_over():
            return
        m.play(rd.buf[rng.randrange(rd.legal())])
        yield rd


@pytest.mark.parametrize("size", sorted(AREAS))
@pytest.mark.parametrize("kind", sorted(KINDS))
def test_no_tile_touches_one_it_is_not_joined_to(kind, size):
    x0, y0, w, h, mono = AREAS[size]
    moves = refits = tall = 0
    longest = 0
    for r in range(ROUNDS):
        v = gfx.TableView(x0, y0, w, h, mono)
        before = {}
        fits = 0
        for rd in played(kind, r):
            sig = (v.s, v.cx, v.cy, v.tall, v.fitted)
            place.place(v, rd.layout)
            moves += 1
            err = geometry.check(v, rd.layout, sep=place._SEP, tall_screens=place._TALL)
            assert err is None, "%s %s round %d, %d tiles: %s" % (kind, size, r, rd.layout.size, err)
            now = {v.pt[i]: (v.px[i], v.py[i], v.pf[i]) for i in range(v.n)}
            if (v.s, v.cx, v.cy, v.tall, v.fitted) == sig:
                moved = [t for t in before if now.get(t) != before[t]]
                assert not moved, "%s %s round %d: tiles %s moved without a refit" % (kind, size, r, moved)
            before = now
            fits += (v.s, v.cx, v.cy, v.tall, v.fitted) != sig
            tall += v.tall
            longest = max(longest, v.n)
        refits += fits
    assert moves > ROUNDS * 10 and longest >= 20        # long lines: 20+ tiles
    per_round = refits / ROUNDS
    print("%s %s: %d moves, %.2f fits a round, %d tall" % (kind, size, moves, per_round, tall))
    assert per_round < 3.0                              # the first fit and a refit or so, not every move
    if size == "240x135" and kind == "cross":
        # a 42-row table under the header, the open ends' row, one message line and a legible
        # hand: a cross with one arm of 12+ tiles can outgrow it at the smallest tiles, and then
        # scrolls (3 positions of the 4478 here); a line and a spinner always fit
        assert tall * 1000 <= moves, (size, tall, moves)
    else:
        assert (tall > 0) == mono                       # only the OLED scrolls
