# The simulated board: same Board API, runs under the MicroPython unix port (and CPython).
# The PC simulator (tools/sim/main.py) starts MicroPython with this board and views its frames; the
# link protocol is described in docs/SIM.md. Configuration comes from build() arguments or, when
# started by tools/sim/main.py, from environment variables:
#   PICO_SIM_PROFILE  board to mimic: its size, colours, keys and help (default waveshare_lcd13;
#                     "sim" = plain 240x240 with every key)
#   PICO_SIM_SIZE     WxH overriding the profile's size: 240x240, 240x135, 320x240, or 128x64
#                     (mono, laid out like the SSD1306: framebuf.MONO_VLSB)
#   PICO_SIM_OUT      path the frames are written to (tools/sim/main.py passes /dev/fd/N)
#   PICO_SIM_IN       path key/clock messages are read from
#   PICO_SIM_CLOCK    "real" (default) or "virtual": time only advances when the host answers a
#                     sleep_ms() request, so a key script gives the same frames on every run.
#   PICO_SIM_DATA     directory standing in for the device's flash (board.data_dir; saves and
#                     settings), default /tmp/pico-domino-sim
#   PICO_SIM_SEED     optional number: board.seed, the deal seed of every new game (a menu's
#                     New game uses it instead of os.urandom), for reproducible key scripts
#   PICO_SIM_FRAME    "whole": a colour frame buffer holds the whole frame, not a band (tests
#                     compare the two; the device always draws in bands, boards/_base.py)
#   PICO_SIM_AI_STEP  optional number N: the AI's clock is a WorkClock(N) (board.ai_clock), so a
#                     Hard move does the same work on any machine (headless key scripts)
# Without PICO_SIM_OUT the board still works (tests): frames are counted, not sent.
import sys
import time

import framebuf

from boards._base import Board, palette565
from boards._gs4 import rgb888
from keys import K_ALL, K_DOWN, K_UP, K_X, K_Y

try:
    from micropython import const
except ImportError:
    def const(x):
        return x

try:
    import select
except ImportError:
    select = None

MIP_DEPS = ()
PROFILES = ("sim", "waveshare_lcd13", "pimoroni_pack", "pimoroni_pack2", "oled_diy")
SIZES = ("240x240", "240x135", "320x240", "128x64")
# The board each size is the screen of: a size given without its profile takes that board's pixel
# pitch, so sizes in millimetres come out as on the panel it shows ("sim": the 240x240 one's).
SIZE_BOARDS = ("waveshare_lcd13", "pimoroni_pack", "pimoroni_pack2", "oled_diy")

_MSG_KEYS = const(0x4B)   # 'K' host -> device: keys held now
_MSG_TIME = const(0x54)   # 'T' host -> device: answer to a sleep request: keys + new time
_MSG_TAP = const(0x50)    # 'P' host -> device: one tap of these keys (a terminal's key press)
TAP_MS = const(30)        # a tap is down this long, then up this long (the debouncer takes 20 ms)
_TAPS = const(8)          # taps waiting at most (more are dropped: a key held in a terminal)


def _getenv(name):
    try:
        import os
        return os.getenv(name)
    except (ImportError, AttributeError):
        return None


LONG_GAP_MS = const(40)   # here ~4 s on an RP2040 (~100x slower): half the watchdog's period


class SimWatchdog:
    """The simulator's stand-in for boards._hw.Watchdog: never bites, but counts feeds and the
    longest gap between two (real ms), so tests can check the app feeds it often enough; `usb`
    (PICO_SIM_USB=1) plays a Pico plugged into a PC."""

    def __init__(self):
        self.usb = _getenv("PICO_SIM_USB") == "1"
        self.timeout = 0
        self.feeds = 0
        self.max_gap = 0
        self.long_gaps = 0   # gaps over LONG_GAP_MS: a busy host can pause a process, so tests count
        self.last = None
        self.resets = 0

    def usb_power(self):
        return self.usb

    def start(self, ms):
        if not self.timeout:
            self.timeout = ms
            self.last = time.ticks_ms()
        return True

    def feed(self):
        if self.timeout:
            now = time.ticks_ms()
            gap = time.ticks_diff(now, self.last)
            if gap > self.max_gap:
                self.max_gap = gap
            if gap > LONG_GAP_MS:
                self.long_gaps += 1
            self.last = now
            self.feeds += 1

    def reset(self):
        self.resets += 1     # a real board reboots here; the simulator carries on


class WorkClock:
    """The AI's clock in reproducible runs: every read is `step` ms later than the one before, so a
    search does the same work on any machine at any load. A 500 ms Hard move reads it 500 / step
    times: once per sample of every move in the rollout loop, every 32 nodes in the endgame solver."""

    def __init__(self, step):
        self.step = step
        self.t = 0

    def __call__(self):
        self.t = (self.t + self.step) & 0x3FFFFFFF
        return self.t


class SimBoard(Board):
    def __init__(self, profile, width, height, mono, out=None, inp=None, virtual=False,
                 whole=False):
        self.name = "sim"
        self.profile = profile
        self.width = width
        self.height = height
        self.mono = mono
        if mono:
            self.palette = ((0, 0, 0), (255, 255, 255))
        Board.__init__(self)
        if mono:
            self.fb_format = framebuf.MONO_VLSB
            self.buf = bytearray(width * ((height + 7) // 8))
            self.fb = framebuf.FrameBuffer(self.buf, width, height, self.fb_format)
            self.band = height
        else:
            self.gs4(whole)          # banded as on the device (boards/_base.py)
        self.frames = 0
        self.virtual = virtual
        self._now = 0
        self._keys = 0
        self._latched = 0
        self._keymap = None  # None = identity; else list of (host bit, board bit)
        self._taps = [0] * _TAPS     # taps waiting ('P' messages), a ring from _t0
        self._t0 = 0
        self._nt = 0
        self._tap_down = False
        self._tap_at = 0
        self._out = out
        self._in = inp
        self._hdr = bytearray(4)
        self._fhdr = bytearray(8)    # a frame message's header and byte offset
        self._msg = bytearray(8)
        self._poll = None
        if inp is not None and select is not None:
            self._poll = select.poll()
            self._poll.register(inp, select.POLLIN)
        self.events = []  # beeps/leds seen (tests), newest last, capped
        self.seed = None  # fixed deal seed for new games (PICO_SIM_SEED), None = random
        self.watchdog = SimWatchdog()
        self.fs = None    # type: object | None  # the data files' file system (savegame.Files' fs)

    def link_port(self):
        """The virtual link cable's end (boards/_linkpipe.py: `make sim-link` names its pipes in
        PICO_SIM_LINK_IN / PICO_SIM_LINK_OUT); None when this simulator runs without one."""
        if self._link_port is None:
            try:
                from boards._linkpipe import from_env
            except ImportError:  # the browser's board: no pipes, no cable
                return None
            self._link_port = from_env()
        return self._link_port

    # link ----------------------------------------------------------------------------------
    def _send(self, kind, payload):
        if self._out is None:
            return
        h = self._hdr
        n = len(payload)
        h[0] = kind
        h[1] = n & 0xFF
        h[2] = (n >> 8) & 0xFF
        h[3] = (n >> 16) & 0xFF
        try:
            self._out.write(h)
            if n:
                self._out.write(payload)
        except OSError:
            raise SystemExit(0)  # the viewer went away

    def hello(self):
        if self.mono:
            pal = "000000,ffffff"
        else:
            pal = ",".join("%02x%02x%02x" % rgb888(c) for c in palette565(self.palette))
        text = "%s\n%s\n%d\n%d\n%s\n%s\n%s\n%d\n" % (
            self.name, self.profile, self.width, self.height,
            "MONO_VLSB" if self.mono else "GS4_HMSB", pal, self.KEY_HELP, self.pitch_um)
        self._send(0x48, text.encode())  # 'H'

    def _event(self, text):
        ev = self.events
        ev.append(text)
        if len(ev) > 16:
            ev.pop(0)
        self._send(0x45, text.encode())  # 'E'

    def _read_msg(self, block):
        """Read one 8-byte host message. Returns False when none is waiting (and not block)."""
        if self._in is None:
            return False
        if not block and self._poll is not None:
            ready = False
            for _ in self._poll.ipoll(0):
                ready = True
            if not ready:
                return False
        m = self._msg
        got = self._in.readinto(m)
        if not got:
            raise SystemExit(0)  # host closed the link: quit quietly
        while got < 8:
            more = self._in.readinto(memoryview(m)[got:])
            if not more:
                raise SystemExit(0)
            got += more
        keys = m[2] | (m[3] << 8)
        if m[0] == _MSG_TAP:
            if self._nt < _TAPS:
                self._taps[(self._t0 + self._nt) % _TAPS] = keys
                self._nt += 1
            return m[0]
        self._latched |= keys & ~self._keys
        self._keys = keys
        if m[0] == _MSG_TIME:
            self._now = m[4] | (m[5] << 8) | (m[6] << 16) | (m[7] << 24)
        return m[0]

    def _drain(self):
        while self._read_msg(False):
            pass

    # Board API -----------------------------------------------------------------------------
    def show(self, y0=0, y1=0x7FFF, more=False):
        """Send screen rows y0..y1 of the band in the buffer (a mono frame: all of it) as a 'B'
        message (more bands of this frame follow) or an 'F' (the frame is complete): the rows'
        byte offset in the whole frame, then their bytes."""
        if not more:
            self.frames += 1
        if self._out is None:
            return
        if self.mono:
            a = 0
            b = len(self.buf)
            off = 0
        else:
            top = self.y0
            end = top + self.band - 1
            if end >= self.height:
                end = self.height - 1
            bpl = (self.width + 1) // 2
            a = ((y0 if y0 > top else top) - top) * bpl
            b = ((y1 if y1 < end else end) + 1 - top) * bpl
            if b < a:
                b = a
            off = a + top * bpl
        h = self._fhdr
        n = b - a + 4
        h[0] = 0x42 if more else 0x46  # 'B', 'F'
        h[1] = n & 0xFF
        h[2] = (n >> 8) & 0xFF
        h[3] = (n >> 16) & 0xFF
        h[4] = off & 0xFF
        h[5] = (off >> 8) & 0xFF
        h[6] = (off >> 16) & 0xFF
        h[7] = off >> 24
        try:
            self._out.write(h)
            self._out.write(memoryview(self.buf)[a:b])
        except OSError:
            raise SystemExit(0)  # the viewer went away

    def host_keys(self, keys):
        """Set the keys held (tests without a link)."""
        self._latched |= keys & ~self._keys
        self._keys = keys

    def read_keys(self):
        self._drain()
        k = self._keys | self._latched
        self._latched = 0
        if self._nt:                 # taps (the terminal view): each is down for one TAP_MS, then
            now = self.ticks_ms()    # up for one, every phase seen by at least one read: a tap is
            if (now - self._tap_at) & 0x3FFFFFFF >= TAP_MS:      # one press, however fast they come
                self._tap_at = now
                self._tap_down = not self._tap_down
                if not self._tap_down:
                    self._t0 = (self._t0 + 1) % _TAPS
                    self._nt -= 1
            if self._tap_down:
                k |= self._taps[self._t0]
        m = self._keymap
        if m is None:
            return k
        out = 0
        for i in range(0, len(m), 2):
            if k & m[i]:
                out |= m[i + 1]
        return out

    def ticks_ms(self):
        if self.virtual:
            return self._now
        return time.ticks_ms()

    def sleep_ms(self, ms):
        if not self.virtual:
            self._drain()
            time.sleep_ms(ms)
            self._drain()
            return
        if self._out is None or self._in is None:
            self._now += ms
            return
        ms = 0 if ms < 0 else ms
        h = self._hdr
        h[0] = 0x53  # 'S': sleep request, payload u32 ms; the host answers with a 'T' message
        h[1] = 4
        h[2] = 0
        h[3] = 0
        try:
            self._out.write(h)
            self._msg[0] = ms & 0xFF
            self._msg[1] = (ms >> 8) & 0xFF
            self._msg[2] = (ms >> 16) & 0xFF
            self._msg[3] = (ms >> 24) & 0xFF
            self._out.write(memoryview(self._msg)[:4])
        except OSError:
            raise SystemExit(0)
        while self._read_msg(True) != _MSG_TIME:
            pass

    def set_brightness(self, pct):
        self.brightness = pct
        self._event("brightness %d" % pct)

    def beep(self, freq, ms):
        self._event("beep %d %d" % (freq, ms))

    def led(self, r, g, b):
        self._event("led %d %d %d" % (r, g, b))


def _profile_module(profile):
    if profile == "sim":
        return None
    if profile not in PROFILES:
        raise ValueError("unknown sim profile %r (one of %s)" % (profile, ", ".join(PROFILES)))
    mod = "boards." + profile
    __import__(mod)
    return sys.modules[mod]


def build(profile=None, size=None, out=None, inp=None, virtual=None):
    profile = profile or _getenv("PICO_SIM_PROFILE") or "waveshare_lcd13"
    size = size or _getenv("PICO_SIM_SIZE")
    pm = _profile_module(profile)
    if pm is not None:
        w, h, mono = pm.WIDTH, pm.HEIGHT, pm.MONO
    else:
        w, h, mono = 240, 240, False
    if size:
        if size not in SIZES:
            raise ValueError("sim size %r not one of %s" % (size, ", ".join(SIZES)))
        w, h = [int(v) for v in size.split("x")]
        mono = size == "128x64"
    panel = pm
    if panel is None or (w, h) != (panel.WIDTH, panel.HEIGHT):
        panel = _profile_module(SIZE_BOARDS[SIZES.index("%dx%d" % (w, h))])
    if out is None:
        p = _getenv("PICO_SIM_OUT")
        if p:
            out = open(p, "wb")
    if inp is None:
        p = _getenv("PICO_SIM_IN")
        if p:
            inp = open(p, "rb")
    if virtual is None:
        virtual = _getenv("PICO_SIM_CLOCK") == "virtual"
    b = SimBoard(profile, w, h, mono, out, inp, virtual, _getenv("PICO_SIM_FRAME") == "whole")
    b.pitch_um = panel.PITCH_UM
    b.data_dir = _getenv("PICO_SIM_DATA") or "/tmp/pico-domino-sim"
    lang = _getenv("PICO_SIM_LANG") or "en"     # a first boot in English, as before; "ask": asked
    b.lang = None if lang == "ask" else lang     # as on a device (docs/SIM.md)
    seed = _getenv("PICO_SIM_SEED")
    b.seed = int(seed) & 0x3FFFFFFF if seed else None
    step = _getenv("PICO_SIM_AI_STEP")
    if step:
        b.ai_clock = WorkClock(int(step))
    if pm is not None:
        b.KEYS = pm.KEYS
        b.SHIFT = pm.SHIFT
        b.SHIFT_MAP = pm.SHIFT_MAP
        b.KEY_HELP = pm.KEY_HELP
        if pm.KEYS != K_ALL:
            # A four-button board: the host's X/Y letters press the buttons that report UP/DOWN,
            # as the real board's X and Y do; keys the board lacks are dropped.
            m = [K_X, K_UP, K_Y, K_DOWN]
            for i in range(9):
                bit = 1 << i
                if pm.KEYS & bit:
                    m.append(bit)
                    m.append(bit)
            b._keymap = m
    else:
        b.KEYS = K_ALL
        b.KEY_HELP = "Arrows move, Enter press, A play, B back, X hint, Y menu"
    b.hello()
    return b
