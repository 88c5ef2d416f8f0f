"""One-line reasons for a hinted move, from what the move visibly does (<= 40 or <= 16 chars), in
the player's language: _tr asks ui.lang only when it is loaded (another language than English), so
the AI imports nothing of the UI."""
import sys
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


def _tr(s):
    lang = sys.modules.get("ui.lang")
    return lang.tr(s) if lang else s


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
            return _tr("Goes out")
        return _tr("Goes out: {0}").format(
            _tr("wins the round" if r.family == _FAM_POINTS else "counts nothing"))
    if n == 1:
        if lay.lead == _NONE and rd.lead_tile != _NONE:
            return _tr("Must lead {0}" if short else "The rules make you lead {0}").format(tn)
        return _tr("Only move") if short else _tr("Only legal move: {0}").format(tn)
    pts = inplay_points(r, scratch)
    if pts:
        if short:
            return _tr("Scores {0}").format(pts)
        if r.family == _FAM_POINTS and match.scores[r.side(seat)] + pts >= r.target:
            return _tr("Scores {0}: wins the match").format(pts)
        return _tr("Scores {0} now").format(pts)
    open_s = scratch.open_suits()
    nxt = (seat + 1) % r.players
    unseen = _ALL & ~hand & ~lay.played
    if not ((after | unseen) & scratch.playable()):
        return _tr("Blocks game" if short else "Blocks the game: lowest hand wins")
    if r.side(nxt) != r.side(seat) and open_s and rd.void[nxt] & open_s == open_s:
        nums = _nums(open_s)
        if short:
            return _tr("Blocks {0}s").format(nums) if len(nums) < 6 else _tr("Blocks next")
        return _tr("Blocks {0}s: next player lacks {1}").format(nums, nums)
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
                return _tr("Denies {0}").format(worst)
            if not mine:
                return _tr("Keeps next player from scoring {0}").format(worst)
            return _tr("Next player can score {0}, not {1}").format(mine, worst)
        scratch.copy_from(lay)
        apply(scratch, m)
    if tiles & _DOUBLES and LO[t] >= 4:
        return _tr("Dumps {0}" if short else "Dumps heavy double {0}").format(tn)
    if r.teams:
        p = r.partner(seat)
        if rd.void[p] & open_s != open_s and rd.void[p]:
            return _tr("Helps partner" if short else "Leaves partner a number to play")
    sp = pips(tiles)
    if sp >= 9:
        return _tr("Sheds {0} pips").format(sp) if short else _tr("Sheds heavy {0} ({1} pips)").format(tn, sp)
    k = popcount(suits_of(after))
    fit = popcount(after & scratch.playable())
    if fit >= 2:
        if short:
            return _tr("Keeps {0} plays").format(fit)
        return _tr("Keeps {0} tiles playable next turn").format(fit)
    if tiles & _DOUBLES:
        return _tr("Dumps {0}" if short else "Gets double {0} out of the way").format(tn)
    return _tr("Keeps {0} suits" if short else "Keeps {0} suits alive").format(k)
