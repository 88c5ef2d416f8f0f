"""Playing a tile places only that tile (ui/place.py `_added`): the other tiles keep their places at
the same fit, and each chain goes on from the state its last tile left. Proved against placing the
whole layout again (`place(v, lay, True)`, the same view history) after every move of seeded
4-player rounds per layout kind (a line: Goat; a spinner: Fives; a cross: Donkey) on the table area
of every screen size (the games as host_tests/test_layout_geometry.py makes them)."""
import os

import pytest

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
from tools.sim import ui_host  # noqa: E402

from test_layout_geometry import AREAS, KINDS, played  # noqa: E402

gfx = ui_host.gfx
place = ui_host.place
ROUNDS = 60


def _state(v):
    n = v.n
    return (n, v.s, v.cx, v.cy, v.tall, v.fitted, v.top if v.tall else 0, v.bottom if v.tall else 0,
            list(v.px[:n]), list(v.py[:n]), bytes(v.pa[:n]), bytes(v.pb[:n]), bytes(v.pt[:n]),
            bytes(v.pf[:n]), list(v.mx), list(v.my), bytes(v.mw), bytes(v.mh), list(v.cst))


@pytest.mark.parametrize("size", sorted(AREAS))
@pytest.mark.parametrize("kind", sorted(KINDS))
def test_a_tile_placed_alone_lands_where_a_whole_placement_puts_it(kind, size, monkeypatch):
    x0, y0, w, h, mono = AREAS[size]
    real = place._added
    hits = []

    def added(v, old):
        ok = real(v, old)
        hits.append(ok)
        return ok

    monkeypatch.setattr(place, "_added", added)
    moves = 0
    for r in range(ROUNDS):
        inc = gfx.TableView(x0, y0, w, h, mono)
        whole = gfx.TableView(x0, y0, w, h, mono)
        for rd in played(kind, r):
            place.place(inc, rd.layout)
            place.place(whole, rd.layout, True)
            moves += 1
            assert _state(inc) == _state(whole), "%s %s round %d, %d tiles" % (kind, size, r, rd.layout.size)
    # the tile alone is the rule on the colour screens (~90% of moves; the rest: the first tile, a
    # refit, a spinner becoming the centre); the 128x64 table of a spinner or a cross is tall (it
    # scrolls): placed whole every move
    assert moves > 1000, moves
    assert hits.count(True) > moves * 8 // 10 or size == "128x64", (moves, hits.count(True))
