"""The table screen's own code under CPython, for host tools and tests (tools/sim/screenshots.py,
host_tests/test_messages.py, host_tests/test_layout_geometry.py): the real Table, its message area
and the layout placement, with a recording stand-in for the framebuffer.

The ui/ modules need MicroPython's `micropython.const` and `framebuf` only to load: stand-ins are put
in for the moment of the import and taken out again (other code must not see them)."""
import os
import sys
import types

from boards._base import Colours
from domino.match import Match
from domino.rules import Rules
from tools.paths import BOARDS


def device_module(name):
    """A firmware module loaded under CPython: micropython.const and framebuf stand in while it
    loads (and are put back as they were)."""
    import importlib
    keep = {k: sys.modules.get(k) for k in ("micropython", "framebuf")}
    sys.modules["micropython"] = types.SimpleNamespace(const=lambda x: x)
    sys.modules["framebuf"] = types.SimpleNamespace(FrameBuffer=lambda *a: None, MONO_HLSB=0)
    try:
        return importlib.import_module(name)
    finally:
        for k, v in keep.items():
            if v is None:
                sys.modules.pop(k, None)
            else:
                sys.modules[k] = v


def import_ui():
    """(gfx, paint, place, table, words, dealcode) of firmware/ui, loaded under CPython."""
    return tuple(device_module("ui." + m) for m in ("gfx", "paint", "place", "table", "words", "dealcode"))


gfx, paint, place, table, words, dealcode = import_ui()


# the board of each screen size: its font and pips come from its panel's pitch (boards/<board>.py)
BOARD_OF_SIZE = {(240, 240): "waveshare_lcd13", (320, 240): "pimoroni_pack2",
                 (240, 135): "pimoroni_pack", (128, 64): "oled_diy"}


def pitch_um(board):
    """A board file's PITCH_UM (read, not imported: board files import the hardware)."""
    import re
    with open(os.path.join(BOARDS, board + ".py")) as f:
        return int(re.search(r"^PITCH_UM = (\d+)", f.read(), re.M).group(1))


def metrics(w, h):
    """(cw, lh, caps, pip, legible) Gfx has on the board of this size (ui/gfx.py)."""
    mono = h < 100
    if mono:
        pip = 2
        cw, lh, caps = 8, 9, 7
    else:
        font = device_module("ui.font")
        p = pitch_um(BOARD_OF_SIZE.get((w, h), "waveshare_lcd13"))
        pip = (400 + p - 1) // p
        with open(font.for_board(types.SimpleNamespace(um_of_px=lambda px: px * p)), "rb") as f:
            head = f.read(10)
        cw, lh, caps = head[5], head[6], head[8]
    legible = gfx.Gfx.half_for(types.SimpleNamespace(mono=mono), pip)
    return cw, lh, caps, pip, legible


class Recorder:
    """The Gfx calls the message area makes, recorded as (text, x, y), with the metrics of the
    board of that size."""

    def __init__(self, w, h):
        self.w = w
        self.h = h
        self.mono = h < 100
        self.cw, self.lh, self.caps, self.pip, self.legible = metrics(w, h)
        self.cols = w // self.cw
        self.font = None if self.mono else True
        self.c = Colours(self.mono)
        self.divider = 0
        self.calls = []
        self.fb = types.SimpleNamespace(fill_rect=lambda *a: None, text=self._fb_text)

    def _fb_text(self, s, x, y, c=1):
        self.calls.append((s, x, y))

    def text(self, s, x, y, col):
        self.calls.append((s, x, y))

    def right(self, s, x_end, y, col):
        self.calls.append((s, x_end - self.cw * len(s), y))

    def width(self, s):
        return self.cw * len(s)

    def square(self, *a):
        pass

    def spinner(self, *a):
        pass

    def off(self, y, h):
        """The whole screen is one band here: nothing lies outside it."""
        return False


class App:
    """Just what a Table asks of the app."""

    def __init__(self, w, h):
        self.g = Recorder(w, h)
        self.now = 0
        self.board = types.SimpleNamespace(ticks_ms=lambda: self.now)
        self.settings = {"anim": 0, "think": 250}

    def redraw(self):
        pass

    def release(self):
        pass

    def need(self, name):
        __import__(name)
        return sys.modules[name]


def make_table(w, h, vid="fives", players=4, name="P"):
    """The Table screen of a w x h board on a fresh deal (every seat human, named `name`)."""
    m = Match(Rules(vid, players, False), 1)
    m.start_round()
    return table.Table(App(w, h), table.Game(m, ["human"] * players, [name] * players))


def area(w, h):
    """(x0, y0, w, h, mono) of the table area on a w x h screen."""
    v = make_table(w, h).view
    return v.x0, v.y0, v.w, v.h, v.mono


def turns(v):
    """Corners in a placed view: on each arm, the tiles laid across their row (corners) and the
    doubles laid along it (a double at a turn)."""
    n = 0
    k = 1                                    # v's order: the centre, then arm by arm
    for ch in range(4):
        row_horiz = ch < 2                   # the right and left arms run in rows, up/down in columns
        for _ in range(v.cn[ch]):
            horiz = bool(v.pf[k] & 1)
            double = v.pa[k] == v.pb[k]
            if (horiz != row_horiz) != double:
                n += 1
            k += 1
    return n


def layout_turns(lay, w, h):
    """Corners the table of a w x h screen shows for layout `lay` (placed from scratch)."""
    x0, y0, aw, ah, mono = area(w, h)
    v = gfx.TableView(x0, y0, aw, ah, mono)
    place.place(v, lay)
    return turns(v)
