"""The table: a line with two ends, or four arms around a spinner / Donkey cross.

Arms are L, R (the line directions) and U, D (the spinner's long sides). All state is in a few
preallocated arrays and ints; placing a tile allocates nothing. What the move loop asks after
every change (which tiles fit, which arms a number goes on) is cached by `_ends()`
when a tile is placed, so the questions cost an attribute read.
"""
try:
    from micropython import const
except ImportError:  # CPython
    def const(x):
        return x

from .tiles import LO, HI, SUIT
_NONE = const(255)       # = domino.tiles.NONE
_ALL = const(0xFFFFFFF)  # = domino.tiles.ALL

L = const(0)
R = const(1)
U = const(2)
D = const(3)
LEAD = const(4)           # arm code of the lead in the play sequence
ARM_NAMES = "LRUD*"

_NOT = const(0)           # arm state: not available
_OPEN = const(1)
_CLOSED = const(2)        # Donkey: a face-down double ends the arm

_CLOSE_FLAG = const(8)     # in seq_arm: the tile was closed


class Layout:
    def __init__(self, mode):
        self.mode = mode                  # rules.LINE / SPINNER / CROSS
        # per arm; lists, not bytearrays: CPython indexes lists much faster (no heap either way)
        self.end = [0, 0, 0, 0]           # number shown at each arm's end
        self.dbl = [0, 0, 0, 0]           # 1: the end tile is a double (counts both halves)
        self.n = [0, 0, 0, 0]             # tiles on each arm (lead not included)
        self.st = [0, 0, 0, 0]            # _NOT / _OPEN / _CLOSED
        self.seq = bytearray(28)          # tiles in the order played
        self.seq_arm = bytearray(28)      # arm of each (LEAD for the lead) | _CLOSE_FLAG
        self.am = [0, 0, 0, 0]            # per arm: the tiles that go on it (none on an arm that
        #                                   mirrors an earlier one, see same(): legal() folds them)
        self.reset()

    def reset(self):
        b = self.end
        b[0] = b[1] = b[2] = b[3] = 0
        b = self.dbl
        b[0] = b[1] = b[2] = b[3] = 0
        b = self.n
        b[0] = b[1] = b[2] = b[3] = 0
        b = self.st
        b[0] = b[1] = b[2] = b[3] = _NOT
        b = self.am
        b[0] = b[1] = b[2] = b[3] = 0
        self.size = 0
        self.played = 0                   # mask of tiles on the table
        self.lead = _NONE
        self.spin = _NONE                  # spinner / cross tile
        self.spin_arm = _NONE              # LEAD, or the arm it was played on
        self.spin_n = 0                   # its position on that arm
        self.fit = _ALL                    # playable(): the empty table takes anything

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
        self.fit = o.fit
        self.am[:] = o.am

    # --- queries -------------------------------------------------------------------------------
    def is_open(self, a):
        return self.st[a] == _OPEN

    def open_suits(self):
        """7-bit mask of the numbers shown at open ends."""
        s = 0
        for a in range(4):
            if self.st[a] == _OPEN:
                s |= 1 << self.end[a]
        return s

    def playable(self):
        """Mask of all tiles that fit some open end (the empty table takes anything)."""
        return self.fit

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
        if self.lead == _NONE:
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
        if keeps and self.spin != _NONE and not self.spinner_is_end() and (n[U] == 0 or n[D] == 0):
            s += 2 * LO[self.spin]
        return s

    def same(self, a, b):
        """Arms a and b are interchangeable: playing a tile on either leaves mirror-image tables."""
        if self.st[a] != self.st[b] or self.end[a] != self.end[b] or self.dbl[a] != self.dbl[b]:
            return False
        n = self.n
        if a >= U:                        # U and D: both empty or both built
            return (n[a] == 0) == (n[b] == 0)
        if self.spin == _NONE:
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
        i = self.size                     # 0: the lead is the first tile
        self.seq[i] = t
        self.seq_arm[i] = LEAD
        self.size = i + 1
        self.played |= 1 << t
        if d and self.mode:
            self._make_spinner(t, LEAD, 0)
        self._ends()

    def place(self, t, a, close=False):
        """Put tile t on arm a (it must fit). A closed double ends that arm (Donkey)."""
        end = self.end
        lo = LO[t]
        hi = HI[t]
        end[a] = hi if lo == end[a] else lo
        d = 1 if lo == hi else 0
        self.dbl[a] = d
        self.n[a] += 1
        i = self.size
        self.seq[i] = t
        self.seq_arm[i] = a | _CLOSE_FLAG if close else a
        self.size = i + 1
        self.played |= 1 << t
        mode = self.mode
        if not (mode or close):           # a line: two open ends, _ends() in short
            e = SUIT[end[L]]
            f = SUIT[end[R]]
            self.fit = e | f
            am = self.am
            am[L] = e
            am[R] = 0 if e == f and self.dbl[L] == self.dbl[R] else f      # same(R, L)
            return
        if close:
            self.st[a] = _CLOSED
        elif d and mode and self.spin == _NONE:
            self._make_spinner(t, a, self.n[a])
        if mode == 1 and self.spin != _NONE and self.st[U] == _NOT and not self.spinner_is_end():
            self._open_long_sides()
        self._ends()

    def _ends(self):
        """Refresh the cached fit / am after a change."""
        st = self.st
        end = self.end
        am = self.am
        if st[U] == _NOT and st[L] == _OPEN and st[R] == _OPEN:     # still a line
            e = SUIT[end[L]]
            f = SUIT[end[R]]
            self.fit = e | f
            am[L] = e
            am[R] = 0 if e == f and self.same(R, L) else f
            return
        fit = seen = 0
        for a in range(4):
            m = 0
            if st[a] == _OPEN:
                e = end[a]
                m = SUIT[e]
                fit |= m
                if seen >> e & 1:         # an earlier arm mirrors this one: its moves fold there
                    for b in range(a):
                        if end[b] == e and st[b] == _OPEN and self.same(a, b):
                            m = 0
                            break
                seen |= 1 << e
            am[a] = m
        self.fit = fit

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
