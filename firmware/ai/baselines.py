"""The arena's yardsticks (tools/arena.py): random, and greedy (largest immediate in-play score, then the
heaviest tile). ai.choose accepts them as levels. Host tools only: tools/deploy.py leaves this module
out of a board's tree (HOST_ONLY_FIRMWARE), the handheld offers easy, medium and hard."""
from .policy import move_tiles, apply, inplay_points, tiles_weight


def pick(level, ctx, match, seat, rng, buf, n):
    if level == "random":
        return pick_random(ctx, match, seat, rng, buf, n)
    return pick_greedy(ctx, match, seat, rng, buf, n)


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
