"""What the arena counts and how it reports it: a shard's Tally, the 95% intervals, the goal line, and
the shards run side by side as subprocesses (CPython). Shared by the arena (tools/arena/arena.py) and
the series against the PyPI dominoes library (tools/arena/dominoes_adapter.py)."""
from domino.rules import FAM_POINTS


def wilson(w, n, z=1.96):
    if n == 0:
        return 0.0, 0.0, 1.0
    p = w / n
    d = 1 + z * z / n
    c = (p + z * z / (2 * n)) / d
    h = z * ((p * (1 - p) / n + z * z / (4 * n * n)) ** 0.5) / d
    return p, c - h, c + h


def goal_line(w, n, goal):
    """'goal 92%: met' (and whether the whole 95% interval clears it); the exit status: 0 met, 1 not."""
    p, lo, hi = wilson(w, n)
    if 100 * p < goal:
        return "goal %g%%: NOT MET (%.1f%%)" % (goal, 100 * p), 1
    return "goal %g%%: met (%.1f%%; the 95%% interval %s)" % (
        goal, 100 * p, "clears it" if 100 * lo >= goal else "reaches below it"), 0


def mean_interval(n, total, squares, z=1.96):
    """Mean of n values (given their sum and sum of squares) and its 95% normal interval."""
    if n == 0:
        return 0.0, 0.0, 0.0
    mean = total / n
    var = (squares - n * mean * mean) / (n - 1) if n > 1 else 0.0
    h = z * ((var if var > 0 else 0.0) / n) ** 0.5
    return mean, mean - h, mean + h


class Tally:
    """What a shard counts: matches won/decided/undecided; rounds won/played; margin sum/squares."""
    FIELDS = ("wins", "played", "undecided", "rwins", "rounds", "msum", "msq")

    def __init__(self):
        for f in self.FIELDS:
            setattr(self, f, 0)

    def line(self):
        return "SHARD " + " ".join(str(getattr(self, f)) for f in self.FIELDS)

    def add_line(self, line):
        for f, x in zip(self.FIELDS, line.split()[1:]):
            setattr(self, f, getattr(self, f) + int(x))

    def add_round(self, rules, gains, side):
        """One round's score gains per side, from A's side `side`: won when A's gain is the single best
        (penalty families: the single smallest); margin: A's gain minus the others' mean."""
        good = 1 if rules.family == FAM_POINTS else -1
        mine = gains[side] * good
        others = [gains[i] * good for i in range(len(gains)) if i != side]
        self.rounds += 1
        if mine > max(others):
            self.rwins += 1
        # margins in 1/sides-ths keep every sum an int (the mean of the others' gains may be a fraction)
        margin = mine * len(others) - sum(others)
        self.msum += margin
        self.msq += margin * margin


def shards(cmd, jobs):
    """Run `cmd --shard K/jobs` for every K at once; their SHARD lines summed in a Tally (their match
    lines printed). RuntimeError when one cannot start or fails."""
    import subprocess
    from tools import paths
    procs = []
    try:
        for k in range(jobs):
            procs.append(subprocess.Popen(cmd + ["--shard", "%d/%d" % (k, jobs)], stdout=subprocess.PIPE,
                                          universal_newlines=True, env=paths.env()))
    except OSError as e:
        for p in procs:
            p.kill()
        raise RuntimeError("cannot run %s: %s" % (cmd[0], e.strerror or e))
    t = Tally()
    for p in procs:
        out, _ = p.communicate()
        for line in out.splitlines():
            if line.startswith("SHARD "):
                t.add_line(line)
            elif line.startswith("match "):
                print(line)
        if p.returncode:
            last = [ln for ln in out.splitlines() if ln.strip()][-1:] or ["no output"]
            raise RuntimeError("a shard failed (exit %d): %s" % (p.returncode, last[0][:200]))
    return t
