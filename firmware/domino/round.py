"""One round: deal, lead, legal moves, forced draws and passes, in-play points, out/block detection.

A move is a small int:
- single placement: tile | arm << 5 | CLOSE (Donkey close) ; the lead uses arm 0;
- several doubles at once: MULTI | arm mask | close mask << 4 | first arm << 9 (the first unclosed
  double of the move becomes the spinner/cross when there is none yet). The double on an arm is the
  one matching that arm's end, so the arms say it all.
Draws and passes are not moves: the rules force them, and `forced()` performs them one at a time so a
UI can show each. Nothing here allocates once the object is built.
"""
try:
    from micropython import const
except ImportError:  # CPython
    def const(x):
        return x

from array import array

from .tiles import SUIT, DOUBLE, HEAVY, BIT37, popcount
from .layout import Layout
_DOUBLES = const(0xA442081)  # = domino.tiles.DOUBLES
_NONE = const(255)       # = domino.tiles.NONE
_ALL = const(0xFFFFFFF)  # = domino.tiles.ALL

# The move format, field by field (the one definition: other modules keep private copies of what
# they decode, `_NAME = const(..)  # = domino.round._NAME`, which mpy-cross folds into their code).
# A single placement:
_TILE_MASK = const(0x1F)      # the tile, bits 0-4
_ARM_SHIFT = const(5)         # the arm it goes on, bits 5-6
_ARM_MASK = const(3)
CLOSE = const(0x80)           # Donkey: the tile closes its arm
MULTI = const(0x100)          # set: several doubles at once, laid out as
_ARMS_MASK = const(0xF)       # the arms that take a double, bits 0-3
_CLOSES_SHIFT = const(4)      # the arms the move closes, bits 4-7
_CLOSES_MASK = const(0xF)
_ARMS_AND_CLOSES = const(0xFF)
_FIRST_SHIFT = const(9)       # the arm placed first (its double becomes the spinner), bits 9-10
_FIRST_MASK = const(3)
_MAX_MOVES = const(160)
_EV_MAX = const(200)

# events (kind << 4 | seat, data)
_EV_PLAY = const(1)     # data: tile | arm << 5 (one per tile, multi moves give several)
EV_DRAW = const(2)     # data: the tile drawn (secret to the other players: never read by the AI)
EV_PASS = const(3)     # data: 0

# round end
PLAYING = const(0)
OUT = const(1)
BLOCKED = const(2)


# --- reading a move: the one answer to "which tile, which arm" (lay: the layout before the move).
# Of several doubles at once, the first arm's double comes first: Round.play lays it first, it may
# become the spinner, the record writes it first, the table and a hint point at it. (The AI's
# rollouts decode inline, in the same order: their inner loop cannot afford a call.)


def first_arm(m):
    """The arm move m is laid on first."""
    if m & MULTI:
        return (m >> _FIRST_SHIFT) & _FIRST_MASK
    return (m >> _ARM_SHIFT) & _ARM_MASK


def first_tile(lay, m):
    """The tile move m lays first: a single move's tile, of several doubles the first arm's."""
    if m & MULTI:
        return DOUBLE[lay.end[(m >> _FIRST_SHIFT) & _FIRST_MASK]]
    return m & _TILE_MASK


def move_tiles(lay, m):
    """Mask of the tiles move m lays. Laying the first double leaves the other arms' ends as they
    were (a spinner's long sides may open, but they carry the spinner's number: the same double)."""
    if m & MULTI:
        out = 0
        for a in range(4):
            if (m >> a) & 1:
                out |= 1 << DOUBLE[lay.end[a]]
        return out
    return 1 << (m & _TILE_MASK)


class Round:
    def __init__(self, rules):
        self.rules = rules
        self.layout = Layout(rules.layout)
        self.hands = [0, 0, 0, 0]
        self.inplay = [0, 0, 0, 0]
        self.void = bytearray(4)          # per seat: numbers it was seen to lack (public)
        self.stock = bytearray(28)        # stock order, top first
        self.buf = array("H", bytes(2 * _MAX_MOVES))   # legal-move buffer (moves fit 16 bits)
        self.events = bytearray(2 * _EV_MAX)
        self.dedupe = True                # fold moves on interchangeable ends into one
        self.reset()

    def reset(self):
        self.layout.reset()
        b = self.hands
        b[0] = b[1] = b[2] = b[3] = 0
        b = self.inplay
        b[0] = b[1] = b[2] = b[3] = 0
        b = self.void
        b[0] = b[1] = b[2] = b[3] = 0
        self.sp = 0                       # next stock tile to draw
        self.sn = 0                       # stock size
        self.out_of_play = 0              # undealt tiles outside the stock (2-player Block)
        self.turn = 0
        self.leader = 0
        self.lead_tile = _NONE             # tile the lead rule makes compulsory
        self.result = PLAYING
        self.winner = _NONE                # seat that went out
        self.fisher = _NONE                # seat whose tile blocked the game
        self.last = _NONE                  # seat of the last move
        self.last_tiles = 0               # mask of the tiles of the last move
        self.nev = 0
        self.moves_played = 0
        self.passes = 0                   # passes in a row

    # --- setting up ----------------------------------------------------------------------------
    def setup(self, hands, stock, stock_n, leader=_NONE):
        """Start from explicit hands (masks) and a stock (tiles top first). leader NONE: the lead rule
        decides (seat and compulsory tile); a given leader may lead any tile."""
        self.reset()
        seen = 0
        for s in range(self.rules.players):
            self.hands[s] = hands[s]
            seen |= hands[s]
        for i in range(stock_n):
            self.stock[i] = stock[i]
            seen |= 1 << stock[i]
        self.sn = stock_n
        self.out_of_play = _ALL & ~seen
        if leader == _NONE:
            self.lead_by_rule()
        else:
            self.leader = leader
            self.turn = leader

    def deal(self, rng, deck):
        """Shuffle `deck` (bytearray(28)) with rng and deal; redeal while the variant says so."""
        r = self.rules
        h = r.hand
        while True:
            deck[:] = (b'\x00\x01\x02\x03\x04\x05\x06\x07\x08\t\n\x0b\x0c\r\x0e\x0f'   # tile t at place t
                       b'\x10\x11\x12\x13\x14\x15\x16\x17\x18\x19\x1a\x1b')
            rng.shuffle(deck, 28)
            self.reset()
            hands = self.hands
            s = m = 0
            c = h
            for t in deck:                # h tiles to each seat in turn
                m |= 1 << t
                c -= 1
                if not c:
                    hands[s] = m
                    s += 1
                    if s == r.players:
                        break
                    m = 0
                    c = h
            if not (r.redeal and self._needs_redeal()):
                break
        n = r.players * h
        if r.draw:
            for i in range(n, 28):
                self.stock[i - n] = deck[i]
            self.sn = 28 - n
        else:
            m = 0
            for i in range(n, 28):
                m |= 1 << deck[i]
            self.out_of_play = m

    def _needs_redeal(self):
        """Goat family: a hand with 5+ doubles or 6+ tiles of one suit is redealt."""
        dmask = 0
        for n in range(7):
            dmask |= 1 << DOUBLE[n]
        for s in range(self.rules.players):
            h = self.hands[s]
            if popcount(h & dmask) >= 5:
                return True
            for n in range(7):
                if popcount(h & SUIT[n]) >= 6:
                    return True
        return False

    def holder(self, t):
        for s in range(self.rules.players):
            if (self.hands[s] >> t) & 1:
                return s
        return _NONE

    def lead_by_rule(self):
        """First-round lead: who leads, and with which tile when the rule names one."""
        r = self.rules
        if r.lead_first == 2:                       # LEAD_LOT: lightest tile's holder, any tile
            for i in range(27, -1, -1):
                s = self.holder(HEAVY[i])
                if s != _NONE:
                    self.leader = s
                    self.turn = s
                    self.lead_tile = _NONE
                    return
        if r.lead_first == 1:                       # LEAD_GOAT: 1-1 .. 6-6, then 0-0
            for n in (1, 2, 3, 4, 5, 6, 0):
                if self._lead_with(DOUBLE[n]):
                    return
        else:                                       # highest double
            for n in range(6, -1, -1):
                if self._lead_with(DOUBLE[n]):
                    return
        for i in range(28):
            if self._lead_with(HEAVY[i]):
                return

    def _lead_with(self, t):
        s = self.holder(t)
        if s == _NONE:
            return False
        self.leader = s
        self.turn = s
        self.lead_tile = t
        return True

    def set_leader(self, seat):
        self.leader = seat
        self.turn = seat
        self.lead_tile = _NONE

    # --- queries -------------------------------------------------------------------------------
    def drawable(self):
        """How many stock tiles can still be drawn (the reserve never is)."""
        if not self.rules.draw:
            return 0
        k = self.sn - self.sp - self.rules.reserve
        return k if k > 0 else 0

    def stock_left(self):
        return self.sn - self.sp

    def hand_size(self, s):
        return popcount(self.hands[s])

    def legal(self, buf=None):
        """Fill buf (default: self.buf, _MAX_MOVES long: enough for any position) with the current
        player's moves, tile by tile then arm by arm; returns how many. A shorter buf is filled as far
        as it goes."""
        if self.result:
            return 0
        if buf is None:
            buf = self.buf
            cap = _MAX_MOVES - 1
        else:
            cap = len(buf) - 1            # singles may write two entries (a Donkey close)
        lay = self.layout
        hand = self.hands[self.turn]
        k = 0
        if not lay.size:                  # the lead
            if self.lead_tile != _NONE:
                buf[0] = self.lead_tile
                return 1
            while hand and k <= cap:
                low = hand & -hand
                hand ^= low
                buf[k] = BIT37[low % 37]
                k += 1
            return k
        fit = hand & lay.fit
        if not fit:
            return 0
        am = lay.am                       # per arm: the tiles that go on it
        m0 = am[0]
        m1 = am[1]
        m2 = am[2]
        m3 = am[3]
        if not self.dedupe:               # mirror-image arms too (record.py checks moves so)
            end = lay.end
            m1 = SUIT[end[1]] if lay.is_open(1) else 0
            m2 = SUIT[end[2]] if lay.is_open(2) else 0
            m3 = SUIT[end[3]] if lay.is_open(3) else 0
        dbl = _DOUBLES if self.rules.close else 0   # Donkey: a double may also be closed
        while fit:                        # each fitting tile, lowest first, then arm by arm
            low = fit & -fit
            fit ^= low
            t = BIT37[low % 37]
            if low & m0:
                if k >= cap:
                    return k
                buf[k] = t
                k += 1
                if low & dbl:
                    buf[k] = t | CLOSE
                    k += 1
            if low & m1:
                if k >= cap:
                    return k
                buf[k] = t | 1 << _ARM_SHIFT
                k += 1
                if low & dbl:
                    buf[k] = t | 1 << _ARM_SHIFT | CLOSE
                    k += 1
            if low & m2:
                if k >= cap:
                    return k
                buf[k] = t | 2 << _ARM_SHIFT
                k += 1
                if low & dbl:
                    buf[k] = t | 2 << _ARM_SHIFT | CLOSE
                    k += 1
            if low & m3:
                if k >= cap:
                    return k
                buf[k] = t | 3 << _ARM_SHIFT
                k += 1
                if low & dbl:
                    buf[k] = t | 3 << _ARM_SHIFT | CLOSE
                    k += 1
        if self.rules.multi > 1:
            k = self._multi_moves(buf, k, hand, cap + 1)
        return k

    def _multi_moves(self, buf, k, hand, cap):
        """Several doubles in one move: every set of 2+ open arms whose doubles the player holds."""
        lay = self.layout
        if popcount(hand & _DOUBLES & lay.fit) < 2:
            return k                              # two doubles that fit, or no such move
        r = self.rules
        cand = 0
        for a in range(4):
            if lay.is_open(a) and (hand >> DOUBLE[lay.end[a]]) & 1:
                cand |= 1 << a
        if popcount(cand) < 2:
            return k
        for arms in range(3, 16):
            if arms & cand != arms:
                continue
            size = popcount(arms)
            if size < 2 or size > r.multi or (r.multi_exact and size != r.multi):
                continue
            seen = 0                              # one double per number
            ok = True
            for a in range(4):
                if (arms >> a) & 1:
                    bit = 1 << lay.end[a]
                    if seen & bit:
                        ok = False
                    seen |= bit
            if not ok:
                continue
            closes = arms if r.close else 0
            c = closes
            while True:                           # every subset of closes (Donkey), else just 0
                opened = arms & ~c
                if r.layout and lay.spin == _NONE and popcount(opened) > 1:
                    for f in range(4):            # which double becomes the spinner / cross
                        if (opened >> f) & 1 and k < cap:
                            buf[k] = MULTI | arms | (c << _CLOSES_SHIFT) | (f << _FIRST_SHIFT)
                            k += 1
                elif k < cap:
                    pick = opened if opened else arms   # all closed: any arm of the move goes first
                    f = 0
                    while not (pick >> f) & 1:
                        f += 1
                    buf[k] = MULTI | arms | (c << _CLOSES_SHIFT) | ((f & _FIRST_MASK) << _FIRST_SHIFT)
                    k += 1
                if c == 0:
                    break
                c = (c - 1) & closes
        return k

    def is_legal(self, m):
        n = self.legal()
        buf = self.buf
        for i in range(n):
            if buf[i] == m:
                return True
        return False

    # --- changes -------------------------------------------------------------------------------
    def _event(self, kind, seat, data):
        i = self.nev
        if i < _EV_MAX:
            self.events[2 * i] = (kind << 4) | seat
            self.events[2 * i + 1] = data
            self.nev = i + 1

    def forced(self):
        """Draw one tile for, or pass, the current player (who has no move). Returns EV_DRAW/EV_PASS."""
        s = self.turn
        r = self.rules
        i = self.sp
        if r.draw and self.sn - i > r.reserve:      # drawable()
            t = self.stock[i]
            self.sp = i + 1
            self.hands[s] |= 1 << t
            self.void[s] = self.layout.open_suits()   # new tiles may hold any other number
            kind = EV_DRAW
        else:
            t = 0
            self.void[s] |= self.layout.open_suits()
            self.passes += 1
            self.turn = (s + 1) % r.players
            kind = EV_PASS
        j = self.nev                      # _event(kind, s, t), inline
        if j < _EV_MAX:
            ev = self.events
            ev[2 * j] = kind << 4 | s
            ev[2 * j + 1] = t
            self.nev = j + 1
        if kind == EV_DRAW and self.sn - i <= r.reserve + 1 and self._blocked():
            self.result = BLOCKED         # the last drawable tile fitted nothing
            self.fisher = self.last
        return kind

    def play(self, m):
        """Apply a legal move of the current player; scores in-play points and detects the round's end."""
        s = self.turn
        lay = self.layout
        if m & MULTI:
            arms = m & _ARMS_MASK
            closes = (m >> _CLOSES_SHIFT) & _CLOSES_MASK
            f = (m >> _FIRST_SHIFT) & _FIRST_MASK
            t = DOUBLE[lay.end[f]]
            lay.place(t, f, (closes >> f) & 1)
            self._event(_EV_PLAY, s, t | (f << _ARM_SHIFT))
            tiles = 1 << t
            for a in range(4):
                if a != f and (arms >> a) & 1:
                    t = DOUBLE[lay.end[a]]
                    lay.place(t, a, (closes >> a) & 1)
                    self._event(_EV_PLAY, s, t | (a << _ARM_SHIFT))
                    tiles |= 1 << t
        else:
            t = m & _TILE_MASK
            if lay.size:
                lay.place(t, (m >> _ARM_SHIFT) & _ARM_MASK, m & CLOSE)
            else:
                lay.place_lead(t)
            i = self.nev                  # _event(_EV_PLAY, s, tile | arm), inline: once per move
            if i < _EV_MAX:
                ev = self.events
                ev[2 * i] = 16 | s        # _EV_PLAY << 4 | s
                ev[2 * i + 1] = m & (_TILE_MASK | _ARM_MASK << _ARM_SHIFT)
                self.nev = i + 1
            tiles = 1 << t
        hands = self.hands
        h = hands[s] & ~tiles
        hands[s] = h
        self.last = s
        self.last_tiles = tiles
        self.lead_tile = _NONE
        self.moves_played += 1
        self.passes = 0
        r = self.rules
        if r.inplay_mod:
            c = lay.count(r.spinner_keeps)
            if c and c % r.inplay_mod == 0:
                self.inplay[s] += c // r.inplay_div
        if not h:
            self.result = OUT
            self.winner = s
            return
        fit = lay.fit
        # seats past rules.players hold nothing, so all four hands can be or-ed
        if (r.early_fish or not (hands[0] | hands[1] | hands[2] | hands[3]) & fit) and self._blocked():
            self.result = BLOCKED
            self.fisher = s
            return
        if not (r.chain and h & fit):
            self.turn = (s + 1) % r.players

    def _blocked(self):
        """Nobody can play and nothing can be drawn (while the stock holds drawable tiles, a stuck player
        draws them, even ones that fit nothing); Goat also fishes early (RULES.md D)."""
        lay = self.layout
        h = self.hands
        if not (h[0] | h[1] | h[2] | h[3]) & lay.fit and not self.drawable():
            return True                   # nobody can play and nothing can be drawn (RULES.md A)
        if self.rules.early_fish:
            suits = lay.open_suits()
            if suits and not suits & (suits - 1):      # every open end shows one number n
                n = BIT37[suits % 37]                   # suits == 1 << n
                plain = SUIT[n] & ~(1 << DOUBLE[n])
                return lay.played & plain == plain
        return False
