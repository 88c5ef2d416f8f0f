# Logical keys and a polled, debounced input queue.
#
# It sits below both layers that use keys: the boards map their pins to these bits and build the
# Input (boards/_base.py make_input), the UI reads the events (ui/app.py, with private copies of the
# EV_* constants). It knows key bits and timing, never screens or pins.
#
# Pure logic: `Input(read_keys, ticks_ms)` takes a function returning the bitmask of logical keys
# currently down (a board's `read_keys`) and a millisecond clock. Call `poll()` often (every frame,
# and from long computations if you can); take events with `get()`. Runs on CPython and MicroPython.
#
# An event is one int: kind | key, e.g. EV_PRESS | K_A. `kind(ev)` and `key(ev)` split it.
#   EV_PRESS   a key went down (after debounce)              -> act on this
#   EV_REPEAT  a held repeat key (directions) fires again     -> treat like a press
#   EV_LONG    a key has been held `long_ms` (once per hold)
#   EV_RELEASE a key went up
# The queue is a preallocated ring buffer: polling allocates nothing. When full, new events are
# dropped (counted in `overflow`), so the queued order is never scrambled.
#
# Four-button boards: `shift=K_B, shift_map=(K_UP, K_LEFT, K_DOWN, K_RIGHT)` makes B a modifier:
# B held + UP gives LEFT, B held + DOWN gives RIGHT. A B press alone is delivered when B is released
# (EV_PRESS then EV_RELEASE), or as EV_LONG when held long; nothing is delivered for B if it was
# used as a modifier. `board.make_input()` sets this up from the board.

try:
    from micropython import const
except ImportError:  # CPython
    def const(x):
        return x

try:
    from time import ticks_diff, ticks_add
except ImportError:  # CPython: plain ints, no wrap-around
    def ticks_diff(a, b):
        return a - b

    def ticks_add(a, b):
        return a + b

K_UP = const(0x001)
K_DOWN = const(0x002)
K_LEFT = const(0x004)
K_RIGHT = const(0x008)
K_A = const(0x010)
K_B = const(0x020)
K_X = const(0x040)
K_Y = const(0x080)
K_PRESS = const(0x100)
_NKEYS = const(9)
_K_DIRS = const(0x00F)
K_ALL = const(0x1FF)

_EV_NONE = const(0)
EV_PRESS = const(0x1000)
EV_REPEAT = const(0x2000)
EV_LONG = const(0x4000)
EV_RELEASE = const(0x8000)
EV_KIND = const(0xF000)
EV_KEY = const(0x0FFF)


def kind(ev):
    return ev & EV_KIND


def key(ev):
    return ev & EV_KEY


class Input:
    def __init__(self, read_keys, ticks_ms, debounce_ms=20, repeat_delay_ms=350, repeat_ms=90,
                 long_ms=600, repeat_keys=_K_DIRS, long_keys=K_ALL, qsize=32, shift=0, shift_map=()):
        if qsize & (qsize - 1):
            raise ValueError("qsize must be a power of two")
        self._read = read_keys
        self._ticks = ticks_ms
        self.debounce_ms = debounce_ms
        self.repeat_delay_ms = repeat_delay_ms
        self.repeat_ms = repeat_ms
        self.long_ms = long_ms
        self.repeat_keys = repeat_keys
        self.long_keys = long_keys
        self._q = [0] * qsize
        self._qmask = qsize - 1
        self._head = 0  # next to read
        self._tail = 0  # next to write
        self.overflow = 0
        self.raw = 0     # debounced physical state
        self.held = 0    # debounced logical state (after shift mapping)
        now = ticks_ms()
        self._t_change = [ticks_add(now, -10 * debounce_ms - 1)] * _NKEYS
        self._t_down = [now] * _NKEYS
        self._t_next = [now] * _NKEYS
        self._as = [1, 2, 4, 8, 16, 32, 64, 128, 256]  # logical key a held physical key reports as
        self._long_done = 0  # bits: EV_LONG already sent for this hold
        self._mute = 0       # bits: flushed holds: no repeat/long/release until released
        self._shift = shift
        self._shift_used = False
        m = [0] * _NKEYS
        for i in range(0, len(shift_map), 2):
            b = shift_map[i]
            for j in range(_NKEYS):
                if b == 1 << j:
                    m[j] = shift_map[i + 1]
        self._shift_map = m

    # queue ---------------------------------------------------------------------------------
    def _put(self, ev):
        t = self._tail
        if ((t + 1) & self._qmask) == self._head:
            self.overflow += 1
            return
        self._q[t] = ev
        self._tail = (t + 1) & self._qmask

    def get(self):
        """Next event, or _EV_NONE (0) when the queue is empty."""
        h = self._head
        if h == self._tail:
            return 0
        self._head = (h + 1) & self._qmask
        return self._q[h]

    def pending(self):
        return (self._tail - self._head) & self._qmask

    def flush(self):
        """Drop queued events, and ignore keys held now until they are released (stale presses)."""
        self._head = self._tail
        self._mute = self.raw
        self._shift_used = True  # a held shift key does not fire on release either

    # polling -------------------------------------------------------------------------------
    def poll(self):
        """Read the keys once and queue what happened. Returns the number of queued events."""
        raw = self._read()
        now = self._ticks()
        state = self.raw
        changed = raw ^ state
        if changed:
            for i in range(_NKEYS):
                bit = 1 << i
                if not changed & bit:
                    continue
                if ticks_diff(now, self._t_change[i]) < self.debounce_ms:
                    continue  # bounce: one change per key per debounce window
                self._t_change[i] = now
                if raw & bit:
                    state |= bit
                    self._down(i, bit, now, state)
                else:
                    state &= ~bit
                    self._up(i, bit)
            self.raw = state
        held = state & ~self._mute
        if held:
            for i in range(_NKEYS):
                bit = 1 << i
                if not held & bit:
                    continue
                lk = self._as[i]
                if bit == self._shift:
                    if (not self._shift_used and not self._long_done & bit
                            and ticks_diff(now, self._t_down[i]) >= self.long_ms):
                        self._long_done |= bit
                        self._put(EV_LONG | lk)
                    continue
                if lk & self.repeat_keys and ticks_diff(now, self._t_next[i]) >= 0:
                    self._t_next[i] = ticks_add(now, self.repeat_ms)
                    self._put(EV_REPEAT | lk)
                if (lk & self.long_keys and not self._long_done & bit
                        and ticks_diff(now, self._t_down[i]) >= self.long_ms):
                    self._long_done |= bit
                    self._put(EV_LONG | lk)
        h = 0
        for i in range(_NKEYS):
            if state & (1 << i):
                h |= self._as[i]
        self.held = h
        return self.pending()

    def _down(self, i, bit, now, state):
        self._mute &= ~bit
        self._long_done &= ~bit
        self._t_down[i] = now
        self._t_next[i] = ticks_add(now, self.repeat_delay_ms)
        if bit == self._shift:
            self._as[i] = bit
            self._shift_used = False
            return  # delivered on release
        lk = bit
        if self._shift and state & self._shift and self._shift_map[i]:
            lk = self._shift_map[i]
            self._shift_used = True
        self._as[i] = lk
        self._put(EV_PRESS | lk)

    def _up(self, i, bit):
        lk = self._as[i]
        if self._mute & bit:
            self._mute &= ~bit
            return
        if bit == self._shift:
            if not self._shift_used and not self._long_done & bit:
                self._put(EV_PRESS | lk)
                self._put(EV_RELEASE | lk)
            return
        self._put(EV_RELEASE | lk)
