"""Random-vs-random full rounds per second of the peer engines, for `make bench` (python -m tools.bench).

    .venv-bench/bin/python -m tools.bench.peers dominoes|openspiel_block|openspiel_team [--ms 1000]
    .venv-bench/bin/python -m tools.bench.peers versions

Runs in the bench's own environment (.venv-bench: `dominoes` and `open-spiel` from PyPI, see
requirements-bench.txt). Each peer is used through its public API the natural way, one new game per
round so the deal is timed too, until a terminal state (which scores the hand):
- dominoes: `dominoes.Game.new()` (4 players, 7 tiles each, no boneyard: a block hand), then
  `g.make_move(*random.choice(g.valid_moves))` until `g.result`;
- OpenSpiel: `pyspiel.load_game("python_block_dominoes" | "python_team_dominoes")` once, then per round
  `game.new_initial_state()`, chance nodes (the deal) resolved by sampling `chance_outcomes()`, player
  nodes by `random.choice(state.legal_actions())`, until `is_terminal()`.
Prints `rounds R us U moves M` (moves: player actions, the deal's chance actions not counted).
"""
import random
import sys
import time

PEERS = ("dominoes", "openspiel_block", "openspiel_team")


def _dominoes_round(rng, dominoes):
    g = dominoes.Game.new()
    n = 0
    while g.result is None:
        g.make_move(*rng.choice(g.valid_moves))
        n += 1
    return n


def _spiel_round(rng, game):
    st = game.new_initial_state()
    n = 0
    while not st.is_terminal():
        if st.is_chance_node():
            outs = st.chance_outcomes()
            actions = [a for a, _ in outs]
            st.apply_action(rng.choices(actions, [p for _, p in outs])[0])
        else:
            st.apply_action(rng.choice(st.legal_actions()))
            n += 1
    return n


def bench(peer, ms, seed):
    rng = random.Random(seed)
    if peer == "dominoes":
        import dominoes

        def one():
            return _dominoes_round(rng, dominoes)
    else:
        import pyspiel
        import open_spiel.python.games  # noqa: F401  (registers the python_* games)
        game = pyspiel.load_game("python_block_dominoes" if peer == "openspiel_block" else
                                 "python_team_dominoes")

        def one():
            return _spiel_round(rng, game)
    one()                                      # warm-up: lazy imports, first-call caches
    rounds = moves = 0
    budget = ms * 1000000
    t0 = time.perf_counter_ns()
    while True:
        moves += one()
        rounds += 1
        dt = time.perf_counter_ns() - t0
        if dt >= budget:
            break
    print("rounds %d us %d moves %d" % (rounds, dt // 1000, moves))


def versions():
    from importlib.metadata import version
    for dist in ("dominoes", "open-spiel", "numpy"):
        try:
            print(dist, version(dist))
        except Exception:  # not installed: the report says so
            print(dist, "-")


def main(argv):
    if argv[:1] == ["versions"]:
        versions()
        return 0
    usage = "usage: python -m tools.bench.peers %s [--ms MS] [--seed S] | versions" % "|".join(PEERS)
    if argv[:1] in (["--help"], ["-h"]):
        print(usage)
        print(__doc__.strip())
        return 0
    if not argv or argv[0] not in PEERS:
        sys.stderr.write(usage + "\n")
        return 2
    ms, seed = 1000, 1
    rest = argv[1:]
    try:
        while rest:
            if rest[0] not in ("--ms", "--seed"):
                raise ValueError("unknown option " + rest[0])
            if len(rest) < 2 or not rest[1].isdigit():
                raise ValueError("%s wants a whole number%s" % (rest[0],
                                                                ", not %r" % rest[1] if rest[1:] else ""))
            if rest[0] == "--ms":
                ms = int(rest[1])
            else:
                seed = int(rest[1])
            rest = rest[2:]
    except ValueError as e:
        sys.stderr.write("bench_peers: " + str(e) + "\n")
        return 2
    try:
        bench(argv[0], ms, seed)
    except ImportError as e:
        print("bench_peers: %s is not installed here (%s): run `make bench`, it builds .venv-bench"
              % (argv[0], e))
        return 2
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
