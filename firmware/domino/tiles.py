"""Tile encoding.

A tile is a small int 0..27 (0-0, 0-1, .. 0-6, 1-1, .. 6-6); a set of tiles is a 28-bit int mask, which
is a MicroPython small int, so hands, stock and table sets cost no heap. Per-suit masks make "which tiles
fit this end" a single AND.
"""
try:
    from micropython import const
except ImportError:  # CPython
    def const(x):
        return x

N_TILES = const(28)
ALL = const(0xFFFFFFF)
NONE = const(255)

LO = bytearray(28)        # lower half of each tile
HI = bytearray(28)        # higher half
PIPS = bytearray(28)      # lo + hi
DOUBLE = bytearray(7)     # number -> tile index of the double
SUIT = [0] * 7            # number -> mask of the 7 tiles showing it
_INDEX = bytearray(49)    # a*7+b -> tile
DOUBLES = const(0xA442081)  # mask of the seven doubles (0-0 is tile 0, 1-1 tile 7, .., 6-6 tile 27)
_POP8 = bytearray(256)
BIT37 = bytearray(37)     # (1 << t) % 37 -> t: the index of a one-bit mask without a loop


def _build():
    t = 0
    for a in range(7):
        for b in range(a, 7):
            LO[t] = a
            HI[t] = b
            PIPS[t] = a + b
            SUIT[a] |= 1 << t
            SUIT[b] |= 1 << t
            _INDEX[a * 7 + b] = t
            _INDEX[b * 7 + a] = t
            if a == b:
                DOUBLE[a] = t
            t += 1
    for i in range(256):
        _POP8[i] = (i & 1) + _POP8[i >> 1]
    for i in range(28):
        BIT37[(1 << i) % 37] = i


_build()

# Heaviest first; equal pips broken by the higher end (3-6 before 4-5).
HEAVY = bytearray(sorted(range(28), key=lambda t: -(PIPS[t] * 8 + HI[t])))


def tile(a, b):
    return _INDEX[a * 7 + b]


def popcount(m):
    return _POP8[m & 255] + _POP8[(m >> 8) & 255] + _POP8[(m >> 16) & 255] + _POP8[m >> 24]


if hasattr(int, "bit_count"):    # CPython 3.10+ counts bits in C; MicroPython keeps the table
    popcount = int.bit_count  # noqa: F811


def pips(m):
    """Sum of pips of a mask (each tile's lo + hi), one tile at a time."""
    s = 0
    while m:
        low = m & -m
        m ^= low
        s += PIPS[BIT37[low % 37]]
    return s


def first(m):
    """Lowest tile index in a non-empty mask."""
    t = 0
    while not (m >> t) & 1:
        t += 1
    return t


def name(t):
    return str(LO[t]) + "-" + str(HI[t])


def short(t):
    return str(LO[t]) + str(HI[t])


def parse(s):
    """'3-5', '5-3', '35', '5:3' -> tile. ValueError on anything else."""
    s = s.strip()
    if len(s) == 3 and s[1] in "-:|/":
        s = s[0] + s[2]
    if len(s) != 2 or s[0] not in "0123456":
        raise ValueError("not a tile: " + s)
    if s[1] not in "0123456":
        raise ValueError("not a tile: " + s)
    return tile(int(s[0]), int(s[1]))

