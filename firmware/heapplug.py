"""Plugs for the heap addresses that native code pins, run once at boot after the AI is loaded.

MicroPython's collector reads every word of every heap block as a possible pointer, machine code
included. An instruction pair of the AI's viper code can read as the address of a heap block (on the
device, `pop {r4}; movs r0, #0` is 0x2000bc10), and whatever object starts there is kept for as long
as the code is loaded: for good. When that object was a function of a module the screens drop, the
whole module stayed (store, 6.2 KB, on the emulated Pico: docs/benchmarks.md, "why the lowest point
moves"; tools/heap_replay.py finds them). The AI's code never leaves, so the addresses are fixed for
the session: plug() puts a small object of its own, kept for good, on each one that is free now.

How, with nothing but allocation: MicroPython gives a request the lowest free run that fits. So the
free heap below an address is filled (big tuples first, smaller ones for the gaps), the next one-block
object lands on the address itself (or past it: the address is taken by an object alive now, which
is part of the boot and stays), and the fillers are freed again. A 32-bit MicroPython only; elsewhere
(CPython, the 64-bit unix port, the WebAssembly port without native code) it does nothing."""
import gc
import sys

try:
    from micropython import const
except ImportError:                  # CPython (the simulator, the tests): plug() does nothing there
    def const(x):
        return x

_NATIVE_MODULES = ("ai.rollout", "drivers.gs4")
_FILL = (1024, 256, 64, 16, 1)      # filler tuples, in items (4 bytes each, +8 for the tuple)
_ONE = (0,)
_HELD = const(160)                   # fillers held at once: past that, give up (a heap unlike the Pico's)
_CODE_MAX = const(4096)              # bytes of code read per function where its end is not known

plugs = []                           # kept for good (the app holds this list once the module is gone)


def _bc():
    pass


def _natives(word):
    """(code start, code end) of every native function of _NATIVE_MODULES: the function object's
    fourth word points at its machine code; a function's code ends where the next one's starts."""
    bc = word(id(_bc))
    starts = []
    for name in _NATIVE_MODULES:
        mod = sys.modules.get(name)
        if mod is None:
            continue
        for v in mod.__dict__.values():
            if type(v).__name__ == "function" and word(id(v)) != bc:
                starts.append(word(id(v) + 12))
    starts.sort()
    out = []
    for i in range(len(starts)):
        end = starts[i] + _CODE_MAX
        if i + 1 < len(starts) and starts[i + 1] < end:
            end = starts[i + 1]
        out.append((starts[i], end))
    return out


def pinned(lo, hi):
    """The block addresses in [lo, hi) that words of native code read as, sorted."""
    import uctypes
    found = {}

    def word(a):
        h = uctypes.struct(a, {"h": (uctypes.ARRAY | 0, uctypes.UINT16 | 2)}, uctypes.LITTLE_ENDIAN).h
        return h[0] | h[1] << 16

    for start, end in _natives(word):
        n = (end - start) >> 1
        scan(uctypes.struct(start, {"h": (uctypes.ARRAY | 0, uctypes.UINT16 | n)}, uctypes.LITTLE_ENDIAN).h,
             n, lo, hi, found)
    return sorted(found)


def scan(h, n, lo, hi, found):
    """Into `found`, each 32-bit word of the n half-words `h` (little-endian, word-aligned) that is a
    16-byte-aligned address in [lo, hi): what the collector would take for a block's address."""
    for i in range(0, n - 1, 2):
        low = h[i]
        if not low & 15:
            a = low | h[i + 1] << 16
            if lo <= a < hi:
                found[a] = 1


def plug():
    """Plug every pinned address that is free now. Returns the plugs (to be kept for good)."""
    if sys.implementation.name != "micropython" or sys.maxsize != 0x7FFFFFFF:
        return plugs
    gc.collect()
    here = id(plugs)
    size = gc.mem_free() + gc.mem_alloc()
    try:
        todo = pinned(here - size, here + size)
    except Exception:             # no uctypes, or no native code: nothing to plug
        return plugs
    if not todo:
        return plugs
    held = [None] * _HELD  # type: list[object]
    n = 0
    try:
        for a in todo:
            k = 0
            while k < len(_FILL):
                items = _FILL[k]
                t = _ONE * items if items > 1 else (a,)
                at = id(t)
                if items == 1 and at == a:
                    plugs.append(t)           # on the pinned address: kept for good
                    break
                if at + 8 + 4 * items <= a:   # wholly below it: a filler
                    if n == _HELD:
                        return plugs
                    held[n] = t
                    n += 1
                    continue
                t = None
                if items == 1:
                    break                      # past it: an object alive now holds the address
                if at < a:
                    gc.collect()               # it straddled the address: give its room back
                k += 1
    except MemoryError:
        pass
    finally:
        held = None
        gc.collect()
    return plugs
