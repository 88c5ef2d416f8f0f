"""Fast round simulator for the hard AI's rollouts: the whole state in one int array, no objects.

One source serves both runtimes: under MicroPython the hot functions are `@micropython.viper` (machine
ints, raw array access); under CPython the same code runs as plain Python (the `ptr32` annotations are
dummies). Only ints and the two arrays are touched, so a rollout allocates nothing.

State `st` (array('i', _ST_SIZE)): hands, the layout's four arms (end number, double flag, tiles, open),
spinner, lead, stock order and draw limit, turn, result, in-play points. Tables `tb` (array('i',
_TB_SIZE)): suit masks, per-tile pips/halves, the rollout policy's tile keys and the variant parameters.

Covers the line, spinner and cross layouts, draw-until-playable with a reserve, passing, in-play
scoring, blocks (only once nothing can be drawn: a stuck player draws the stock out, and the last
draw may end the round), early fish (Goat) and chains (Blitz). `play_move` applies any engine move,
several doubles at once and Donkey closes included (the hard AI's root moves); the rollout policy
itself places single tiles and never closes a double (legal, if not always best).

Rollout policy ("medium-lite"): per candidate placement, the tile key (pips, doubles first), plus the
in-play points it scores, plus a bonus when the player's other tiles still fit the new ends, plus a
small random jitter.
"""
try:
    from micropython import const
    import micropython
except ImportError:  # CPython: plain Python twin (the decorators and viper casts become no-ops)
    def const(x):
        return x

    class micropython:
        @staticmethod
        def viper(f):
            return f

    def ptr8(x):
        return x

    ptr32 = ptr8

from array import array
from domino.tiles import SUIT, PIPS, LO, HI, DOUBLE

_NONE = const(255)  # = domino.tiles.NONE
_TILE_MASK = const(0x1F)  # = domino.round._TILE_MASK
_ARM_SHIFT = const(5)  # = domino.round._ARM_SHIFT
_ARM_MASK = const(3)  # = domino.round._ARM_MASK
_CLOSE = const(0x80)  # = domino.round.CLOSE
_MULTI = const(0x100)  # = domino.round.MULTI
_ARMS_MASK = const(0xF)  # = domino.round._ARMS_MASK
_CLOSES_SHIFT = const(4)  # = domino.round._CLOSES_SHIFT
_CLOSES_MASK = const(0xF)  # = domino.round._CLOSES_MASK
_FIRST_SHIFT = const(9)  # = domino.round._FIRST_SHIFT
_FIRST_MASK = const(3)  # = domino.round._FIRST_MASK


# --- state layout --------------------------------------------------------------------------------
# 0..3 hands; the fields an endgame snapshot keeps come first (0..9 ints, 10..38 bytes: snap())
S_PLAYED = const(4)   # tiles on the table
S_IP = const(5)       # 5..8 in-play points per seat
S_SMASK = const(9)    # drawable stock tiles
S_END = const(10)     # 10..13 end number per arm
S_DBL = const(14)     # 14..17 end tile is a double
S_NA = const(18)      # 18..21 tiles on the arm
S_OP = const(22)      # 22..25 arm open
S_SPIN = const(26)    # spinner tile or 255
_S_SPA = const(27)    # spinner arm (4: lead)
_S_SPN = const(28)    # spinner position on its arm
_S_LEAD = const(29)   # lead tile or 255
S_SP = const(30)      # next stock index
S_TURN = const(31)
# (fields read by a constant index from here on cost an extra instruction on the RP2040)
S_RES = const(32)     # 0 playing, 1 out, 2 blocked
S_FISH = const(33)
_S_PASS = const(34)   # passes in a row
_S_LASTP = const(35)  # seat of the last play
S_WIN = const(36)
_S_LAST = const(37)   # last tile played
_S_PLIES = const(38)
S_LIM = const(39)     # stock index limit for drawing (sn - reserve; sp when no drawing)
S_RNG = const(40)     # policy jitter state
_S_PIPS = const(41)   # 41..44 pips left per seat (filled at the end of a playout)
S_STK = const(45)     # 45..72 stock order
_S_STOP = const(73)   # 1: playout stops at the first decision (the endgame search steps with it)
_ST_SIZE = const(74)

# --- tables --------------------------------------------------------------------------------------
# (the parameters first: a viper access with a constant index below 32 is one short instruction)
_P_PLAYERS = const(0)
_P_MODE = const(1)       # 0 line, 1 spinner, 2 cross
_P_MOD = const(2)        # in-play multiple (0: none)
_P_DIV = const(3)
_P_KEEPS = const(4)
_P_EARLY = const(5)
_P_CHAIN = const(6)
_P_WPTS = const(7)       # policy: per in-play point
_P_WFOLLOW = const(8)    # policy: other tiles still fit
_T_SUIT = const(9)       # 7 masks
_T_PIPS = const(16)      # 28
_T_LO = const(44)
_T_HI = const(72)
_T_KEY = const(100)      # rollout policy key per tile
_T_DBLT = const(128)     # double tile per number
_TB_SIZE = const(135)

_W_DOUBLE_KEY = const(48)    # a double is easier to dump early than to place late


def max_moves(rules):
    """Most legal moves a position can have: single tiles fit at most 4 ends x 7 tiles (+ closes);
    several doubles at once are capped by the engine at MAX_MOVES."""
    return 160 if rules.multi > 1 or rules.close else 40


def make_tables(rules):
    tb = zeros(_TB_SIZE)
    for n in range(7):
        tb[_T_SUIT + n] = SUIT[n]
        tb[_T_DBLT + n] = DOUBLE[n]
    for t in range(28):
        tb[_T_PIPS + t] = PIPS[t]
        tb[_T_LO + t] = LO[t]
        tb[_T_HI + t] = HI[t]
        tb[_T_KEY + t] = PIPS[t] * 8 + HI[t] + (_W_DOUBLE_KEY if LO[t] == HI[t] else 0)
    tb[_P_PLAYERS] = rules.players
    tb[_P_MODE] = rules.layout
    tb[_P_MOD] = rules.inplay_mod
    tb[_P_DIV] = rules.inplay_div
    tb[_P_KEEPS] = 1 if rules.spinner_keeps else 0
    tb[_P_EARLY] = 1 if rules.early_fish else 0
    tb[_P_CHAIN] = 1 if rules.chain else 0
    tb[_P_WPTS] = 32 * rules.inplay_div
    tb[_P_WFOLLOW] = 40
    return tb


def zeros(n, typ="i"):
    """array of n zeros, built without a temporary list."""
    a = array(typ, range(n))
    for i in range(n):
        a[i] = 0
    return a


def new_state():
    return zeros(_ST_SIZE)


def play_move(st, tb, m):
    """Apply an engine move (single, closing, or several doubles at once) to st."""
    if not m & _MULTI:
        return apply_move(st, tb, m & _TILE_MASK, ((m >> _ARM_SHIFT) & _ARM_MASK) | (4 if m & _CLOSE else 0))
    arms = m & _ARMS_MASK
    closes = (m >> _CLOSES_SHIFT) & _CLOSES_MASK
    f = (m >> _FIRST_SHIFT) & _FIRST_MASK
    last = f
    for a in range(4):
        if a != f and (arms >> a) & 1:
            last = a
    order = f
    while True:
        a = order
        flags = a | (4 if (closes >> a) & 1 else 0) | (0 if a == last else 8)
        r = apply_move(st, tb, DOUBLE[st[S_END + a]], flags)
        if a == last:
            return r
        order = _next_arm(arms, f, a)


def _next_arm(arms, f, a):
    """Placement order of a multi move: the first arm f, then the others in increasing order."""
    b = 0 if a == f else a + 1
    while b < 4:
        if b != f and (arms >> b) & 1:
            return b
        b += 1
    return f


def load(st, rd, rules):
    """Public part of a real round into st: layout, lead, spinner, turn, in-play points, played tiles.
    Hands and stock are left for the caller (own hand + a sampled deal)."""
    lay = rd.layout
    for a in range(4):
        st[S_END + a] = lay.end[a]
        st[S_DBL + a] = lay.dbl[a]
        st[S_NA + a] = lay.n[a]
        st[S_OP + a] = 1 if lay.st[a] == 1 else 0
    st[S_SPIN] = lay.spin
    st[_S_SPA] = lay.spin_arm
    st[_S_SPN] = lay.spin_n
    st[_S_LEAD] = lay.lead
    st[S_TURN] = rd.turn
    st[S_RES] = rd.result
    st[S_WIN] = rd.winner
    st[S_FISH] = rd.fisher
    for s in range(4):
        st[S_IP + s] = rd.inplay[s]
    st[S_PLAYED] = lay.played
    st[_S_PASS] = rd.passes
    st[_S_LAST] = _NONE
    st[_S_LASTP] = rd.last


@micropython.viper
def copy_state(dst: ptr32, src: ptr32):
    i = 0
    while i < _ST_SIZE:
        dst[i] = src[i]
        i += 1


@micropython.viper
def apply_move(st: ptr32, tb: ptr32, t: int, code: int) -> int:
    """The player to move places tile t on arm `code & 3` (the lead when the table is empty), closed
    when `code & 4` (Donkey); then scores in-play points, detects out / block and passes the turn,
    unless `code & 8` (more doubles of the same move follow). Returns the result code."""
    s = st[S_TURN]
    a = code & 3
    lo = tb[_T_LO + t]
    hi = tb[_T_HI + t]
    mode = tb[_P_MODE]
    d = 0
    if lo == hi:
        d = 1
    cross = -1                                        # >= 0: arms 2 and 3 open with this number
    if st[_S_LEAD] == 255:
        st[S_END] = lo
        st[S_END + 1] = hi
        st[S_DBL] = d
        st[S_DBL + 1] = d
        st[S_OP] = 1
        st[S_OP + 1] = 1
        st[_S_LEAD] = t
        if d and mode:
            st[S_SPIN] = t
            st[_S_SPA] = 4
            st[_S_SPN] = 0
            if mode == 2:
                cross = lo
    else:
        e = st[S_END + a]
        if lo == e:
            st[S_END + a] = hi
        else:
            st[S_END + a] = lo
        st[S_DBL + a] = d
        na = st[S_NA + a] + 1
        st[S_NA + a] = na
        if code & 4:
            st[S_OP + a] = 0
        elif d and mode and st[S_SPIN] == 255:
            st[S_SPIN] = t
            st[_S_SPA] = a
            st[_S_SPN] = na
            if mode == 2:
                cross = lo
    spin = st[S_SPIN]
    is_end = 0                                        # the spinner is an end of its line (spinner_is_end)
    if spin != 255:
        spa = st[_S_SPA]                              # (the lead, or arm 0 or 1)
        if spa == 4:
            if st[S_NA] == 0 or st[S_NA + 1] == 0:
                is_end = 1
        elif st[S_NA + spa] == st[_S_SPN]:
            is_end = 1
        if mode == 1 and not is_end and st[S_OP + 2] == 0:
            cross = tb[_T_LO + spin]
    if cross >= 0:                                    # the spinner's sides open (cross: at once)
        st[S_END + 2] = cross
        st[S_END + 3] = cross
        st[S_DBL + 2] = 0
        st[S_DBL + 3] = 0
        st[S_NA + 2] = 0
        st[S_NA + 3] = 0
        st[S_OP + 2] = 1
        st[S_OP + 3] = 1
    bit = 1 << t
    hand = st[s] & ~bit
    st[s] = hand
    st[S_PLAYED] = st[S_PLAYED] | bit
    st[_S_LAST] = t
    if code & 8:
        return 0
    st[_S_PASS] = 0
    st[_S_PLIES] = st[_S_PLIES] + 1
    mod = tb[_P_MOD]
    if mod:                                           # the open-end count (Layout.count)
        if st[S_NA] == 0 and st[S_NA + 1] == 0:
            c = st[S_END] + st[S_END + 1]
        else:
            c = st[S_END] * (1 + st[S_DBL]) + st[S_END + 1] * (1 + st[S_DBL + 1])
        if st[S_NA + 2]:
            c += st[S_END + 2] * (1 + st[S_DBL + 2])
        if st[S_NA + 3]:
            c += st[S_END + 3] * (1 + st[S_DBL + 3])
        if tb[_P_KEEPS] and spin != 255 and not is_end and (st[S_NA + 2] == 0 or st[S_NA + 3] == 0):
            c += 2 * tb[_T_LO + spin]
        if c > 0 and c % mod == 0:
            st[S_IP + s] = st[S_IP + s] + c // tb[_P_DIV]
    if hand == 0:
        st[S_RES] = 1
        st[S_WIN] = s
        return 1
    play = 0
    osu = 0
    en = 0
    i = 0
    while i < 4:
        if st[S_OP + i]:
            en = st[S_END + i]
            play |= tb[_T_SUIT + en]
            osu |= 1 << en
        i += 1
    st[_S_LASTP] = s
    if st[S_SP] >= st[S_LIM] and ((st[0] | st[1] | st[2] | st[3]) & play) == 0:
        st[S_RES] = 2                                 # nothing to draw and nobody can play
        st[S_FISH] = s
        return 2
    if tb[_P_EARLY] and osu == (1 << en):             # every open end shows the number en
        plain = tb[_T_SUIT + en] & ~(1 << tb[_T_DBLT + en])
        if (st[S_PLAYED] & plain) == plain:
            st[S_RES] = 2
            st[S_FISH] = s
            return 2
    if tb[_P_CHAIN] and (hand & play):
        return 0
    s += 1
    if s == tb[_P_PLAYERS]:
        s = 0
    st[S_TURN] = s
    return 0


@micropython.viper
def playout(st: ptr32, tb: ptr32) -> int:
    """Play the round in st to its end with the rollout policy; fills the pips left per seat.
    Returns the result code (1 out, 2 blocked). With st[_S_STOP] set it only performs the forced
    draws and passes: when the player to move then has tiles to play, it returns minus their mask."""
    players = tb[_P_PLAYERS]
    mod = tb[_P_MOD]
    div = tb[_P_DIV]
    wpts = tb[_P_WPTS]
    wfol = tb[_P_WFOLLOW]
    rng = st[S_RNG]
    res = st[S_RES]
    guard = 0
    while res == 0 and guard < 400:
        guard += 1
        s = st[S_TURN]
        hand = st[s]
        play = 0
        i = 0
        while i < 4:
            if st[S_OP + i]:
                play |= tb[_T_SUIT + st[S_END + i]]
            i += 1
        if st[_S_LEAD] == 255:
            play = 0xFFFFFFF
        fit = hand & play
        if fit == 0:
            sp = st[S_SP]
            lim = st[S_LIM]
            if sp < lim:
                bit = 1 << st[S_STK + sp]
                st[s] = hand | bit
                st[S_SMASK] = st[S_SMASK] & ~bit
                sp += 1
                st[S_SP] = sp
                if sp == lim and ((st[0] | st[1] | st[2] | st[3]) & play) == 0:
                    st[S_RES] = 2                     # the last drawable tile fitted nothing
                    st[S_FISH] = st[_S_LASTP]
                    break
                continue
            p = st[_S_PASS] + 1
            st[_S_PASS] = p
            if p >= players:
                st[S_RES] = 2
                st[S_FISH] = 255
                break
            s += 1
            if s == players:
                s = 0
            st[S_TURN] = s
            continue
        if st[_S_STOP]:
            return 0 - fit                            # a decision, and the round goes on
        # --- policy: best single placement -------------------------------------------------
        tot = 0
        if mod:
            tot = st[S_END] * (1 + st[S_DBL]) + st[S_END + 1] * (1 + st[S_DBL + 1])
            if st[S_NA + 2]:
                tot += st[S_END + 2] * (1 + st[S_DBL + 2])
            if st[S_NA + 3]:
                tot += st[S_END + 3] * (1 + st[S_DBL + 3])
        best = -1
        bt = 0
        ba = 0
        lead = 0
        if st[_S_LEAD] == 255:
            lead = 1                                  # the lead: the tile key only (any arm)
        t = 0
        f = fit
        while f:
            if f & 1:
                lo = tb[_T_LO + t]
                hi = tb[_T_HI + t]
                rest = hand & ~(1 << t)
                a = lead * 3
                while a < 4:
                    e = st[S_END + a]
                    if lead or (st[S_OP + a] and (e == lo or e == hi)):
                        sc = tb[_T_KEY + t]
                        if not lead:
                            ne = lo
                            if lo == e:
                                ne = hi
                            if mod:
                                d = 1
                                if lo == hi:
                                    d = 2
                                c = tot + ne * d
                                if a < 2 or st[S_NA + a]:
                                    c -= e * (1 + st[S_DBL + a])
                                if c > 0 and c % mod == 0:
                                    sc += (c // div) * wpts
                            po = tb[_T_SUIT + ne]
                            b = 0
                            while b < 4:
                                if b != a and st[S_OP + b]:
                                    po |= tb[_T_SUIT + st[S_END + b]]
                                b += 1
                            if rest & po:
                                sc += wfol
                        rng = (rng * 1664525 + 1013904223) & 0x3FFFFFFF
                        sc = sc * 16 + ((rng >> 20) & 15)
                        if sc > best:
                            best = sc
                            bt = t
                            ba = a
                    a += 1
            f >>= 1
            t += 1
        res = int(apply_move(st, tb, bt, ba))
    st[S_RNG] = rng
    s = 0
    while s < 4:
        h = st[s]
        p = 0
        t = 0
        while h:
            if h & 1:
                p += tb[_T_PIPS + t]
            h >>= 1
            t += 1
        st[_S_PIPS + s] = p
        s += 1
    return st[S_RES]


_SHY_IN_16 = const(12)     # a seat's probably-lacking doubles are kept out of its hand in 12 deals of 16
_SHY_TRIES = const(12)     # (while the first tries of a deal find room for that)


@micropython.viper
def sample(st: ptr32, kn: ptr32) -> int:
    """Deal the hidden tiles of kn (see knowledge.py) into st: hands of the other seats respecting their
    void masks (and, in most deals, their probably-lacking doubles), then the stock in shuffled order.
    Returns 1 when every void held, 0 if relaxed."""
    n = kn[0]
    nseat = kn[29]
    rng = kn[43]
    tries = 0
    ok = 0
    used = 0
    while tries < 24 and not ok:
        tries += 1
        i = n - 1
        while i > 0:                                  # Fisher-Yates on the pool
            rng = (rng * 1664525 + 1013904223) & 0x3FFFFFFF
            j = (rng >> 8) % (i + 1)
            x = kn[1 + i]
            kn[1 + i] = kn[1 + j]
            kn[1 + j] = x
            i -= 1
        used = 0
        ok = 1
        k = 0
        while k < nseat:
            seat = kn[30 + k]
            need = kn[34 + k]
            allow = kn[38 + k]
            if kn[45 + k] and tries <= _SHY_TRIES:
                rng = (rng * 1664525 + 1013904223) & 0x3FFFFFFF
                if ((rng >> 16) & 15) < _SHY_IN_16:
                    allow = allow & ~kn[45 + k]
            m = 0
            while True:
                i = 0
                while i < n and need > 0:
                    bit = 1 << kn[1 + i]
                    if (used & bit) == 0 and (allow & bit):
                        m |= bit
                        used |= bit
                        need -= 1
                    i += 1
                if need == 0 or tries < 24 or allow == -1:
                    break
                allow = -1                            # last try: give up on the voids for this seat
            if need > 0 or allow == -1:
                ok = 0
                if tries < 24:
                    break
            st[seat] = m
            k += 1
    kn[43] = rng
    # the rest, in shuffled order, is the stock (then the tiles out of play)
    stockn = kn[42]
    lim = kn[44]                                      # the drawable part of it
    k = 0
    i = 0
    sm = 0
    while i < n and k < stockn:
        x = kn[1 + i]
        if (used & (1 << x)) == 0:
            st[S_STK + k] = x
            if k < lim:
                sm |= 1 << x
            k += 1
        i += 1
    st[S_SP] = 0
    st[S_LIM] = lim
    st[S_SMASK] = sm
    return ok


# --- endgame helper: undo by compact snapshots ----------------------------------------------------
# Snapshot of one search depth: the int fields st[0:10] (hands, played, in-play, drawable stock) and
# the byte fields st[10:39] (layout arms, spinner, lead, stock index, turn, result, passes, ...).
_SNAP_NI = const(10)
_SNAP_NB = const(29)


@micropython.viper
def snap(st: ptr32, si: ptr32, snap_b, d: int, back: int):
    """Save st's snapshot of depth d into si / snap_b, or with `back` restore st from it."""
    sb = ptr8(snap_b)
    o = d * _SNAP_NI
    k = 0
    while k < _SNAP_NI:
        if back:
            st[k] = si[o + k]
        else:
            si[o + k] = st[k]
        k += 1
    o = d * _SNAP_NB - _SNAP_NI
    while k < _SNAP_NI + _SNAP_NB:
        if back:
            st[k] = sb[o + k]
        else:
            sb[o + k] = st[k]
        k += 1
