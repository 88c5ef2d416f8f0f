"""The Hard AI's work per move on the emulated Pico at the default think time: the device-equivalent
budgets of the arena and the strength tests (docs/AI.md, "Device budgets").

    python -m tools.bench.ai_budget [--case draw:2] [--moves 60] [--ms 500] [--seed 1] [--board B]

For each case (variant:players[:t]) one seeded match of Hard players in every seat runs on the
emulated Pico (tools/emu: stock MicroPython RPI_PICO in rp2040js; `make pico-emu` sets it up), from
a board's deployed tree (default waveshare_lcd13). Every Hard decision with two or more legal moves is
timed with the device's `ticks_ms` at the default 500 ms budget and reports its rollouts; decisions the
exact endgame settled report their search nodes and deals (ai/hard.py's work counts come from those).
The table gives the median and p10 rollouts of the Monte Carlo decisions, the p50/p95/max time, and the
lowest free heap seen during the AI's ticks. Each case's decisions are kept in
build/ai_budget/moves_CASE.txt. The emulator runs at ~0.2x real time: a case of 60 moves takes ~3
minutes of wall time.
"""
import os
import sys
import tempfile

from tools import cli
from tools.bench.pico import script_image
from tools.emu import harness as emu
from tools.paths import ROOT

CASES = ("draw:2", "draw:4", "block:2", "block:4:t", "fives:2", "fives:4:t", "goat:4:t", "goat:2",
         "classic:2", "sea_goat:3", "donkey:2", "muggins:2", "threes:4", "telephone:2", "blitz:4")

DEVICE = r'''
import gc
import time
gc.collect()
import ai
from ai import context
from domino.match import Match
from domino.round import PLAYING
from domino.rules import Rules
from domino.tiles import popcount

low = [1 << 30]


def tick():
    f = gc.mem_free()
    if f < low[0]:
        low[0] = f
    return False


gc.collect()
rules = Rules(VARIANT, PLAYERS, TEAMS)
m = Match(rules, SEED)
moves = 0
print("free", gc.mem_free())
while not m.over and m.round_no < 200 and moves < MAX_MOVES:
    m.start_round()
    rd = m.round
    while rd.result == PLAYING and moves < MAX_MOVES:
        n = rd.legal()
        if n == 0:
            rd.forced()
            continue
        seat = rd.turn
        left = rd.stock_left()
        for s in range(rules.players):
            left += popcount(rd.hands[s])
        t0 = time.ticks_ms()
        mv = ai.choose(m, seat, "hard", BUDGET_MS, on_tick=tick)
        dt = time.ticks_diff(time.ticks_ms(), t0)
        tick()
        if n > 1:
            moves += 1
            s, r, x = ai.stats()
            h = context._ctx.hard
            nodes = h.endgame.nodes if h is not None and h.endgame is not None else 0
            print("MOVE", n, dt, s, r, 1 if x else 0, nodes, left)
        m.play(mv)
    if rd.result != PLAYING:
        m.finish_round()
print("LOW", low[0])
'''


def pct(xs, p):
    if not xs:
        return 0
    xs = sorted(xs)
    return xs[(len(xs) - 1) * p // 100]


def run_case(board, case, moves, ms, seed):
    parts = case.split(":")
    vid, players, teams = parts[0], int(parts[1]), len(parts) > 2
    with tempfile.TemporaryDirectory() as d:
        script = os.path.join(d, "case.py")
        with open(script, "w") as f:
            f.write("VARIANT = %r\nPLAYERS = %d\nTEAMS = %r\nSEED = %d\nBUDGET_MS = %d\nMAX_MOVES = %d\n" %
                    (vid, players, teams, seed, ms, moves))
            f.write(DEVICE)
        r = emu.run(script_image(board, {}), script=script, timeout=3600)
    if r.rc != 0:
        raise emu.EmuError("%s on the device: %s" % (case, r.why()))
    rows = []
    low = 0
    for line in r.stdout.splitlines():
        f = line.split()
        if f and f[0] == "MOVE":
            rows.append(tuple(int(x) for x in f[1:]))
        elif f and f[0] == "LOW":
            low = int(f[1])
    return rows, low


def parse(argv):
    """The options -> (board, cases, moves, ms, seed); cli.BadArg for a bad one."""
    from domino.rules import RulesError, Rules
    from tools.emu import wiring
    board, cases, moves, ms, seed = "waveshare_lcd13", [], 60, 500, 1
    i = 0
    while i < len(argv):
        k = argv[i]
        if k not in ("--board", "--case", "--moves", "--ms", "--seed"):
            raise cli.BadArg("unknown option %r (see --help)" % k)
        if i + 1 >= len(argv):
            raise cli.BadArg(k + " wants a value")
        v = argv[i + 1]
        if k == "--board":
            if v not in wiring.COLOUR:
                raise cli.BadArg("--board %s: one of %s" % (v, ", ".join(wiring.COLOUR)))
            board = v
        elif k == "--case":
            parts = v.split(":")
            if not 2 <= len(parts) <= 3 or parts[2:] not in ([], ["t"]):
                raise cli.BadArg("--case wants VARIANT:PLAYERS[:t] (fives:2, goat:4:t), not %r" % v)
            try:
                Rules(parts[0], cli.whole("--case players", parts[1], 2, 4), len(parts) > 2)
            except RulesError as e:
                raise cli.BadArg("--case %s: %s" % (v, e))
            cases.append(v)
        elif k == "--moves":
            moves = cli.whole(k, v, 1, 10000)
        elif k == "--ms":
            ms = cli.whole(k, v, 1, 60000)
        else:
            seed = cli.whole(k, v, 0, cli.MAX_SEED)
        i += 2
    return board, cases, moves, ms, seed


def main(argv):
    if argv[:1] in (["--help"], ["-h"]):
        print("usage: python -m tools.bench.ai_budget [--case V:N[:t]] [--moves N] [--ms MS] [--seed S] "
              "[--board B]\n\n" + __doc__.strip())
        return 0
    try:
        board, cases, moves, ms, seed = parse(argv)
    except cli.BadArg as e:
        return cli.say("ai_budget", e)
    why = emu.missing()
    if why:
        sys.stderr.write("ai_budget: " + why + "\n")
        return 2
    work = os.path.join(ROOT, "build", "ai_budget")
    os.makedirs(work, exist_ok=True)
    print("| case | MC moves | rollouts p10 | rollouts p50 | exact moves | nodes p50 | ms p50 | ms p95 |"
          " ms max | lowest free B |")
    print("|---|---|---|---|---|---|---|---|---|---|")
    for case in cases or CASES:
        rows, low = run_case(board, case, moves, ms, seed)
        with open(os.path.join(work, "moves_%s.txt" % case.replace(":", "_")), "w") as f:
            f.write("legal ms samples rollouts exact nodes tiles_left\n")     # (samples: deals)
            for r in rows:
                f.write(" ".join(str(x) for x in r) + "\n")
        mc = [r[3] for r in rows if not r[4]]
        ex = [r[5] for r in rows if r[4]]
        t = [r[1] for r in rows]
        print("| %s | %d | %d | %d | %d | %d | %d | %d | %d | %d |" % (
            case, len(mc), pct(mc, 10), pct(mc, 50), len(ex), pct(ex, 50), pct(t, 50), pct(t, 95),
            max(t) if t else 0, low), flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
