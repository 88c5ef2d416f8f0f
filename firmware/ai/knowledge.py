"""What one seat may know, as a small int array the sampler reads.

Public facts only: the seat's own hand, the tiles on the table, each other seat's hand size, the stock
size, and the round's `void` bits (numbers a seat was seen to lack when it drew or passed). The tiles
nobody has shown (other hands, stock, tiles out of play) form the pool; `rollout.sample` deals it again
for each determinization: each hidden hand gets its size from the tiles its voids allow, the rest is
the stock in random order. The actual hidden hands are never read, except for their sizes.

Besides those facts, a soft inference (`shy_doubles`): players get rid of their doubles early (a double
fits only one number), so a seat that played another tile while one of the unseen doubles fitted
probably lacks that double. The sampler keeps such doubles out of the seat's hand in most deals, not all.

kn layout: [0] pool size, [1..28] pool tiles, [29] hidden seats, [30..33] those seats (most constrained
first), [34..37] their hand sizes, [38..41] tiles each may hold, [42] stock size, [43] sampler PRNG
state, [44] drawable stock tiles (stock minus the reserve), [45..48] doubles each probably lacks.
"""
from domino.tiles import SUIT, DOUBLE, HEAVY, popcount
from domino.layout import Layout
from .rollout import zeros
try:
    from micropython import const
except ImportError:  # CPython
    def const(x):
        return x

_ALL = const(0xFFFFFFF)       # = domino.tiles.ALL
_DOUBLES = const(0xA442081)   # = domino.tiles.DOUBLES
_NONE = const(255)            # = domino.tiles.NONE
_EV_DRAW = const(2)           # = domino.round.EV_DRAW
_EV_PASS = const(3)           # = domino.round.EV_PASS
_OUT = const(1)               # = domino.round.OUT
_LEAD_HIGH_DOUBLE = const(0)  # = domino.rules._LEAD_HIGH_DOUBLE
_LEAD_GOAT = const(1)        # = domino.rules._LEAD_GOAT
_NEXT_FIRST = const(2)       # = domino.rules._NEXT_FIRST
_NEXT_ALTERNATE = const(0)   # = domino.rules._NEXT_ALTERNATE
_NEXT_WINNER = const(1)      # = domino.rules._NEXT_WINNER
_NEXT_OUT = const(4)         # = domino.rules._NEXT_OUT

_KN_SIZE = const(49)
_LEAD = const(4)              # = domino.layout.LEAD (a closed tile's arm code is above it: arm | 8)


def void_tiles(bits):
    """Mask of the tiles showing a number in the 7-bit set `bits`."""
    m = 0
    for e in range(7):
        if (bits >> e) & 1:
            m |= SUIT[e]
    return m


def drew(rd, s):
    """Seat s drew at least once this round (the draw events are public; their tiles are not read)."""
    ev = rd.events
    for i in range(rd.nev):
        if ev[2 * i] == (_EV_DRAW << 4) | s:
            return True
    return False


def led_by_rule(match):
    """The round's lead was the compulsory tile of the first-round rule (mirrors Match._next_leader)."""
    r = match.rules
    if match.round_no <= 1 or r.lead_next == _NEXT_FIRST:
        return True
    how = r.lead_next
    if how == _NEXT_ALTERNATE:
        return False
    if how == _NEXT_WINNER:
        return match.prev_winner == _NONE
    if how == _NEXT_OUT:
        return match.prev_result != _OUT
    s = match.prev_winner if match.prev_result == _OUT else match.prev_fisher
    return s == _NONE


_GOAT_ORDER = const((1, 2, 3, 4, 5, 6, 0))   # LEAD_GOAT: 1-1, 2-2, .. 6-6, then 0-0


def undealt_by_lead(match, rd):
    """Tiles the compulsory lead proves were in no hand at the deal: the doubles that come before the
    led double in the rule's order, or, when the lead was not a double, every double and every tile
    heavier than it."""
    r = match.rules
    lead = rd.layout.lead
    if lead == _NONE or r.lead_first not in (_LEAD_HIGH_DOUBLE, _LEAD_GOAT) or not led_by_rule(match):
        return 0
    m = 0
    if (_DOUBLES >> lead) & 1:
        order = _GOAT_ORDER if r.lead_first == _LEAD_GOAT else (6, 5, 4, 3, 2, 1, 0)
        for n in order:
            t = DOUBLE[n]
            if t == lead:
                return m
            m |= 1 << t
        return m
    m = _DOUBLES
    for i in range(28):
        t = HEAVY[i]
        if t == lead:
            break
        m |= 1 << t
    return m & ~(1 << lead)


def public_size(rd, s):
    """How many tiles seat s holds: public (everyone sees the backs)."""
    return popcount(rd.hands[s])


def shy_doubles(rd, lay, out):
    """Per seat into out[0..3]: the doubles that fitted when the seat played a tile that was not a double
    (after a draw the seat may hold new tiles: those count from its next play only). Replays the round's
    plays on the scratch layout `lay`: the tiles and arms in layout order, the seats from the events."""
    for s in range(4):
        out[s] = 0
    ev = rd.events
    src = rd.layout
    lay.reset()
    i = 0
    for k in range(rd.nev):
        e = ev[2 * k]
        kind = e >> 4
        s = e & 15
        if kind == _EV_DRAW:
            out[s] = 0                      # any double it had passed by may be in its new tiles
            continue
        if kind == _EV_PASS or i >= src.size:
            continue
        t = src.seq[i]
        a = src.seq_arm[i]
        i += 1
        if a == _LEAD:
            lay.place_lead(t)
            continue
        if not (_DOUBLES >> t) & 1:
            out[s] |= lay.fit & _DOUBLES
        lay.place(t, a & 3, a > _LEAD)


class Knowledge:
    def __init__(self):
        self.kn = zeros(_KN_SIZE)
        self.slack = [0, 0, 0, 0]
        self.shy = [0, 0, 0, 0]
        self.lay = None
        self.unseen = 0

    def observe(self, rd, seat, match=None):
        kn = self.kn
        unseen = _ALL & ~rd.hands[seat] & ~rd.layout.played
        self.unseen = unseen
        undealt = undealt_by_lead(match, rd) if match is not None else 0
        n = 0
        for t in range(28):
            if (unseen >> t) & 1:
                n += 1
                kn[n] = t
        kn[0] = n
        k = 0
        slack = self.slack
        shy = self.shy
        if self.lay is None:
            self.lay = Layout(rd.rules.layout)
        shy_doubles(rd, self.lay, shy)
        for s in range(rd.rules.players):
            if s == seat:
                continue
            allow = unseen & ~void_tiles(rd.void[s])
            if undealt and not drew(rd, s):
                allow &= ~undealt                     # not dealt to anyone, and s never drew
            size = public_size(rd, s)
            sh = shy[s] & allow
            sl = popcount(allow & ~sh) - size         # (the sampler mostly deals without sh)
            if sl < 0:
                sh = 0                                # no room without them: no inference
                sl = popcount(allow) - size
            j = k                                     # insertion by slack: most constrained first
            while j > 0 and slack[j - 1] > sl:
                kn[30 + j] = kn[29 + j]
                kn[34 + j] = kn[33 + j]
                kn[38 + j] = kn[37 + j]
                kn[45 + j] = kn[44 + j]
                slack[j] = slack[j - 1]
                j -= 1
            kn[30 + j] = s
            kn[34 + j] = size
            kn[38 + j] = allow
            kn[45 + j] = sh
            slack[j] = sl
            k += 1
        kn[29] = k
        kn[42] = rd.stock_left()
        kn[44] = rd.drawable()

    def size_of(self, rd, s):
        return public_size(rd, s)

    def unique_deal(self):
        """Only one deal fits: a single hidden hand holds every unseen tile."""
        kn = self.kn
        return kn[29] == 1 and kn[34] == kn[0]
