"""The engine allocates nothing per move (MicroPython only: CPython has no gc.mem_alloc)."""
import gc
from domino.rules import Rules
from domino.round import Round, PLAYING
from domino.rng import Rng

_DECK = bytearray(28)


def _rounds(rd, rng, pol, n):
    moves = 0
    for _ in range(n):
        rd.deal(rng, _DECK)
        rd.lead_by_rule()
        while rd.result == PLAYING:
            k = rd.legal()
            if k == 0:
                rd.forced()
            else:
                rd.play(rd.buf[pol.below(k)])
                moves += 1
    return moves


def test_no_allocation_per_move():
    if not hasattr(gc, "mem_alloc"):
        return                                    # CPython: nothing to measure
    for vid, p, n in (("draw", 2, 1000), ("fives", 2, 300), ("goat", 4, 300), ("donkey", 3, 200),
                      ("telephone", 2, 200), ("blitz", 4, 200)):
        rd = Round(Rules(vid, p))
        rng = Rng(5)
        pol = Rng(6)
        _rounds(rd, rng, pol, 10)                 # warm-up
        gc.collect()
        gc.disable()
        try:
            before = gc.mem_alloc()
            moves = _rounds(rd, rng, pol, n)
            used = gc.mem_alloc() - before
        finally:
            gc.enable()
        assert used <= 64, vid + ": " + str(used) + " bytes over " + str(moves) + " moves"
