"""Move policies that look one move ahead: easy and medium (the arena's baselines random and greedy
are in baselines.py); and what a move does to the table (its tiles, the layout after it, the in-play
points it scores), which the policies and the hint's reasons (reason.py) look at.

Each policy takes (ctx, match, seat, rng, buf, n) with the legal moves in buf[0:n] and returns one of
them. They read only what `seat` may know: its own hand, the table, public voids and hand sizes.
A move is tried on a scratch `Layout` (copied from the real one), so the round is never touched.
"""
try:
    from micropython import const
except ImportError:  # CPython
    def const(x):
        return x

from domino.tiles import SUIT, DOUBLE, PIPS, HI, popcount, pips
from domino.round import first_arm, first_tile, move_tiles
from .knowledge import void_tiles

_ALL = const(0xFFFFFFF)      # = domino.tiles.ALL
_DOUBLES = const(0xA442081)  # = domino.tiles.DOUBLES
_NONE = const(255)           # = domino.tiles.NONE
_FAM_POINTS = const(0)       # = domino.rules.FAM_POINTS
_MULTI = const(0x100)        # = domino.round.MULTI
_CLOSE = const(0x80)         # = domino.round.CLOSE
_ARM_SHIFT = const(5)       # = domino.round._ARM_SHIFT
_TILE_MASK = const(0x1F)  # = domino.round._TILE_MASK
_ARM_MASK = const(3)  # = domino.round._ARM_MASK
_CLOSES_SHIFT = const(4)  # = domino.round._CLOSES_SHIFT
_CLOSES_MASK = const(0xF)  # = domino.round._CLOSES_MASK

_OUT_BONUS = const(100000)
_WIN_BONUS = const(50000)

# --- what a move does (as Round.play does it to the layout: several doubles at once, Donkey closes)


def apply(lay, m):
    """Place move m on layout lay (as Round.play does)."""
    if m & _MULTI:
        closes = (m >> _CLOSES_SHIFT) & _CLOSES_MASK
        f = first_arm(m)
        lay.place(first_tile(lay, m), f, (closes >> f) & 1)
        for a in range(4):
            if a != f and (m >> a) & 1:
                lay.place(DOUBLE[lay.end[a]], a, (closes >> a) & 1)
        return
    t = m & _TILE_MASK
    if lay.lead == _NONE:
        lay.place_lead(t)
    else:
        lay.place(t, (m >> _ARM_SHIFT) & _ARM_MASK, m & _CLOSE)


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


# --- the policies --------------------------------------------------------------------------------


def suits_of(m):
    """7-bit mask of the numbers shown on the tiles of mask m."""
    s = 0
    for n in range(7):
        if m & SUIT[n]:
            s |= 1 << n
    return s


def tiles_weight(m):
    w = 0
    t = 0
    while m:
        if m & 1:
            w += weight(t)
        m >>= 1
        t += 1
    return w


def _urgent(ctx, match, seat, buf, n, min_points):
    """A move that goes out, wins the match now, or scores at least min_points; else -1."""
    rd = match.round
    r = match.rules
    lay = rd.layout
    scratch = ctx.lay
    hand = rd.hands[seat]
    side = r.side(seat)
    best = -1
    bv = 0
    for i in range(n):
        m = buf[i]
        v = 0
        if not hand & ~move_tiles(lay, m):
            v = _OUT_BONUS
        if r.inplay_mod:
            scratch.copy_from(lay)
            apply(scratch, m)
            p = inplay_points(r, scratch)
            if p and r.family == _FAM_POINTS and match.scores[side] + p >= r.target:
                v += _WIN_BONUS
            if p >= min_points:
                v += p
        if v > bv:
            bv = v
            best = m
    return best


# percent of moves where Easy plays its heaviest tile instead of a random one (without a stock the
# heaviest-first habit is worth more, so Easy uses it less: both land near 60% against random)
_EASY_HEAVY = const(55)
_EASY_HEAVY_NO_STOCK = const(15)


def pick_easy(ctx, match, seat, rng, buf, n):
    m = _urgent(ctx, match, seat, buf, n, 10)
    if m >= 0:
        return m
    if rng.below(100) < (_EASY_HEAVY if match.rules.draw else _EASY_HEAVY_NO_STOCK):
        lay = match.round.layout
        best = buf[0]
        bv = -1
        for i in range(n):
            v = tiles_weight(move_tiles(lay, buf[i]))
            if v > bv:
                bv = v
                best = buf[i]
        return best
    return buf[rng.below(n)]


# --- medium ---------------------------------------------------------------------------------------
# weights (ints; a pip of a dumped tile is worth _W_PIP)
_W_PIP = const(10)
_W_PTS = const(40)          # one in-play point
_W_DOUBLE = const(30)
_W_SUITS = const(8)         # per distinct number left in hand
_W_FOLLOW = const(12)       # per own tile that fits the new ends (up to 3)
_W_STUCK = const(60)        # no own tile fits the new ends
_W_BLOCK_NEXT = const(70)   # next opponent cannot play
_W_BLOCK_OPP = const(30)    # a later opponent cannot play
_W_BLOCK_END = const(10)    # per open end an opponent lacks
_W_PARTNER = const(60)      # the partner cannot play
_W_CONTROL = const(4)       # per own tile on an open number, minus per unseen one / 2
_W_SETUP = const(30)        # per in-play point the next opponent may score (expected-ish)
_W_FISH = const(20000)


def medium_values(ctx, match, seat, buf, n, vals):
    """Heuristic value of each legal move into vals[0:n]."""
    rd = match.round
    r = match.rules
    lay = rd.layout
    scratch = ctx.lay
    probe = ctx.lay2
    hand = rd.hands[seat]
    unseen = _ALL & ~hand & ~lay.played
    players = r.players
    side = r.side(seat)
    nxt = (seat + 1) % players
    partner = r.partner(seat) if r.teams else -1
    void = rd.void
    goat = r.family != _FAM_POINTS
    w_pip = _W_PIP + (6 if goat else 0)
    for i in range(n):
        m = buf[i]
        tiles = move_tiles(lay, m)
        after = hand & ~tiles
        scratch.copy_from(lay)
        apply(scratch, m)
        v = pips(tiles) * w_pip + popcount(tiles & _DOUBLES) * _W_DOUBLE
        if not after:
            vals[i] = v + _OUT_BONUS
            continue
        pts = inplay_points(r, scratch) if r.inplay_mod else 0
        if pts:
            v += pts * _W_PTS
            if not goat and match.scores[side] + pts >= r.target:
                v += _WIN_BONUS
        open_s = scratch.open_suits()
        play = scratch.playable()
        fit = after & play
        k = popcount(fit)
        v += (k if k < 3 else 3) * _W_FOLLOW
        if not k:
            v -= _W_STUCK
        v += popcount(suits_of(after)) * _W_SUITS
        for e in range(7):
            if (open_s >> e) & 1:
                v += _W_CONTROL * popcount(after & SUIT[e]) - (_W_CONTROL * popcount(unseen & SUIT[e])) // 2
        for s in range(players):
            if s == seat:
                continue
            lack = void[s] & open_s
            if s == partner:
                if lack == open_s:
                    v -= _W_PARTNER
                continue
            if r.side(s) == side:
                continue
            if lack == open_s:
                v += _W_BLOCK_NEXT if s == nxt else _W_BLOCK_OPP
            else:
                v += popcount(lack) * _W_BLOCK_END
        if r.inplay_mod and (r.side(nxt) != side):
            v -= _setup_points(r, scratch, probe, unseen & ~void_tiles(void[nxt])) * _W_SETUP
        if not ((after | unseen) & play):
            # nobody can play: the lowest hand wins the block
            mine = pips(after)
            if r.teams and partner >= 0:
                mine += popcount(rd.hands[partner]) * 6     # partner's hand is hidden: average pips
            est = 6 * popcount(rd.hands[nxt])
            v += _W_FISH if mine < est else -_W_FISH
        vals[i] = v


def _setup_points(r, lay, probe, cand):
    """Most in-play points a single tile of `cand` would score on lay."""
    best = 0
    for a in range(4):
        if not lay.is_open(a):
            continue
        fit = cand & SUIT[lay.end[a]]
        t = 0
        while fit:
            if fit & 1:
                probe.copy_from(lay)
                probe.place(t, a)
                p = inplay_points(r, probe)
                if p > best:
                    best = p
            fit >>= 1
            t += 1
    return best


def pick_medium(ctx, match, seat, rng, buf, n):
    if n == 1:
        return buf[0]
    vals = ctx.vals
    medium_values(ctx, match, seat, buf, n, vals)
    best = 0
    for i in range(1, n):
        if vals[i] > vals[best]:
            best = i
    return buf[best]
