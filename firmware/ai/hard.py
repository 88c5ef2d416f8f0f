"""Hard AI: determinized Monte Carlo over the hidden tiles, anytime and time-bounded.

Each iteration deals the unseen tiles again consistently with what the seat knows (knowledge.py),
then plays every legal move on that deal and finishes the round with the fast rollout policy
(rollout.py). A move's score is the sum of its rollout values over the same deals (common random
numbers make the comparison sharp). The value of a finished rollout is the side's points margin
(points variants), the change in penalty against the others (Goat family), and, near the target, a
large bonus for winning / malus for losing the match. The loop stops when the time budget is spent
(`clock` ms), or when `on_tick()` (called every ~30 ms) returns True; the best move so far is played.

With the stock empty and every hidden tile in a hand (end of a 2-player Block or Draw hand), a deal is
known up to how the hidden tiles split; endgame.py then solves the deals exactly when small enough.

Everything lives in buffers built once per rules object; a search allocates nothing per rollout.
"""
from domino.scoring import hand_value, transform, unique
from .knowledge import Knowledge
from . import endgame
from . import rollout as ro
from .rollout import copy_state, apply_move, play_move, playout, sample
try:
    from micropython import const
except ImportError:  # CPython
    def const(x):
        return x

_NONE = const(255)      # = domino.tiles.NONE
_MULTI = const(0x100)   # = domino.round.MULTI
_CLOSE = const(0x80)    # = domino.round.CLOSE
_ARM_SHIFT = const(5)   # = domino.round.ARM_SHIFT
_FAM_POINTS = const(0)  # = domino.rules.FAM_POINTS
_FAM_GOAT = const(1)    # = domino.rules.FAM_GOAT
_S_RES = const(32)      # = ai.rollout.S_RES
_S_WIN = const(36)      # = ai.rollout.S_WIN
_S_IP = const(5)       # = ai.rollout.S_IP
_S_PIPS = const(41)     # = ai.rollout.S_PIPS
_S_RNG = const(40)      # = ai.rollout.S_RNG
_S_LAST = const(37)     # = ai.rollout.S_LAST

_TICK_MS = const(30)
_TICKS_MASK = const(0x3FFFFFFF)  # time.ticks_ms() wraps at 2**30
_B00 = const(1)           # 1 << DOUBLE[0]: 0-0 is tile 0
_B66 = const(1 << 27)     # 1 << DOUBLE[6]: 6-6 is tile 27

# test hook: raise MemoryError inside the search (proves the fallback to medium)
FAIL_ALLOC = False


class Search:
    def __init__(self, rules):
        self.rules = rules
        self.tb = ro.make_tables(rules)
        self.base = ro.new_state()
        self.sbase = ro.new_state()
        self.work = ro.new_state()
        self.know = Knowledge()
        k = ro.max_moves(rules)
        self.sums = ro.zeros(k)
        self.mt = bytearray(k)            # tile of a single move, 255: several doubles / a close
        self.ma = bytearray(k)            # its arm
        self.cnt = [0, 0, 0, 0]
        self.gain = [0, 0, 0, 0]
        self.side = bytearray(4)
        for s in range(4):
            self.side[s] = rules.side(s) if s < rules.players else 0
        self.special = bool(rules.lone00 or rules.lone66 or rules.any00 or rules.any66)
        self.samples = 0
        self.rollouts = 0
        self.exact = False
        self.endgame = endgame.Solver(self)

    # --- per decision ----------------------------------------------------------------------------
    def prepare(self, match, seat, rng):
        rd = match.round
        r = self.rules
        base = self.base
        ro.load(base, rd, r)
        for s in range(4):
            base[s] = 0
        base[seat] = rd.hands[seat]
        base[_S_RNG] = rng.next()
        self.know.observe(rd, seat, match)
        self.know.kn[43] = rng.next()
        self.me = seat
        self.ms = r.side(seat)
        self.scores = match.scores
        self.remembered = match.remembered
        self.opened = match.opened
        self.pot = match.pot
        sides = r.sides
        self.big = 2 * r.target * (sides - 1)

    def classify(self, rd, buf, n):
        mt = self.mt
        ma = self.ma
        for i in range(n):
            m = buf[i]
            self.sums[i] = 0
            if m & (_MULTI | _CLOSE):
                mt[i] = 255
            else:
                mt[i] = m & 31
                ma[i] = (m >> _ARM_SHIFT) & 3

    def rollout_all(self, rd, buf, n):
        """One determinization: every legal move on the same deal."""
        tb = self.tb
        sb = self.sbase
        work = self.work
        sums = self.sums
        mt = self.mt
        ma = self.ma
        copy_state(sb, self.base)
        sample(sb, self.know.kn)
        if FAIL_ALLOC:
            raise MemoryError("test")
        for i in range(n):
            copy_state(work, sb)
            t = mt[i]
            if t != 255:
                apply_move(work, tb, t, ma[i])
            else:
                play_move(work, tb, buf[i])
            playout(work, tb)
            sums[i] += self.value(work)
            sb[_S_RNG] = work[_S_RNG]
        self.samples += 1
        self.rollouts += n

    # --- values ----------------------------------------------------------------------------------
    def count_of(self, work, s):
        if self.special:
            return hand_value(self.rules, work[s])
        return work[_S_PIPS + s]

    def value(self, work):
        r = self.rules
        fam = r.family
        if fam == _FAM_POINTS:
            return self._v_points(work)
        if fam == _FAM_GOAT:
            return self._v_goat(work)
        return self._v_sea(work)

    def _counts(self, work):
        c = self.cnt
        g = self.gain
        side = self.side
        for i in range(4):
            c[i] = 0
            g[i] = 0
        for s in range(self.rules.players):
            c[side[s]] += self.count_of(work, s)
        return c

    def _margin(self, g, n):
        ms = self.ms
        v = g[ms] * (n - 1)
        for i in range(n):
            if i != ms:
                v -= g[i]
        return v

    def _v_points(self, work):
        r = self.rules
        n = r.sides
        c = self._counts(work)
        g = self.gain
        total = 0
        for i in range(n):
            total += c[i]
        if work[_S_RES] == 1:
            w = self.side[work[_S_WIN]]
            g[w] = transform(r, total if r.teams else total - c[w])
        else:
            w = unique(c, n, True)
            if w != _NONE:
                g[w] = transform(r, total if r.teams else total - 2 * c[w])
        for s in range(r.players):
            g[self.side[s]] += work[_S_IP + s]
        v = self._margin(g, n)
        sc = self.scores
        tgt = r.target
        top = -1
        topv = -1
        for i in range(n):
            x = sc[i] + g[i]
            if x > topv:
                topv = x
                top = i
        if topv >= tgt:
            ms = self.ms
            if top == ms:
                v += self.big
            elif sc[ms] + g[ms] < topv:
                v -= self.big
        return v

    def _v_goat(self, work):
        r = self.rules
        n = r.sides
        c = self._counts(work)
        g = self.gain                       # penalty taken this round, per side
        out = self.side[work[_S_WIN]] if work[_S_RES] == 1 else _NONE
        if out != _NONE:
            c[out] = 0
        if out == _NONE and r.fish_one:
            hi = unique(c, n, False)
            total = self.pot
            for i in range(n):
                total += c[i]
            if hi != _NONE:
                g[hi] = total + self.remembered[hi]
        else:
            for i in range(n):
                g[i] = c[i]
        if out != _NONE:
            g[out] = -self.remembered[out]
        v = -self._margin(g, n)
        tgt = r.target
        sc = self.scores
        ms = self.ms
        for i in range(n):
            if g[i] <= 0 or not (self.opened[i] or g[i] > r.open_over):
                continue                    # nothing recorded (or only remembered) this round
            if sc[i] + g[i] + (self.remembered[i] if i != out else 0) >= tgt:
                if i == ms:
                    v -= self.big
                else:
                    v += self.big // 2
        return v

    def _v_sea(self, work):
        r = self.rules
        n = r.sides
        c = self._counts(work)
        ms = self.ms
        out = self.side[work[_S_WIN]] if work[_S_RES] == 1 else _NONE
        if out != _NONE:
            c[out] = 0
        if out != _NONE and r.instant_win and ((1 << work[_S_LAST]) & (_B00 | _B66)):
            return self.big if out == ms else -self.big
        w = out
        if w == _NONE and not r.team_out_only:
            w = unique(c, n, True)
        if w == _NONE:
            return 0
        total = 0
        for i in range(n):
            if i != w:
                total += c[i]
        if total < r.sea_min:
            return 0
        sc = self.scores
        if w == ms:
            v = total * (n - 1)
            for i in range(n):
                if i != ms:
                    v += sc[i]
            if sc[ms] + total >= r.target:
                v += self.big
            return v
        v = -total - sc[ms] * (n - 1)
        if sc[w] + total >= r.target:
            v -= self.big
        return v


def _elapsed(now, t0):
    return (now - t0) & _TICKS_MASK


def choose(ctx, match, seat, rng, buf, n, budget_ms, clock, on_tick):
    S = ctx.hard
    if S is None:
        S = Search(match.rules)
        ctx.hard = S
    t0 = clock()
    rd = match.round
    S.samples = 0
    S.rollouts = 0
    S.exact = False
    S.prepare(match, seat, rng)
    S.classify(rd, buf, n)
    m = endgame.solve(S, match, seat, buf, n, budget_ms, clock, t0, on_tick)
    if m >= 0:
        S.exact = True
        return m
    if S.endgame.stopped:
        budget_ms = 0               # told to stop during the solve: one quick rollout round, then play
    last = t0
    sums = S.sums
    while True:
        S.rollout_all(rd, buf, n)
        now = clock()
        if _elapsed(now, t0) >= budget_ms:
            break
        if on_tick is not None and _elapsed(now, last) >= _TICK_MS:
            last = now
            if on_tick():
                break
    best = 0
    for i in range(1, n):
        if sums[i] > sums[best]:
            best = i
    return buf[best]
