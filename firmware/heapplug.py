"""Plugs for the heap addresses the AI's machine code pins, placed first thing at boot.

MicroPython's collector reads every word of every heap block as a possible pointer, machine code
included. A pair of the AI's viper instructions can read as the address of a heap block (on the
RP2040, `pop {r4}; movs r0, #0` is 0x2000bc10), and whatever object starts there stays alive for as
long as the code is loaded: for good. On the emulated Pico a dropped module landed there and stayed
(store, 6.2 KB: docs/benchmarks.md, "why the lowest point moves"). The build reads those addresses
from the compiled .mpy files (tools/deploy/native_pins.py) into module heappins; plug() puts a one-block
object of ours on each while the heap is still nearly empty, and the caller keeps them for good.

How, with nothing but allocation: MicroPython gives a request the lowest free run that fits. A big
filler goes up to the address, one-block objects fill the holes below it until one lands on the
address itself (or past it: something alive holds it, and that is part of the boot), and one
collection frees the fillers. Without heappins (source trees, the simulator) or off a 32-bit
MicroPython it does nothing."""
import gc
import sys
try:
    from micropython import const
except ImportError:  # CPython
    def const(x):
        return x

_UNIT = (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)    # a filler is this many times over: 64 B
_PROBE_UNITS = const(64)      # the first filler (4 KB): it finds the lowest run that long
_MAX_STEPS = const(1024)      # one-block objects per address at most (the holes below it, on the Pico ~200)


def plug():
    """A list of the plugs placed (the caller holds it for good)."""
    try:
        from heappins import PINS  # pyright: ignore[reportMissingImports]  (made by the build)
    except ImportError:
        return []
    sys.modules.pop("heappins", None)   # read once
    if not PINS or sys.implementation.name != "micropython" or sys.maxsize != 0x7FFFFFFF:
        return []
    plugs = [None] * len(PINS)  # type: list[object]
    gc.collect()
    try:
        for i in range(len(PINS)):
            plugs[i] = _plug(PINS[i])
    except MemoryError:         # an address past this heap's end
        pass
    gc.collect()                # the fillers go
    return plugs


def _plug(a):
    """A one-block object on address a, or None where a live object holds it. Leaves garbage below
    a (the fillers) for the caller's collection."""
    big = _UNIT * _PROBE_UNITS
    at = id(big)
    end = at + 16 + 64 * _PROBE_UNITS       # 8 B of tuple head, rounded to its last block
    if at <= a < end:
        big = None
        gc.collect()                        # it straddled the address: its room back
    elif end < a:
        big = _UNIT * ((a - end - 8) // 64)  # the rest of the run, short of a by under 4 blocks
    n = 0
    while n < _MAX_STEPS:                   # (not a range: its iterator could take the address)
        t = (a,)
        at = id(t)
        if at == a:
            return t
        if at > a:
            return None
        n += 1
    return None
