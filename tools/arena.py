"""Arena: AI level A against level B over full matches; the last line is A's win rate with its 95%
Wilson interval.

    python3 tools/arena.py --variant draw --players 2 --a hard --b greedy --matches 1000 --seed 1
        [--teams] [--budget MS] [--jobs J] [--python INTERP] [--shard K/N] [--option key=value] [--check]

Levels: easy, medium, hard, and the baselines random and greedy (largest immediate score, then the
heaviest tile). Matches go in pairs on the same deal seed with A's seats swapped, so seats and the first
player alternate. With 2 players A has one seat; with --teams A is a team (seats 0+2 or 1+3); otherwise
A has one seat and B all the others. A wins when its side wins the match (penalty variants: when it is
not the goat). `--budget` is the hard AI's time per move in ms on this machine (default 5: the device's
500 ms scaled by 1/100). Runs under CPython and MicroPython; `--jobs J` (CPython) plays J shards in
parallel as subprocesses of INTERP (default: this Python; give the micropython binary to measure the
device's code path).
"""
import sys

_here = sys.argv[0].rsplit("/", 1)[0] if "/" in sys.argv[0] else "."
sys.path.insert(0, _here + "/../firmware")
sys.path.insert(0, _here)

try:
    import cli  # noqa: E402
except ImportError:   # imported as tools.<name> (tests)
    from tools import cli  # noqa: E402

from domino.rules import Rules, RulesError, FAM_POINTS  # noqa: E402
from domino.match import Match  # noqa: E402
from domino.round import PLAYING  # noqa: E402
import ai  # noqa: E402

USAGE = ("usage: arena.py --variant V --players N --a LEVEL --b LEVEL --matches M --seed S [--teams] "
         "[--budget MS] [--jobs J] [--python INTERP] [--shard K/N] [--option key=value] [--check]")
LEVELS = ai.LEVELS + ai.BASELINES
CHECK = False     # --check: verify every move is legal (soak)


def play_match(rules, seed, levels, budget):
    """levels: per seat. Returns the finished Match."""
    m = Match(rules, seed)
    decisions = 0
    while not m.over and m.round_no < 300:
        m.start_round()
        rd = m.round
        while rd.result == PLAYING:
            if rd.legal() == 0:
                rd.forced()
                continue
            s = rd.turn
            mv = ai.choose(m, s, levels[s], budget)
            if CHECK and not rd.is_legal(mv):
                raise AssertionError("illegal move %d by %s in round %d" % (mv, levels[s], m.round_no))
            m.play(mv)
            decisions += 1
        m.finish_round()
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


def wilson(w, n, z=1.96):
    if n == 0:
        return 0.0, 0.0, 1.0
    p = w / n
    d = 1 + z * z / n
    c = (p + z * z / (2 * n)) / d
    h = z * ((p * (1 - p) / n + z * z / (4 * n * n)) ** 0.5) / d
    return p, c - h, c + h


def run_shard(rules, a, b, matches, seed, budget, k, nshards, verbose):
    wins = 0
    played = 0
    undecided = 0
    per = rules.players if (rules.players > 2 and not rules.teams) else 2
    for i in range(matches):
        if i % nshards != k:
            continue
        lv, side = seats_for(rules, i, a, b)
        m = play_match(rules, seed + i // per, lv, budget)
        r = a_won(rules, m, side)
        if r is None:
            undecided += 1
            continue
        played += 1
        wins += r
        if verbose:
            print("match", i, "seed", seed + i // per, "A side", side, "scores", m.scores[:rules.sides],
                  "A wins" if r else "A loses")
    return wins, played, undecided


def parse(argv):
    args = {"--variant": None, "--players": "2", "--a": None, "--b": None, "--matches": "100",
            "--seed": "1", "--budget": "5", "--jobs": "1", "--python": None, "--shard": None}
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
    for key in ("--a", "--b"):
        if args[key] not in LEVELS:
            raise ValueError(key + " must be one of " + ", ".join(LEVELS))
    args["--matches"] = cli.whole("--matches", args["--matches"], 1, cli.MAX_COUNT)
    args["--seed"] = cli.whole("--seed", args["--seed"], 0, cli.MAX_SEED - args["--matches"])
    args["--budget"] = cli.whole("--budget", args["--budget"], 1, 60000)
    args["--jobs"] = cli.whole("--jobs", args["--jobs"], 1, cli.MAX_JOBS)
    args["--players"] = cli.whole("--players", args["--players"], 1, 4)
    if args["--shard"] is not None:
        args["--shard"] = cli.shard("--shard", args["--shard"])
    if args["--jobs"] > 1:
        if sys.implementation.name != "cpython":
            raise ValueError("--jobs runs shards as subprocesses: CPython only")
        args["--python"] = cli.executable("--python", args["--python"] or sys.executable)
    return args, flags, opts


def _spawn(argv, args, jobs):
    import subprocess
    interp = args["--python"] or sys.executable
    base = []
    i = 0
    while i < len(argv):   # drop --jobs/--python; each child plays one shard
        if argv[i] in ("--jobs", "--python"):
            i += 2
            continue
        base.append(argv[i])
        i += 1
    procs = []
    try:
        for k in range(jobs):
            procs.append(subprocess.Popen([interp, sys.argv[0]] + base + ["--shard", "%d/%d" % (k, jobs)],
                                          stdout=subprocess.PIPE, universal_newlines=True))
    except OSError as e:
        for p in procs:
            p.kill()
        raise RuntimeError("cannot run %s: %s" % (interp, e.strerror or e))
    wins = played = und = 0
    for p in procs:
        out, _ = p.communicate()
        for line in out.splitlines():
            if line.startswith("SHARD "):
                f = line.split()
                wins += int(f[1])
                played += int(f[2])
                und += int(f[3])
            elif line.startswith("match "):
                print(line)
        if p.returncode:
            last = [ln for ln in out.splitlines() if ln.strip()][-1:] or ["no output"]
            raise RuntimeError("a shard failed (exit %d): %s" % (p.returncode, last[0][:200]))
    return wins, played, und


def main(argv):
    try:
        args, flags, opts = parse(argv)
        rules = Rules(args["--variant"], args["--players"], "--teams" in flags, opts)
    except (ValueError, RulesError) as e:
        return cli.say("arena", str(e) + " (" + USAGE + ")")
    matches = args["--matches"]
    seed = args["--seed"]
    budget = args["--budget"]
    jobs = args["--jobs"]
    a = args["--a"]
    b = args["--b"]
    global CHECK
    CHECK = "--check" in flags
    if args["--shard"]:
        k, nsh = args["--shard"]
        w, n, u = run_shard(rules, a, b, matches, seed, budget, k, nsh, "--verbose" in flags)
        print("SHARD %d %d %d" % (w, n, u))
        return 0
    if jobs > 1:
        try:
            w, n, u = _spawn(argv, args, jobs)
        except RuntimeError as e:
            sys.stderr.write("arena: " + str(e) + "\n")
            return 1
    else:
        w, n, u = run_shard(rules, a, b, matches, seed, budget, 0, 1, "--verbose" in flags)
    p, lo, hi = wilson(w, n)
    opts = rules.options_text()
    label = "%s %dp%s%s: %s vs %s, budget %d ms" % (
        args["--variant"], rules.players, " teams" if rules.teams else "", (" " + opts) if opts else "",
        a, b, budget)
    if u:
        label += ", %d undecided" % u
    print(label)
    print("A (%s) wins %d of %d: %.1f%% (95%% Wilson %.1f%%-%.1f%%)" % (a, w, n, 100 * p, 100 * lo, 100 * hi))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
