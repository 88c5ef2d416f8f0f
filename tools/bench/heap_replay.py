"""What keeps heap alive on the device: the collector's marking replayed from a RAM dump of the emulated
Pico (tools/emu), at the main menu of tools/emu/scripts/uimatch.py's match.

MicroPython's collector is conservative: every word of the static area, of the live C stack and of
every block it marks counts as a pointer when it holds the address of a block's first 16 bytes. This
tool stops the UI match harness at the menu, has the device print its block map
(`micropython.mem_info(1)`) and every byte of its RAM, and replays that marking here. It prints:

  - the free heap the replay gives beside the device's (the replay reads the whole 8 KB of the
    RP2040's scratch banks, where the stack is, not only its live part; measured within 512 B of
    the device's figure);
  - each module object still alive but gone from sys.modules (a dropped module kept), with the chain
    of blocks from a root to it;
  - the words of native (viper) code that read as heap addresses: each keeps whatever object starts
    there for as long as the code is loaded (the AI's: for good).

    python -m tools.bench.heap_replay [--board waveshare_lcd13] [--image pico|pico_w] [--keep OUT.txt]
                                         [--match 1-3] [--lang en|ru] [--below BYTES | --probe N]

At the menu by default; --below: at the match's first probe (uimatch.py's collections: AI ticks, saves,
before each press) with under BYTES free, --probe: at its Nth probe (the match repeats exactly, so the
same N on the Pico and the Pico W is the same point of the game). The dump says `HR_PROBE n free`.

docs/benchmarks.md ("why the lowest point moves between layouts") has what it found. The RP2040's RAM
(0x20000000-0x20042000, the stack at its top) is assumed: stock MicroPython RPI_PICO or RPI_PICO_W.
"""
import os
import re
import struct
import sys
import tempfile
from collections import deque

from tools import cli
from tools.bench import pico as bench_pico
from tools.emu import harness as emu

RAM = 0x20000000
RAM_END = 0x20042000
BLOCK = 16
STACK = 0x2000     # the RP2040's scratch banks, the stack among them: all read (see report)
ANCHOR = "    free_menu = gc.mem_free()\n"      # (uimatch.py runs in its main())
DUMP = '''
import machine, uctypes, ubinascii
print("HR_MODULES", hex(id(sys.modules)))
try:
    from boards._gs4 import expand as _nat          # a viper function: its type word marks native code
    print("HR_NATIVE", hex(machine.mem32[id(_nat)] & 0xFFFFFFFF))
except ImportError:
    pass
gc.collect()
micropython.mem_info(1)
print("HR_MAPEND")
_a = %d
while _a < %d:
    print("X%%08x %%s" %% (_a, ubinascii.hexlify(bytes(uctypes.bytearray_at(_a, 256))).decode()))
    _a += 256
print("HR_END")
raise SystemExit
''' % (RAM, RAM_END)


class ReplayError(Exception):
    pass


PROBE_ANCHOR = "        if f < low[0]:\n"


def device_dump(board, image=emu.DEFAULT_IMAGE, below=0, probe=0, match=1):
    """The harness's output at the menu of `board` on `image` (or at a probe of its match, the
    bench's UI match number `match`: `below` bytes free, the `probe`th), with the map and the RAM
    dump."""
    src = os.path.join(bench_pico.SCRIPTS, "uimatch.py")
    with open(src) as f:
        text = f.read()
    if ANCHOR not in text or PROBE_ANCHOR not in text:
        raise ReplayError("uimatch.py no longer has %r and %r: update heap_replay's anchors"
                          % (ANCHOR.strip(), PROBE_ANCHOR.strip()))
    with tempfile.TemporaryDirectory() as d:
        path = os.path.join(d, "uimatch.py")
        with open(path, "w") as f:
            if below or probe:           # a probe counter (made before the match), the dump at it
                at = ("        _hr[0] += 1\n        if %s:\n            print('HR_PROBE', _hr[0], f)\n"
                      % ("f < %d" % below if below else "_hr[0] == %d" % probe))
                text = text.replace(ANCHOR, ANCHOR + "    _hr = [0]\n", 1)
                f.write(text.replace(PROBE_ANCHOR, at + "".join(
                    "            " + ln + "\n" for ln in DUMP.strip().splitlines()) + PROBE_ANCHOR, 1))
            else:
                f.write(text.replace(ANCHOR, ANCHOR + "".join(
                    "    " + ln + "\n" for ln in DUMP.strip().splitlines()), 1))
        r = bench_pico.ui_run(board, *bench_pico.UI_MATCHES[match - 1][1:], uimatch=path, image=image)
    if "HR_END" not in r.stdout:
        raise ReplayError("the device did not finish the dump:\n" + r.stdout[-2000:])
    return r.stdout


def parse(text):
    """(map string, pool start, memory bytes, {key: value}) from the device's output."""
    text = text.replace("\r", "")
    m = re.search(r"GC memory layout; from ([0-9a-f]+)", text)
    if m is None or "HR_MAPEND" not in text or "HR_MODULES" not in text:
        raise ReplayError("not a heap_replay dump (no block map, or no sys.modules address)")
    pool = int(m.group(1), 16)
    lines = []
    for ln in text[text.index("GC memory layout"):text.index("HR_MAPEND")].splitlines():
        m = re.match(r"^[0-9a-f]{8}: (.*)$", ln)
        if m:
            lines.append(m.group(1))
            continue
        m = re.match(r"^\s*\((\d+) lines all free\)", ln)
        if m:
            lines.append("." * 64 * int(m.group(1)))
    blocks = "".join(lines)
    mem = bytearray(RAM_END - RAM)
    for a, h in re.findall(r"^X([0-9a-f]{8}) ([0-9a-f]+)$", text, re.M):
        b = bytes.fromhex(h)
        mem[int(a, 16) - RAM:int(a, 16) - RAM + len(b)] = b
    vals = dict(re.findall(r"^(HR_\w+) (\S+)$", text, re.M))
    return blocks, pool, mem, vals


class Heap:
    def __init__(self, blocks, pool, mem):
        self.pool, self.mem, self.kind = pool, mem, blocks
        self.heads = {}
        i, n = 0, len(blocks)
        while i < n:
            if blocks[i] in ".=":
                i += 1
                continue
            j = i + 1
            while j < n and blocks[j] == "=":
                j += 1
            self.heads[i] = j - i
            i = j
        self.end = pool + BLOCK * n

    def word(self, a):
        return struct.unpack_from("<I", self.mem, a - RAM)[0]

    def head_at(self, w):
        if w & (BLOCK - 1) or not self.pool <= w < self.end:
            return None
        b = (w - self.pool) // BLOCK
        return b if b in self.heads else None

    def refs(self, b):
        a = self.pool + BLOCK * b
        for x in range(a, a + BLOCK * self.heads[b], 4):
            t = self.head_at(self.word(x))
            if t is not None:
                yield x, t

    def mark(self, stack_depth=STACK):
        """{block: (parent block or root name, address of the word)} for every block reached from
        the static area and the top `stack_depth` bytes of the stack."""
        parent = {}
        todo = deque()
        roots = [(a, "static area") for a in range(RAM, self.pool, 4)]
        roots += [(a, "C stack") for a in range(RAM_END - stack_depth, RAM_END, 4)]
        for a, name in roots:
            t = self.head_at(self.word(a))
            if t is not None and t not in parent:
                parent[t] = (name, a)
                todo.append(t)
        while todo:
            b = todo.popleft()
            for a, t in self.refs(b):
                if t not in parent:
                    parent[t] = (b, a)
                    todo.append(t)
        return parent

    def chain(self, parent, b):
        out = []
        while b in parent:
            p, a = parent[b]
            out.append("%s block %d (%s, %d B) <- word at 0x%08x" % ("" if out else "kept:", b, self.kind[b],
                                                                   BLOCK * self.heads[b], a))
            if isinstance(p, str):
                out.append("root: the %s" % p)
                break
            b = p
        return out

    def native_pins(self, native_type):
        """{address: count} of the words in native code blocks that read as a block's address."""
        pins = {}
        for b in self.heads:
            a = self.pool + BLOCK * b
            if self.heads[b] != 1 or self.word(a) != native_type:
                continue
            code = self.head_at(self.word(a + 12))          # the function's machine code
            if code is None:
                continue
            c = self.pool + BLOCK * code
            for x in range(c, c + BLOCK * self.heads[code], 4):
                w = self.word(x)
                if not w & (BLOCK - 1) and self.pool <= w < self.end:
                    pins[w] = pins.get(w, 0) + 1
        return pins

    def where(self, w):
        b = (w - self.pool) // BLOCK
        if b in self.heads:
            return "the start of a %d-byte block (%s): kept" % (BLOCK * self.heads[b], self.kind[b])
        return "free" if self.kind[b] == "." else "inside a block"


def report(text, out=print):
    blocks, pool, mem, vals = parse(text)
    heap = Heap(blocks, pool, mem)
    parent = heap.mark()
    used = sum(heap.heads[b] for b in parent) * BLOCK
    device_free = heap.end - pool - sum(heap.heads.values()) * BLOCK
    out("device: %d B free after its collection; replay: %d B" % (device_free, heap.end - pool - used))
    mods = int(vals["HR_MODULES"], 16)
    table = heap.head_at(heap.word(mods + 12))
    loaded = {t for _, t in heap.refs(table)} if table is not None else set()
    kept = [b for b in parent if heap.kind[b] == "M" and b not in loaded]
    if not kept:
        out("no dropped module is kept")
    for b in kept:
        out("a module object not in sys.modules, kept:")
        for ln in heap.chain(parent, b):
            out("  " + ln)
    if "HR_NATIVE" in vals:
        pins = heap.native_pins(int(vals["HR_NATIVE"], 16))
        out("native code words that read as a heap address: %d (%d addresses)"
            % (sum(pins.values()), len(pins)))
        for w in sorted(pins):
            out("  0x%08x x%d: %s" % (w, pins[w], heap.where(w)))


def main(argv=None):
    from tools.emu import wiring
    p = cli.parser("python -m tools.bench.heap_replay", description=__doc__.split("\n")[0])
    p.add_argument("--board", default="waveshare_lcd13", choices=wiring.COLOUR)
    p.add_argument("--image", default=emu.DEFAULT_IMAGE, choices=sorted(emu.IMAGES))
    p.add_argument("--below", type=cli.typed(cli.whole, 0, 16 * 1024 * 1024), default=0,
                   help="dump at the first probe with under BYTES free")
    p.add_argument("--probe", type=cli.typed(cli.whole, 0, cli.MAX_COUNT), default=0,
                   help="dump at the match's Nth probe")
    p.add_argument("--match", type=cli.typed(cli.whole, 1, len(bench_pico.UI_MATCHES)), default=1,
                   help="the bench's UI match (1-%d: %s)" % (len(bench_pico.UI_MATCHES), "; ".join(
                       m[0] for m in bench_pico.UI_MATCHES)))
    p.add_argument("--lang", default="en", choices=("en", "ru"), help="the device's language")
    p.add_argument("--keep", type=cli.typed(cli.out_file), help="also write the device's output here")
    p.add_argument("--from", dest="src", type=cli.typed(cli.in_file),
                   help="replay a kept output instead of running the device")
    a = p.parse_args(argv)
    try:
        if a.src:
            with open(a.src) as f:
                text = f.read()
        else:
            bench_pico.LANG[0] = a.lang
            text = device_dump(a.board, a.image, a.below, a.probe, a.match)
        if a.keep:
            with open(a.keep, "w") as f:
                f.write(text)
        report(text)
    except (OSError, ValueError, ReplayError, emu.EmuError) as e:
        print("heap_replay: %s" % e, file=sys.stderr)
        return 2
    return 0


if __name__ == "__main__":
    sys.exit(main())
