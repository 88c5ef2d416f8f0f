# Run on the emulated Pico by tools/fonts/measure.py (the flash holds /font.mpy, /fonts/*.bin and
# font-to-py's own modules compiled to /<name>.mpy): the heap each font format costs, and the time
# to draw a 20-character line and a whole 240x240 screen of text with each. One JSON line out.
import gc
import json
import sys
import time

import framebuf

NAMES = ("f6x12", "f8x14", "f10x18", "f10x20")
LINE = "Ann plays 5-6 on 6:15"[:20]
GS4 = framebuf.GS4_HMSB


def free():
    gc.collect()
    return gc.mem_free()


def screen_lines(w, h):
    """A whole 240x240 screen of text: every line different (so a glyph cache is tested)."""
    cols = 240 // w
    out = []
    for r in range(240 // h):
        out.append("".join(chr(33 + (r * 7 + c) % 94) for c in range(cols)))
    return out


def timed(draw, *a):
    t = time.ticks_us()
    draw(*a)
    return time.ticks_diff(time.ticks_us(), t)


def mpy_text(mod, fb, s, x, y, pal, gbuf, gfb):
    """font-to-py's module format: each glyph a memoryview of the module's (read-only) bytes,
    copied into a glyph buffer a FrameBuffer views (as Peter Hinch's writer does), blitted."""
    for ch in s:
        mv, h, w = mod.get_ch(ch)
        gbuf[:] = mv
        fb.blit(gfb, x, y, 0, pal)
        x += w


def whole(text, fb, lines, h):
    y = 0
    for s in lines:
        text(fb, s, 0, y, 1)
        y += h


out = {"boot_free": free()}
fb = framebuf.FrameBuffer(bytearray(120 * 240), 240, 240, GS4)
pal = framebuf.FrameBuffer(bytearray(2), 2, 1, GS4)
pal.pixel(1, 0, 1)
# font-to-py's modules first, all kept loaded (each import's heap measured with nothing freed in
# between: the collector is conservative, a freed block would hide in the difference) ...
mods = {}
for name in NAMES:
    r = out[name] = {}
    a = free()
    mods[name] = mod = __import__(name)
    r["mpy_heap"] = a - free()
    w = mod.max_width()
    h = mod.height()
    gbuf = bytearray((w + 7) // 8 * h)
    gfb = framebuf.FrameBuffer(gbuf, w, h, framebuf.MONO_HLSB)

    def mt(fb, s, x, y, c, mod=mod, gbuf=gbuf, gfb=gfb):
        mpy_text(mod, fb, s, x, y, pal, gbuf, gfb)
    r["mpy_line"] = timed(mt, fb, LINE, 0, 0, 1)
    r["mpy_screen"] = timed(whole, mt, fb, screen_lines(w, h), h)
    a = gc.mem_alloc()
    mt(fb, LINE, 0, 0, 1)
    r["mpy_line_alloc"] = gc.mem_alloc() - a
del mods, mod, mt, gbuf, gfb
for name in NAMES:
    sys.modules.pop(name, None)
# ... then the writer and the binary files, all kept open
a = free()
import font  # noqa: E402
out["writer_module"] = a - free()
fonts = []
for name in NAMES:
    r = out[name]
    a = free()
    f = font.Font("/fonts/%s.bin" % name, GS4)
    r["bin_heap"] = a - free()
    fonts.append(f)
    r["bin_line_cold"] = timed(f.text, fb, LINE, 0, 0, 1)
    r["bin_line_warm"] = timed(f.text, fb, LINE, 0, 0, 1)
    r["bin_screen"] = timed(whole, f.text, fb, screen_lines(f.w, f.h), f.h)
    a = gc.mem_alloc()
    f.text(fb, LINE, 0, 0, 1)
    r["bin_line_alloc"] = gc.mem_alloc() - a
print(json.dumps(out))
