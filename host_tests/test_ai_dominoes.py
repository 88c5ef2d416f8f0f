"""The adapter that seats the project's AI in a PyPI `dominoes` (abw333 6.1.0) game: the view it
rebuilds is the seat's own (legal moves equal the library's, hidden hands never read), every move it
returns is legal there, results repeat for a seed, and a smoke run of Hard against the library's players
(the long runs: `make arena-long`)."""
import os
import random
import subprocess
import sys

import pytest

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

dominoes = pytest.importorskip("dominoes")

from tools.arena import dominoes_adapter as da  # noqa: E402


def games(seed, n, player=dominoes.players.double):
    """n library games, each stopped at a random point of play (the position a seat decides in)."""
    rng = random.Random(seed)
    out = []
    for k in range(n):
        random.seed(seed * 100 + k)
        g = dominoes.Game.new(starting_domino=dominoes.Domino(6, 6) if k % 2 else None,
                              starting_player=k % 4)
        stop = rng.randrange(0, 24)
        while g.result is None and len(g.moves) < stop:
            player(g)
            g.make_move(*g.valid_moves[0])
        if g.result is None:
            out.append((g, 1 if k % 2 else 2))
    return out


def test_view_replays_the_public_moves_and_has_the_librarys_legal_moves():
    rules = da.ProjectSeat("hard", 10).rules
    checked = 0
    for g, game_no in games(1, 60):
        m = da.view(g, rules, (10, 20), game_no)
        rd = m.round
        assert rd.turn == g.turn
        assert rd.hands[g.turn] == da.mask_of(g.hands[g.turn])
        for s in range(4):
            assert bin(rd.hands[s]).count("1") == len(g.hands[s])
        assert m.scores[:2] == [10, 20]
        da.check_same_moves(g, rd)
        checked += 1
    assert checked > 40


def test_hidden_hands_are_never_read():
    """Deal the tiles the seat cannot see again (keeping sizes and the numbers each seat passed on):
    the project's view and its move stay the same."""
    seat = da.ProjectSeat("hard", 60, seed=3)
    checked = 0
    for g, game_no in games(2, 30, dominoes.players.bota_gorda):
        if len(g.valid_moves) < 2:
            continue
        want = seat.choose(g, (0, 0), game_no)
        me = g.turn
        missing = g.missing_values()
        pool = [d for s in range(4) if s != me for d in g.hands[s]]
        sizes = [len(g.hands[s]) for s in range(4)]
        rng = random.Random(checked)
        for _ in range(500):
            rng.shuffle(pool)
            hands = []
            k = 0
            for s in range(4):
                if s == me:
                    hands.append(g.hands[s])
                else:
                    hands.append(dominoes.Hand(pool[k:k + sizes[s]]))
                    k += sizes[s]
            if all(not dominoes.hand.contains_value(hands[s], v) for s in range(4) for v in missing[s]):
                break
        old = g.hands
        g.hands = hands
        try:
            assert seat.choose(g, (0, 0), game_no) == want
        finally:
            g.hands = old
        checked += 1
    assert checked >= 8


def test_fill_hidden_respects_the_passes():
    from domino.tiles import SUIT
    unseen = (1 << 28) - 1
    voids = [0, 0b0000011, 0b1100000, 0]
    hands = da.fill_hidden(unseen & ~SUIT[3], [None, 7, 7, 7], voids)
    for s in (1, 2, 3):
        assert bin(hands[s]).count("1") == 7
        for n in range(7):
            if (voids[s] >> n) & 1:
                assert not hands[s] & SUIT[n]
    with pytest.raises(da.AdapterError):
        da.fill_hidden(SUIT[0], [None, 7, 0, 0], [0, 1, 0, 0])


def test_every_level_plays_whole_series_with_legal_moves_and_repeats_for_a_seed():
    for level in ("random", "greedy", "medium", "hard"):
        a = da.run_shard(level, "double", 2, 5, 40, 0, 1)
        b = da.run_shard(level, "double", 2, 5, 40, 0, 1)
        assert a.line() == b.line()
        assert a.played == 2 and a.rounds + a.undecided >= 2


def test_the_library_protocol_puts_the_move_first():
    seat = da.ProjectSeat("medium", 0)
    for g, _ in games(4, 10):
        before = set(g.valid_moves)
        seat(g)
        assert set(g.valid_moves) == before
        g.make_move(*g.valid_moves[0])


def test_smoke_hard_team_against_the_librarys_players_through_the_arena():
    """A short seeded run of the arena's dominoes path (the 600-hand targets: make arena-long)."""
    for opp in ("double", "bota_gorda"):
        cmd = [sys.executable, "-m", "tools.arena", "--variant", "block",
               "--players", "4", "--teams", "--a", "hard", "--b", "dominoes." + opp, "--matches", "4",
               "--seed", "5", "--rollouts", "120"]
        out = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, universal_newlines=True,
                             timeout=300)
        assert out.returncode == 0, out.stderr[-2000:]
        lines = out.stdout.strip().split("\n")
        assert lines[-3].startswith("hands: project team won ") and "95% Wilson" in lines[-3]
        assert lines[-2].startswith("points margin per hand: ")
        assert lines[-1].startswith("A (hard) wins ") and "of 4" in lines[-1]
