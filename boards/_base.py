# The Board object every board file builds (API in docs/BOARDS.md), the colour names and the
# default 16-colour palette. No `machine` here: the simulator and the tests import this freely.
import time

from boards._gs4 import rgb565

try:
    from micropython import const
except ImportError:
    def const(x):
        return x

# Colour names the UI draws with, in palette-index order for colour boards.
COLOUR_NAMES = ("BG", "FG", "DIM", "TABLE", "TILE", "PIP", "EDGE", "CURSOR", "PLAYABLE",
                "ACCENT", "WARN", "GOOD", "REMEMBERED", "TEAM0", "TEAM1", "PANEL")

# Default palette (RGB888; the panel shows the RGB565 rounding of these).
PALETTE = (
    (0, 0, 0),         # 0  BG          black
    (255, 255, 255),   # 1  FG          white text
    (128, 128, 128),   # 2  DIM         grey: disabled text, hints
    (0, 88, 48),       # 3  TABLE       green felt
    (244, 236, 212),   # 4  TILE        ivory tile face
    (24, 24, 24),      # 5  PIP         near-black pips
    (112, 96, 64),     # 6  EDGE        tile outline / divider
    (255, 216, 0),     # 7  CURSOR      yellow selection
    (96, 232, 128),    # 8  PLAYABLE    light green: tiles/ends you can play
    (0, 200, 232),     # 9  ACCENT      cyan: titles, highlights
    (232, 40, 40),     # 10 WARN        red
    (40, 200, 64),     # 11 GOOD        green
    (208, 96, 255),    # 12 REMEMBERED  violet: Goat "+N" remembered points
    (64, 144, 255),    # 13 TEAM0       blue
    (255, 152, 40),    # 14 TEAM1       orange
    (40, 40, 48),      # 15 PANEL       dark grey: boxes, status bars
)

# Mono (SSD1306) mapping: 0 = dark, 1 = lit. Tiles are lit faces with dark pips.
MONO = {"BG": 0, "FG": 1, "DIM": 1, "TABLE": 0, "TILE": 1, "PIP": 0, "EDGE": 1, "CURSOR": 1,
        "PLAYABLE": 1, "ACCENT": 1, "WARN": 1, "GOOD": 1, "REMEMBERED": 1, "TEAM0": 1,
        "TEAM1": 1, "PANEL": 0}


class Colours:
    """Namespace of colour indices: board.colour.TILE etc. (and board.colour.names)."""

    def __init__(self, mono=False):
        self.names = COLOUR_NAMES
        for i, n in enumerate(COLOUR_NAMES):
            setattr(self, n, MONO[n] if mono else i)


def palette565(palette):
    return [rgb565(r, g, b) for (r, g, b) in palette]


# Colour boards draw the screen in horizontal bands: a GS4 frame (two pixels a byte) bigger than this
# is split into the fewest equal bands that fit, and the frame buffer holds one band at a time (the
# UI draws the screen once per band, each band is pushed to the panel as soon as it is drawn). The
# heap is the reason: a whole 240x240 frame is 28.8 KB, 320x240 38.4 KB. 4,800 rather than 9,600
# (measured on the emulated Pico): 4.8 KB more free heap at a whole UI match's worst point
# for the same time per frame (the SPI link, not the drawing, sets the pace), docs/benchmarks.md.
BAND_BYTES = const(4800)
# ... but no band under this many rows: a cursor move redraws only its two tiles while the bottom
# band holds the whole hand row (ui/paint.py cursor): 28 rows of lying tiles on 240x135; the 240-row
# screens' upright hand (56 rows) spans two bands and is redrawn whole.
MIN_BAND_ROWS = const(40)


def band_rows(width, height):
    """Rows per band of a GS4 frame buffer: all of them when the frame fits BAND_BYTES, else the
    height split into the fewest equal bands of at most BAND_BYTES, or MIN_BAND_ROWS rows where a
    row is wider (240x240: 6 x 40 rows, 320x240: 6 x 40, 240x135: 4 x 34, the last band shorter)."""
    bpl = (width + 1) // 2
    most = BAND_BYTES // bpl
    if most < MIN_BAND_ROWS:
        most = MIN_BAND_ROWS
    n = (height + most - 1) // most
    return (height + n - 1) // n


class BandView:
    """A band of the screen in the frame buffer, drawn on in screen coordinates: the framebuf calls
    the UI makes, y moved up by the band's first row y0; framebuf clips what lies outside the band.
    Only the calls the UI uses are here (another one is an AttributeError, never a wrong picture)."""

    def __init__(self, fb):
        self.fb = fb
        self.y0 = 0

    def fill(self, c):
        self.fb.fill(c)

    def fill_rect(self, x, y, w, h, c):
        self.fb.fill_rect(x, y - self.y0, w, h, c)

    def rect(self, x, y, w, h, c, f=False):
        self.fb.rect(x, y - self.y0, w, h, c, f)

    def hline(self, x, y, w, c):
        self.fb.hline(x, y - self.y0, w, c)

    def vline(self, x, y, h, c):
        self.fb.vline(x, y - self.y0, h, c)

    def line(self, x1, y1, x2, y2, c):
        y0 = self.y0
        self.fb.line(x1, y1 - y0, x2, y2 - y0, c)

    def pixel(self, x, y, c=-1):
        if c < 0:
            return self.fb.pixel(x, y - self.y0)
        self.fb.pixel(x, y - self.y0, c)

    def text(self, s, x, y, c=1):
        self.fb.text(s, x, y - self.y0, c)

    def blit(self, src, x, y, key=-1, palette=None):
        self.fb.blit(src, x, y - self.y0, key, palette)


class Board:
    """Common base. A board file's build() returns an instance with fb, show() and read_keys()."""
    name = "?"
    width = 0
    height = 0
    mono = False
    fb = None            # draws in screen coordinates (on a banded board: a BandView)
    buf = None           # the framebuffer's bytearray (on a banded board: one band's rows)
    fb_format = None     # framebuf format constant of the buffer
    band = 0             # rows the buffer holds (0 or height: the whole frame)
    y0 = 0               # the screen row of the buffer's first row
    moved = 0            # counts set_band calls and whole frames: what a screen drew into the buffer
                         # is still there while this stays the same (ui/paint.py's cursor)
    palette = PALETTE    # RGB888 tuples; on mono boards (dark, lit)
    KEY_HELP: str = ""
    KEYS: int = 0        # logical keys this board can produce (keys K_* bits)
    SHIFT: int = 0       # 4-button boards: modifier key for keys.Input (0 = none)
    SHIFT_MAP: tuple = ()  # flat (key, key-with-shift, ...) pairs
    data_dir = "/"       # where the app keeps saves/settings ("/" on the device's flash)
    watchdog = None      # boards._hw.Watchdog on a real board, a stand-in in the simulator
    ai_clock: object = None  # the AI's ms clock: None = real time; headless sim/web runs count work
    pitch_um = 0         # the panel's pixel pitch in micrometres (the board file's PITCH_UM)
    lang: object = None  # a first boot's language, not asked (the browser's: boards/web.py; the
    #                      simulator's); None: the first boot asks (ui/settings.py AskLang)
    link: tuple = ()     # the link cable's UART: (UART id, TX GPIO, RX GPIO), the board file's LINK
    _link_port = None

    def __init__(self):
        self.colour = Colours(self.mono)
        self.brightness = 100

    def show(self, y0=0, y1=0x7FFF, more=False):
        """Push the frame buffer to the screen: on a banded board only screen rows y0 .. y1 (both
        included) of the band it holds; `more`: further bands of the same frame follow."""
        pass

    def gs4(self, whole=False):
        """The 4-bit frame buffer (framebuf.GS4_HMSB): buf, fb, band; one band of the frame when
        the whole frame would take more than BAND_BYTES (whole: never, for tests)."""
        import framebuf
        w = self.width
        rows = self.height if whole else band_rows(w, self.height)
        self.band = rows
        self.buf = bytearray(((w + 1) // 2) * rows)
        self.fb_format = framebuf.GS4_HMSB
        fb = framebuf.FrameBuffer(self.buf, w, rows, framebuf.GS4_HMSB)
        self.fb = fb if rows >= self.height else BandView(fb)

    def set_band(self, y0):
        """The buffer holds screen rows y0 .. y0 + band - 1 from now on (fb draws there)."""
        self.moved += 1
        self.y0 = y0
        fb = self.fb
        if isinstance(fb, BandView):
            fb.y0 = y0

    def paint(self, draw, arg=None):
        """draw(arg) on the frame buffer and show it. A banded board runs draw once per band, top
        to bottom, and pushes each band as soon as it is drawn: draw must draw the same frame every
        time (no state advanced, nothing consumed). The buffer keeps the bottom band."""
        band = self.band
        h = self.height
        if not band or band >= h:
            self.moved += 1
            draw(arg)
            self.show()
            return
        y = 0
        while y < h:
            self.set_band(y)
            draw(arg)
            y += band
            self.show(0, h - 1, y < h)

    def px_for_um(self, um):
        """The fewest whole pixels that are at least `um` micrometres long on this panel: sizes
        chosen in millimetres (1.2 mm text: px_for_um(1200)), in integers only."""
        p = self.pitch_um
        return (um + p - 1) // p

    def um_of_px(self, px):
        """How long `px` pixels are on this panel, in micrometres."""
        return px * self.pitch_um

    def read_keys(self):
        return 0

    def set_brightness(self, pct):
        self.brightness = pct

    def beep(self, freq, ms):
        pass

    def led(self, r, g, b):
        pass

    def ticks_ms(self):
        return time.ticks_ms()

    def sleep_ms(self, ms):
        time.sleep_ms(ms)

    def idle_ms(self, ms):
        """The app's wait between two passes of its loop: a board whose keys latch presses may end
        it as soon as one comes (boards/_lcd.py)."""
        self.sleep_ms(ms)

    def link_port(self):
        """The link cable's UART (docs/LINK.md), made at the first link game and kept; None when
        the board has no link pins."""
        if self._link_port is None and self.link:
            from boards._hw import link_uart
            self._link_port = link_uart(*self.link)
        return self._link_port

    def make_input(self, **kw):
        """A keys.Input wired to this board's keys, clock and 4-button shift map."""
        from keys import Input
        if self.SHIFT and "shift" not in kw:
            kw["shift"] = self.SHIFT
            kw["shift_map"] = self.SHIFT_MAP
        return Input(self.read_keys, self.ticks_ms, **kw)

    def __repr__(self):
        return "<Board %s %dx%d%s>" % (self.name, self.width, self.height,
                                       " mono" if self.mono else "")
