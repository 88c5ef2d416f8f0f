"""Drawing on the board's framebuffer: text in the board's font, domino tiles with pips, the table
layout and the hand. Sizes come from the framebuffer's width and height, never from a board name.

The table is a "pinwheel": the centre tile (the spinner, else the lead) sits in the middle; the right
arm runs right and then snakes in rows through the lower right, the down arm runs down and snakes in
columns through the lower left, the left arm runs left then snakes through the upper left, and the up
arm runs up then snakes through the upper right. Without up/down arms the left and right arms snake
through the whole upper and lower halves. The tile size is the largest that fits every arm; when not
even the smallest fits (tiny screens), the table becomes taller than the screen and scrolls.
Positions are computed (ui/place.py) only when the layout changes, into preallocated arrays here.
"""
import framebuf
from array import array
from framebuf import FrameBuffer
from micropython import const
_NONE = const(255)  # = domino.tiles.NONE

# pips of 0..6 on a 3x3 grid, bit r*3+c; the six is two rows of three along the tile's long side
_PIP_MASKS = const((0, 0x10, 0x101, 0x111, 0x145, 0x155, 0x16D))
_SIX_ACROSS = const(0x1C7)
# x of 8 points on a circle of radius 8 (y: shifted by 6); defined before its use, since an underscore
# const is folded into later code only and exists nowhere at run time
_RING = const((0, 6, 8, 6, 0, -6, -8, -6))
CHAIN_OF_ARM = (1, 0, 2, 3)    # arm L -> chain W(1), R -> E(0), U -> N(2), D -> S(3)

_PIP_UM = const(400)     # pips at least this wide on the panel (docs/UI.md, "Legibility")
_CAPS_UM = const(1200)   # capitals at least this tall (= ui.font._CAPS_UM)

# the note when the board's font cannot be read (always English: framebuf's font has no other
# letters): its file damaged or over its budget, missing (OSError ENOENT)
_NO_FONT = const(("Font damaged: built-in font", "Font missing: built-in font"))

F_HORIZ = const(1)
_F_CLOSED = const(2)
_F_DOUBLE = const(4)


def wrap(text, cols, cols2=0):
    """The lines of text, broken at spaces and at each newline, every other line at most cols2
    characters long when cols2 is given (a message line beside the stock), the rest cols. A word
    longer than its line is split: nothing is ever cut off."""
    out = []
    for para in text.split("\n"):
        line = ""
        for word in para.split(" "):
            while True:
                room = cols2 if cols2 and len(out) & 1 else cols
                if not line and len(word) > room:
                    out.append(word[:room])
                    word = word[room:]
                elif not line:
                    line = word
                    break
                elif len(line) + 1 + len(word) <= room:
                    line += " " + word
                    break
                else:
                    out.append(line)
                    line = ""
        out.append(line)
    return out


class Gfx:
    """Text and tiles on one framebuffer, with the board's named colours.

    Text: the board's font (ui/font.py, chosen in millimetres), else framebuf's 8x8 font (the
    128x64 OLED in English: its 7-pixel capitals are 1.18 mm there; it has ASCII only, so another
    language takes the board's font there too, for_lang). A font file that cannot be read (missing,
    damaged, over its budget) costs the font, not the device: framebuf's 8x8 font draws instead,
    in English (it has no other letters), k8 times larger where its 7-pixel capitals would be under
    1.2 mm (twice on the colour boards), and `note` says so in one line; `safe` (the safe start,
    B held at power-on) reads no font file at all. Every layout measures text with cw (a
    character's advance) and lh (a line's height), never with literal pixel counts.
    Pips: pip pixels across (0.4 mm; the OLED: 2, its panel's limit) and the half-tile size
    `legible` at which tiles show them with a gap of at least half a pip."""

    def __init__(self, board, safe=False):
        self.board = board
        self.fb = board.fb           # screen coordinates; on a colour board one band of the frame
        self.w = board.width
        self.h = board.height
        self.c = board.colour
        self.mono = board.mono
        self.font = None
        self.note = None             # why the board's font is not in use (it could not be read)
        self._g8 = None
        self.k8 = 1                  # framebuf's 8x8 font drawn k8 times larger (_metrics)
        if self.mono or safe:
            self._metrics()
        else:
            self._open_font()
        self.pip = 2 if self.mono else board.px_for_um(_PIP_UM)
        self.legible = self.half_for(self.pip)
        # the pips of the last half-tile size drawn (_pips_for): that size, the pip size, the three
        # columns' (and rows') offsets; one bytearray, as every attribute name is interned for good
        self._pip = bytearray(5)
        c = self.c
        self.divider = c.PIP if self.mono else c.EDGE

    def _open_font(self):
        """The board's font, or, when its file cannot be read, framebuf's and the note why."""
        from ui import font
        board = self.board
        try:
            self.font = font.Font(font.for_board(board), board.fb_format)
        except (OSError, ValueError) as e:   # missing (ENOENT), damaged, over its budget
            self.note = _NO_FONT[e.args[:1] == (2,)]
            self._metrics()
            return
        if board.fb_format == framebuf.GS4_HMSB:    # every colour board: its frame buffer
            fb = board.fb                               # (or one band of it)
            self.font.target(fb if isinstance(fb, FrameBuffer) else fb.fb, board.buf, self.w,
                             board.band or self.h)
        self._metrics()

    def _metrics(self):
        """The font in use's cell and capitals; without one, framebuf's 8x8 font, k8 times larger
        where its capitals would be under 1.2 mm (the OLED's 1.18 mm count: its panel's limit),
        one letter of it in a buffer to draw it larger."""
        f = self.font
        if f is not None:
            self.cw = f.w
            self.lh = f.h
            self.caps = f.caps
        else:                            # framebuf's 8x8 font, a pixel between lines
            if self._g8 is None:
                g = bytearray(8)
                self._g8 = (g, framebuf.FrameBuffer(g, 8, 8, framebuf.MONO_HLSB))
            self.k8 = k = 1 if self.mono else (self.board.px_for_um(_CAPS_UM) + 6) // 7
            self.cw = 8 * k
            self.lh = 9 * k
            self.caps = 7 * k
        self.cols = self.w // self.cw

    def for_lang(self, code):
        """Text in language `code` from now on; False when it cannot be drawn (no font with its
        letters could be read: English it is, in framebuf's 8x8 font, and `note` says why). The
        colour boards' fonts have every language's letters; the OLED draws English in framebuf's
        8x8 font (ASCII only: one less file open, and 16 columns of 7-pixel capitals) and any other
        language in its board font (f6x12: Cyrillic, 8-pixel capitals, 21 columns, 12-pixel lines).
        A font that failed once is not read again until the next power-on. Screens measure text
        with cw and lh when they draw, so the next frame is laid out for the font in use."""
        if code == "en":
            if self.mono and self.font is not None:
                self.font.close()
                self.font = None
                self._metrics()
            return True
        if self.font is None and self.note is None:
            self._open_font()
        return self.font is not None

    def off(self, y, h):
        """Rows y .. y+h-1 lie wholly outside the band being drawn (boards/_base.py): the tiles and
        letters there are skipped, not drawn to be clipped."""
        b = self.board
        band = b.band
        return band and (y + h <= b.y0 or y >= b.y0 + band)

    # --- text ----------------------------------------------------------------------------------
    def text(self, s, x, y, col, k=1):
        """Every text is drawn here: s with its top-left at x, y (k: framebuf's 8x8 font k times
        larger than its k8; the font is drawn at its own size)."""
        f = self.font
        if f is not None:
            if not self.off(y, self.lh):
                fb = self.fb
                if not isinstance(fb, FrameBuffer):      # a band (see tile)
                    y -= fb.y0
                    fb = fb.fb
                f.text(fb, s, x, y, col)
            return
        k *= self.k8
        if k == 1:
            self.fb.text(s, x, y, col)
            return
        if self.off(y, 8 * k):
            return
        g8 = self._g8
        if g8 is None:                   # (framebuf's font not set up: none is in use)
            return
        g, gfb = g8
        fb = self.fb
        for i in range(len(s)):          # the whole text, moved so that only glyph i lands in the
            gfb.fill(0)                  # 8x8 buffer: no one-letter string is made (each would be
            gfb.text(s, -8 * i, 0, 1)    # interned for good: a new qstr pool mid-game)
            for r in range(8):
                bits = g[r]
                if bits:
                    for cc in range(8):
                        if bits & (0x80 >> cc):
                            fb.fill_rect(x + cc * k, y + r * k, k, k, col)
            x += 8 * k

    def right(self, s, x_end, y, col):
        self.text(s, x_end - self.cw * len(s), y, col)

    def width(self, s):
        return self.cw * len(s)

    def big(self, s, x, y, col, k=1):
        """A title: the font (framebuf's 8x8 font k times larger where there is none)."""
        self.text(s, x, y, col, k)

    def big_center(self, s, y, col, k=1):
        """A title centred on the screen; returns its height."""
        if self.font is not None:
            self.text(s, (self.w - len(s) * self.cw) // 2, y, col)
            return self.lh
        k8 = self.k8
        if len(s) * 8 * k * k8 > self.w:
            k = 1
        self.text(s, (self.w - len(s) * 8 * k * k8) // 2, y, col, k)
        return 8 * k * k8

    def center(self, s, y, col):
        self.text(s, (self.w - self.cw * len(s)) // 2, y, col)

    def fit(self, s, n):
        """s cut to n characters (names in narrow columns; other texts wrap)."""
        return s if len(s) <= n else s[:n]

    # --- tiles ---------------------------------------------------------------------------------
    def half_for(self, z):
        """The smallest half-tile whose pips can be z pixels across: three pips a row with gaps of
        half a pip (at least 1) and, on colour screens, a pixel of tile between pips and edge."""
        return 2 + 3 * z + 2 * (z // 2 if z > 2 else 1) + (0 if self.mono else 2)

    def _pips_for(self, s):
        """Pip size and places in a half-tile of s pixels: the largest pips up to self.pip that
        leave gaps of half a pip, the three columns spread over the half."""
        p = self._pip
        if p[0] == s:
            return
        z = self.pip
        while z > 1 and self.half_for(z) > s:
            z -= 1
        inner = s - 2
        m = 0 if self.mono else 1            # tile between a pip and the edge
        d = (inner - z - 2 * m) // 2        # from one pip column to the next
        if d <= z:
            m = 0
            d = (inner - z) // 2
        o = 1 + m + (inner - 2 * m - z - 2 * d) // 2
        for k in range(3):
            p[2 + k] = o + k * d
        p[0] = s
        p[1] = z

    def _half(self, fb, x, y, v, horiz, col):
        """The pips of v in the half-tile at x, y of the framebuf fb (_pips_for made their places)."""
        if not v:
            return
        m = _SIX_ACROSS if (v == 6 and horiz) else _PIP_MASKS[v]
        p = self._pip
        z = p[1]
        i = 0
        while m:
            if m & 1:
                fb.fill_rect(x + p[2 + i % 3], y + p[2 + i // 3], z, z, col)
            m >>= 1
            i += 1

    def tile(self, x, y, a, b, horiz, s, flags=0, mark=-1):
        """Tile a|b with its top-left at x, y: a on the left (top), b on the right (bottom).
        flags _F_CLOSED draws it face down; mark >= 0 outlines it in that colour."""
        c = self.c
        w = 2 * s if horiz else s
        h = s if horiz else 2 * s
        if self.off(y - 2, h + 4):
            return
        fb = self.fb
        if not isinstance(fb, FrameBuffer):  # a band of the frame (boards/_base.py BandView): its
            y -= fb.y0                       # framebuf drawn on directly, at the band's rows (a
            fb = fb.fb                       # call through the view costs three times a call's time)
        if flags & _F_CLOSED:
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
                self._half(fb, x, y, a, True, c.PIP)
                self._half(fb, x + s, y, b, True, c.PIP)
            else:
                fb.hline(x + 1, y + s, s - 2, self.divider)
                self._half(fb, x, y, a, False, c.PIP)
                self._half(fb, x, y + s, b, False, c.PIP)
        if mark >= 0:
            fb.rect(x - 1, y - 1, w + 2, h + 2, mark)
            if s >= 8:
                fb.rect(x - 2, y - 2, w + 4, h + 4, mark)

    def square(self, x, y, v, s, mark=-1):
        """The number v of an open end: one half-tile, s pixels square, its top-left at x, y; mark
        >= 0 outlines it in that colour."""
        if self.off(y - 2, s + 4):
            return
        c = self.c
        fb = self.fb
        if not isinstance(fb, FrameBuffer):  # a band (see tile)
            y -= fb.y0
            fb = fb.fb
        self._pips_for(s)
        fb.fill_rect(x, y, s, s, c.TILE)
        if not self.mono:
            fb.rect(x, y, s, s, c.EDGE)
        self._half(fb, x, y, v, False, c.PIP)
        if mark >= 0:
            fb.rect(x - 1, y - 1, s + 2, s + 2, mark)
            fb.rect(x - 2, y - 2, s + 4, s + 4, mark)

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



class TableView:
    """Where every tile of a layout goes in a table rectangle (computed once per layout change)."""

    def __init__(self, x0, y0, w, h, mono=False, lo=0):
        self.x0 = x0
        self.y0 = y0
        self.w = w
        self.h = h
        self.mono = mono                 # 1-bit screen: no tile smaller than its pips need
        self.lo = lo                     # no tile smaller than this (0: ui/place.py's smallest)
        self.s = 0                       # half-tile size of the current fit (0: none yet)
        self.cx = 0                      # centre point of the centre tile (kept between moves)
        self.cy = 0
        self.fitted = -1                 # the centre tile | spinner << 8 the fit was made for
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
        self.cst = array("h", [0] * 36)  # per chain: ui/place.py's walk after its last tile (4 x _WALK)
        self.copen = bytearray(4)        # per chain: its end is open (a fit leaves it room)
        self._cur = bytearray(4)
        self.centre = _NONE
        self.wheel = False
        self.key = 0                     # layout seen last: its tile mask and size (an empty one needs
        #                                  no placing: ui/place.py is not loaded for it)
        self.size = 0

    def update(self, lay, app):
        """Recompute positions when the layout changed (the placement code is loaded only then)."""
        if self.key == lay.played and self.size == lay.size:
            return
        app.need("ui.place").place(self, lay)

    def follow(self, y, hh):
        """Tall tables: scroll so that rows y .. y+hh are on screen (not at all while every tile is:
        the table stays where it is)."""
        if not self.tall:
            return
        if self.scroll == 0 and self.top >= self.y0 and self.bottom <= self.y0 + self.h:
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
