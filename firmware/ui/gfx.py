"""Drawing on the board's framebuffer: 8x8 and 2x text, domino tiles with pips, the table layout and
the hand. Sizes come from the framebuffer's width and height, never from a board name.

The table is a "pinwheel": the centre tile (the spinner, else the lead) sits in the middle; the right
arm runs right and then snakes in rows through the lower right, the down arm runs down and snakes in
columns through the lower left, the left arm runs left then snakes through the upper left, and the up
arm runs up then snakes through the upper right. Without up/down arms the left and right arms snake
through the whole upper and lower halves. The tile size is the largest that fits every arm; when not
even the smallest fits (tiny screens), the table becomes taller than the screen and scrolls.
Positions are computed only when the layout changes, into preallocated arrays.
"""
import framebuf
from array import array
from micropython import const
from domino.tiles import LO, HI, NONE

# pips of 0..6 on a 3x3 grid, bit r*3+c; the six is two rows of three along the tile's long side
PIP_MASKS = (0, 0x10, 0x101, 0x111, 0x145, 0x155, 0x16D)
SIX_ACROSS = const(0x1C7)
SIZES = (16, 14, 12, 11, 10, 9, 8, 7, 6, 5)   # half-tile sizes tried, largest first
MIN_S = const(5)
GAP = const(2)

# chain directions E, W, N, S (the arms R, L, U, D): along (dx, dy) and turn (tx, ty)
_DX = (1, -1, 0, 0)
_DY = (0, 0, -1, 1)
_TX = (0, 0, 1, -1)
_TY = (1, -1, 0, 0)
CHAIN_OF_ARM = (1, 0, 2, 3)    # arm L -> chain W(1), R -> E(0), U -> N(2), D -> S(3)

F_HORIZ = const(1)
F_CLOSED = const(2)
F_DOUBLE = const(4)


class Gfx:
    """Text and tiles on one framebuffer, with the board's named colours."""

    def __init__(self, board):
        self.fb = board.fb
        self.w = board.width
        self.h = board.height
        self.c = board.colour
        self.mono = board.mono
        self.scale = 2 if self.w >= 200 and self.h >= 120 else 1
        self.cols = self.w // 8
        self._glyph = bytearray(8)
        self._gfb = framebuf.FrameBuffer(self._glyph, 8, 8, framebuf.MONO_HLSB)
        self._pip_s = 0
        self._pip_at = bytearray(3)
        self._pip_z = 1
        c = self.c
        self.divider = c.PIP if self.mono else c.EDGE

    # --- text ----------------------------------------------------------------------------------
    def text(self, s, x, y, col):
        self.fb.text(s, x, y, col)

    def right(self, s, x_end, y, col):
        self.fb.text(s, x_end - 8 * len(s), y, col)

    def big(self, s, x, y, col, scale=0):
        """Text drawn `scale` times larger (titles); 8x8 glyphs blitted pixel by pixel."""
        k = scale or self.scale
        if k == 1:
            self.fb.text(s, x, y, col)
            return
        g = self._glyph
        gfb = self._gfb
        fb = self.fb
        for ch in s:
            gfb.fill(0)
            gfb.text(ch, 0, 0, 1)
            for r in range(8):
                bits = g[r]
                if bits:
                    for cc in range(8):
                        if bits & (0x80 >> cc):
                            fb.fill_rect(x + cc * k, y + r * k, k, k, col)
            x += 8 * k

    def big_center(self, s, y, col, scale=0):
        k = scale or self.scale
        if len(s) * 8 * k > self.w:
            k = 1
        self.big(s, (self.w - len(s) * 8 * k) // 2, y, col, k)
        return 8 * k

    def center(self, s, y, col):
        self.fb.text(s, (self.w - 8 * len(s)) // 2, y, col)

    def fit(self, s, n):
        """s cut to n characters."""
        return s if len(s) <= n else s[:n]

    # --- tiles ---------------------------------------------------------------------------------
    def _pips_for(self, s):
        if self._pip_s == s:
            return
        inner = s - 2
        z = 1 if s < 10 else (2 if s < 15 else 3)
        for k in range(3):
            self._pip_at[k] = 1 + inner * (2 * k + 1) // 6 - z // 2
        self._pip_s = s
        self._pip_z = z

    def _half(self, x, y, v, s, horiz, col):
        if not v:
            return
        m = SIX_ACROSS if (v == 6 and horiz) else PIP_MASKS[v]
        at = self._pip_at
        z = self._pip_z
        fb = self.fb
        for i in range(9):
            if m & (1 << i):
                fb.fill_rect(x + at[i % 3], y + at[i // 3], z, z, col)

    def tile(self, x, y, a, b, horiz, s, flags=0, mark=-1):
        """Tile a|b with its top-left at x, y: a on the left (top), b on the right (bottom).
        flags F_CLOSED draws it face down; mark >= 0 outlines it in that colour."""
        c = self.c
        fb = self.fb
        w = 2 * s if horiz else s
        h = s if horiz else 2 * s
        if flags & F_CLOSED:
            fb.fill_rect(x, y, w, h, c.EDGE)
            fb.rect(x, y, w, h, c.TILE)
            fb.line(x, y, x + w - 1, y + h - 1, c.TILE)
        else:
            self._pips_for(s)
            fb.fill_rect(x, y, w, h, c.TILE)
            if not self.mono:
                fb.rect(x, y, w, h, c.EDGE)
            if horiz:
                fb.vline(x + s, y + 1, s - 2, self.divider)
                self._half(x, y, a, s, True, c.PIP)
                self._half(x + s, y, b, s, True, c.PIP)
            else:
                fb.hline(x + 1, y + s, s - 2, self.divider)
                self._half(x, y, a, s, False, c.PIP)
                self._half(x, y + s, b, s, False, c.PIP)
        if mark >= 0:
            fb.rect(x - 1, y - 1, w + 2, h + 2, mark)
            if s >= 8:
                fb.rect(x - 2, y - 2, w + 4, h + 4, mark)

    def tile_back(self, x, y, horiz, s):
        """A face-down tile (hidden hands)."""
        w = 2 * s if horiz else s
        h = s if horiz else 2 * s
        self.fb.fill_rect(x, y, w, h, self.c.EDGE)
        self.fb.rect(x, y, w, h, self.c.DIM)

    def spinner(self, x, y, r, frame, col, bg):
        """An 8-dot 'thinking' wheel in a (2r+3)-pixel box centred at x, y; one dot is lit per frame."""
        fb = self.fb
        fb.fill_rect(x - r - 1, y - r - 1, 2 * r + 3, 2 * r + 3, bg)
        for i in range(8):
            dx = _RING[i] * r // 8
            dy = _RING[(i + 6) & 7] * r // 8
            if i == frame & 7:
                fb.fill_rect(x + dx - 1, y + dy - 1, 3, 3, col)
            else:
                fb.pixel(x + dx, y + dy, col)


_RING = (0, 6, 8, 6, 0, -6, -8, -6)     # x of 8 points on a circle of radius 8 (y = shifted by 6)


class TableView:
    """Where every tile of a layout goes in a table rectangle (computed once per layout change)."""

    def __init__(self, x0, y0, w, h):
        self.x0 = x0
        self.y0 = y0
        self.w = w
        self.h = h
        self.s = 8
        self.n = 0                       # tiles placed
        self.px = array("h", [0] * 28)   # top-left of each placed tile
        self.py = array("h", [0] * 28)
        self.pa = bytearray(28)          # first half (left/top)
        self.pb = bytearray(28)
        self.pt = bytearray(28)          # tile id
        self.pf = bytearray(28)          # F_* flags
        self.mx = array("h", [0] * 4)    # per chain: marker rect of its open end
        self.my = array("h", [0] * 4)
        self.mw = bytearray(4)
        self.mh = bytearray(4)
        self.scroll = 0                  # vertical offset when the table is taller than the screen
        self.tall = False
        self.top = 0                     # extent of the placed tiles (tall mode)
        self.bottom = 0
        # chains: centre outwards
        self.ct = bytearray(112)
        self.cnear = bytearray(112)
        self.cfar = bytearray(112)
        self.cclosed = bytearray(112)
        self.cn = bytearray(4)
        self._cur = bytearray(4)
        self.centre = NONE
        self.wheel = False
        self.key = -1

    # --- chains --------------------------------------------------------------------------------
    def _push(self, ch, t, near, far, closed):
        i = ch * 28 + self.cn[ch]
        self.ct[i] = t
        self.cnear[i] = near
        self.cfar[i] = far
        self.cclosed[i] = closed
        self.cn[ch] += 1

    def build(self, lay):
        """Turn the layout's play sequence into four chains running outwards from the centre tile."""
        for k in range(4):
            self.cn[k] = 0
        self.centre = NONE
        if lay.lead == NONE:
            return
        lead = lay.lead
        spin = lay.spin
        # arm end values while walking the play order
        cur = self._cur
        cur[0] = LO[lead]
        cur[1] = HI[lead]
        if spin != NONE:
            cur[2] = cur[3] = LO[spin]
        arm_of_spin = lay.spin_arm if spin != NONE else 4
        self.wheel = spin != NONE and (lay.n[2] > 0 or lay.n[3] > 0 or lay.st[2] != 0)
        # temporary: tiles of the spinner's arm before the spinner, kept in chain slot of the
        # opposite direction after the fact
        seq = lay.seq
        sa = lay.seq_arm
        pos = [0, 0, 0, 0]
        inner = None
        if arm_of_spin < 2:
            inner = []                   # (t, near, far, closed) of the spinner arm before it
        for i in range(lay.size):
            code = sa[i]
            a = code & 7
            if a == 4:
                continue
            t = seq[i]
            near = cur[a]
            far = HI[t] if LO[t] == near else LO[t]
            cur[a] = far
            closed = 1 if code & 8 else 0
            pos[a] += 1
            if a == arm_of_spin:
                if pos[a] < lay.spin_n:
                    inner.append((t, near, far, closed))
                    continue
                if pos[a] == lay.spin_n:
                    continue             # the spinner itself is the centre
            self._push(CHAIN_OF_ARM[a], t, near, far, closed)
        if inner is None:
            self.centre = spin if spin != NONE else lead
            return
        # centre is a spinner out on arm A: the opposite chain runs back through the lead
        a = arm_of_spin
        back = 1 - a                     # the other line arm
        ch_back = CHAIN_OF_ARM[back]
        # move the existing tiles of the other arm aside: they come after the inner part + lead
        k = ch_back * 28
        n_other = self.cn[ch_back]
        other = bytes(self.ct[k:k + n_other])
        onear = bytes(self.cnear[k:k + n_other])
        ofar = bytes(self.cfar[k:k + n_other])
        ocl = bytes(self.cclosed[k:k + n_other])
        self.cn[ch_back] = 0
        for j in range(len(inner) - 1, -1, -1):
            t, near, far, closed = inner[j]
            self._push(ch_back, t, far, near, closed)
        lead_here = LO[lead] if a == 0 else HI[lead]
        lead_there = HI[lead] if a == 0 else LO[lead]
        self._push(ch_back, lead, lead_here, lead_there, 0)
        for j in range(n_other):
            self._push(ch_back, other[j], onear[j], ofar[j], ocl[j])
        self.centre = spin

    # --- placement -----------------------------------------------------------------------------
    def place(self, lay, focus=-1):
        """Compute tile positions for layout `lay`. Only recomputes when the layout changed."""
        key = lay.size * 64 + (lay.spin != NONE) * 32 + lay.st[2] * 4 + lay.st[3]
        if key == self.key:
            return
        self.key = key
        self.build(lay)
        self.tall = False
        self.scroll = 0
        if self.centre == NONE:
            self.n = 0
            return
        for s in SIZES:
            if 2 * s * 5 > self.h + 20 and s > MIN_S:
                continue
            if self._try(s, self.y0, self.h):
                return
        # nothing fits: a table three screens tall that scrolls
        self.tall = True
        self._try(MIN_S, self.y0 - self.h, 3 * self.h)
        top = 32767
        bot = -32767
        for i in range(self.n):
            y = self.py[i]
            if y < top:
                top = y
            hh = self.s if self.pf[i] & F_HORIZ else 2 * self.s
            if y + hh > bot:
                bot = y + hh
        self.top = top
        self.bottom = bot

    def _try(self, s, y0, h):
        self.s = s
        self.n = 0
        x0 = self.x0
        w = self.w
        cx = x0 + w // 2
        cy = y0 + h // 2
        c = self.centre
        dbl = LO[c] == HI[c]
        # the centre: a double stands across the line
        if dbl:
            self._put(c, cx - s // 2, cy - s, LO[c], HI[c], 0, F_DOUBLE)
        else:
            self._put(c, cx - s, cy - s // 2, LO[c], HI[c], F_HORIZ, 0)
        for ch in range(4):
            if not self._chain(ch, s, cx, cy, x0, y0, w, h, dbl):
                return False
        return True

    def _put(self, t, x, y, a, b, horiz, flags):
        i = self.n
        self.px[i] = x
        self.py[i] = y
        self.pa[i] = a
        self.pb[i] = b
        self.pt[i] = t
        self.pf[i] = flags | (F_HORIZ if horiz else 0)
        self.n = i + 1

    def _chain(self, ch, s, cx, cy, x0, y0, w, h, cdbl):
        dx = _DX[ch]
        dy = _DY[ch]
        tx = _TX[ch]
        ty = _TY[ch]
        # room along the chain's direction and across (its turn direction), from the centre
        if ch == 0:
            umax, vmax, uback = x0 + w - cx, y0 + h - cy, cx - x0
        elif ch == 1:
            umax, vmax, uback = cx - x0, cy - y0, x0 + w - cx
        elif ch == 2:
            umax, vmax, uback = cy - y0, x0 + w - cx, y0 + h - cy
        else:
            umax, vmax, uback = y0 + h - cy, cx - x0, cy - y0
        umin = s + GAP if self.wheel else -uback + 1
        pitch = 2 * s + GAP
        if ch < 2:
            hc = s // 2 if cdbl else s
        else:
            hc = s
        u = hc + GAP
        sign = 1
        row = 0
        base = ch * 28
        n = self.cn[ch]
        for j in range(n):
            t = self.ct[base + j]
            dbl = LO[t] == HI[t]
            ln = s if dbl else 2 * s
            if sign > 0 and u + ln > umax:
                row += 1
                sign = -1
                u -= GAP
            elif sign < 0 and u - ln < umin:
                row += 1
                sign = 1
                u += GAP
            v = row * pitch
            if v + s > vmax:
                return False
            if sign > 0:
                a0 = u
                u += ln + GAP
                if a0 + ln > umax:
                    return False
            else:
                a0 = u - ln
                u = a0 - GAP
                if a0 < umin:
                    return False
            across = 2 * s if dbl else s
            b0 = v - across // 2
            # local (along a0..a0+ln, across b0..b0+across) -> screen rectangle
            if dx:
                x = cx + a0 if dx > 0 else cx - a0 - ln
                y = cy + b0 if ty > 0 else cy - b0 - across
            else:
                y = cy + a0 if dy > 0 else cy - a0 - ln
                x = cx + b0 if tx > 0 else cx - b0 - across
            horiz = (dx != 0) != dbl
            near = self.cnear[base + j]
            far = self.cfar[base + j]
            fwd = (dx + dy) * sign > 0   # travelling right/down on screen
            flags = (F_DOUBLE if dbl else 0) | (F_CLOSED if self.cclosed[base + j] else 0)
            if fwd:
                self._put(t, x, y, near, far, horiz, flags)
            else:
                self._put(t, x, y, far, near, horiz, flags)
        # marker of the open end: the far half of the last tile, or a box beside the centre
        if n:
            i = self.n - 1
            x = self.px[i]
            y = self.py[i]
            f = self.pf[i]
            if f & F_DOUBLE:
                mw = s if not f & F_HORIZ else 2 * s
                mh = 2 * s if not f & F_HORIZ else s
            else:
                mw = s
                mh = s
                fwd = (dx + dy) * sign > 0
                if fwd:
                    if f & F_HORIZ:
                        x += s
                    else:
                        y += s
        else:
            mw = mh = s
            a0 = hc + GAP
            if dx:
                x = cx + a0 if dx > 0 else cx - a0 - s
                y = cy - s // 2
            else:
                y = cy + a0 if dy > 0 else cy - a0 - s
                x = cx - s // 2
        self.mx[ch] = x
        self.my[ch] = y
        self.mw[ch] = mw
        self.mh[ch] = mh
        return True

    def follow(self, y, hh):
        """Tall tables: scroll so that rows y .. y+hh are on screen."""
        if not self.tall:
            return
        top = self.y0 + self.scroll
        if y < top:
            self.scroll = y - self.y0 - 2
        elif y + hh > top + self.h:
            self.scroll = y + hh - self.h - self.y0 + 2
        lo = self.top - self.y0 - 2
        hi = self.bottom - self.h - self.y0 + 2
        if hi < lo:
            hi = lo
        if self.scroll < lo:
            self.scroll = lo
        if self.scroll > hi:
            self.scroll = hi

    def follow_tile(self, t):
        for i in range(self.n):
            if self.pt[i] == t:
                self.follow(self.py[i], 2 * self.s)
                return

    def draw(self, g, highlight=0, mark_col=-1):
        """Draw the placed tiles; tiles in the `highlight` mask get an outline in mark_col."""
        s = self.s
        off = self.scroll
        y_lo = self.y0
        y_hi = self.y0 + self.h
        for i in range(self.n):
            f = self.pf[i]
            y = self.py[i] - off
            hh = s if f & F_HORIZ else 2 * s
            if self.tall and (y < y_lo or y + hh > y_hi):
                continue
            t = self.pt[i]
            g.tile(self.px[i], y, self.pa[i], self.pb[i], f & F_HORIZ, s, f,
                   mark_col if (highlight >> t) & 1 else -1)
        if self.tall:
            c = g.c
            if self.top - off < y_lo:
                g.text("^", self.x0 + self.w - 8, y_lo, c.ACCENT)
            if self.bottom - off > y_hi:
                g.text("v", self.x0 + self.w - 8, y_hi - 8, c.ACCENT)

    def mark(self, g, chain, col):
        """Outline the open end of one chain (choosing where a tile goes)."""
        y = self.my[chain] - self.scroll
        x = self.mx[chain]
        w = self.mw[chain]
        h = self.mh[chain]
        fb = g.fb
        fb.rect(x - 1, y - 1, w + 2, h + 2, col)
        fb.rect(x - 2, y - 2, w + 4, h + 4, col)
