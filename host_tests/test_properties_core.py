"""Property tests over random games of every variant: the rules engine keeps its invariants.

Independent re-statements of the rules (not calls into the engine's own helpers) check each step:
tiles conserved, only legal moves, no pass or draw while holding a playable tile, the drawn playable
tile played at once, blocks detected the moment they arise, rounds that end, and points-family sheets
that add up. The checks live in invariants.py, shared with the MicroPython monkey test
(tools/proofs/harness/monkey.py), which runs them after every move made through the real UI.
"""
import os

from hypothesis import given, settings, strategies as st, HealthCheck

from domino import tiles
from domino.rules import Rules, VARIANTS, option_choices, FAM_POINTS
from domino.match import Match
from domino.round import PLAYING
from domino.rng import Rng
from tools.proofs.harness.invariants import (ends_mask, before_forced, after_forced, before_play, after_play,
                                             check_round,
                        check_points_round, tile_count)

COMBOS = []
for row in VARIANTS:
    for p in range(row[2], row[3] + 1):
        COMBOS.append((row[0], p, False))
        if p == 4 and row[4]:
            COMBOS.append((row[0], p, True))


@st.composite
def games(draw):
    vid, players, teams = draw(st.sampled_from(COMBOS))
    opts = {}
    for key, _default, choices in option_choices(vid):
        opts[key] = draw(st.sampled_from(choices))
    if vid in ("draw", "fives") and players > 2 and not teams and opts.get("hand") == 7 and players == 4:
        opts["hand"] = 5
    return vid, players, teams, opts, draw(st.integers(0, 2 ** 30 - 1))


# `make soak` raises this (PROPERTY_EXAMPLES=3000); `make test` keeps a quick smoke run.
EXAMPLES = int(os.environ.get("PROPERTY_EXAMPLES", "120"))


@settings(max_examples=EXAMPLES, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(games())
def test_random_games_keep_the_rules(game):
    vid, players, teams, opts, seed = game
    rules = Rules(vid, players, teams, opts)
    m = Match(rules, seed)
    pol = Rng(seed ^ 0xABC)
    while not m.over and m.round_no < 40:
        m.start_round()
        rd = m.round
        before = list(m.scores)
        steps = 0
        while rd.result == PLAYING:
            steps += 1
            assert steps < 400, "round does not end"
            assert tile_count(rd) == 28
            check_round(rd)
            s = rd.turn
            n = rd.legal()
            if n == 0:
                before_forced(rd)
                had = rd.hands[s]
                after_forced(rd, s, had, rd.forced())
                continue
            assert rd.hands[s] & ends_mask(rd.layout) or rd.layout.lead == tiles.NONE
            mv = rd.buf[pol.below(n)]
            before_play(rd, mv)
            m.play(mv)
            after_play(rd)
        assert tile_count(rd) == 28
        m.finish_round()
        if rules.family == FAM_POINTS:
            check_points_round(m, rd, before)
    if m.over and rules.family == FAM_POINTS:
        assert max(m.scores[:rules.sides]) >= rules.target
        assert m.scores[m.winner] == max(m.scores[:rules.sides])


@settings(max_examples=60, deadline=None)
@given(st.integers(0, 2 ** 30 - 1), st.sampled_from(COMBOS))
def test_same_seed_same_deal(seed, combo):
    vid, players, teams = combo
    a = Match(Rules(vid, players, teams), seed)
    b = Match(Rules(vid, players, teams), seed)
    a.start_round()
    b.start_round()
    assert a.round.hands == b.round.hands and a.round.leader == b.round.leader
    assert bytes(a.round.stock) == bytes(b.round.stock)
    dealt = 0
    for s in range(players):
        assert tiles.popcount(a.round.hands[s]) == a.rules.hand
        dealt |= a.round.hands[s]
    assert tile_count(a.round) == 28


def test_goat_redeal_rule_holds_for_shuffled_deals():
    r = Rules("goat", 2)
    for seed in range(300):
        m = Match(r, seed)
        m.start_round()
        for s in range(2):
            h = m.round.hands[s]
            doubles = sum(1 for n in range(7) if (h >> tiles.DOUBLE[n]) & 1)
            assert doubles < 5
            for n in range(7):
                assert tiles.popcount(h & tiles.SUIT[n]) < 6
