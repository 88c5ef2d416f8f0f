"""The rollout simulator agrees with the engine, move by move, in every variant."""
import os

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

import pytest  # noqa: E402
from domino.rules import Rules  # noqa: E402
from domino.match import Match  # noqa: E402
from domino.rng import Rng  # noqa: E402
from domino.round import MULTI, CLOSE, PLAYING  # noqa: E402
from ai import rollout as ro  # noqa: E402
from tools.arena.selfplay import combos  # noqa: E402

FIELDS = [("end", ro.S_END), ("dbl", ro.S_DBL), ("n", ro.S_NA), ("open", ro.S_OP)]


def full_state(st, rd, rules):
    ro.load(st, rd, rules)
    for s in range(4):
        st[s] = rd.hands[s]
    sm = 0
    for i in range(rd.sp, rd.sn):
        st[ro.S_STK + i - rd.sp] = rd.stock[i]
    lim = rd.drawable()
    for i in range(lim):
        sm |= 1 << rd.stock[rd.sp + i]
    st[ro.S_SP] = 0
    st[ro.S_LIM] = lim
    st[ro.S_SMASK] = sm


def compare(st, rd, where):
    lay = rd.layout
    for a in range(4):
        op = 1 if lay.st[a] == 1 else 0
        assert st[ro.S_OP + a] == op, where + " open %d" % a
        if op:
            assert st[ro.S_END + a] == lay.end[a], where + " end %d" % a
            assert st[ro.S_DBL + a] == lay.dbl[a], where + " dbl %d" % a
        assert st[ro.S_NA + a] == lay.n[a], where + " n %d" % a
    assert st[ro.S_SPIN] == lay.spin, where
    assert st[ro.S_RES] == rd.result, where + " result"
    if rd.result == 1:
        assert st[ro.S_WIN] == rd.winner, where
    elif rd.result == 2:
        assert st[ro.S_FISH] == rd.fisher, where
    else:
        assert st[ro.S_TURN] == rd.turn, where + " turn"
    for s in range(4):
        assert st[s] == rd.hands[s], where
        assert st[ro.S_IP + s] == rd.inplay[s], where + " inplay"
    assert st[ro.S_PLAYED] == lay.played, where


@pytest.mark.parametrize("vid,players,teams", list(combos()))
def test_apply_move_matches_engine(vid, players, teams):
    rules = Rules(vid, players, teams)
    tb = ro.make_tables(rules)
    st = ro.new_state()
    for g in range(10):
        m = Match(rules, 100 + g)
        pol = Rng(g + 1)
        m.start_round()
        rd = m.round
        k = 0
        while rd.result == PLAYING:
            n = rd.legal()
            if n == 0:
                rd.forced()
                continue
            # prefer the rare moves (several doubles, closes) when there are any
            rare = [rd.buf[i] for i in range(n) if rd.buf[i] & (MULTI | CLOSE)]
            pool = rare if rare and pol.below(2) else [rd.buf[i] for i in range(n)]
            mv = pool[pol.below(len(pool))]
            full_state(st, rd, rules)
            ro.play_move(st, tb, mv)
            m.play(mv)
            compare(st, rd, "%s game %d move %d" % (vid, g, k))
            k += 1


@pytest.mark.parametrize("vid,players,teams", [("draw", 2, False), ("fives", 2, False), ("goat", 4, True),
                                                ("block", 4, False), ("donkey", 3, False),
                                                ("blitz", 4, False)])
def test_playout_finishes_and_conserves_tiles(vid, players, teams):
    rules = Rules(vid, players, teams)
    tb = ro.make_tables(rules)
    st = ro.new_state()
    for g in range(20):
        m = Match(rules, 300 + g)
        m.start_round()
        rd = m.round
        full_state(st, rd, rules)
        st[ro.S_RNG] = g
        res = ro.playout(st, tb)
        assert res in (1, 2)
        hands = 0
        for s in range(4):
            assert hands & st[s] == 0
            hands |= st[s]
        stock_left = 0
        for i in range(st[ro.S_SP], rd.sn - rd.sp):
            stock_left |= 1 << st[ro.S_STK + i]
        assert hands & st[ro.S_PLAYED] == 0
        assert (hands | st[ro.S_PLAYED] | stock_left | rd.out_of_play) == 0xFFFFFFF
