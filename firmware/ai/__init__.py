"""AI players: easy, medium, hard, and a hint for the human (the hard choice with a reason).

    choose(match, seat, level, budget_ms=500, clock=None, on_tick=None, seed=None, work=0) -> move
    hint(match, seat, budget_ms=500, clock=None, on_tick=None, short=False, work=0, cols=0) -> (move, reason)

`match.round` must be waiting for `seat` with at least one legal move. Nothing in `match` is changed:
the AI works on scratch copies kept in `context`. The AI sees what the seat may see: its own hand, the
table, public passes/draws (the round's `void` bits) and hand sizes; never another hand or the stock.
Besides LEVELS, `choose` accepts the levels in BASELINES, which the host tools fill (the arena's
yardsticks random and greedy: tools/arena/baselines.py); the handheld has none.
`release()` gives the scratch buffers back (the UI calls it while people
play); `stats()` reports the last hard search.
"""
from . import context
from .policy import pick_easy, pick_medium

LEVELS = ("easy", "medium", "hard")
BASELINES = {}                     # level name -> pick(ctx, match, seat, rng, buf, n), host tools only


def default_seed(match, seat):
    rd = match.round
    # shifts and xors of small values: no big-int arithmetic (and no allocation) on a 32-bit port
    s = match.seed ^ ((match.round_no & 1023) << 19) ^ (rd.nev << 10) ^ (rd.moves_played << 5) ^ seat
    return s & 0x3FFFFFFF


try:
    from time import ticks_ms as _ms
except ImportError:  # CPython
    import time
    _mono = getattr(time, "monotonic")

    def _ms():
        return int(_mono() * 1000)


def choose(match, seat, level, budget_ms=500, clock=None, on_tick=None, seed=None, work=0):
    rd = match.round
    if rd.turn != seat:
        raise ValueError("not seat " + str(seat) + "'s turn")
    ctx = context.get(match.rules)
    buf = ctx.buf
    n = rd.legal(buf)
    if n == 0:
        raise ValueError("no legal move: the round must draw or pass (round.forced())")
    rng = ctx.rng
    rng.seed(default_seed(match, seat) if seed is None else seed)
    if n == 1:
        return buf[0]
    if level in BASELINES:         # the arena's yardsticks (tools/arena/baselines.py)
        return BASELINES[level](ctx, match, seat, rng, buf, n)
    if level == "easy":
        return pick_easy(ctx, match, seat, rng, buf, n)
    if level == "medium":
        return pick_medium(ctx, match, seat, rng, buf, n)
    if level == "hard":
        return _hard(ctx, match, seat, rng, buf, n, budget_ms, _ms if clock is None else clock, on_tick, work)
    raise ValueError("unknown AI level: " + str(level))


def _hard(ctx, match, seat, rng, buf, n, budget_ms, clock, on_tick, work):
    """The hard search; the medium pick where its code or buffers do not fit. Its module (plain
    bytecode, unlike rollout's native code) is loaded at its first use: a match of easy and medium
    seats never holds it."""
    try:
        from . import hard
        return hard.choose(ctx, match, seat, rng, buf, n, budget_ms, clock, on_tick, work)
    except MemoryError:
        ctx.hard = None              # (a failed import leaves no half module in sys.modules)
        try:
            import gc
            gc.collect()
        except ImportError:
            pass
        n = match.round.legal(buf)
        return pick_medium(ctx, match, seat, rng, buf, n)


def hint(match, seat, budget_ms=500, clock=None, on_tick=None, short=False, work=0, cols=0):
    """The hard AI's move for `seat` and why: (move, reason). The reason fits 40 characters, or 16
    with short=True (128-px screens); cols > 0: the long form where it fits that many characters
    (in the language in use), else the short one (a line of the message area: never cut)."""
    m = choose(match, seat, "hard", budget_ms, clock, on_tick, None, work)
    from .reason import explain
    ctx = context.get(match.rules)
    why = explain(ctx, match, seat, m, short)
    if cols and not short and len(why) > cols:
        why = explain(ctx, match, seat, m, True)
    return m, why


def release():
    """Drop the AI's scratch buffers (~4-7 KB: move lists, search states); the next move builds them
    again. The code stays loaded."""
    context.release()


def stats():
    """(samples, rollouts, exact) of the last hard search: for benchmarks and the UI's debug line."""
    h = context._ctx.hard if context._ctx is not None else None
    if h is None:
        return 0, 0, False
    return h.samples, h.rollouts, h.exact
