"""The arena's yardsticks: random, and greedy (largest immediate in-play score, then the heaviest tile).
Host tools only: `install()` adds them to ai.BASELINES, so ai.choose accepts them as levels; the
handheld offers easy, medium and hard."""
import ai
from ai.policy import move_tiles, apply, inplay_points, tiles_weight

NAMES = ("random", "greedy")


def install():
    """Make "random" and "greedy" levels of ai.choose (idempotent)."""
    ai.BASELINES["random"] = pick_random
    ai.BASELINES["greedy"] = pick_greedy


def pick_random(ctx, match, seat, rng, buf, n):
    return buf[rng.below(n)]


def pick_greedy(ctx, match, seat, rng, buf, n):
    """Largest immediate in-play score, then the heaviest tile(s)."""
    rd = match.round
    lay = rd.layout
    scratch = ctx.lay
    r = match.rules
    best = buf[0]
    bv = -1
    for i in range(n):
        m = buf[i]
        v = tiles_weight(move_tiles(lay, m))
        if r.inplay_mod:
            scratch.copy_from(lay)
            apply(scratch, m)
            v += inplay_points(r, scratch) * 1000
        if v > bv:
            bv = v
            best = m
    return best
