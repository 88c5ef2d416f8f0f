"""The table: a line with two ends, or four arms around a spinner / Donkey cross.

Arms are L, R (the line directions) and U, D (the spinner's long sides). All state is in a few
preallocated bytearrays and ints; placing a tile allocates nothing.
"""
try:
    from micropython import const
except ImportError:  # CPython
    def const(x):
        return x

from .tiles import LO, HI, SUIT, NONE

L = const(0)
R = const(1)
U = const(2)
D = const(3)
LEAD = const(4)           # arm code of the lead in the play sequence
ARM_NAMES = "LRUD*"

_NOT = const(0)           # arm state: not available
_OPEN = const(1)
_CLOSED = const(2)        # Donkey: a face-down double ends the arm

CLOSE_FLAG = const(8)     # in seq_arm: the tile was closed


class Layout:
    def __init__(self, mode):
        self.mode = mode                  # rules.LINE / SPINNER / CROSS
        self.end = bytearray(4)           # number shown at each arm's end
        self.dbl = bytearray(4)           # 1: the end tile is a double (counts both halves)
        self.n = bytearray(4)             # tiles on each arm (lead not included)
        self.st = bytearray(4)            # _NOT / _OPEN / _CLOSED
        self.seq = bytearray(28)          # tiles in the order played
        self.seq_arm = bytearray(28)      # arm of each (LEAD for the lead) | CLOSE_FLAG
        self.reset()

    def reset(self):
        for a in range(4):
            self.end[a] = 0
            self.dbl[a] = 0
            self.n[a] = 0
            self.st[a] = _NOT
        self.size = 0
        self.played = 0                   # mask of tiles on the table
        self.lead = NONE
        self.spin = NONE                  # spinner / cross tile
        self.spin_arm = NONE              # LEAD, or the arm it was played on
        self.spin_n = 0                   # its position on that arm

    def copy_from(self, o):
        self.mode = o.mode
        self.end[:] = o.end
        self.dbl[:] = o.dbl
        self.n[:] = o.n
        self.st[:] = o.st
        self.seq[:] = o.seq
        self.seq_arm[:] = o.seq_arm
        self.size = o.size
        self.played = o.played
        self.lead = o.lead
        self.spin = o.spin
        self.spin_arm = o.spin_arm
        self.spin_n = o.spin_n

    # --- queries -------------------------------------------------------------------------------
    def is_open(self, a):
        return self.st[a] == _OPEN

    def is_closed(self, a):
        return self.st[a] == _CLOSED

    def open_suits(self):
        """7-bit mask of the numbers shown at open ends."""
        s = 0
        for a in range(4):
            if self.st[a] == _OPEN:
                s |= 1 << self.end[a]
        return s

    def playable(self):
        """Mask of all tiles that fit some open end (the empty table takes anything)."""
        if self.lead == NONE:
            return 0xFFFFFFF
        m = 0
        for a in range(4):
            if self.st[a] == _OPEN:
                m |= SUIT[self.end[a]]
        return m

    def fits(self, t, a):
        if self.st[a] != _OPEN:
            return False
        e = self.end[a]
        return LO[t] == e or HI[t] == e

    def spinner_is_end(self):
        """True while the spinner is itself an end of a line direction (it then counts both halves)."""
        if self.spin_arm == LEAD:
            return self.n[L] == 0 or self.n[R] == 0
        return self.n[self.spin_arm] == self.spin_n

    def count(self, keeps=False):
        """Open-end count (RULES.md section A)."""
        if self.lead == NONE:
            return 0
        end = self.end
        dbl = self.dbl
        n = self.n
        if n[L] == 0 and n[R] == 0:
            s = end[L] + end[R]          # the lead alone: a double shows its number on both sides
        else:
            s = end[L] * (1 + dbl[L]) + end[R] * (1 + dbl[R])
        if n[U]:
            s += end[U] * (1 + dbl[U])
        if n[D]:
            s += end[D] * (1 + dbl[D])
        if keeps and self.spin != NONE and not self.spinner_is_end() and (n[U] == 0 or n[D] == 0):
            s += 2 * LO[self.spin]
        return s

    def same(self, a, b):
        """Arms a and b are interchangeable: playing a tile on either leaves mirror-image tables."""
        if self.st[a] != self.st[b] or self.end[a] != self.end[b] or self.dbl[a] != self.dbl[b]:
            return False
        n = self.n
        if a >= U:                        # U and D: both empty or both built
            return (n[a] == 0) == (n[b] == 0)
        if self.spin == NONE:
            return True
        if self.spin_arm == LEAD and n[L] == 0 and n[R] == 0:
            return True
        return self.st[U] != _NOT and n[a] > 0 and n[b] > 0

    # --- changes -------------------------------------------------------------------------------
    def place_lead(self, t):
        lo = LO[t]
        hi = HI[t]
        self.end[L] = lo
        self.end[R] = hi
        d = 1 if lo == hi else 0
        self.dbl[L] = d
        self.dbl[R] = d
        self.st[L] = _OPEN
        self.st[R] = _OPEN
        self.lead = t
        self._push(t, LEAD)
        if d and self.mode:
            self._make_spinner(t, LEAD, 0)

    def place(self, t, a, close=False):
        """Put tile t on arm a (it must fit). A closed double ends that arm (Donkey)."""
        e = self.end[a]
        lo = LO[t]
        hi = HI[t]
        self.end[a] = hi if lo == e else lo
        d = 1 if lo == hi else 0
        self.dbl[a] = d
        self.n[a] += 1
        self._push(t, a | (CLOSE_FLAG if close else 0))
        if close:
            self.st[a] = _CLOSED
        elif d and self.mode and self.spin == NONE:
            self._make_spinner(t, a, self.n[a])
        if self.mode == 1 and self.spin != NONE and self.st[U] == _NOT and not self.spinner_is_end():
            self._open_long_sides()

    def _push(self, t, code):
        self.seq[self.size] = t
        self.seq_arm[self.size] = code
        self.size += 1
        self.played |= 1 << t

    def _make_spinner(self, t, arm, pos):
        self.spin = t
        self.spin_arm = arm
        self.spin_n = pos
        if self.mode == 2:                # a cross opens all four sides at once
            self._open_long_sides()

    def _open_long_sides(self):
        v = LO[self.spin]
        for a in (U, D):
            self.end[a] = v
            self.dbl[a] = 0
            self.n[a] = 0
            self.st[a] = _OPEN
