"""Hard AI: determinized Monte Carlo over the hidden tiles, anytime and time-bounded.

Each iteration deals the unseen tiles again consistently with what the seat knows (knowledge.py),
then plays every legal move on that deal and finishes the round with the fast rollout policy
(rollout.py). A move's score is the sum of its rollout values over the same deals (common random
numbers make the comparison sharp). The value of a finished rollout is the side's points margin
(points variants), the change in penalty against the others (Goat family), and, near the target, a
large bonus for winning / malus for losing the match. The loop stops when the time budget is spent
(`clock` ms), or when `on_tick()` (called every ~30 ms) returns True; the best move so far is played.

Exact endgame: when few tiles are left, each sampled deal is solved by alpha-beta instead of being
rolled out (Solver, solve). It applies when the tiles in all hands plus the drawable stock are at most
_EXACT_TILES (and the variant has no multi-double or closing moves, whose branching the solver does
not model). For every determinization, every legal move's exact value on that deal is summed, as the
rollouts would be. When only one deal is consistent with what the seat knows (two players, nothing in
the stock or out of play: the opponent holds exactly the unseen tiles) a single solve gives the exact
answer. The side of the seat maximizes and every other side minimizes the seat's value (exact for two
sides, "paranoid" for three or four). Undo uses per-depth snapshots in two small preallocated buffers;
recursion keeps its state in Python frames, not on the heap. A node cap and the clock bound the work;
when they run out before one deal is solved, the search falls back to rollouts.

Everything lives in buffers built once per rules object; a search allocates nothing per rollout.
"""
from domino.tiles import LO, HI
from domino.scoring import hand_value, transform, unique
from .knowledge import Knowledge
from . import rollout as ro
from .rollout import copy_state, apply_move, play_move, playout, sample, snap, zeros
try:
    from micropython import const
except ImportError:  # CPython
    def const(x):
        return x

_NONE = const(255)      # = domino.tiles.NONE
_MULTI = const(0x100)   # = domino.round.MULTI
_CLOSE = const(0x80)    # = domino.round.CLOSE
_ARM_SHIFT = const(5)  # = domino.round._ARM_SHIFT
_TILE_MASK = const(0x1F)  # = domino.round._TILE_MASK
_ARM_MASK = const(3)  # = domino.round._ARM_MASK
_FAM_POINTS = const(0)  # = domino.rules.FAM_POINTS
_FAM_GOAT = const(1)   # = domino.rules._FAM_GOAT
_S_RES = const(32)      # = ai.rollout.S_RES
_S_WIN = const(36)      # = ai.rollout.S_WIN
_S_IP = const(5)        # = ai.rollout.S_IP
_S_PIPS = const(41)    # = ai.rollout._S_PIPS
_S_RNG = const(40)      # = ai.rollout.S_RNG
_S_LAST = const(37)    # = ai.rollout._S_LAST
_S_TURN = const(31)     # = ai.rollout.S_TURN
_S_OP = const(22)       # = ai.rollout.S_OP
_S_END = const(10)      # = ai.rollout.S_END
_S_DBL = const(14)      # = ai.rollout.S_DBL
_S_STOP = const(73)    # = ai.rollout._S_STOP
_SNAP_NI = const(10)   # = ai.rollout._SNAP_NI
_SNAP_NB = const(29)   # = ai.rollout._SNAP_NB

_TICK_MS = const(30)
_TICKS_MASK = const(0x3FFFFFFF)  # time.ticks_ms() wraps at 2**30
_B00 = const(1)           # 1 << DOUBLE[0]: 0-0 is tile 0
_B66 = const(1 << 27)     # 1 << DOUBLE[6]: 6-6 is tile 27

_EXACT_TILES = const(10)
_MAX_DEPTH = const(_EXACT_TILES + 2)
_INF = const(1 << 29)
_CHECK_NODES = const(32)           # check the budget every this many nodes
# device time of the endgame solver in rollouts (work mode): a node costs about half a rollout, a deal
# a third (least squares over the emulated Pico's exact moves at 0.5 s: tools/bench/ai_budget.py)
_NODES_PER_ROLLOUT = const(2)
_DEALS_PER_ROLLOUT = const(3)

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
        self.budget = Budget()
        self.endgame = Solver(self)

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
                mt[i] = m & _TILE_MASK
                ma[i] = (m >> _ARM_SHIFT) & _ARM_MASK

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
        for i in range(n):
            if i != w and sc[i]:            # another side holds points: everything is written off
                v = -sc[ms] * n
                for k in range(n):
                    v += sc[k]
                return v                    # (my loss) * (n-1) - (the others' losses)
        if w == ms:
            v = total * (n - 1)
            if sc[ms] + total >= r.target:
                v += self.big
            return v
        v = -total
        if sc[w] + total >= r.target:
            v -= self.big
        return v


# --- exact endgame ---------------------------------------------------------------------------------
class Solver:
    def __init__(self, S):
        rules = S.rules
        self.S = S                          # the hard Search that owns this solver
        self.ok = not (rules.multi > 1 or rules.close)
        self.si = zeros(_MAX_DEPTH * _SNAP_NI) if self.ok else None
        self.sb = bytearray(_MAX_DEPTH * _SNAP_NB) if self.ok else None
        self.line = rules.layout == 0
        self.nodes = 0
        self.abort = False
        self.budget = S.budget

    def spent(self):
        S = self.S
        return self.budget.spent(S.rollouts + self.nodes // _NODES_PER_ROLLOUT
                                 + S.samples // _DEALS_PER_ROLLOUT)

    def mm(self, d, alpha, beta):
        S = self.S
        st = S.work
        tb = S.tb
        self.nodes += 1
        if not self.nodes & (_CHECK_NODES - 1) and self.spent():
            self.abort = True
            return 0
        fit = -playout(st, tb)              # forced draws / passes (S_STOP), then the playable tiles
        if fit <= 0:                        # the round is over
            return S.value(st)
        if d >= _MAX_DEPTH:
            self.abort = True
            return 0
        maxing = S.side[st[_S_TURN]] == S.ms
        si = self.si
        sb = self.sb
        snap(st, si, sb, d, 0)
        best = -_INF if maxing else _INF
        t = 0
        while fit:
            if fit & 1:
                lo = LO[t]
                hi = HI[t]
                for a in range(4):
                    if not st[_S_OP + a]:
                        continue
                    e = st[_S_END + a]
                    if e != lo and e != hi:
                        continue
                    if (a == 1 and self.line and st[_S_OP] and st[_S_END] == e
                            and st[_S_DBL] == st[_S_DBL + 1]):
                        continue            # same as playing it on the left end
                    apply_move(st, tb, t, a)
                    v = self.mm(d + 1, alpha, beta)
                    snap(st, si, sb, d, 1)
                    if self.abort:
                        return 0
                    if maxing:
                        if v > best:
                            best = v
                            if v > alpha:
                                alpha = v
                    elif v < best:
                        best = v
                        if v < beta:
                            beta = v
                    if alpha >= beta:
                        return best
            fit >>= 1
            t += 1
        return best


def applicable(S, rd):
    sol = S.endgame
    if sol is None or not sol.ok:
        return False
    total = rd.drawable()
    for s in range(rd.rules.players):
        total += S.know.size_of(rd, s)
    return total <= _EXACT_TILES


def solve(S, match, seat, buf, n):
    """Best move by exact values over sampled deals; -1 when not applicable or out of time/nodes."""
    rd = match.round
    if not applicable(S, rd):
        return -1
    sol = S.endgame
    sol.nodes = 0
    sol.abort = False
    tb = S.tb
    sbase = S.sbase
    work = S.work
    sums = S.sums
    mt = S.mt
    ma = S.ma
    unique = S.know.unique_deal()
    while True:
        copy_state(sbase, S.base)
        sample(sbase, S.know.kn)
        for i in range(n):
            copy_state(work, sbase)
            t = mt[i]
            if t != 255:
                apply_move(work, tb, t, ma[i])
            else:
                play_move(work, tb, buf[i])
            work[_S_STOP] = 1
            v = sol.mm(0, -_INF, _INF)
            if sol.abort:
                if S.samples == 0:
                    for j in range(n):
                        sums[j] = 0
                    return -1
                return _best(sums, buf, n)
            sums[i] += v
        S.samples += 1
        if unique:
            break
        if sol.spent():
            break
    return _best(sums, buf, n)


def _best(sums, buf, n):
    b = 0
    for i in range(1, n):
        if sums[i] > sums[b]:
            b = i
    return buf[b]


def choose(ctx, match, seat, rng, buf, n, budget_ms, clock, on_tick, work=0):
    S = ctx.hard
    if S is None:
        S = Search(match.rules)
        ctx.hard = S
    S.budget.start(budget_ms, clock, on_tick, work)
    rd = match.round
    S.samples = 0
    S.rollouts = 0
    S.exact = False
    S.endgame.nodes = 0
    S.prepare(match, seat, rng)
    S.classify(rd, buf, n)
    m = solve(S, match, seat, buf, n)
    if m >= 0:
        S.exact = True
        return m
    used = S.endgame.nodes // _NODES_PER_ROLLOUT     # (a solve that gave up counted no deal)
    while True:
        S.rollout_all(rd, buf, n)
        if S.budget.spent(S.rollouts + used):
            break
    return _best(S.sums, buf, n)


def _no_clock():
    return 0


class Budget:
    """When a search stops. Work mode (`work` > 0: the arena, the tests): after `work` rollouts, an
    endgame node or deal counting as the device time it takes, so a seed gives the same move on any
    machine.
    Clock mode (the device): after `ms` milliseconds of `clock`, or when `on_tick()` (called every
    ~30 ms) returns True. Whole determinizations are finished either way."""

    def __init__(self):
        self.work = 0
        self.ms = 0
        self.clock = _no_clock
        self.on_tick = None
        self.t0 = 0
        self.last = 0
        self.stopped = False

    def start(self, ms, clock, on_tick, work):
        self.work = work
        self.ms = ms
        self.clock = clock
        self.on_tick = on_tick
        self.stopped = False
        if not work:
            self.t0 = self.last = clock()

    def spent(self, used):
        if self.work:
            return used >= self.work
        if self.stopped:
            return True
        now = self.clock()
        if (now - self.t0) & _TICKS_MASK >= self.ms:
            return True
        if self.on_tick is not None and (now - self.last) & _TICKS_MASK >= _TICK_MS:
            self.last = now
            if self.on_tick():
                self.stopped = True
                return True
        return False
