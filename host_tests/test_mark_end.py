"""The end being chosen is outlined even when it lies partly off the screen (the 128x64
OLED's tall table scrolls: an end can sit above or below the rows shown). The mono screen inverts
the end's pixels; framebuf's pixel() answers None off the screen, which once raised a TypeError
(the monkey, seed 424242, 180K, 128x64). Under the real MicroPython framebuf."""
import os
import subprocess

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

SCRIPT = r"""
import sys
sys.path.insert(0, %r)
sys.path.insert(0, %r)
import boards.sim as sim
from ui.gfx import Gfx
from ui.paint import mark_end


class View:
    scroll = 0
    y0 = 1                 # the table area's rows (colour marks keep to them): the whole screen
    h = 1000
    my = [0, 0, 0, 0]
    mx = [0, 0, 0, 0]
    mw = [0, 0, 0, 0]
    mh = [0, 0, 0, 0]


for size, mono in (("128x64", 1), ("240x240", 0)):
    b = sim.build(profile="oled_diy" if mono else "sim", size=size, virtual=True)
    g = Gfx(b)
    v = View()
    n = 0
    for x, y, w, h in ((-6, 10, 12, 6), (120, 10, 12, 6), (10, -4, 6, 12), (10, 58, 6, 12),
                       (-20, -20, 8, 8), (200, 300, 8, 8), (0, 0, 128, 64)):
        v.mx[0], v.my[0], v.mw[0], v.mh[0] = x, y, w, h
        for chosen in (True, False):
            g.fb.fill(0)
            mark_end(v, g, 0, 1, chosen)
            n += 1
    # the part on the screen is inverted, nothing else
    v.mx[0], v.my[0], v.mw[0], v.mh[0] = 120, 60, 12, 6
    g.fb.fill(0)
    mark_end(v, g, 0, 1, True)
    if mono:
        lit = sum(1 for yy in range(64) for xx in range(128) if g.fb.pixel(xx, yy))
        assert lit == 8 * 4, lit
    print("ok", size, n)
"""


def test_mark_end_off_the_screen(micropython):
    mp = micropython
    script = SCRIPT % (ROOT, os.path.join(ROOT, "firmware"))
    res = subprocess.run([mp, "-c", script], stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                         universal_newlines=True, timeout=120)
    assert res.returncode == 0, res.stdout + res.stderr
    assert res.stdout.split() == ["ok", "128x64", "14", "ok", "240x240", "14"]
