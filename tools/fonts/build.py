"""Build the bitmap fonts the firmware draws text with (`make fonts`).

The glyphs come from Terminus Font (Debian's `fonts-terminus-otb`, SIL Open Font License 1.1),
rendered by Peter Hinch's font-to-py (PyPI `font-to-py`, pinned in requirements.txt) into Python
font modules; this tool packs each into one binary file the firmware's writer (firmware/ui/font.py)
reads glyph by glyph from flash, so no font lives on the heap (docs/UI.md, "Fonts"). Every file
holds the exact font-to-py command that made it; host_tests/test_fonts.py rebuilds them and
compares.

Glyph set: tools/fonts/charset.txt (ASCII 32-126, the Russian alphabet with Ё/ё, a few symbols).
Sizes: the Terminus strikes the boards need for capitals of at least 1.2 mm (docs/UI.md):
8x14 (capitals 10 px), 10x18 (12 px), 10x20 (13 px), and 6x12 (8 px) for the OLED.

File layout (little-endian):
  0  b"PDFN"        magic
  4  u8 version     1
  5  u8 width       every glyph's advance and bitmap width (the fonts are monospaced)
  6  u8 height      rows of every glyph (the line height)
  7  u8 baseline    rows above the baseline
  8  u8 caps        capital height in px ('H' from its top ink row to the baseline)
  9  u8 caps_top    the row of a capital's top
  10 u16 n          glyphs
  12 u16 L          length of the command text
  14 L bytes       the font-to-py command (UTF-8)
  then n x u16      code points, ascending
  then n glyphs     ((width + 7) // 8) * height bytes each: rows top down, MSB the leftmost
                    pixel (framebuf.MONO_HLSB)

Beside the fonts, SHA256SUMS holds each file's SHA-256 (`sha256sum -c` reads it in firmware/fonts):
the deploy build (tools/deploy/main.py check_fonts) refuses a tree whose font is not the one made
here. It stays on the PC (the firmware checks a font's header and size against its budgets).

Usage: python tools/fonts/build.py [--otb PATH] [--out DIR] [--py DIR]
  --py DIR also keeps font-to-py's own Python modules there (for comparing formats).
"""
import hashlib
import os
import shutil
import struct
import subprocess
import sys
import tempfile

from tools import cli

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
OTB = "/usr/share/fonts/opentype/terminus/terminus-normal.otb"
OUT = os.path.join(ROOT, "firmware", "fonts")
CHARSET = os.path.join(HERE, "charset.txt")
FONT_TO_PY = "0.44.2"                      # = requirements.txt
MAGIC = b"PDFN"
VERSION = 1
# (file name, font-to-py height): the Terminus strike of that height
SIZES = (("f6x12", 12), ("f8x14", 14), ("f10x18", 18), ("f10x20", 20))
SUMS = "SHA256SUMS"                        # beside the fonts: "<sha256>  <file>" a line


class FontBuildError(Exception):
    pass


def check_tools(otb):
    """Why the fonts cannot be built here (a one-line message), or None."""
    if not os.path.isfile(otb):
        return "no Terminus font at %s: apt-get install fonts-terminus-otb" % otb
    try:
        from importlib.metadata import PackageNotFoundError, version
        have = version("font-to-py")
    except PackageNotFoundError:
        return "font-to-py is not installed: run `make venv`"
    if have != FONT_TO_PY:
        return "font-to-py %s is installed, the fonts are made with %s: run `make venv`" % (
            have, FONT_TO_PY)
    return None


def command(name, height):
    """The font-to-py command line that makes font `name` (run in a folder holding the charset
    and the font under the names it uses: font-to-py reads only .otf/.ttf names)."""
    return ["font_to_py", "-x", "-f", "-k", "charset.txt", "terminus.otf", str(height),
            name + ".py"]


def run_font_to_py(work, name, height):
    """font-to-py's Python module for `name`, made in `work`, loaded: (module, command text)."""
    cmd = command(name, height)
    r = subprocess.run([sys.executable, "-m", "font_to_py.font_to_py"] + cmd[1:], cwd=work,
                       capture_output=True, text=True)
    if r.returncode != 0 or "written successfully" not in r.stdout:
        raise FontBuildError("font-to-py failed for %s: %s" % (name, (r.stdout + r.stderr).strip()))
    ns = {}
    path = os.path.join(work, name + ".py")
    with open(path, encoding="utf-8") as f:
        exec(compile(f.read(), path, "exec"), ns)
    return ns, " ".join(cmd)


def glyph_rows(ns, ch):
    """The rows of ch's bitmap as ints (bit width-1 = the leftmost pixel)."""
    data, h, w = ns["get_ch"](ch)
    bpr = (w + 7) // 8
    data = bytes(data)
    return [int.from_bytes(data[r * bpr:(r + 1) * bpr], "big") for r in range(h)], w


def pack(ns, text):
    """The binary font file's bytes for font-to-py module namespace ns, made by command `text`."""
    chars = sorted(set(open(CHARSET, encoding="utf-8").read()))
    w = ns["max_width"]()
    h = ns["height"]()
    base = ns["baseline"]()
    rows, _ = glyph_rows(ns, "H")
    top = min(r for r in range(h) if rows[r])
    stride = (w + 7) // 8 * h
    cps = b""
    glyphs = b""
    for ch in chars:
        data, gh, gw = ns["get_ch"](ch)
        if (gh, gw) != (h, w) or len(data) != stride:
            raise FontBuildError("glyph %r is %dx%d, not %dx%d" % (ch, gw, gh, w, h))
        cps += struct.pack("<H", ord(ch))
        glyphs += bytes(data)
    cmd = text.encode()
    head = MAGIC + struct.pack("<BBBBBBHH", VERSION, w, h, base, base - top, top, len(chars),
                               len(cmd))
    return head + cmd + cps + glyphs


def sums_text(files):
    """SHA256SUMS's text for [(file name, its bytes)]: sha256sum's format, by name."""
    return "".join("%s  %s\n" % (hashlib.sha256(data).hexdigest(), name) for name, data in sorted(files))


def build(otb=OTB, out=OUT, py_dir=None):
    """Write every size's binary font into `out`, and their checksums (SUMS); returns
    [(path, bytes)]."""
    why = check_tools(otb)
    if why:
        raise FontBuildError(why)
    os.makedirs(out, exist_ok=True)
    made = []
    sums = []
    with tempfile.TemporaryDirectory() as work:
        shutil.copyfile(otb, os.path.join(work, "terminus.otf"))
        shutil.copyfile(CHARSET, os.path.join(work, "charset.txt"))
        for name, height in SIZES:
            ns, text = run_font_to_py(work, name, height)
            data = pack(ns, text)
            path = os.path.join(out, name + ".bin")
            with open(path, "wb") as f:
                f.write(data)
            made.append((path, len(data)))
            sums.append((name + ".bin", data))
            if py_dir:
                os.makedirs(py_dir, exist_ok=True)
                shutil.copyfile(os.path.join(work, name + ".py"), os.path.join(py_dir, name + ".py"))
    text = sums_text(sums).encode()
    path = os.path.join(out, SUMS)
    with open(path, "wb") as f:
        f.write(text)
    made.append((path, len(text)))
    return made


def main(argv=None):
    ap = cli.parser("fonts_build", description="Build the firmware's bitmap fonts (font-to-py).")
    ap.add_argument("--otb", default=OTB, help="Terminus .otb (default: Debian's, %(default)s)")
    ap.add_argument("--out", default=OUT, help="where the .bin fonts go (default firmware/fonts)")
    ap.add_argument("--py", default=None, help="also keep font-to-py's Python modules here")
    a = ap.parse_args(argv)
    try:
        for path, n in build(a.otb, a.out, a.py):
            print("%s: %d bytes" % (os.path.relpath(path), n))
    except FontBuildError as e:
        print("fonts: %s" % e, file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
