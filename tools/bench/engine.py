"""Engine micro-benchmarks for `make bench` (tools/bench/report.py runs them); one source for both
runtimes, with the import roots in PYTHONPATH / MICROPYPATH (a compiled firmware tree first, if any):

    python -m tools.bench.engine rounds --variant block --players 4 [--teams] [--ms 1000] [--seed 1]
    micropython -m tools.bench.engine rounds ...      the same under the unix port
    micropython -m tools.bench.engine alloc --variant block --players 2 [--rounds 1000]
    micropython -m tools.bench.engine hardmem --variant block --players 2 [--budget 5] [--moves 40]

Each mode prints one `key value ...` line, so the caller parses it without a JSON module:
- rounds: random-vs-random full rounds (deal, lead, every move, forced draws/passes, round-end scoring)
  for at least --ms milliseconds; `rounds R us U moves M`. The random policy is the engine's own Rng,
  one `below(n)` per move, the cheapest fair choice (the peers use `random.choice`).
- alloc: bytes allocated per move in steady state with the collector off (MicroPython only): the move
  loop of `rounds` without the score sheet (Match.finish_round keeps each round's record: that is
  the game's history, not a per-move cost), 10 warm-up rounds first; `rounds R moves M bytes B`.
- hardmem: hard AI moves with the collector off around each one (MicroPython only): bytes allocated
  by the first move (it builds the search buffers), the most by any later move, and the peak heap in
  use (live heap before a move + what it allocated: with collection off nothing is freed mid-move).
"""
import sys

from tools import cli
from tools.arena import rng32

try:
    from time import ticks_us, ticks_diff, ticks_ms
except ImportError:  # CPython
    import time

    def ticks_us():
        return time.perf_counter_ns() // 1000

    def ticks_ms():
        return time.perf_counter_ns() // 1000000

    def ticks_diff(a, b):
        return a - b

USAGE = ("usage: python -m tools.bench.engine rounds|alloc|hardmem [--variant V] [--players N] "
         "[--teams] [--ms MS] [--rounds N] [--budget MS] [--moves N] [--seed S]")


def _engine():
    from domino.rules import Rules
    from domino.match import Match
    from domino.rng import Rng
    from domino.round import PLAYING
    return Rules, Match, Rng, PLAYING


def bench_rounds(vid, players, teams, ms, seed):
    """Full scored rounds for at least `ms` ms: the clock is read once per round."""
    Rules, Match, Rng, PLAYING = _engine()
    rules = Rules(vid, players, teams)
    pol = Rng(seed ^ 0x5EED)
    m = Match(rules, seed)
    rounds = moves = 0
    budget = ms * 1000
    t0 = ticks_us()
    while True:
        if m.over:
            seed += 1
            m = Match(rules, seed)
        m.start_round()
        rd = m.round
        while rd.result == PLAYING:
            n = rd.legal()
            if n == 0:
                rd.forced()
                continue
            m.play(rd.buf[pol.below(n)])
            moves += 1
        m.finish_round()
        rounds += 1
        dt = ticks_diff(ticks_us(), t0)
        if dt >= budget:
            break
    print("rounds %d us %d moves %d" % (rounds, dt, moves))


def _moves(m, pol, n, PLAYING):
    """n rounds of the engine's move loop (deal and lead in start_round, legal, forced, play)."""
    moves = 0
    for _ in range(n):
        m.start_round()
        rd = m.round
        while rd.result == PLAYING:
            k = rd.legal()
            if k == 0:
                rd.forced()
            else:
                m.play(rd.buf[pol.below(k)])
                moves += 1
    return moves


def bench_alloc(vid, players, teams, rounds, seed):
    import gc
    if not hasattr(gc, "mem_alloc"):
        print("error alloc needs MicroPython (gc.mem_alloc)")
        return 2
    Rules, Match, Rng, PLAYING = _engine()
    m = Match(Rules(vid, players, teams), seed)
    pol = Rng(seed ^ 0x5EED)
    _moves(m, pol, 10, PLAYING)                 # warm-up
    gc.collect()
    gc.disable()
    before = gc.mem_alloc()
    try:
        moves = _moves(m, pol, rounds, PLAYING)
        used = gc.mem_alloc() - before
    except MemoryError:                          # so much garbage the heap ran out: say so
        used = gc.mem_alloc() - before
        gc.enable()
        print("rounds %d moves 0 bytes %d full 1" % (rounds, used))
        return 0
    gc.enable()
    print("rounds %d moves %d bytes %d full 0" % (rounds, moves, used))
    return 0


def bench_hardmem(vid, players, teams, budget, moves, seed):
    import gc
    if not hasattr(gc, "mem_alloc"):
        print("error hardmem needs MicroPython (gc.mem_alloc)")
        return 2
    Rules, Match, Rng, PLAYING = _engine()
    import ai
    rules = Rules(vid, players, teams)
    first = later = peak = done = 0
    while done < moves:
        m = Match(rules, seed)
        seed += 1
        while not m.over and done < moves:
            m.start_round()
            rd = m.round
            while rd.result == PLAYING and done < moves:
                n = rd.legal()
                if n == 0:
                    rd.forced()
                    continue
                if n == 1 or rd.turn & 1:
                    m.play(ai.choose(m, rd.turn, "medium"))
                    continue
                gc.collect()
                gc.disable()
                a0 = gc.mem_alloc()
                mv = ai.choose(m, rd.turn, "hard", budget, ticks_ms)
                used = gc.mem_alloc() - a0
                gc.enable()
                if done == 0:
                    first = used
                elif used > later:
                    later = used
                if a0 + used > peak:
                    peak = a0 + used
                done += 1
                m.play(mv)
            m.finish_round()
    print("moves %d first %d later %d peak %d" % (done, first, later, peak))
    return 0


def main(argv):
    if argv[:1] in (["--help"], ["-h"]):
        return cli.usage(USAGE, globals())
    if not argv:
        sys.stderr.write(USAGE + "\n")
        return 2
    mode = argv[0]
    opt = {"--variant": "block", "--players": "2", "--ms": "1000", "--rounds": "1000", "--budget": "5",
           "--moves": "40", "--seed": "1"}
    teams = False
    i = 1
    while i < len(argv):
        a = argv[i]
        if a == "--teams":
            teams = True
            i += 1
        elif a in opt and i + 1 < len(argv):
            opt[a] = argv[i + 1]
            i += 2
        else:
            sys.stderr.write(USAGE + "\n")
            return 2
    rng32.install()
    try:
        vid = opt["--variant"]
        players = int(opt["--players"])
        seed = int(opt["--seed"])
        if mode == "rounds":
            bench_rounds(vid, players, teams, int(opt["--ms"]), seed)
        elif mode == "alloc":
            return bench_alloc(vid, players, teams, int(opt["--rounds"]), seed)
        elif mode == "hardmem":
            return bench_hardmem(vid, players, teams, int(opt["--budget"]), int(opt["--moves"]), seed)
        else:
            sys.stderr.write(USAGE + "\n")
            return 2
    except ValueError as e:          # a bad option's value, or rules that cannot be (Block for 9)
        sys.stderr.write("bench_engine: " + str(e) + "\n")
        return 2
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
