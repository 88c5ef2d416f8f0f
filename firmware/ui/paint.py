"""Drawing the table screen: the layout, the open ends to choose from, the scores and counts, the
message line, the hand. Loaded to draw a frame; the table unloads it while the AI searches (only the
thinking wheel moves then)."""
from domino.tiles import LO, HI, first
from micropython import const

_NONE = const(255)     # = domino.tiles.NONE
_MULTI = const(0x100)  # = domino.round.MULTI
_ARM_SHIFT = const(5)  # = domino.round.ARM_SHIFT
_FAM_GOAT = const(1)   # = domino.rules.FAM_GOAT
_F_HORIZ = const(1)    # = ui.gfx.F_HORIZ
_CHAIN_OF_ARM = const((1, 0, 2, 3))  # = ui.gfx.CHAIN_OF_ARM
_M_PICK = const(1)     # = ui.table.M_PICK
_M_END = const(2)      # = ui.table.M_END
_M_WAIT = const(3)     # = ui.table.M_WAIT


def draw(t, g):
    c = g.c
    fb = g.fb
    game = t.game
    m = game.match
    rd = m.round
    fb.fill(c.BG)
    view = t.view
    if not g.mono:
        fb.fill_rect(0, view.y0 - 1, g.w, view.h + 2, c.TABLE)
    view.update(rd.layout, t.app)
    if t.mode == _M_WAIT and view.tall and t.last:
        view.follow_tile(first(t.last))
    draw_layout(view, g, t.last, c.ACCENT)
    if t.mode == _M_END:
        for i in range(t.nopts):
            if i != t.opt:
                _mark(t, g, t.opts[i], c.PLAYABLE, False)
        _mark(t, g, t.opts[t.opt], c.CURSOR, True)
    _head(t, g)
    _hand(t, g)
    if t.thinking != _NONE:
        t._draw_wheel(g)


def _mark(t, g, m, col, chosen):
    if m & _MULTI:
        for a in range(4):
            if (m >> a) & 1:
                mark_end(t.view, g, _CHAIN_OF_ARM[a], col, chosen)
    elif t.game.match.round.layout.lead != _NONE:
        mark_end(t.view, g, _CHAIN_OF_ARM[(m >> _ARM_SHIFT) & 3], col, chosen)


def status(t, wide=False):
    """Stock left and, in the Fives family, the open-end count ("board count")."""
    rd = t.game.match.round
    out = ("Stock " if wide else "S") + str(rd.stock_left())
    if rd.rules.inplay_mod:
        out += ("  Count " if wide else " C") + str(rd.layout.count(rd.rules.spinner_keeps))
    return out


def _score_text(t, side):
    m = t.game.match
    if m.rules.family == _FAM_GOAT and not m.opened[side] and m.remembered[side]:
        return "+" + str(m.remembered[side]), True
    return str(m.scores[side]), False


def _head(t, g):
    c = g.c
    fb = g.fb
    game = t.game
    m = game.match
    rd = m.round
    r = m.rules
    n = r.players
    if t.compact:
        if t.msg:
            g.text(g.fit(t.msg, g.cols - (2 if t.thinking != _NONE else 0)), 0, 0, t.msg_col)
            return
        line = status(t)
        for s in range(n):
            if s != t.shown:
                line += " " + game.names[s][0] + str(rd.hand_size(s))
        g.text(g.fit(line, g.cols), 0, 0, c.FG)
        return
    cw = g.w // n
    for s in range(n):
        x = s * cw
        side = r.side(s)
        name = game.names[s]
        col = c.FG
        if r.teams:
            col = c.TEAM0 if side == 0 else c.TEAM1
        if s == rd.turn and not m.round_over():
            fb.fill_rect(x, 0, cw - 2, 9, c.PANEL if not g.mono else c.FG)
            col = c.CURSOR if not g.mono else c.BG
        txt, rem = _score_text(t, side)
        room = cw // 8 - len(txt) - 1
        g.text(g.fit(name, room), x + 1, 1, col)
        g.right(txt, x + cw - 2, 1, c.REMEMBERED if rem else col if g.mono else c.FG)
        # second line: tiles in hand (+ in-play points)
        fb.fill_rect(x + 1, 11, 4, 7, c.TILE)
        fb.hline(x + 1, 14, 4, g.divider)
        info = str(rd.hand_size(s))
        if r.inplay_mod:
            info += " " + str(rd.inplay[s]) + "pt"
        g.text(info, x + 7, 11, c.FG)
    # message line
    y = t.msg_y + 1
    st = status(t, g.cols - len(t.msg) >= 20)
    room = g.cols - len(st) - 1
    if t.thinking != _NONE:
        room = g.cols - 2
    else:
        g.right(st, g.w, y, c.DIM)
    g.text(g.fit(t.msg, room), 0, y, t.msg_col)


def _hand(t, g):
    c = g.c
    fb = g.fb
    t.load_hand()
    n = t.nh
    if t.shown == _NONE:
        if not t.compact:
            txt = "(hands hidden)" if not t.solo else ""
            g.center(txt, t.hand_y + t.hs, c.DIM)
        return
    if t.cursor < t.hfirst:
        t.hfirst = t.cursor
    if t.cursor >= t.hfirst + t.hvis:
        t.hfirst = t.cursor - t.hvis + 1
    if t.hfirst > max(0, n - t.hvis):
        t.hfirst = max(0, n - t.hvis)
    picking = t.mode in (_M_PICK, _M_END) and t.shown == t.game.match.round.turn
    hs = t.hs
    for i in range(t.hfirst, min(n, t.hfirst + t.hvis)):
        tile = t.hand[i]
        x, y, w, h = t.hand_rect(i)
        mark = -1
        if picking and i == t.cursor:
            mark = c.CURSOR
        g.tile(x, y, LO[tile], HI[tile], False, hs, 0, mark)
        if picking and (t.playable >> tile) & 1:
            fb.fill_rect(x, t.hand_y + 2 * hs + 5, w, 2, c.PLAYABLE)
    if t.hfirst > 0:
        fb.text("<", 0, t.hand_y + hs, c.ACCENT)
    if t.hfirst + t.hvis < n:
        fb.text(">", g.w - 8, t.hand_y + hs, c.ACCENT)


def draw_layout(v, g, highlight=0, mark_col=-1):
    """Draw the placed tiles; tiles in the `highlight` mask get an outline in mark_col."""
    s = v.s
    off = v.scroll
    y_lo = v.y0
    y_hi = v.y0 + v.h
    for i in range(v.n):
        f = v.pf[i]
        y = v.py[i] - off
        hh = s if f & _F_HORIZ else 2 * s
        if v.tall and (y < y_lo or y + hh > y_hi):
            continue
        t = v.pt[i]
        g.tile(v.px[i], y, v.pa[i], v.pb[i], f & _F_HORIZ, s, f,
               mark_col if (highlight >> t) & 1 else -1)
    if v.tall:
        c = g.c
        if v.top - off < y_lo:
            g.text("^", v.x0 + v.w - 8, y_lo, c.ACCENT)
        if v.bottom - off > y_hi:
            g.text("v", v.x0 + v.w - 8, y_hi - 8, c.ACCENT)


def mark_end(v, g, chain, col, chosen=True):
    """Outline the open end of one chain (choosing where a tile goes). Mono screens cannot tell
    colours apart: the chosen end is shown inverted, the other candidates by corner ticks."""
    y = v.my[chain] - v.scroll
    x = v.mx[chain]
    w = v.mw[chain]
    h = v.mh[chain]
    fb = g.fb
    if not g.mono:
        fb.rect(x - 1, y - 1, w + 2, h + 2, col)
        fb.rect(x - 2, y - 2, w + 4, h + 4, col)
    elif chosen:                     # (clipped: off the screen pixel() answers None)
        for yy in range(max(y, 0), min(y + h, g.h)):
            for xx in range(max(x, 0), min(x + w, g.w)):
                fb.pixel(xx, yy, 1 - fb.pixel(xx, yy))
    else:
        for cx, cy in ((x - 2, y - 2), (x + w, y - 2), (x - 2, y + h), (x + w, y + h)):
            fb.fill_rect(cx, cy, 2, 2, 1)
