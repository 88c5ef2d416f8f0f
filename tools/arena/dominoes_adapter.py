"""Seat the project's AI in a game of the PyPI `dominoes` library (abw333, 6.1.0): a yardstick nobody
here wrote. The library plays 4-player team Block (7 tiles each, no stock, the [6|6] leads the first
game, a series to a target); its players (`dominoes.players.double`, `bota_gorda`, ...) sit in the
other seats.

    python -m tools.arena.dominoes_adapter --a hard --b double --matches 100 --seed 1 [--rollouts N]
        [--goal PCT] [--jobs J] [--verbose]

(or through the arena, python -m tools.arena: `--variant block --players 4 --teams --b dominoes.double`).

Each decision rebuilds the project's view from what the seat may know: its own hand, the public moves
(plays and passes, `game.moves`), who started, the other hands' sizes and the series score. The other
hands are filled for the replay with the unseen tiles, matched to the seats so that every number a
seat passed on stays out of its hand (any such filling replays the public moves exactly; the AI reads
only their sizes). The project's engine replays the moves, then its legal moves must be exactly the
library's, and the AI's move must be one of them (both checked at every decision). Matches go in
pairs over the same deals (Python's `random` seeded per deal), the project's team in seats 0+2 and
then 1+3. The report: hands won by the project's team (ties, a blocked hand with equal counts, are
left out), its mean points margin per hand, and series won, each with a 95% interval; `--goal PCT`
checks the hands won against PCT (exit status 1 below it).
"""
import random
import sys

import dominoes
import ai
from domino.match import Match
from domino.round import PLAYING, MULTI
from domino.rules import Rules
from domino.tiles import ALL, SUIT, tile
from tools import cli
from tools.arena import baselines, rng32
from tools.arena.budget import device_rollouts
from tools.arena.stats import Tally, goal_line, mean_interval, shards, wilson

OPPONENTS = ("double", "bota_gorda", "random", "identity", "reverse")
TARGET = 100


class AdapterError(AssertionError):
    """The project's view disagrees with the library's game (a bug in the adapter or the engine)."""


def tile_of(d):
    return tile(min(d.first, d.second), max(d.first, d.second))


def mask_of(hand):
    m = 0
    for d in hand:
        m |= 1 << tile_of(d)
    return m


def fill_hidden(unseen, sizes, voids):
    """Masks of unseen tiles per seat (sizes[s] each; None: not filled) avoiding the numbers in voids[s]:
    a bipartite matching of tiles to seat slots by augmenting paths (one always exists: the real deal)."""
    slots = []
    for s in range(4):
        if sizes[s] is not None:
            slots += [s] * sizes[s]
    allow = []
    for s in range(4):
        bad = 0
        for n in range(7):
            if (voids[s] >> n) & 1:
                bad |= SUIT[n]
        allow.append(unseen & ~bad)
    tiles = [t for t in range(28) if (unseen >> t) & 1]
    owner = {}                                  # slot index -> tile

    def augment(t, seen):
        for k, s in enumerate(slots):
            if (allow[s] >> t) & 1 and k not in seen:
                seen.add(k)
                if k not in owner or augment(owner[k], seen):
                    owner[k] = t
                    return True
        return False

    for t in tiles:
        augment(t, set())
    if len(owner) != len(slots):
        raise AdapterError("no filling of the hidden hands fits the passes")
    out = [0, 0, 0, 0]
    for k, t in owner.items():
        out[slots[k]] |= 1 << t
    return out


def view(game, rules, scores, game_no, seed=1):
    """The project's Match as the player to move in `game` sees it (see the module docstring)."""
    me = game.turn
    turn = game.starting_player
    played = [0, 0, 0, 0]
    voids = [0, 0, 0, 0]
    seq = []
    left = right = None
    for mv in game.moves:                       # who played what, and the numbers each passed on
        if mv is None:
            voids[turn] |= (1 << left) | (1 << right)
            seq.append((turn, None, None))
        else:
            d, on_left = mv
            t = tile_of(d)
            played[turn] |= 1 << t
            seq.append((turn, t, None if left is None else (left if on_left else right)))
            if left is None:
                left, right = d.first, d.second
            elif on_left:
                left = d.second if d.first == left else d.first
            else:
                right = d.second if d.first == right else d.first
        turn = (turn + 1) % 4
    if turn != me:
        raise AdapterError("the public moves do not lead to the seat to move")
    mine = mask_of(game.hands[me])
    table = played[0] | played[1] | played[2] | played[3]
    sizes = [None if s == me else len(game.hands[s]) for s in range(4)]
    filler = fill_hidden(ALL & ~mine & ~table, sizes, voids)
    hands = [played[s] | (mine if s == me else filler[s]) for s in range(4)]
    m = Match(rules, seed)
    m.scores[0], m.scores[1] = scores[0], scores[1]
    if game_no > 1:                             # a later game: its starter led any tile (not by rule)
        m.round_no = game_no - 1
        m.prev_result = 1
        m.prev_winner = game.starting_player
    m.start_round(hands, b"", 0, game.starting_player)
    rd = m.round
    for seat, t, end in seq:
        if rd.result != PLAYING or rd.turn != seat:
            raise AdapterError("replay out of step at seat %d" % seat)
        if t is None:
            if rd.legal():
                raise AdapterError("seat %d passed with a legal move in the replay" % seat)
            m.forced()
            continue
        mv = t                                  # the lead
        if rd.layout.size:                      # the arm that shows the library's end number
            mv = t | (0 if rd.layout.end[0] == end else 1) << 5
        if not rd.is_legal(mv):
            raise AdapterError("move %d of seat %d is not legal in the replay" % (t, seat))
        m.play(mv)
    if rd.result != PLAYING or rd.turn != me:
        raise AdapterError("the replay ended or is at the wrong seat")
    lay = rd.layout
    if lay.size and sorted((lay.end[0], lay.end[1])) != sorted((left, right)):
        raise AdapterError("the replayed ends differ from the library's board")
    return m


def to_library(game, rd, mv):
    """The library's (domino, left) for the project's move mv; AdapterError when it is not legal there."""
    if mv & MULTI or not rd.is_legal(mv):
        raise AdapterError("the AI's move %d is not legal in the project's view" % mv)
    t = mv & 31
    on_left = _on_left(game, rd, mv)
    for d, lf in game.valid_moves:
        if tile_of(d) == t and lf == on_left:
            return d, lf
    raise AdapterError("the AI's move %d is not among the library's valid moves" % mv)


def _on_left(game, rd, mv):
    """Whether the project's move mv goes on the library board's left end (True for the lead and when
    both ends show the same number: the library lists such a move once, on the left)."""
    if not rd.layout.size:
        return True
    b = game.board
    return b.left_end() == b.right_end() or rd.layout.end[(mv >> 5) & 3] == b.left_end()


def check_same_moves(game, rd):
    """The project's legal tiles and ends are exactly the library's valid moves."""
    n = rd.legal()
    ours = set()
    for i in range(n):
        mv = rd.buf[i]
        ours.add((mv & 31, _on_left(game, rd, mv)))
    theirs = set((tile_of(d), lf) for d, lf in game.valid_moves)
    if ours != theirs:
        raise AdapterError("legal moves differ: project %s, library %s" % (sorted(ours), sorted(theirs)))


class ProjectSeat:
    """The project's AI at `level` for whichever seat is to move (hard: `work` rollouts per move)."""

    def __init__(self, level, work, seed=1, target=TARGET):
        self.level = level
        self.work = work
        self.seed = seed
        self.rules = Rules("block", 4, True, {"target": target})
        self.decisions = 0

    def choose(self, game, scores, game_no):
        m = view(game, self.rules, scores, game_no, self.seed)
        rd = m.round
        check_same_moves(game, rd)
        s = (self.seed * 7919 + game_no * 131 + len(game.moves)) & 0x3FFFFFFF
        mv = ai.choose(m, rd.turn, self.level, seed=s, work=self.work)
        self.decisions += 1
        return to_library(game, rd, mv)

    def __call__(self, game):
        """The library's player protocol: the chosen move first in game.valid_moves (series score 0)."""
        mv = self.choose(game, (0, 0), 1)
        game.valid_moves = (mv,) + tuple(x for x in game.valid_moves if x != mv)


class LibrarySeat:
    """One of the library's players (a function that orders game.valid_moves, best first)."""

    def __init__(self, name):
        self.fn = getattr(dominoes.players, name)

    def choose(self, game, scores, game_no):
        self.fn(game)
        return game.valid_moves[0]


def deal_seed(seed, pair, game_no):
    return seed * 1000003 + pair * 10007 + game_no


def play_series(seats, seed, pair, target=TARGET):
    """One series with seats[0..3] (objects with choose(game, scores, game_no)); the deals depend only on
    (seed, pair, game number). Returns ([(points for team 0 or minus those for team 1), ...], scores)."""
    random.seed(deal_seed(seed, pair, 1))
    series = dominoes.Series(target_score=target)
    results = []
    game_no = 1
    while True:
        g = series.games[-1]
        while g.result is None:
            g.make_move(*seats[g.turn].choose(g, series.scores, game_no))
        results.append(g.result.points)
        game_no += 1
        random.seed(deal_seed(seed, pair, game_no))
        if series.next_game() is None:
            return results, series.scores


def run_shard(a, b, matches, seed, work, k, nshards, verbose=False, target=TARGET):
    """Matches k, k + nshards, ... of `matches`: match i has the project's team in seats (i & 1) + {0, 2}
    over the deals of pair i // 2. Returns an arena Tally (rounds = hands)."""
    t = Tally()
    ours = ProjectSeat(a, work, seed, target)
    theirs = LibrarySeat(b)
    for i in range(matches):
        if i % nshards != k:
            continue
        side = i & 1
        seats = [ours if (s & 1) == side else theirs for s in range(4)]
        results, scores = play_series(seats, seed, i // 2, target)
        sign = 1 if side == 0 else -1
        for p in results:
            mine = p * sign
            if mine:                              # a tied block scores nobody: left out of hands won
                t.rounds += 1
                t.rwins += mine > 0
            t.msum += mine                        # the margin: what one team scores is the other's loss
            t.msq += mine * mine
        t.played += 1
        t.wins += scores[side] > scores[1 - side]
        t.undecided += len(results) - sum(1 for p in results if p)     # (here: tied hands)
        if verbose:
            print("match", i, "pair", i // 2, "project team", side, "hands", results, "scores", scores)
    return t


def report(t, a, b, work, seed, hands_all):
    print("block 4p teams to %d (PyPI dominoes 6.1.0): %s team vs dominoes.players.%s, hard budget %d "
          "rollouts/move, seed %d" % (TARGET, a, b, work, seed))
    p, lo, hi = wilson(t.rwins, t.rounds)
    print("hands: project team won %d of %d decided (%d tied): %.1f%% (95%% Wilson %.1f%%-%.1f%%)" % (
        t.rwins, t.rounds, t.undecided, 100 * p, 100 * lo, 100 * hi))
    mean, mlo, mhi = mean_interval(hands_all, t.msum, t.msq)
    print("points margin per hand: %+.2f (95%% %+.2f..%+.2f)" % (mean, mlo, mhi))
    p, lo, hi = wilson(t.wins, t.played)
    print("A (%s) wins %d of %d: %.1f%% (95%% Wilson %.1f%%-%.1f%%)" % (
        a, t.wins, t.played, 100 * p, 100 * lo, 100 * hi))


def main(argv):
    if "--help" in argv or "-h" in argv:
        print("usage: " + " ".join(__doc__.split("\n\n")[1].split()) + "\n\n" + __doc__.strip())
        return 0
    baselines.install()
    rng32.install()
    args = {"--a": "hard", "--b": "double", "--matches": "20", "--seed": "1", "--rollouts": "0",
            "--jobs": "1", "--shard": None, "--goal": None}
    verbose = False
    i = 0
    try:
        while i < len(argv):
            if argv[i] == "--verbose":
                verbose = True
                i += 1
            elif argv[i] in args and i + 1 < len(argv):
                args[argv[i]] = argv[i + 1]
                i += 2
            elif argv[i] in args:
                raise ValueError(argv[i] + " wants a value")
            else:
                raise ValueError("unknown argument " + argv[i])
        if args["--a"] not in ai.LEVELS + baselines.NAMES or args["--b"] not in OPPONENTS:
            raise ValueError("--a is a project level, --b one of " + ", ".join(OPPONENTS))
        matches = cli.whole("--matches", args["--matches"], 1, cli.MAX_COUNT)
        seed = cli.whole("--seed", args["--seed"], 0, cli.MAX_SEED)
        work = (cli.whole("--rollouts", args["--rollouts"], 0, 1000000)
                or device_rollouts(Rules("block", 4, True)))
        jobs = cli.whole("--jobs", args["--jobs"], 1, cli.MAX_JOBS)
        goal = None if args["--goal"] is None else cli.number("--goal", args["--goal"], 0, 100)
        shard = None if args["--shard"] is None else cli.shard("--shard", args["--shard"])
    except ValueError as e:
        usage = " ".join(__doc__.split("\n\n")[1].split())
        return cli.say("dominoes_adapter", str(e) + " (usage: " + usage + ")")
    a, b = args["--a"], args["--b"]
    if shard:
        print(run_shard(a, b, matches, seed, work, shard[0], shard[1], verbose).line())
        return 0
    if jobs > 1:
        base = [sys.executable, "-m", "tools.arena.dominoes_adapter", "--a", a, "--b", b,
                "--matches", str(matches),
                "--seed", str(seed), "--rollouts", str(work)] + (["--verbose"] if verbose else [])
        try:
            t = shards(base, jobs)
        except RuntimeError as e:
            sys.stderr.write("dominoes_adapter: " + str(e) + "\n")
            return 1
    else:
        t = run_shard(a, b, matches, seed, work, 0, 1, verbose)
    report(t, a, b, work, seed, t.rounds + t.undecided)
    if goal is not None:
        line, status = goal_line(t.rwins, t.rounds, goal)
        print(line)
        return status
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
