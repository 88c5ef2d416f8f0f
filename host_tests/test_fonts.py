"""The bitmap fonts (firmware/fonts, made by tools/fonts/build.py with font-to-py) and their writer
(firmware/ui/font.py): the checked-in files are what the tool makes, hold every character of the
glyph set, and the writer draws exactly their bitmaps on the boards' framebuffer formats, without
allocating, in the font each board's pixel pitch needs for 1.2 mm capitals."""
import importlib
import json
import os
import struct
import subprocess

import pytest

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
from tools.fonts import build  # noqa: E402

import boards  # noqa: E402
from boards._base import Board  # noqa: E402

FONTS_DIR = os.path.join(ROOT, "firmware", "fonts")
CHARSET = open(build.CHARSET, encoding="utf-8").read()


def read_font(name):
    """(header dict, code points, glyph rows by code point) of a checked-in font file."""
    with open(os.path.join(FONTS_DIR, name + ".bin"), "rb") as f:
        data = f.read()
    assert data[:4] == build.MAGIC
    ver, w, h, base, caps, top, n, L = struct.unpack_from("<BBBBBBHH", data, 4)
    cmd = data[14:14 + L].decode()
    at = 14 + L
    cps = list(struct.unpack_from("<%dH" % n, data, at))
    at += 2 * n
    bpr = (w + 7) // 8
    stride = bpr * h
    assert len(data) == at + n * stride
    glyphs = {}
    for i, cp in enumerate(cps):
        g = data[at + i * stride:at + (i + 1) * stride]
        glyphs[cp] = [int.from_bytes(g[r * bpr:(r + 1) * bpr], "big") >> (8 * bpr - w)
                      for r in range(h)]
    head = dict(version=ver, w=w, h=h, baseline=base, caps=caps, caps_top=top, command=cmd)
    return head, cps, glyphs


def font_module():
    """firmware/ui/font.py's constants, read without importing framebuf."""
    import ast
    tree = ast.parse(open(os.path.join(ROOT, "firmware", "ui", "font.py")).read())
    for node in tree.body:
        if isinstance(node, ast.Assign) and node.targets[0].id == "_FONTS":
            fonts = [("f%dx%d" % (w, h), caps) for w, h, caps in ast.literal_eval(node.value.args[0])]
        if isinstance(node, ast.Assign) and node.targets[0].id == "_CAPS_UM":
            caps_um = ast.literal_eval(node.value.args[0])
    return fonts, caps_um


FONTS, CAPS_UM = font_module()


def test_the_writer_lists_every_built_font():
    assert [n for n, _ in FONTS] == [n for n, _ in build.SIZES]
    assert sorted(os.listdir(FONTS_DIR)) == sorted([n + ".bin" for n, _ in FONTS] + ["OFL.txt", build.SUMS])


def test_the_checksums_are_the_files():
    """fonts/SHA256SUMS (what the deploy build checks the fonts against) is what `make fonts` writes
    for the checked-in files."""
    files = []
    for name, _ in FONTS:
        with open(os.path.join(FONTS_DIR, name + ".bin"), "rb") as f:
            files.append((name + ".bin", f.read()))
    with open(os.path.join(FONTS_DIR, build.SUMS), encoding="utf-8") as f:
        assert f.read() == build.sums_text(files), "fonts/SHA256SUMS is stale: run `make fonts`"


@pytest.mark.parametrize("name,caps", FONTS)
def test_font_file_holds_the_glyph_set_and_its_command(name, caps):
    head, cps, glyphs = read_font(name)
    height = dict(build.SIZES)[name]
    assert head["command"] == " ".join(build.command(name, height))
    assert head["h"] == height and head["caps"] == caps
    assert cps == sorted(ord(c) for c in set(CHARSET))
    h_rows = glyphs[ord("H")]
    inked = [r for r in range(head["h"]) if h_rows[r]]
    assert inked[0] == head["caps_top"] and inked[-1] + 1 == head["baseline"]
    assert head["baseline"] - head["caps_top"] == caps
    for ch in "AZЁЖЯ":   # capitals, Latin and Cyrillic, stand on the baseline and are inked
        rows = glyphs[ord(ch)]
        assert rows[head["baseline"] - 1] and not any(rows[head["baseline"]:])


def test_the_files_are_what_the_tool_makes(tmp_path):
    why = build.check_tools(build.OTB)
    if why:
        pytest.skip("cannot rebuild the fonts here: " + why)
    build.build(out=str(tmp_path))
    for name, _ in FONTS:
        with open(os.path.join(FONTS_DIR, name + ".bin"), "rb") as f:
            want = f.read()
        assert (tmp_path / (name + ".bin")).read_bytes() == want, \
            "%s.bin differs from what `make fonts` makes: run it and commit" % name
    with open(os.path.join(FONTS_DIR, build.SUMS), "rb") as f:
        assert (tmp_path / build.SUMS).read_bytes() == f.read(), "SHA256SUMS differs: run `make fonts`"


@pytest.mark.parametrize("name", [n for n in boards.NAMES if n != "sim"])
def test_each_board_gets_the_smallest_font_with_legible_capitals(name):
    mod = importlib.import_module("boards." + name)
    b = Board()
    b.pitch_um = mod.PITCH_UM
    sizes = [caps for _, caps in FONTS]
    legal = [c for c in sizes if b.um_of_px(c) >= CAPS_UM]
    assert legal, "no font is legible on %s" % name
    # what ui/font.py's for_board() computes, checked against the rule, not against a name
    chosen = next(n for n, c in FONTS if c == legal[0])
    assert b.um_of_px(dict(FONTS)[chosen]) >= CAPS_UM
    smaller = [c for c in sizes if c < legal[0]]
    assert all(b.um_of_px(c) < CAPS_UM for c in smaller)


DRAW = r"""
import framebuf, gc, sys
from ui import font
out = {}
class B:
    def __init__(s, p): s.pitch_um = p
    def um_of_px(s, px): return px * s.pitch_um
out["pick"] = [font.for_board(B(p)) for p in PITCHES]
def bytes_of(f, *a):                        # bytes f(*a) allocates, garbage included
    gc.collect()
    gc.disable()
    a0 = gc.mem_alloc()
    f(*a)
    n = gc.mem_alloc() - a0
    gc.enable()
    return n
def ten(f, fb, col):
    for _ in range(10):
        f.text(fb, TEXT, 1, 1, col)
VIEW = bytes_of(memoryview, TEXT)           # the one allocation text() makes: its string's bytes
for name in NAMES:
    for fmt, fname, col in ((framebuf.GS4_HMSB, "gs4", 9), (framebuf.MONO_VLSB, "vlsb", 1)):
        f = font.Font("firmware/fonts/" + name + ".bin", fmt)
        W = f.w * (len(TEXT) + 1)
        H = f.h + 2
        buf = bytearray(W * H)
        fb = framebuf.FrameBuffer(buf, W, H, fmt)
        first = bytes_of(f.text, fb, TEXT, 1, 1, col)    # letters never drawn before: none interned
        grew = bytes_of(ten, f, fb, col) - 10 * VIEW
        px = []
        for y in range(H):
            px.append("".join("1" if fb.pixel(x, y) == col else ("0" if fb.pixel(x, y) == 0 else "?")
                              for x in range(W)))
        fb.fill(col)                        # colour 0 on a bar of col: the same letters, inverted
        f.text(fb, TEXT, 1, 1, 0)
        inv = []
        for y in range(H):
            inv.append("".join("0" if fb.pixel(x, y) == col else ("1" if fb.pixel(x, y) == 0 else "?")
                               for x in range(W)))
        out[name + " " + fname] = {"alloc": grew, "first": first - VIEW, "px": px, "inv": inv,
                                   "w": f.w, "h": f.h}
        f.close()
print(json.dumps(out))
"""


def test_the_writer_draws_the_files_bitmaps_without_allocating(micropython):
    """Nothing but a memoryview of the string per text(): no glyph buffer, and no letter made a
    one-letter string (MicroPython interns those for good, and enough new names make its name
    table grow by a whole pool mid-game), from the first string drawn on."""
    text = "Hi, Ёжик №5 — ок?\u4e00"          # the last one the fonts lack: drawn as '?'
    pitches = [importlib.import_module("boards." + n).PITCH_UM
               for n in boards.NAMES if n != "sim"]
    names = [n for n, _ in FONTS]
    code = "import json\nTEXT = %r\nPITCHES = %r\nNAMES = %r\n" % (text, pitches, names) + DRAW
    env = dict(os.environ, MICROPYPATH=os.path.join(ROOT, "firmware"))
    r = subprocess.run([micropython, "-X", "heapsize=512K", "-c", code], cwd=ROOT, env=env,
                       capture_output=True, text=True, timeout=120)
    assert r.returncode == 0, r.stderr
    out = json.loads(r.stdout)
    for p, path in zip(pitches, out["pick"]):
        assert path.endswith(".bin") and os.path.exists(path), path
        caps = dict(FONTS)[os.path.basename(path)[:-4]]
        assert p * caps >= CAPS_UM and all(p * c < CAPS_UM for _, c in FONTS if c < caps)
    for name, _ in FONTS:
        head, cps, glyphs = read_font(name)
        w, h = head["w"], head["h"]
        want = [["0"] * (w * (len(text) + 1)) for _ in range(h + 2)]
        for i, ch in enumerate(text):
            rows = glyphs.get(ord(ch), glyphs[ord("?")])
            for r in range(h):
                for c in range(w):
                    if rows[r] >> (w - 1 - c) & 1:
                        want[1 + r][1 + i * w + c] = "1"
        for fmt in ("gs4", "vlsb"):
            got = out[name + " " + fmt]
            assert got["alloc"] == 0, "%s %s: text() allocated %d bytes" % (name, fmt, got["alloc"])
            assert got["first"] == 0, "%s %s: a first text() allocated %d bytes" % (name, fmt, got["first"])
            assert got["px"] == ["".join(r) for r in want], "%s on %s" % (name, fmt)
            assert got["inv"] == got["px"], "%s on %s in colour 0" % (name, fmt)


GS4_SAME = r"""
import framebuf
from ui import font
names = NAMES
bad = []
n = 0
for name in names:
    for (W, H) in ((62, 31), (40, 12)):
        for (x, y) in ((1, 1), (-3, -5), (W - 13, H - 7), (-9, 4), (5, -14), (W + 2, 0), (0, H),
                       (0, 0), (2, 3), (4, -6), (0, H - 9), (W - 26, 2), (-4, 1)):
            for (bg, col) in ((0, 9), (3, 15), (15, 0), (6, 6)):
                out = []
                for direct in (False, True):
                    f = font.Font("firmware/fonts/" + name + ".bin", framebuf.GS4_HMSB)
                    buf = bytearray((W + 1) // 2 * H)
                    fb = framebuf.FrameBuffer(buf, W, H, framebuf.GS4_HMSB)
                    fb.fill(bg)
                    fb.fill_rect(0, 0, W // 3, H, 7)          # another colour under part of it
                    if direct:
                        f.target(fb, buf, W, H)
                    f.text(fb, TEXT, x, y, col)
                    f.close()
                    out.append(bytes(buf))
                n += 1
                if out[0] != out[1]:
                    bad.append((name, W, H, x, y, bg, col))
print(n, len(bad), bad[:5], font._put4 is not None)
"""


def test_the_direct_gs4_writer_draws_what_the_blit_draws(micropython):
    """Where native code runs (the Pico, the unix port) the colour boards' text goes straight into
    the GS4 frame buffer (ui/font.py _put4) instead of through framebuf's palette blit: the same
    pixels, clipped the same way at every edge, from odd and even columns (two pixels a byte),
    over any background, in every colour and font."""
    names = [n for n, _ in FONTS]
    code = "TEXT = %r\nNAMES = %r\n" % ("Hi, Ёжик №5 — ок?\u4e00Wg", names) + GS4_SAME
    env = dict(os.environ, MICROPYPATH=os.path.join(ROOT, "firmware"))
    r = subprocess.run([micropython, "-X", "heapsize=512K", "-c", code], cwd=ROOT, env=env,
                       capture_output=True, text=True, timeout=300)
    assert r.returncode == 0, r.stderr
    fields = r.stdout.strip().split(" ", 2)
    assert fields[2].endswith("True"), r.stdout          # the native path was the one compared
    assert int(fields[0]) == len(names) * 2 * 13 * 4 and fields[1] == "0", r.stdout


CHECK = r"""
import framebuf, gc, json
from ui import font
out = []
for path in PATHS:
    gc.collect()
    a0 = gc.mem_alloc()
    try:
        f = font.Font(path, framebuf.GS4_HMSB)
        got = "read %dx%d" % (f.w, f.h)
        f.close()
    except OSError as e:
        got = "OSError"
    except ValueError:
        got = "ValueError"
    except MemoryError:
        got = "MemoryError"
    out.append([got, gc.mem_alloc() - a0])
print(json.dumps(out))
"""


def test_a_damaged_font_is_refused_before_anything_is_allocated_for_it(micropython, tmp_path):
    """Every damage of the file fault proof (tools/proofs/filefaults.py) on each font: refused with
    ValueError (OSError: missing, a folder) having allocated under 6 KB, garbage included, on this
    64-bit port (the budgets bound it: 1 KB of code points read, 32 runs kept),
    or read as a font within the budgets (a damage the header does not show: glyphs, the command
    text, fields the writer does not use); never a MemoryError (255x255 made one, endless pages)."""
    from tools.proofs import filefaults
    paths, labels = [], []
    for name, _ in FONTS:
        with open(os.path.join(FONTS_DIR, name + ".bin"), "rb") as f:
            good = f.read()
        for label, data in filefaults.font_variants(good):
            p = tmp_path / ("%d.bin" % len(paths))
            if data == "<dir>":
                p.mkdir()
            elif data is not None:
                p.write_bytes(data)
            paths.append(str(p))
            labels.append("%s %s" % (name, label))
    script = tmp_path / "check.py"
    script.write_text("PATHS = %r\n" % paths + CHECK)
    env = dict(os.environ, MICROPYPATH=os.path.join(ROOT, "firmware"))
    r = subprocess.run([micropython, "-X", "heapsize=180K", str(script)], cwd=ROOT, env=env,
                       capture_output=True, text=True, timeout=120)
    assert r.returncode == 0, r.stderr
    refused = 0
    for label, (got, alloc) in zip(labels, json.loads(r.stdout)):
        assert got != "MemoryError", label
        if got.startswith("read"):
            w, h = map(int, got.split()[1].split("x"))
            assert 0 < w <= 32 and 0 < h <= 32, (label, got)
        else:
            refused += 1
            assert alloc < 6144, "%s: %d bytes allocated before it was refused" % (label, alloc)
        if "^" not in label and "noise" not in label:
            assert got in ("ValueError", "OSError"), (label, got)     # every named damage
    assert refused > 0.7 * len(labels)
