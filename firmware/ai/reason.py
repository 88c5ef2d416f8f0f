"""One-line reasons for a hinted move, from what the move visibly does (<= 40 or <= 16 chars)."""
from domino.tiles import LO, popcount, name, pips, first
from .policy import move_tiles, apply, inplay_points, suits_of, _setup_points
from .knowledge import void_tiles
try:
    from micropython import const
except ImportError:  # CPython
    def const(x):
        return x

_ALL = const(0xFFFFFFF)      # = domino.tiles.ALL
_DOUBLES = const(0xA442081)  # = domino.tiles.DOUBLES
_NONE = const(255)           # = domino.tiles.NONE
_FAM_POINTS = const(0)       # = domino.rules.FAM_POINTS
_TILE_MASK = const(0x1F)  # = domino.round._TILE_MASK


def _nums(bits):
    out = ""
    for e in range(7):
        if (bits >> e) & 1:
            out += ("," if out else "") + str(e)
    return out


def explain(ctx, match, seat, m, short=False):
    rd = match.round
    r = match.rules
    lay = rd.layout
    hand = rd.hands[seat]
    tiles = move_tiles(lay, m)
    after = hand & ~tiles
    scratch = ctx.lay
    scratch.copy_from(lay)
    apply(scratch, m)
    n = rd.legal(ctx.buf)
    t = m & _TILE_MASK
    if popcount(tiles) == 1:
        t = first(tiles)
    tn = name(t)
    if not after:
        if short:
            return "Goes out"
        return "Goes out: " + ("wins the round" if r.family == _FAM_POINTS else "counts nothing")
    if n == 1:
        if lay.lead == _NONE and rd.lead_tile != _NONE:
            return ("Must lead " + tn) if short else "The rules make you lead " + tn
        return "Only move" if short else "Only legal move: " + tn
    pts = inplay_points(r, scratch)
    if pts:
        if short:
            return "Scores " + str(pts)
        if r.family == _FAM_POINTS and match.scores[r.side(seat)] + pts >= r.target:
            return "Scores " + str(pts) + ": wins the match"
        return "Scores " + str(pts) + " now"
    open_s = scratch.open_suits()
    nxt = (seat + 1) % r.players
    unseen = _ALL & ~hand & ~lay.played
    if not ((after | unseen) & scratch.playable()):
        return "Blocks game" if short else "Blocks the game: lowest hand wins"
    if r.side(nxt) != r.side(seat) and open_s and rd.void[nxt] & open_s == open_s:
        nums = _nums(open_s)
        if short:
            return "Blocks " + nums + "s" if len(nums) < 6 else "Blocks next"
        return "Blocks " + nums + "s: next player lacks " + nums
    if r.inplay_mod and r.side(nxt) != r.side(seat):
        cand = unseen & ~void_tiles(rd.void[nxt])
        mine = _setup_points(r, scratch, ctx.lay2, cand)
        worst = 0
        buf = ctx.buf
        for i in range(n):
            x = buf[i]
            if x == m:
                continue
            scratch.copy_from(lay)
            apply(scratch, x)
            p = _setup_points(r, scratch, ctx.lay2, cand)
            if p > worst:
                worst = p
        if worst > mine:
            if short:
                return "Denies " + str(worst)
            if not mine:
                return "Keeps next player from scoring " + str(worst)
            return "Next player can score " + str(mine) + ", not " + str(worst)
        scratch.copy_from(lay)
        apply(scratch, m)
    if tiles & _DOUBLES and LO[t] >= 4:
        return ("Dumps " + tn) if short else "Dumps heavy double " + tn
    if r.teams:
        p = r.partner(seat)
        if rd.void[p] & open_s != open_s and rd.void[p]:
            return "Helps partner" if short else "Leaves partner a number to play"
    sp = pips(tiles)
    if sp >= 9:
        return ("Sheds " + str(sp) + " pips") if short else "Sheds heavy " + tn + " (" + str(sp) + " pips)"
    k = popcount(suits_of(after))
    fit = popcount(after & scratch.playable())
    if fit >= 2:
        if short:
            return "Keeps " + str(fit) + " plays"
        return "Keeps " + str(fit) + " tiles playable next turn"
    if tiles & _DOUBLES:
        return ("Dumps " + tn) if short else "Gets double " + tn + " out of the way"
    return ("Keeps " + str(k) + " suits") if short else "Keeps " + str(k) + " suits alive"
