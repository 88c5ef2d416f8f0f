"""The rules engine's invariants, restated independently of the engine's own helpers, in one place for
two users: the CPython property tests (test_properties_core.py, random moves straight on the engine)
and the MicroPython monkey test (tools/proofs/harness/monkey.py, random key presses through the real UI, which
calls these after every move the UI makes). Plain asserts; runs under both runtimes and allocates
little (the monkey runs at a 180K heap beside the Hard AI).

    before_forced(rd)             the player to draw/pass holds no playable tile
    after_forced(rd, s, had, ev)  a draw took exactly one tile; only it may be played; block detection
    before_play(rd, mv)           the move is legal, its tile is in the hand and fits its end
    after_play(rd)                out / blocked / playing, each detected the moment it arises
    check_round(rd)               the 28 tiles partition into hands, table, stock, out of play; the
                                  layout's ends follow from its tiles; the turn is a seat
    check_points_round(m, rd, before)  points family: the recorded score follows RULES.md
"""
from domino import tiles
from domino.round import PLAYING, OUT, BLOCKED, MULTI, EV_DRAW
from domino.scoring import hand_value

ALL = 0xFFFFFFF        # the 28 tiles
LEAD_ARM = 4           # layout.seq_arm code of the lead (domino.layout.LEAD)


def ends_mask(lay):
    m = 0
    for a in range(4):
        if lay.is_open(a):
            m |= tiles.SUIT[lay.end[a]]
    return m if lay.lead != tiles.NONE else ALL


def live_tiles(rd):
    live = 0
    for p in range(rd.rules.players):
        live |= rd.hands[p]
    return live


def round5(x):
    r = x % 5
    return x - r + (5 if r >= 3 else 0)


def before_forced(rd):
    assert rd.result == PLAYING, "draw or pass after the round ended"
    playable = rd.hands[rd.turn] & ends_mask(rd.layout)
    assert playable == 0, "a player with a playable tile was made to draw or pass"


def after_forced(rd, seat, had, ev):
    """After a forced draw or pass by `seat`, whose hand was `had`."""
    if ev == EV_DRAW:
        drawn = rd.hands[seat] & ~had
        assert tiles.popcount(drawn) == 1 and rd.hands[seat] & had == had, "a draw took one tile"
        if rd.result == PLAYING and rd.turn == seat:
            for i in range(rd.legal()):         # the drawn tile is the only playable one
                mv = rd.buf[i]
                assert mv & MULTI or (drawn >> (mv & 31)) & 1, "a tile held before the draw fits"
        stuck = (rd.sn - rd.sp <= rd.rules.reserve) and not live_tiles(rd) & ends_mask(rd.layout)
        assert (rd.result == BLOCKED) == stuck, "block after the last draw"
    else:
        assert rd.hands[seat] == had, "a pass changed the hand"


def before_play(rd, mv):
    assert rd.result == PLAYING, "a move after the round ended"
    s = rd.turn
    if not mv & MULTI:
        t = mv & 31
        assert (rd.hands[s] >> t) & 1, "played a tile not in the hand"
        assert rd.layout.lead == tiles.NONE or rd.layout.fits(t, (mv >> 5) & 3), "tile does not fit"
    assert rd.is_legal(mv), "not a legal move"


def after_play(rd):
    if rd.result == PLAYING:                  # a block is detected the moment it arises
        drawable = rd.rules.draw and rd.sn - rd.sp > rd.rules.reserve   # RULES.md A
        assert drawable or live_tiles(rd) & ends_mask(rd.layout), "blocked but not detected"
    elif rd.result == OUT:
        assert rd.hands[rd.winner] == 0, "out with tiles in hand"
    else:
        assert rd.result == BLOCKED, "unknown round result"


def check_layout(lay):
    """Walk the play sequence: each tile matches the end it was put on; the ends shown, the arm
    lengths and the table's tile mask all follow from the tiles."""
    if lay.lead == tiles.NONE:
        assert lay.size == 0 and lay.played == 0, "tiles on the table without a lead"
        return
    lead = lay.seq[0]
    assert lead == lay.lead and lay.seq_arm[0] & 7 == LEAD_ARM, "the lead is not first"
    ends = [tiles.LO[lead], tiles.HI[lead], -1, -1]
    n = [0, 0, 0, 0]
    mask = 1 << lead
    for i in range(1, lay.size):
        t = lay.seq[i]
        a = lay.seq_arm[i] & 7
        assert a < 4, "bad arm code"
        if ends[a] < 0:                       # an up/down arm starts at the spinner
            assert lay.spin != tiles.NONE, "up/down arm without a spinner"
            ends[a] = tiles.LO[lay.spin]
        e = ends[a]
        lo = tiles.LO[t]
        hi = tiles.HI[t]
        assert lo == e or hi == e, "tile does not match its end"
        ends[a] = hi if lo == e else lo
        n[a] += 1
        assert not mask & (1 << t), "tile on the table twice"
        mask |= 1 << t
    assert mask == lay.played, "table mask differs from the tiles played"
    for a in range(4):
        assert n[a] == lay.n[a], "arm length"
        if ends[a] >= 0 and (a < 2 or n[a]):
            assert lay.end[a] == ends[a], "end shown differs from the tile at the end"
        elif lay.is_open(a):
            assert lay.end[a] == tiles.LO[lay.spin], "empty spinner arm"


def check_round(rd):
    """The state between any two moves."""
    r = rd.rules
    seen = 0
    for s in range(4):
        h = rd.hands[s]
        if s >= r.players:
            assert h == 0, "tiles for a seat not at the table"
        assert not seen & h, "tile in two hands"
        seen |= h
    assert 0 <= rd.sp <= rd.sn <= 28, "stock pointers"
    stock = 0
    for i in range(rd.sp, rd.sn):
        b = 1 << rd.stock[i]
        assert not stock & b, "tile in the stock twice"
        stock |= b
    for part in (stock, rd.layout.played, rd.out_of_play):
        assert not seen & part, "tile in two places"
        seen |= part
    assert seen == ALL, "tiles lost"
    assert 0 <= rd.turn < r.players, "turn is not a seat"
    if rd.result == PLAYING:
        for s in range(r.players):
            assert rd.hands[s], "an empty hand while the round goes on"
    check_layout(rd.layout)


def check_points_round(m, rd, before):
    """Points family: the recorded score follows RULES.md from the final hands alone; `before` is
    the score row before finish_round."""
    r = m.rules
    n = r.sides
    side_pips = [0] * n
    for s in range(r.players):
        side_pips[r.side(s)] += hand_value(r, rd.hands[s])
    total = sum(side_pips)

    def tf(x):
        if r.vid == "fives":
            return round5(x)
        if r.vid in ("muggins", "threes"):
            return round5(x) // 5 if r.options["divide"] == "yes" else round5(x)
        if r.vid == "telephone":
            return -(-x // 5)
        return x

    expect = [0] * n
    if rd.result == OUT:
        w = r.side(rd.winner)
        expect[w] = tf(total if r.teams else total - side_pips[w])   # 2v2: partner's hand too (RULES.md B)
    else:
        low = min(side_pips)
        if side_pips.count(low) == 1:
            w = side_pips.index(low)
            expect[w] = tf(total if r.teams else total - 2 * low)
    assert m.recorded[:n] == expect, "recorded score"
    for i in range(n):
        assert m.scores[i] == before[i] + m.recorded[i] + m.inplay[i], "score sheet"


def stock_mask(rd):
    """The tiles still in the stock (a mask)."""
    m = 0
    for i in range(rd.sp, rd.sn):
        m |= 1 << rd.stock[i]
    return m


def tile_count(rd):
    """Tiles in hands + stock + table + out of play: always 28 (negative when some tile is missing)."""
    m = 0
    c = 0
    for s in range(rd.rules.players):
        m |= rd.hands[s]
        c += tiles.popcount(rd.hands[s])
    sm = stock_mask(rd)
    c += tiles.popcount(sm) + tiles.popcount(rd.layout.played) + tiles.popcount(rd.out_of_play)
    m |= sm | rd.layout.played | rd.out_of_play
    return c if m == ALL else -c


_ROUND_FIELDS = ("sp", "sn", "out_of_play", "turn", "leader", "lead_tile", "result", "winner", "fisher",
                 "last", "last_tiles", "nev", "moves_played", "passes", "dedupe")


def copy_round(dst, src):
    """Make Round `dst` a copy of `src` (the tests' scratch copies)."""
    dst.layout.copy_from(src.layout)
    for s in range(4):
        dst.hands[s] = src.hands[s]
        dst.inplay[s] = src.inplay[s]
        dst.void[s] = src.void[s]
    dst.stock[:] = src.stock
    dst.events[:] = src.events
    for f in _ROUND_FIELDS:
        setattr(dst, f, getattr(src, f))
