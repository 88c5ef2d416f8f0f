"""What a move does to the table: its tiles, the layout after it, the in-play points it scores.

Works on a scratch `Layout` (copied from the real one), so the round is never touched. Mirrors
`Round.play` for the layout part, including several doubles in one move and Donkey closes.
"""
from domino.tiles import DOUBLE, PIPS, HI
try:
    from micropython import const
except ImportError:  # CPython
    def const(x):
        return x

_NONE = const(255)     # = domino.tiles.NONE
_MULTI = const(0x100)  # = domino.round.MULTI
_CLOSE = const(0x80)   # = domino.round.CLOSE
_ARM_SHIFT = const(5)  # = domino.round.ARM_SHIFT


def move_tiles(lay, m):
    """Mask of the tiles move m places (lay: the layout before the move)."""
    if m & _MULTI:
        out = 0
        f = (m >> 9) & 3
        out |= 1 << DOUBLE[lay.end[f]]
        for a in range(4):
            if a != f and (m >> a) & 1:
                # other arms keep their ends when the first double is placed (a spinner's long sides
                # may open, but they carry the spinner's number, which is the same double)
                out |= 1 << DOUBLE[lay.end[a]]
        return out
    return 1 << (m & 31)


def apply(lay, m):
    """Place move m on layout lay (as Round.play does)."""
    if m & _MULTI:
        closes = (m >> 4) & 15
        f = (m >> 9) & 3
        lay.place(DOUBLE[lay.end[f]], f, (closes >> f) & 1)
        for a in range(4):
            if a != f and (m >> a) & 1:
                lay.place(DOUBLE[lay.end[a]], a, (closes >> a) & 1)
        return
    t = m & 31
    if lay.lead == _NONE:
        lay.place_lead(t)
    else:
        lay.place(t, (m >> _ARM_SHIFT) & 3, m & _CLOSE)


def inplay_points(rules, lay):
    """In-play points the open-end count of lay is worth (0 when not a positive multiple)."""
    mod = rules.inplay_mod
    if not mod:
        return 0
    c = lay.count(rules.spinner_keeps)
    if c and c % mod == 0:
        return c // rules.inplay_div
    return 0


def weight(t):
    """Heaviness key of one tile: pips, then the higher end (3-6 before 4-5)."""
    return PIPS[t] * 8 + HI[t]
