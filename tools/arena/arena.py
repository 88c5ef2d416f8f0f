"""Arena: AI level A against level B over full matches; the last line is A's match win rate with its
95% Wilson interval.

    python -m tools.arena --variant draw --players 2 --a hard --b greedy --matches 1000 --seed 1
        [--teams] [--rollouts N] [--goal PCT] [--jobs J] [--python INTERP] [--shard K/N] [--option key=value]
        [--check]

Levels: easy, medium, hard, and the baselines random and greedy (largest immediate score, then the
heaviest tile). Matches go in pairs on the same deal seed with A's seats swapped, so seats and the first
player alternate. With 2 players A has one seat; with --teams A is a team (seats 0+2 or 1+3); otherwise
A has one seat and B all the others. A wins when its side wins the match (penalty variants: when it is
not the goat). Before that line: the rounds A's side won (it scored the most; penalty variants: took the
least) and its mean points margin per round, each with a 95% interval. `--goal PCT`: one more line says
whether A's win rate meets PCT (the exit status is 1 when the rate is below it).

`--b dominoes.PLAYER` (4-player team Block) seats A's team against a player of the PyPI dominoes
library in that library's game (tools/arena/dominoes_adapter.py); the goal then applies to the hands won.

The hard AI's budget is work, not time: `--rollouts N` per move (endgame nodes count as in ai/hard.py),
by default what the emulated Pico does at the default 0.5 s think time for this variant and player
count (tools/arena/budget.py, measured by tools/bench/ai_budget.py; docs/AI.md). So a seed gives the same
result on any machine, however busy. Runs under CPython and MicroPython (same moves); `--jobs J`
(CPython) plays J shards in parallel as subprocesses of INTERP (default: this Python; the micropython
binary runs the device's viper code path, ~20x faster: `MICROPYPATH=.:firmware micropython -m
tools.arena ...` from the repository).
"""
import sys

import ai
from domino.match import Match
from domino.round import PLAYING
from domino.rules import Rules, RulesError, FAM_POINTS
from tools import cli
from tools.arena import baselines, rng32
from tools.arena.budget import device_rollouts
from tools.arena.stats import Tally, goal_line, mean_interval, shards, wilson

USAGE = ("usage: python -m tools.arena --variant V --players N --a LEVEL --b LEVEL --matches M --seed S "
         "[--teams] [--rollouts N] [--goal PCT] [--jobs J] [--python INTERP] [--shard K/N] "
         "[--option key=value] [--check]")
LEVELS = ai.LEVELS + baselines.NAMES
CHECK = False     # --check: verify every move is legal (soak)
LIBRARY = "dominoes."   # --b dominoes.double: the PyPI dominoes library's player (dominoes_adapter.py)


def play_match(rules, seed, levels, work, rounds=None):
    """levels: per seat. Returns the finished Match; with a list `rounds`, appends each round's score
    gains per side."""
    m = Match(rules, seed)
    while not m.over and m.round_no < 300:
        m.start_round()
        rd = m.round
        before = m.scores[:]
        while rd.result == PLAYING:
            if rd.legal() == 0:
                rd.forced()
                continue
            s = rd.turn
            mv = ai.choose(m, s, levels[s], work=work)
            if CHECK and not rd.is_legal(mv):
                raise AssertionError("illegal move %d by %s in round %d" % (mv, levels[s], m.round_no))
            m.play(mv)
        m.finish_round()
        if rounds is not None:
            rounds.append([m.scores[i] - before[i] for i in range(rules.sides)])
    return m


def a_won(rules, m, a_side):
    """1 win, 0 loss, None undecided (round cap / no unique winner)."""
    if not m.over:
        return None
    if rules.family == FAM_POINTS or rules.sides == 2:
        if m.winner == a_side:
            return 1
        if m.winner == 255 and m.loser != a_side and rules.family != FAM_POINTS:
            return 1
        return 0
    return 0 if m.loser == a_side else 1


def seats_for(rules, k, a, b):
    """Levels per seat for match k (A in seat/team k % players or k % 2), and A's side."""
    p = rules.players
    if rules.teams:
        first = k & 1
        lv = [a if (s & 1) == first else b for s in range(4)]
        return lv, first
    seat = k % p if p > 2 else k & 1
    lv = [a if s == seat else b for s in range(p)]
    return lv, rules.side(seat)


def run_shard(rules, a, b, matches, seed, work, k, nshards, verbose):
    t = Tally()
    per = rules.players if (rules.players > 2 and not rules.teams) else 2
    for i in range(matches):
        if i % nshards != k:
            continue
        lv, side = seats_for(rules, i, a, b)
        rounds = []
        m = play_match(rules, seed + i // per, lv, work, rounds)
        for g in rounds:
            t.add_round(rules, g, side)
        r = a_won(rules, m, side)
        if r is None:
            t.undecided += 1
            continue
        t.played += 1
        t.wins += r
        if verbose:
            print("match", i, "seed", seed + i // per, "A side", side, "scores", m.scores[:rules.sides],
                  "A wins" if r else "A loses")
    return t


def parse(argv):
    args = {"--variant": None, "--players": "2", "--a": None, "--b": None, "--matches": "100",
            "--seed": "1", "--rollouts": "0", "--jobs": "1", "--python": None, "--shard": None,
            "--goal": None}
    flags = []
    opts = {}
    i = 0
    while i < len(argv):
        x = argv[i]
        if x == "--option" and i + 1 < len(argv):
            kv = argv[i + 1].split("=")
            if len(kv) != 2:
                raise ValueError("--option wants key=value")
            opts[kv[0]] = kv[1]
            i += 2
        elif x in args and i + 1 < len(argv):
            args[x] = argv[i + 1]
            i += 2
        elif x in ("--teams", "--verbose", "--check"):
            flags.append(x)
            i += 1
        elif x in args or x == "--option":
            raise ValueError(x + " wants a value")
        else:
            raise ValueError("unknown argument " + x)
    for key in ("--variant", "--a", "--b"):
        if not args[key]:
            raise ValueError("missing " + key)
    if args["--a"] not in LEVELS:
        raise ValueError("--a must be one of " + ", ".join(LEVELS))
    if args["--b"] not in LEVELS and not args["--b"].startswith(LIBRARY):
        raise ValueError("--b must be one of " + ", ".join(LEVELS) + " or " + LIBRARY + "PLAYER")
    args["--matches"] = cli.whole("--matches", args["--matches"], 1, cli.MAX_COUNT)
    args["--seed"] = cli.whole("--seed", args["--seed"], 0, cli.MAX_SEED - args["--matches"])
    args["--rollouts"] = cli.whole("--rollouts", args["--rollouts"], 0, 1000000)
    args["--jobs"] = cli.whole("--jobs", args["--jobs"], 1, cli.MAX_JOBS)
    args["--players"] = cli.whole("--players", args["--players"], 1, 4)
    if args["--goal"] is not None:
        args["--goal"] = cli.number("--goal", args["--goal"], 0, 100)
    if args["--shard"] is not None:
        args["--shard"] = cli.shard("--shard", args["--shard"])
    if args["--jobs"] > 1:
        if sys.implementation.name != "cpython":
            raise ValueError("--jobs runs shards as subprocesses: CPython only")
        args["--python"] = cli.executable("--python", args["--python"] or sys.executable)
    return args, flags, opts


def _spawn(argv, args, jobs):
    interp = args["--python"] or sys.executable
    base = []
    i = 0
    while i < len(argv):   # drop --jobs/--python; each child plays one shard
        if argv[i] in ("--jobs", "--python"):
            i += 2
            continue
        base.append(argv[i])
        i += 1
    return shards([interp, "-m", "tools.arena"] + base, jobs)


def _library(args, flags, rules, a, b, matches, seed, work, jobs):
    """A against a player of the PyPI dominoes library, in that library's game (4-player team Block)."""
    if (rules.vid, rules.players, rules.teams) != ("block", 4, True):
        return cli.say("arena", "the dominoes library plays 4-player team Block: "
                                "--variant block --players 4 --teams")
    from tools.arena import dominoes_adapter as da
    if b not in da.OPPONENTS:
        return cli.say("arena", "dominoes players: " + ", ".join(da.OPPONENTS))
    argv = ["--a", a, "--b", b, "--matches", str(matches), "--seed", str(seed), "--rollouts", str(work),
            "--jobs", str(jobs)] + (["--verbose"] if "--verbose" in flags else [])
    if args["--goal"] is not None:
        argv += ["--goal", str(args["--goal"])]
    if args["--shard"]:
        argv += ["--shard", "%d/%d" % args["--shard"]]
    return da.main(argv)


def main(argv):
    if "--help" in argv or "-h" in argv:
        return cli.usage(USAGE, globals())
    baselines.install()
    rng32.install()
    try:
        args, flags, opts = parse(argv)
        rules = Rules(args["--variant"], args["--players"], "--teams" in flags, opts)
    except (ValueError, RulesError) as e:
        return cli.say("arena", str(e) + " (" + USAGE + ")")
    matches = args["--matches"]
    seed = args["--seed"]
    work = args["--rollouts"] or device_rollouts(rules)
    jobs = args["--jobs"]
    a = args["--a"]
    b = args["--b"]
    if b.startswith(LIBRARY):
        return _library(args, flags, rules, a, b[len(LIBRARY):], matches, seed, work, jobs)
    global CHECK
    CHECK = "--check" in flags
    if args["--shard"]:
        k, nsh = args["--shard"]
        t = run_shard(rules, a, b, matches, seed, work, k, nsh, "--verbose" in flags)
        print(t.line())
        return 0
    if jobs > 1:
        try:
            t = _spawn(argv, args, jobs)
        except RuntimeError as e:
            sys.stderr.write("arena: " + str(e) + "\n")
            return 1
    else:
        t = run_shard(rules, a, b, matches, seed, work, 0, 1, "--verbose" in flags)
    opts = rules.options_text()
    label = "%s %dp%s%s: %s vs %s, hard budget %d rollouts/move, seed %d" % (
        args["--variant"], rules.players, " teams" if rules.teams else "", (" " + opts) if opts else "",
        a, b, work, seed)
    if t.undecided:
        label += ", %d undecided" % t.undecided
    print(label)
    p, lo, hi = wilson(t.rwins, t.rounds)
    print("rounds: A's side best in %d of %d: %.1f%% (95%% Wilson %.1f%%-%.1f%%)" % (
        t.rwins, t.rounds, 100 * p, 100 * lo, 100 * hi))
    k = rules.sides - 1
    mean, mlo, mhi = mean_interval(t.rounds, t.msum / k, t.msq / (k * k))
    print("points margin per round: %+.2f (95%% %+.2f..%+.2f)" % (mean, mlo, mhi))
    p, lo, hi = wilson(t.wins, t.played)
    print("A (%s) wins %d of %d: %.1f%% (95%% Wilson %.1f%%-%.1f%%)" % (
        a, t.wins, t.played, 100 * p, 100 * lo, 100 * hi))
    if args["--goal"] is not None:
        line, status = goal_line(t.wins, t.played, args["--goal"])
        print(line)
        return status
    return 0

