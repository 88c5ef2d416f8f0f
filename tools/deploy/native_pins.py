"""The heap addresses a built tree's machine code pins on the device, read from its .mpy files.

MicroPython's collector reads every word of every heap block as a possible pointer, machine code
included. Native code (@micropython.viper) is loaded into a heap block of its own, so a word of its
instructions that happens to be a 16-byte-aligned address in RAM (on the RP2040 the pair
`pop {r4}; movs r0, #0` is 0x2000bc10) keeps whatever object starts there alive as long as the code
is loaded: for good, for the AI. docs/benchmarks.md ("why the lowest point moves") has the device
figures; firmware/heapplug.py puts a small object of its own on each of these addresses at boot,
and the build (tools/deploy/main.py) gives it this list as firmware module `heappins`.

    python -m tools.deploy.native_pins FILE.mpy|DIR [--chip rp2040]

prints the addresses each native .mpy pins. The .mpy format followed is MicroPython's v6
(py/persistentcode.c, load_raw_code and mp_native_relocate): native code starts at a block start,
the words read are those at 4-byte offsets from it, and the words the loader relocates (pointers
to the module's own tables) are left out, they hold real addresses once loaded.
"""
import argparse
import os
import sys

# The RAM each chip's heap lies in (datasheets: SRAM of the RP2040, 264 KB; of the RP2350, 520 KB).
RAM = {"rp2040": (0x20000000, 0x20042000), "rp2350": (0x20000000, 0x20082000),
       "rp2350-riscv": (0x20000000, 0x20082000)}
BLOCK = 16                         # bytes per heap block (32-bit ports): a pinnable address is aligned

_BYTECODE, _NATIVE_PY, _VIPER, _ASM = range(4)
_VIPERRELOC, _VIPERRODATA, _VIPERBSS = 0x10, 0x20, 0x40
_OBJ_SIMPLE = (0, 1, 2, 3, 4)      # fun_table, none, false, true, ellipsis: no data
_OBJ_TUPLE = 10
_OBJ_STR_BYTES = (5, 6)            # str, bytes: a terminating NUL follows the data


class MpyError(ValueError):
    pass


class _Reader:
    def __init__(self, data):
        self.data, self.pos = data, 0

    def byte(self):
        if self.pos >= len(self.data):
            raise MpyError("truncated .mpy (at byte %d)" % self.pos)
        b = self.data[self.pos]
        self.pos += 1
        return b

    def bytes(self, n):
        if self.pos + n > len(self.data):
            raise MpyError("truncated .mpy (%d bytes wanted at %d)" % (n, self.pos))
        b = self.data[self.pos:self.pos + n]
        self.pos += n
        return b

    def uint(self):
        n = 0
        while True:
            b = self.byte()
            n = n << 7 | (b & 0x7F)
            if not b & 0x80:
                return n


def _skip_obj(r):
    kind = r.byte()
    if kind in _OBJ_SIMPLE:
        return
    n = r.uint()
    if kind == _OBJ_TUPLE:
        for _ in range(n):
            _skip_obj(r)
        return
    r.bytes(n)
    if kind in _OBJ_STR_BYTES:
        r.byte()


def _prelude_flags(code, at):
    """The scope flags of a @native function's bytecode-style prelude (MP_BC_PRELUDE_SIG_DECODE)."""
    z = code[at]
    flags, n = 0, 0
    while z & 0x80:
        at += 1
        z = code[at]
        flags |= ((z & 0x40) >> 6) << n
        n += 1
    return flags


class Native:
    """One native function as loaded: its code and its rodata, and the relocated word offsets."""

    def __init__(self, kind, code, rodata):
        self.kind, self.code, self.rodata = kind, code, rodata
        self.reloc_text = set()     # word indexes into code the loader overwrites
        self.reloc_rodata = set()


def _relocations(r, fn):
    """Follow mp_native_relocate's stream: the words it adjusts."""
    where, index = None, 0
    while True:
        op = r.byte()
        if op == 0xFF:
            return
        if op & 1:
            addr = r.uint()
            where, index = (fn.reloc_rodata if addr & 1 else fn.reloc_text), addr >> 1
        op >>= 1
        n = 1
        if op <= 5 and op & 1:
            n = r.uint()
        if where is None:
            raise MpyError("relocation before its address")
        for _ in range(n):
            where.add(index)
            index += 1


def _raw_code(r, out):
    kind_len = r.uint()
    kind, has_children, size = kind_len & 3, kind_len & 4, kind_len >> 3
    code = r.bytes(size)
    flags, rodata = 0, b""
    if kind == _NATIVE_PY:
        flags = _prelude_flags(code, r.uint())
    elif kind in (_VIPER, _ASM):
        flags = r.uint()
        if kind == _ASM:
            r.uint()
            r.uint()
    if kind == _VIPER:
        ro = r.uint() if flags & _VIPERRODATA else 0
        if flags & _VIPERBSS:
            r.uint()                    # its size: zeros, which pin nothing
        if flags & _VIPERRODATA:
            rodata = r.bytes(ro)
    if has_children:
        for _ in range(r.uint()):
            _raw_code(r, out)
    if kind == _BYTECODE:
        return
    fn = Native(kind, code, rodata)
    if flags & _VIPERRELOC:
        _relocations(r, fn)
    out.append(fn)


def natives(data):
    """The native functions of an .mpy file's bytes (none for a bytecode-only file)."""
    if len(data) < 4 or data[0:1] != b"M" or data[1] != 6:
        raise MpyError("not a version 6 .mpy file")
    r = _Reader(data)
    r.bytes(4)
    if data[2] & 0x40:                  # arch flags (RISC-V extensions)
        r.uint()
    n_qstr, n_obj = r.uint(), r.uint()
    for _ in range(n_qstr):
        n = r.uint()
        if not n & 1:
            r.bytes((n >> 1) + 1)
    for _ in range(n_obj):
        _skip_obj(r)
    out = []
    _raw_code(r, out)
    if r.pos != len(data):
        raise MpyError("%d bytes past the module's end: not the .mpy layout this reads"
                       % (len(data) - r.pos))
    return out


def _words(blob, skip, lo, hi, found):
    for i in range(len(blob) // 4):
        if i in skip:
            continue
        w = int.from_bytes(blob[4 * i:4 * i + 4], "little")
        if lo <= w < hi and not w % BLOCK:
            found.add(w)


def pins(data, lo, hi):
    """The block addresses in [lo, hi) that words of an .mpy file's loaded native code read as."""
    return _pins(natives(data), lo, hi)


def _pins(fns, lo, hi):
    found = set()
    for fn in fns:
        _words(fn.code, fn.reloc_text, lo, hi, found)
        # rodata follows the (zeroed, word-aligned) bss in one block: its words stay word-aligned
        _words(fn.rodata, fn.reloc_rodata, lo, hi, found)
    return sorted(found)


def tree_pins(out_dir, rels, chip):
    """The pinned addresses of every .mpy of a built tree, for `chip`'s RAM."""
    lo, hi = RAM[chip]
    found = set()
    for rel in rels:
        if rel.endswith(".mpy"):
            with open(os.path.join(out_dir, rel), "rb") as f:
                found.update(pins(f.read(), lo, hi))
    return sorted(found)


def main(argv=None):
    ap = argparse.ArgumentParser(prog="python -m tools.deploy.native_pins",
                                 description=__doc__.split("\n\n")[0])
    ap.add_argument("path", help="an .mpy file, or a built tree (e.g. build/rp2040)")
    ap.add_argument("--chip", default="rp2040", choices=sorted(RAM))
    a = ap.parse_args(argv)
    if os.path.isdir(a.path):
        files = sorted(os.path.join(b, f) for b, _, fs in os.walk(a.path) for f in fs if f.endswith(".mpy"))
    elif os.path.isfile(a.path):
        files = [a.path]
    else:
        print("native_pins: no such file or folder: %s" % a.path, file=sys.stderr)
        return 2
    lo, hi = RAM[a.chip]
    for path in files:
        with open(path, "rb") as f:
            data = f.read()
        try:
            fns = natives(data)
        except MpyError as e:
            print("%s: %s" % (path, e), file=sys.stderr)
            return 1
        if fns:
            print("%s: %d native functions, %d bytes of code; pins %s" % (
                path, len(fns), sum(len(f.code) for f in fns),
                ", ".join("0x%08x" % p for p in _pins(fns, lo, hi)) or "nothing"))
    return 0


if __name__ == "__main__":
    sys.exit(main())
