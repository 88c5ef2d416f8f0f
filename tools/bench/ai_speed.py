"""Hard AI speed: 200 hard decisions per variant at the device's think time.

    micropython -m tools.bench.ai_speed [--decisions 200] [--device-ms 500] [--variant V]

On the device as a module of its own (tools/bench/pico.py runs it on the emulated Pico: `make
bench`), or under the MicroPython unix port with MICROPYPATH holding the repository and firmware/
(the same viper code; its times are the host's, not the device's). Decisions come from self-play
(hard against medium) with seeded deals; positions with one legal move are skipped (they cost
nothing). For each variant: p50 / p95 / max wall time per decision, rollouts per Monte Carlo
decision (p5 / p50), the rollouts of the first decision of each 2-player hand (the target: >= 200),
and how many decisions the exact endgame solver settled (those run no rollouts).
"""
import sys

from domino.rules import Rules
from domino.match import Match
from domino.round import PLAYING
import ai

USAGE = "usage: python -m tools.bench.ai_speed [--decisions N] [--device-ms MS] [--variant V]"

try:
    from time import ticks_us, ticks_diff, ticks_ms
except ImportError:  # CPython (the pure-Python twin: much slower, for comparison only)
    import time

    def ticks_us():
        return int(time.perf_counter() * 1000000)

    def ticks_ms():
        return int(time.perf_counter() * 1000)

    def ticks_diff(a, b):
        return a - b

CASES = (("draw", 2, False), ("block", 2, False), ("fives", 2, False), ("classic", 2, False),
         ("goat", 2, False), ("sea_goat", 2, False), ("donkey", 2, False), ("muggins", 2, False),
         ("threes", 2, False), ("telephone", 2, False), ("blitz", 4, False), ("goat", 4, True),
         ("draw", 4, False), ("fives", 4, True))


def pct(xs, p):
    if not xs:
        return 0
    xs = sorted(xs)
    i = (len(xs) - 1) * p // 100
    return xs[i]


def bench(vid, players, teams, decisions, budget):
    rules = Rules(vid, players, teams)
    times = []
    rolls = []
    starts = []
    exact = 0
    seed = 1
    while len(times) < decisions:
        m = Match(rules, seed)
        seed += 1
        while not m.over and m.round_no < 40 and len(times) < decisions:
            m.start_round()
            rd = m.round
            first = True
            while rd.result == PLAYING:
                n = rd.legal()
                if n == 0:
                    rd.forced()
                    continue
                s = rd.turn
                if n == 1 or (s & 1):
                    m.play(ai.choose(m, s, "hard" if n == 1 else "medium", budget))
                    continue
                t0 = ticks_us()
                mv = ai.choose(m, s, "hard", budget, ticks_ms)
                dt = ticks_diff(ticks_us(), t0)
                _, r, ex = ai.stats()
                if len(times) < decisions:
                    times.append(dt)
                    if ex:
                        exact += 1          # settled by the exact endgame: no rollouts
                    else:
                        rolls.append(r)
                    if first and players == 2:
                        starts.append(r)
                first = False
                m.play(mv)
            m.finish_round()
    return times, rolls, starts, exact


def main(argv):
    if argv[:1] in (["--help"], ["-h"]):
        print(USAGE)            # (the device keeps no docstrings, nor the tools package)
        print(globals().get("__doc__") or "")
        return 0
    try:        # the host's 64-bit twin of the PRNG (same numbers); the device has no tools/
        from tools.arena import rng32
        rng32.install()
    except ImportError:
        pass
    opts = {"--decisions": 200, "--device-ms": 500, "--variant": None}
    bounds = {"--decisions": (1, 100000), "--device-ms": (1, 60000)}
    variants = sorted(set(c[0] for c in CASES))
    i = 0
    while i < len(argv):        # (hand-parsed: this runs under MicroPython too, without tools.cli)
        k = argv[i]
        v = argv[i + 1] if i + 1 < len(argv) else None
        if k not in opts or v is None:
            sys.stderr.write("ai_speed: %s (%s)\n" % ("unknown option %r" % k if k not in opts else
                                                       k + " wants a value", USAGE))
            return 2
        if k == "--variant":
            if v not in variants:
                sys.stderr.write("ai_speed: --variant %s: one of %s\n" % (v, ", ".join(variants)))
                return 2
            opts[k] = v
        else:
            lo, hi = bounds[k]
            if not (v.isdigit() and lo <= int(v) <= hi):
                sys.stderr.write("ai_speed: %s wants a whole number %d..%d, not %r\n" % (k, lo, hi, v))
                return 2
            opts[k] = int(v)
        i += 2
    decisions, budget, only = opts["--decisions"], opts["--device-ms"], opts["--variant"]
    print("hard AI bench: %s, budget %d ms, %d decisions per case" %
          (sys.implementation.name, budget, decisions))
    print("%-14s %7s %7s %7s %9s %9s %13s %6s" % ("case", "p50 ms", "p95 ms", "max ms", "roll p5", "roll p50",
                                                "start p5/p50", "exact"))
    worst_start = None
    for vid, p, t in CASES:
        if only and vid != only:
            continue
        times, rolls, starts, exact = bench(vid, p, t, decisions, budget)
        name = "%s %dp%s" % (vid, p, "t" if t else "")
        st = "%d/%d" % (pct(starts, 5), pct(starts, 50)) if starts else "-"
        print("%-14s %7.2f %7.2f %7.2f %9d %9d %13s %6d" % (
            name, pct(times, 50) / 1000, pct(times, 95) / 1000, max(times) / 1000,
            pct(rolls, 5), pct(rolls, 50), st, exact))
        if starts:
            w = pct(starts, 5)
            worst_start = w if worst_start is None else min(worst_start, w)
    if worst_start is not None:
        print("rollouts at the start of a 2-player hand (p5, worst case): %d" % worst_start)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
