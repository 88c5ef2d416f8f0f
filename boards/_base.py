# The Board object every board file builds (API in docs/BOARDS.md), the colour names and the
# default 16-colour palette. No `machine` here: the simulator and the tests import this freely.
import time

from drivers.gs4 import rgb565

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


class Board:
    """Common base. A board file's build() returns an instance with fb, show() and read_keys()."""
    name = "?"
    width = 0
    height = 0
    mono = False
    fb = None
    buf = None           # the framebuffer's bytearray
    fb_format = None     # framebuf format constant of fb
    palette = PALETTE    # RGB888 tuples; on mono boards (dark, lit)
    KEY_HELP: str = ""
    KEYS: int = 0        # logical keys this board can produce (ui.input K_* bits)
    SHIFT: int = 0       # 4-button boards: modifier key for ui.input.Input (0 = none)
    SHIFT_MAP: tuple = ()  # flat (key, key-with-shift, ...) pairs
    data_dir = "/"       # where the app keeps saves/settings ("/" on the device's flash)
    watchdog = None      # boards._hw.Watchdog on a real board, a stand-in in the simulator

    def __init__(self):
        self.colour = Colours(self.mono)
        self.brightness = 100

    def show(self):
        pass

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

    def make_input(self, **kw):
        """A ui.input.Input wired to this board's keys, clock and 4-button shift map."""
        from ui.input import Input
        if self.SHIFT and "shift" not in kw:
            kw["shift"] = self.SHIFT
            kw["shift_map"] = self.SHIFT_MAP
        return Input(self.read_keys, self.ticks_ms, **kw)

    def __repr__(self):
        return "<Board %s %dx%d%s>" % (self.name, self.width, self.height,
                                       " mono" if self.mono else "")
