"""The line at a readable size (game menu > The line): every tile of the table's layout with pips of
the panel's legible size (ui/gfx.py Gfx.legible: >= 0.4 mm at its pitch), panned with the arrows,
the last move outlined, B back. The table shrinks its tiles to fit the screen (1-pixel pips on the
240x135 and 128x64 panels); here the rows turn at the edges of a larger field and the screen is a
window onto it, opened on the last move. Loaded only while it is shown."""
from micropython import const
from domino.tiles import first
from ui.gfx import TableView
from ui.screen import Screen, tr

_K_UP = const(0x001)     # = keys.K_UP
_K_DOWN = const(0x002)   # = keys.K_DOWN
_K_LEFT = const(0x004)   # = keys.K_LEFT
_K_RIGHT = const(0x008)  # = keys.K_RIGHT
_K_A = const(0x010)      # = keys.K_A
_F_HORIZ = const(1)      # = ui.gfx.F_HORIZ
_FIELD = const(3)        # the field the rows turn in: this many screens each way to begin with
_GROW = const(3)         # ... grown this many times (by half) while the line does not fit
_PAD = const(4)          # pixels of table kept beyond the outermost tiles when panned to an edge


class LineView(Screen):
    """The table's line in a window: LEFT/RIGHT/UP/DOWN pan by a third of the screen, A goes back
    to the last move, B (any other key) back to `back`."""

    def __init__(self, app, table, back):
        Screen.__init__(self, app)
        self.back = back
        g = app.g
        rd = table.game.match.round
        self.last = table.last                   # the last move's tiles, outlined
        self.top = g.lh + 2                      # the title's line
        self.vw = g.w
        self.vh = g.h - self.top
        s = g.legible
        if table.view.s > s:                     # never smaller than the table shows them
            s = table.view.s
        self.s = s
        w = _FIELD * g.w
        h = _FIELD * g.h
        place = app.need("ui.place")
        v = TableView(0, 0, w, h, g.mono)
        grown = 0
        while not place.at_size(v, rd.layout, s) and grown < _GROW:
            grown += 1                           # a long line: a field half as big again
            w += w // 2
            h += h // 2
            v = TableView(0, 0, w, h, g.mono)
        self.v = v
        x0 = y0 = 32767                          # the tiles' extent
        x1 = y1 = -32767
        for i in range(v.n):
            x = v.px[i]
            y = v.py[i]
            hor = v.pf[i] & _F_HORIZ
            x0 = min(x0, x)
            y0 = min(y0, y)
            x1 = max(x1, x + (2 * s if hor else s))
            y1 = max(y1, y + (s if hor else 2 * s))
        self.ext = (x0 - _PAD, y0 - _PAD, x1 + _PAD, y1 + _PAD) if v.n else (0, 0, 0, 0)
        self.ox = 0
        self.oy = 0
        self.home()

    def home(self):
        """The window centred on the last move (the centre tile when there is none)."""
        v = self.v
        i = 0
        if self.last:
            t = first(self.last)
            for j in range(v.n):
                if v.pt[j] == t:
                    i = j
        if v.n:
            hor = v.pf[i] & _F_HORIZ
            self.ox = v.px[i] + (self.s if hor else self.s // 2) - self.vw // 2
            self.oy = v.py[i] + (self.s // 2 if hor else self.s) - self.vh // 2
        self.clamp()

    def clamp(self):
        """Keep the window on the tiles: an extent narrower than the window is centred in it."""
        x0, y0, x1, y1 = self.ext
        self.ox = _clamp(self.ox, x0, x1 - self.vw)
        self.oy = _clamp(self.oy, y0, y1 - self.vh)

    def key(self, k):
        if k == _K_LEFT:
            self.ox -= self.vw // 3
        elif k == _K_RIGHT:
            self.ox += self.vw // 3
        elif k == _K_UP:
            self.oy -= self.vh // 3
        elif k == _K_DOWN:
            self.oy += self.vh // 3
        elif k == _K_A:
            self.home()
        else:
            self.app.go(self.back)
            return
        self.clamp()
        self.app.redraw()

    def draw(self, g):
        c = g.c
        v = self.v
        s = self.s
        top = self.top
        g.fb.fill(c.BG)
        g.fb.fill_rect(0, top, g.w, g.h - top, c.BG if g.mono else c.TABLE)
        ox = self.ox
        oy = self.oy - top
        for i in range(v.n):
            f = v.pf[i]
            hor = f & _F_HORIZ
            x = v.px[i] - ox
            y = v.py[i] - oy
            if x + 2 * s < 0 or x >= g.w or y + 2 * s < top or y >= g.h:
                continue
            mark = c.ACCENT if (self.last >> v.pt[i]) & 1 else -1
            if mark >= 0 and g.mono:             # 1-bit: an outline would merge with the lit tile;
                g.tile(x, y, v.pa[i], v.pb[i], hor, s, f)    # a bar under it instead
                g.fb.fill_rect(x, y + (s if hor else 2 * s) + 1, 2 * s if hor else s, 2, 1)
            else:
                g.tile(x, y, v.pa[i], v.pb[i], hor, s, f, mark)
        x0, y0, x1, y1 = self.ext                # where more of the line lies: < > ^ v at
        mid = top + (g.h - top - g.lh) // 2      # that edge of the window
        if x0 < self.ox:
            _more(g, "<", 0, mid)
        if x1 > self.ox + self.vw:
            _more(g, ">", g.w - g.cw - 2, mid)
        if y0 < self.oy:
            _more(g, "^", (g.w - g.cw) // 2 - 1, top)
        if y1 > self.oy + self.vh:
            _more(g, "v", (g.w - g.cw) // 2 - 1, g.h - g.lh)
        g.fb.fill_rect(0, 0, g.w, top, c.BG)     # the title's line over any outline
        back = tr("B back")
        g.text(g.fit(tr("The line"), g.cols - len(back) - 1), 1, 1, c.ACCENT)
        g.right(back, g.w - 1, 1, c.DIM)
        if not g.mono:
            g.fb.hline(0, top - 1, g.w, c.DIM)


def _more(g, mark, x, y):
    """An arrow at the window's edge, on a patch of its own (tiles may lie under it)."""
    g.fb.fill_rect(x, y, g.cw + 2, g.lh, g.c.BG)
    g.text(mark, x + 1, y, g.c.ACCENT)

def _clamp(a, lo, hi):
    if hi < lo:                                  # narrower than the window: centred
        return (lo + hi) // 2
    return lo if a < lo else (hi if a > hi else a)
