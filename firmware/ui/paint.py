"""Drawing the table screen, region by region: the header, the table area, the message area and the
hand row each clear and draw only their own rectangle (ui/table.py's Table holds them), so any one
can be drawn again alone. Loaded to draw a frame; the table unloads it while the AI searches (only
the thinking wheel moves then)."""
from domino.tiles import LO, HI, first
from micropython import const
from ui import words
from ui.screen import tr
from ui.gfx import wrap

_NONE = const(255)     # = domino.tiles.NONE
_MULTI = const(0x100)  # = domino.round.MULTI
_ARM_SHIFT = const(5)  # = domino.round._ARM_SHIFT
_ARM_MASK = const(3)  # = domino.round._ARM_MASK
_FAM_GOAT = const(1)  # = domino.rules._FAM_GOAT
_F_HORIZ = const(1)    # = ui.gfx.F_HORIZ
_CHAIN_OF_ARM = const((1, 0, 2, 3))  # = ui.gfx.CHAIN_OF_ARM
_ARM_ORDER = const((0, 2, 3, 1))  # arms L, U, D, R: left to right as the table shows them
_M_PICK = const(1)    # = ui.table._M_PICK
_M_END = const(2)     # = ui.table._M_END
_M_WAIT = const(3)    # = ui.table._M_WAIT
_P_HEAD = const(1)    # = ui.table._P_HEAD
_P_ALL = const(15)    # = ui.table._P_ALL
_P_HAND = const(8)    # = ui.table._P_HAND
_P_CURSOR = const(16)  # = ui.table._P_CURSOR
_P_TABLE = const(2)   # = ui.table._P_TABLE
_P_TROWS = const(32)  # = ui.table._P_TROWS
_P_TROWS2 = const(64)  # = ui.table._P_TROWS2
_SPAN_GAP = const(16)  # rows between two changed spans below which they go as one: a span of its own
#                        costs 3-8 ms (the layout drawn again, a window set), a row sent 0.25-0.34
#                        (docs/benchmarks.md, press-to-pixels: break-even 10-32 rows by board)


def draw(t, g, parts=_P_ALL):
    """The regions in `parts` (all: the whole screen), in this order, those that lie in the band the
    buffer holds: a banded board draws the screen once per band, and each region is drawn only in
    the bands it lies in (ui/app.py's paint_parts draws a region alone the same way)."""
    b = t.app.board
    top = b.y0
    end = top + (b.band or b.height)             # the first row below the band
    if parts & _P_CURSOR and (parts & _P_HAND or t.hand_at != b.moved):
        parts = parts & ~_P_CURSOR | _P_HAND     # the row whole: it has the cursor, or the buffer
                                                 # no longer holds the row as last drawn
    if parts & _P_TABLE:
        parts &= ~(_P_TROWS | _P_TROWS2)
    bit = _P_HEAD
    for fn in (head, table, msg, hand, cursor, table_rows, table_rows):
        if parts & bit:
            y0, y1 = t.part_rows(bit)
            if y0 < end and y1 >= top and y0 <= y1:
                fn(t, g)
        bit <<= 1


def table(t, g):
    """The table area: the layout, the last move outlined; the ends a tile may go on (the chosen one
    in the cursor colour), or the end the hint suggests."""
    c = g.c
    v = t.view
    rd = t.game.match.round
    y0, y1 = t.part_rows(_P_TABLE)               # the region's rows (1-bit: down to the hand's)
    g.fb.fill_rect(v.x0 - (0 if t.compact else 2), y0, g.w, y1 - y0 + 1, c.BG if g.mono else c.TABLE)
    v.update(rd.layout, t.app)
    if t.mode == _M_WAIT and v.tall and t.last:
        v.follow_tile(first(t.last))
    draw_layout(v, g, t.last, c.ACCENT)
    if t.mode == _M_END:
        for i in range(t.nopts):
            if i != t.opt:
                _mark(t, g, t.opts[i], c.PLAYABLE, False)
        _mark(t, g, t.opts[t.opt], c.CURSOR, True)
    elif t.mode == _M_PICK and t.hint_move >= 0 and t.hint_tile == t.cursor_tile:
        _mark(t, g, t.hint_move, c.CURSOR, True)    # (1-bit: the end inverted, seen at a glance)


def _mark(t, g, m, col, chosen):
    if m & _MULTI:
        for a in range(4):
            if (m >> a) & 1:
                mark_end(t.view, g, _CHAIN_OF_ARM[a], col, chosen)
    elif t.game.match.round.layout.lead != _NONE:
        mark_end(t.view, g, _CHAIN_OF_ARM[(m >> _ARM_SHIFT) & _ARM_MASK], col, chosen)


def now(t):
    """(text, colour) the message area shows: a message of the moment, else what happened last over
    what to do now (the steps of a long text follow each other, ui/table.py)."""
    c = t.app.g.c
    if t.msg:
        return t.msg, t.msg_col
    game = t.game
    rd = game.match.round
    todo = ""
    col = c.FG
    if t.thinking != _NONE:
        todo = words.thinking(game.names[t.thinking])
    elif t.mode == _M_END:
        todo = words.where(words.describe(rd, t.opts[t.opt], t.msg_lines == 1), t.opt + 1, t.nopts)
        col = c.CURSOR
    elif t.mode == _M_PICK:
        todo = words.your_turn(t.name(rd.turn), game.practice, t.app.g.cols < 24)
    last = t.last_text
    if t.held_text:                              # the AI's move, then your forced draw: both
        last = t.held_text + "\n" + last
        if t.compact and t.mode != _M_END:      # (one line: the events in steps; the cursor
            return last, c.FG                    # says it is your turn)
    if last and todo:
        # both, unless that would take a third step (in a one-line message area)
        if t.msg_lines > 1 or len(last) <= t.msg_cols()[0]:
            return last + "\n" + todo, col
        return (last, c.FG) if t.thinking != _NONE and t.pages(last) < 3 else (todo, col)
    return last or todo, col


_wrapped = [None, 0, 0, ()]   # the message last wrapped: its text, the two widths, its lines


def msg(t, g):
    """The message area: on colour screens the open ends' row (ends), then the message lines."""
    c = g.c
    fb = g.fb
    w = g.w
    top = 0 if t.compact else 1                  # (colour screens: the row under the message
    fb.fill_rect(0, t.msg_y, w, t.ends_h + t.msg_lines * g.lh + 1 - top, c.BG)   # lines is the
    #                                                                       hand's: part_rows)
    if t.ends_h and not g.off(t.msg_y, t.ends_h):
        ends(t, g)
    y = t.msg_y + t.ends_h                      # under the open ends
    rows = t.msg_lines
    text, col = now(t)
    c1, c2 = t.msg_cols()
    w = _wrapped
    if w[0] != text or w[1] != c1 or w[2] != c2:     # wrapped once a frame, not once a band
        w[0] = text
        w[1] = c1
        w[2] = c2
        w[3] = wrap(text, c1, c2)
    lines = w[3]
    k = (t.page % ((len(lines) + rows - 1) // rows)) * rows
    for i in range(rows):
        if k + i < len(lines):
            g.text(lines[k + i], 0, y + 1 - top + g.lh * i, col)
    if t.thinking != _NONE:
        t._draw_wheel(g)


def ends(t, g):
    """The number at each open end in a half-tile big enough to count its pips (the table above may
    draw its tiles smaller; in the Fives family a double at an end whole), in the order left, up,
    down, right; the end being chosen, or the one the hint suggests, outlined as on the table; the
    stock and the count at the right."""
    c = g.c
    lay = t.game.match.round.layout
    s = g.legible
    y = t.msg_y + 3
    x = 3
    chosen = 0
    if t.mode == _M_END:
        chosen = _arms(t.opts[t.opt])
    elif t.mode == _M_PICK and t.hint_move >= 0 and t.hint_tile == t.cursor_tile:
        chosen = _arms(t.hint_move)
    offered = 0
    if t.mode == _M_END:
        for i in range(t.nopts):
            offered |= _arms(t.opts[i])
    ty = t.msg_y + (t.ends_h - g.lh) // 2
    right = g.w - 2
    rd = t.game.match.round
    r = rd.rules
    if r.draw and rd.sn:                         # the stock left (4-player Goat deals every tile)
        st = tr("Stock {0}").format(rd.stock_left())
        right -= g.width(st)
        g.text(st, right, ty, c.DIM)
        right -= g.cw
    n = str(lay.count(r.spinner_keeps))
    # the Fives family counts a double at an end twice: it is shown whole there (5-5 lying) where
    # the row has the room (the lead double alone shows its number once on each side)
    dbl = 0
    if r.inplay_mod and lay.lead != _NONE and (lay.n[0] or lay.n[1]):
        need = g.width("=" + n)
        for a in range(4):
            if lay.is_open(a):
                need += s + 6
                if lay.dbl[a]:
                    dbl |= 1 << a
                    need += s
        if x + need > right:
            dbl = 0
    if lay.lead != _NONE:
        for a in _ARM_ORDER:
            if lay.is_open(a):
                mark = c.CURSOR if (chosen >> a) & 1 else (c.PLAYABLE if (offered >> a) & 1 else -1)
                if (dbl >> a) & 1:
                    g.tile(x, y, lay.end[a], lay.end[a], True, s, 0, mark)
                    x += s
                else:
                    g.square(x, y, lay.end[a], s, mark)
                x += s + 6
    if r.inplay_mod:                             # the Fives family: the open ends' count
        st = tr("Count {0}").format(n)
        st = st if x + g.width(st) <= right else "=" + n
        g.text(st, x, ty, c.FG)


def _arms(m):
    """The arms move m goes on (a mask; a multi-end move's arms, else its one)."""
    if m & _MULTI:
        return m & 15
    return 1 << ((m >> _ARM_SHIFT) & _ARM_MASK)


def table_rows(t, g):
    """Rows t.trows (and t.trows2) of the table area alone (a move that left the other tiles where
    they were, changed_rows): their background, then every tile (framebuf keeps what falls in the
    band; only these rows are sent)."""
    c = g.c
    v = t.view
    for a, b in (t.trows, t.trows2):
        g.fb.fill_rect(v.x0 - 2, a, g.w, b - a + 1, c.TABLE)
    draw_layout(v, g, t.last, c.ACCENT)


def snap(t):
    """What the table area shows now, for changed_rows after a move: None when it cannot tell (a
    tall table scrolls; the OLED's table is drawn whole). An empty table too: the lead's rows are
    all that change there."""
    v = t.view
    if t.compact or v.tall:
        return None
    marks = 0                                    # chains whose open end is outlined
    if t.mode == _M_END:
        for i in range(t.nopts):
            marks |= _chains(t.opts[i])
    elif t.mode == _M_PICK and t.hint_move >= 0 and t.hint_tile == t.cursor_tile:
        marks = _chains(t.hint_move)
    return v.s, v.cx, v.cy, v.fitted, v.key, t.last, marks, v.my[:], bytes(v.mh)


def _chains(m):
    """The chains _mark outlines for move m (a mask)."""
    if m & _MULTI:
        out = 0
        for a in range(4):
            if (m >> a) & 1:
                out |= 1 << _CHAIN_OF_ARM[a]
        return out
    return 1 << _CHAIN_OF_ARM[(m >> _ARM_SHIFT) & _ARM_MASK]


def changed_rows(t, before):
    """After a move (t.last its tiles), placed: the table area's rows that changed since `before`
    (snap): the new tiles', those of the tiles outlined before or now, the end marks' when some
    were shown: into t.trows, the parts to draw returned (P_TROWS), or 0 when the other tiles
    moved (the layout fitted again). Two spans (t.trows2, P_TROWS2 too), cut at the widest gap
    between the changes when it is over SPAN_GAP rows (a tile played far from the outline it took
    over): each is drawn and sent alone, the rows between are not."""
    v = t.view
    v.update(t.game.match.round.layout, t.app)
    if before is None or v.tall:
        return 0
    s, cx, cy, fitted, played, last, marks, my, mh = before
    if played and (v.s != s or v.cx != cx or v.cy != cy or v.fitted != fitted):
        return 0                                 # fitted again: the tiles moved (ui/place.py)
    last |= t.last | v.key & ~played             # the tiles outlined before or now, the new ones
    lo = v.y0 - 1
    hi = v.y0 + v.h
    spans = []                                   # (first, last) of each changed thing
    for i in range(v.n):
        if (last >> v.pt[i]) & 1:
            y = v.py[i] - v.scroll
            spans.append((max(y - 2, lo), min(y + (s if v.pf[i] & _F_HORIZ else 2 * s) + 1, hi)))
    for c in range(4):
        if (marks >> c) & 1:
            y = my[c] - v.scroll
            spans.append((max(y - 2, lo), min(y + mh[c] + 1, hi)))
    if not spans:
        return 0
    spans.sort()
    a, end = spans[0]
    b = end
    k = 0                                        # where the widest gap over SPAN_GAP rows cuts
    gap = _SPAN_GAP
    for i in range(1, len(spans)):
        if spans[i][0] - end > gap:
            gap = spans[i][0] - end
            k = i
            b = end
        if spans[i][1] > end:
            end = spans[i][1]
    rows = (a, b if k else end)                  # (b: the first span's end)
    t.set_trows(rows, (spans[k][0], end) if k else rows)
    return _P_TROWS | _P_TROWS2 if k else _P_TROWS


def _score_text(t, side):
    """A side's score as the header shows it: the match score with this round's points made in
    play; Goat family: "+N" (remembered, not yet written) until the account is opened."""
    m = t.game.match
    r = m.rules
    if r.family == _FAM_GOAT and not m.opened[side] and m.remembered[side]:
        return "+" + str(m.remembered[side]), True
    v = m.scores[side]
    rd = m.round
    if r.inplay_mod and not m.round_over():
        for s in range(r.players):
            if r.side(s) == side:
                v += rd.inplay[s]
    return str(v), False


def head(t, g):
    """A column per seat: the name (the seat to move highlighted; teams in their colours, the first
    side's columns underlined too), the tiles in hand (a tile and the count) and the score, on one
    row where they fit (ui/table.py), else the name over the rest."""
    c = g.c
    fb = g.fb
    game = t.game
    m = game.match
    rd = m.round
    r = m.rules
    n = r.players
    lh = g.lh
    cw = g.cw
    fb.fill_rect(0, 0, g.w, t.head_h, c.BG)
    colw = g.w // n
    one = t.head_h == lh + 1                     # one row (ui/table.py)
    if t.head_name:
        _head_short(t, g, colw)
        return
    for s in range(n):
        x = s * colw
        side = r.side(s)
        col = c.FG
        if r.teams:
            col = c.TEAM0 if side == 0 else c.TEAM1
        name = g.fit(game.names[s], (colw - 2) // cw)
        if s:
            fb.vline(x - 2, 0, t.head_h - 1, c.DIM)
        if s == rd.turn and not m.round_over():
            fb.fill_rect(x, 0, (len(name) * cw + 2) if one else colw - 2, lh, c.PANEL if not g.mono else c.FG)
            col = c.CURSOR if not g.mono else c.BG
        g.text(name, x + 1, 0, col)
        y = 0 if one else lh
        xc = x + (len(name) + 1) * cw if one else x + 1
        th = lh * 2 // 5                          # the tile icon: upright, its divider mid-way
        fb.fill_rect(xc, y + (lh - 2 * th) // 2, th, 2 * th, c.TILE)
        fb.hline(xc, y + lh // 2, th, g.divider)
        cnt = str(rd.hand_size(s))
        g.text(cnt, xc + th + 2, y, c.FG)
        txt, rem = _score_text(t, side)
        if not one and cw * (len(cnt) + len(txt) + 5) + th + 4 <= colw:
            txt += tr(" pts")
        g.right(txt, x + colw - 4, y, c.REMEMBERED if rem else c.FG)
        if r.teams and side == 0:                 # partners told apart by more than colour
            fb.hline(x, t.head_h - 1, colw - 3, c.TEAM0)


def _head_short(t, g, colw):
    """The header in one row where its columns are narrow: per seat the name's first letters, the tiles in
    hand as a number on a tile, the score at the right (a name gives way to a longer number)."""
    c = g.c
    fb = g.fb
    m = t.game.match
    rd = m.round
    r = m.rules
    lh = g.lh
    cw = g.cw
    for s in range(r.players):
        x = s * colw
        side = r.side(s)
        if s:
            fb.vline(x - 2, 0, lh, c.DIM)
        cnt = str(rd.hand_size(s))
        txt, rem = _score_text(t, side)
        bw = len(cnt) * cw + 2                   # the tile the count is written on
        k = (colw - 4 - bw - 2 - len(txt) * cw - 2) // cw
        name = t.game.names[s][:min(t.head_name, k if k > 0 else 0)]
        col = c.FG
        if r.teams:
            col = c.TEAM0 if side == 0 else c.TEAM1
        if s == rd.turn and not m.round_over():
            fb.fill_rect(x, 0, len(name) * cw + 2 if name else 3, lh, c.PANEL)
            col = c.CURSOR
        if name:
            g.text(name, x + 1, 0, col)
        bx = x + len(name) * cw + 4
        fb.fill_rect(bx, 0, bw, lh, c.TILE)
        g.text(cnt, bx + 1, 0, c.PIP)
        g.right(txt, x + colw - 4, 0, c.REMEMBERED if rem else c.FG)
        if r.teams and side == 0:                 # (as in head)
            fb.hline(x, lh, colw - 3, c.TEAM0)


def hand(t, g):
    c = g.c
    fb = g.fb
    top = t.hand_y if t.compact else t.hand_y - 1             # (the cursor tile's outline reaches
    fb.fill_rect(0, top, g.w, g.h - top, c.BG)                # the row above the hand's)
    t.load_hand()
    n = t.nh
    b = g.board
    if g.fb is b.fb:                             # (not a test's frame of its own)
        t.hand_drawn(-1)
    if t.shown == _NONE:
        if not t.solo and not g.mono:             # (1-bit: nothing lit there, tests check)
            g.center(tr("(hands hidden)"), t.hand_y + (t.hand_h - g.lh) // 2, c.DIM)
        return
    x0, vis, _ = t.hand_span()
    f = t.hfirst                                 # the shown tiles follow the cursor
    if t.cursor < f:
        f = t.cursor
    if t.cursor >= f + vis:
        f = t.cursor - vis + 1
    if f > max(0, n - vis):
        f = max(0, n - vis)
    t.scroll_hand(f)
    picking = t.mode in (_M_PICK, _M_END) and t.shown == t.game.match.round.turn
    for i in range(f, min(n, f + vis)):
        _hand_tile(t, g, i, picking)
    _scroll_marks(t, g, vis)
    if g.fb is b.fb and b.y0 <= t.hand_y - 1 and g.h <= b.y0 + (b.band or g.h):
        t.hand_drawn(b.moved)                    # the whole row is in the buffer (see cursor)


def cursor(t, g):
    """The cursor moved inside the hand row's shown tiles (ui/pick.py): only the tile it left and the
    one it is on are drawn again, each over its own columns of the row (the tiles are 3 pixels apart,
    the cursor's outline 2 wide), then the scroll marks over them as the whole row draws them. The
    rest of the row is what the buffer holds from the row's last drawing: only asked for while it
    does (t.hand_at: nothing has moved the band since, boards/_base.py's `moved`)."""
    t.load_hand()
    x0, vis, _ = t.hand_span()
    for i in (t.cursor_was, t.cursor):
        x, y, w, h = t.hand_rect(i)
        g.fb.fill_rect(x - 2, t.hand_y - 1, w + 4, g.h - t.hand_y + 1, g.c.BG)
        _hand_tile(t, g, i, True)
    _scroll_marks(t, g, vis)


_win = [None, 0, 0]           # the last cursor move's window: framebuf, width, height (the tiles
                              # keep their size from move to move)


def cursor_rects(t, g):
    """A cursor move on a banded panel that sends rectangles (boards/_lcd.py show_rect): the tile
    the cursor left and the one it is on, each drawn alone into the frame buffer's bytes as a
    window of the hand row (from the raised tile's outline to the screen's bottom, on whole bytes:
    the gaps between tiles are the background's), in the window's coordinates, and sent; the rest
    of the panel stays as it is. A 240-row screen's upright hand spans two bands: drawing the row
    whole in both took 32 ms on the emulated Pico. False where a window would not fit the buffer
    (the row is drawn then)."""
    b = t.app.board
    t.load_hand()
    vis = t.hand_span()[1]
    top = t.hand_y - 1
    h = g.h - top
    fb = g.fb
    for i in (t.cursor_was, t.cursor):
        x, _, w, _ = t.hand_rect(i)
        x0 = (x - 2) & ~1                        # the cursor's outline is 2 pixels wide; GS4: two
        ww = ((x + w + 1) | 1) - x0 + 1          # pixels a byte, the window on whole bytes
        if x0 + ww > g.w:
            ww = g.w - x0
        win = _win
        if win[1] != ww or win[2] != h:
            if (ww >> 1) * h > len(b.buf):
                return False
            import framebuf                      # (only a banded panel's board gets here)
            win[0] = framebuf.FrameBuffer(b.buf, ww, h, framebuf.GS4_HMSB)
            win[1] = ww
            win[2] = h
        b.set_band(0)                            # (ui/gfx.py's off: window rows lie in the buffer)
        g.fb = win[0]
        g.fb.fill_rect(0, 0, ww, h, g.c.BG)
        _hand_tile(t, g, i, True, x0, top)
        _scroll_marks(t, g, vis, x0, top)
        g.fb = fb
        b.show_rect(x0, top, ww, h)
    t.hand_drawn(-1)
    return True


def _hand_tile(t, g, i, picking, dx=0, dy=0):
    """Hand tile i, drawn dx, dy to the left and up of its place (a window of the screen's)."""
    c = g.c
    tile = t.hand[i]
    x, y, w, h = t.hand_rect(i)
    x -= dx
    g.tile(x, y - dy, LO[tile], HI[tile], t.hand_horiz, t.hs, 0,
           c.CURSOR if picking and i == t.cursor else -1)
    if picking and (t.playable >> tile) & 1:
        g.fb.fill_rect(x, t.hand_y + t.hand_h - 3 - dy, w, 2, c.PLAYABLE)


def _scroll_marks(t, g, vis, dx=0, dy=0):
    ym = t.hand_y + (t.hand_h - g.lh) // 2 - dy
    if t.hfirst > 0:
        g.text("<", -dx, ym, g.c.ACCENT)
    if t.hfirst + vis < t.nh:
        g.right(">", g.w - dx, ym, g.c.ACCENT)


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
        mark = mark_col if (highlight >> v.pt[i]) & 1 else -1
        x = v.px[i]
        if mark < 0 or g.mono:
            g.tile(x, y, v.pa[i], v.pb[i], f & _F_HORIZ, s, f, mark)
            continue
        g.tile(x, y, v.pa[i], v.pb[i], f & _F_HORIZ, s, f)
        w = 2 * s if f & _F_HORIZ else s             # its outline as g.tile draws it, kept to the
        for d in (1, 2) if s >= 8 else (1,):         # table area's rows (the header is drawn alone)
            _rect_in(g.fb, x - d, y - d, w + 2 * d, hh + 2 * d, mark, y_lo - 1, y_hi)
    if v.tall:
        c = g.c
        if v.top - off < y_lo:
            g.right("^", v.x0 + v.w, y_lo, c.ACCENT)
        if v.bottom - off > y_hi:
            g.right("v", v.x0 + v.w, y_hi - g.lh, c.ACCENT)


def mark_end(v, g, chain, col, chosen=True):
    """Outline the open end of one chain (choosing where a tile goes). Mono screens cannot tell
    colours apart: the chosen end is shown inverted, the other candidates by corner ticks."""
    y = v.my[chain] - v.scroll
    x = v.mx[chain]
    w = v.mw[chain]
    h = v.mh[chain]
    fb = g.fb
    if not g.mono:                   # kept to the table area's rows: the header is drawn alone too
        lo = v.y0 - 1
        hi = v.y0 + v.h
        for d in (1, 2):
            _rect_in(fb, x - d, y - d, w + 2 * d, h + 2 * d, col, lo, hi)
    elif chosen:                     # (clipped: off the screen pixel() answers None)
        for yy in range(max(y, 0), min(y + h, g.h)):
            for xx in range(max(x, 0), min(x + w, g.w)):
                fb.pixel(xx, yy, 1 - fb.pixel(xx, yy))
    else:
        for cx, cy in ((x - 2, y - 2), (x + w, y - 2), (x - 2, y + h), (x + w, y + h)):
            fb.fill_rect(cx, cy, 2, 2, 1)


def _rect_in(fb, x, y, w, h, col, lo, hi):
    """fb.rect's outline, only its pixels on rows lo..hi."""
    z = y + h - 1
    if lo <= y <= hi:
        fb.hline(x, y, w, col)
    if lo <= z <= hi:
        fb.hline(x, z, w, col)
    a = y if y > lo else lo
    b = z if z < hi else hi
    if a <= b:
        fb.vline(x, a, b - a + 1, col)
        fb.vline(x + w - 1, a, b - a + 1, col)
