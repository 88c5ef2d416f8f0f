"""Exact endgame: when few tiles are left, each sampled deal is solved by alpha-beta instead of being
rolled out.

Applies when the tiles in all hands plus the drawable stock are at most _EXACT_TILES (and the variant
has no multi-double or closing moves, whose branching the solver does not model). For every
determinization, every legal move's exact value on that deal is summed, as the rollouts would be. When
only one deal is consistent with what the seat knows (two players, nothing in the stock or out of play:
the opponent holds exactly the unseen tiles) a single solve gives the exact answer.

The side of the seat maximizes and every other side minimizes the seat's value (exact for two sides,
"paranoid" for three or four). Undo uses per-depth snapshots in two small preallocated buffers;
recursion keeps its state in Python frames, not on the heap. A node cap and the clock bound the work;
when they run out before one deal is solved, the caller falls back to rollouts.
"""
try:
    from micropython import const
except ImportError:  # CPython
    def const(x):
        return x

from domino.tiles import LO, HI
from .rollout import apply_move, play_move, playout, snap, copy_state, sample, zeros
_SNAP_NI = const(10)  # = ai.rollout.SNAP_NI
_SNAP_NB = const(29)  # = ai.rollout.SNAP_NB
_S_TURN = const(31)   # = ai.rollout.S_TURN
_S_OP = const(22)     # = ai.rollout.S_OP
_S_END = const(10)     # = ai.rollout.S_END
_S_DBL = const(14)     # = ai.rollout.S_DBL
_S_STOP = const(73)   # = ai.rollout.S_STOP

_EXACT_TILES = const(10)
_MAX_DEPTH = const(_EXACT_TILES + 2)
_INF = const(1 << 29)
_CHECK_NODES = const(32)           # read the clock every this many nodes


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
        self.clock = _no_clock
        self.t0 = 0
        self.budget = 0
        self.on_tick = None
        self.last = 0
        self.stopped = False

    def mm(self, d, alpha, beta):
        S = self.S
        st = S.work
        tb = S.tb
        self.nodes += 1
        if not self.nodes & (_CHECK_NODES - 1):
            now = self.clock()
            if (now - self.t0) & 0x3FFFFFFF >= self.budget:
                self.abort = True
                return 0
            if self.on_tick is not None and (now - self.last) & 0x3FFFFFFF >= 30:
                self.last = now
                if self.on_tick():
                    self.abort = True
                    self.stopped = True
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


def _no_clock():
    return 0


def applicable(S, rd):
    sol = S.endgame
    if sol is None or not sol.ok:
        return False
    total = rd.drawable()
    for s in range(rd.rules.players):
        total += S.know.size_of(rd, s)
    return total <= _EXACT_TILES


def solve(S, match, seat, buf, n, budget_ms, clock, t0, on_tick):
    """Best move by exact values over sampled deals; -1 when not applicable or out of time/nodes."""
    rd = match.round
    if not applicable(S, rd):
        return -1
    sol = S.endgame
    sol.clock = clock
    sol.t0 = t0
    sol.budget = budget_ms
    sol.nodes = 0
    sol.abort = False
    sol.stopped = False
    sol.on_tick = on_tick
    sol.last = t0
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
        now = clock()
        if (now - t0) & 0x3FFFFFFF >= budget_ms:
            break
        if on_tick is not None and (now - sol.last) & 0x3FFFFFFF >= 30:
            sol.last = now
            if on_tick():
                break
    return _best(sums, buf, n)


def _best(sums, buf, n):
    b = 0
    for i in range(1, n):
        if sums[i] > sums[b]:
            b = i
    return buf[b]
