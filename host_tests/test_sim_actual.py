"""The simulator's actual size (tools/sim/actual.py, --actual-size/--dpi): a frame scaled by the
panel's pixel pitch over the monitor's comes out as many millimetres wide as the panel, with
nearest-neighbour pixels when enlarged and averaged ones when shrunk; every board announces its
own pitch; the window shows it and the terminal says it cannot."""
import importlib
import os
import signal
import subprocess
import sys
import time

import pytest

from tools import find_micropython
from tools.sim import actual

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
MP = find_micropython.find()
needs_mp = pytest.mark.skipif(not MP, reason="no micropython binary")
PANELS = ("waveshare_lcd13", "pimoroni_pack", "pimoroni_pack2", "oled_diy")


def panel(name):
    return importlib.import_module("boards." + name)


@pytest.mark.parametrize("name", PANELS)
@pytest.mark.parametrize("dpi", (72, 96, 108.8, 157, 254, 600))
def test_the_picture_is_as_wide_in_mm_as_the_panel(name, dpi):
    m = panel(name)
    w, h = actual.size_px(m.WIDTH, m.HEIGHT, m.PITCH_UM, dpi)
    mm_w, mm_h = actual.panel_mm(m.WIDTH, m.HEIGHT, m.PITCH_UM)
    monitor_px_mm = 25.4 / dpi
    # rounded to whole monitor pixels: within half a pixel of the panel's size
    assert abs(w * monitor_px_mm - mm_w) <= monitor_px_mm / 2 + 1e-9
    assert abs(h * monitor_px_mm - mm_h) <= monitor_px_mm / 2 + 1e-9
    assert abs(actual.factor(m.PITCH_UM, dpi) - m.PITCH_UM / 1000 / monitor_px_mm) < 1e-12


def test_the_scale_of_known_panels():
    # the 1.3" panel: 0.097 mm pixels, a 96-DPI monitor's 0.2646 mm: 240 px -> 88 px, 23.3 mm
    assert actual.factor(97, 96) == pytest.approx(0.3666, abs=1e-4)
    assert actual.size_px(240, 240, 97, 96) == (88, 88)
    assert actual.panel_mm(128, 64, 169) == pytest.approx((21.632, 10.816))
    line = actual.describe(240, 240, 97, 96)
    assert "x0.37" in line and "96 dpi" in line and "23.3 x 23.3 mm" in line
    with pytest.raises(ValueError):
        actual.factor(0, 96)


def test_enlarged_pixels_stay_sharp_and_shrunk_ones_are_averaged():
    from PIL import Image
    im = Image.new("P", (8, 4))
    im.putpalette([0, 0, 0, 255, 255, 255])
    im.putdata([(x + y) & 1 for y in range(4) for x in range(8)])     # a checkerboard
    up = actual.resize(im, 254, 300)                                     # x3.0
    assert up.size == (24, 12) and set(c for _, c in up.getcolors()) == {(0, 0, 0), (255, 255, 255)}
    assert up.getpixel((2, 2)) == (0, 0, 0) and up.getpixel((3, 2)) == (255, 255, 255)
    down = actual.resize(im, 127, 100)                                   # x0.5: each 2x2 averaged
    assert down.size == (4, 2)
    assert set(c for _, c in down.getcolors()) == {(128, 128, 128)}


def sim(*args, env=None):
    return subprocess.run([sys.executable, "-m", "tools.sim"] + list(args), cwd=ROOT,
                          capture_output=True, text=True, timeout=60, env=env)


@needs_mp
@pytest.mark.parametrize("name,dpi", [("waveshare_lcd13", "96"), ("pimoroni_pack", "96"),
                                      ("pimoroni_pack2", "110"), ("oled_diy", "254")])
def test_a_headless_shot_at_actual_size_uses_the_boards_own_pitch(tmp_path, name, dpi):
    from PIL import Image
    big = tmp_path / "actual.png"
    keys = "wait:300 down wait:100"
    r = sim("--board", name, "--seed", "1", "--data", str(tmp_path / "d"), "--keys", keys,
            "--screenshot", str(big), "--dpi", dpi)
    assert r.returncode == 0, r.stdout + r.stderr
    m = panel(name)
    shot = Image.open(big)
    assert shot.size == actual.size_px(m.WIDTH, m.HEIGHT, m.PITCH_UM, float(dpi))
    # the same run without --dpi: its 1x frame, scaled here, is the actual-size picture
    r1 = sim("--board", name, "--seed", "1", "--data", str(tmp_path / "d1"), "--keys", keys,
             "--screenshot", str(tmp_path / "x1.png"))
    assert r1.returncode == 0, r1.stdout + r1.stderr
    want = actual.resize(Image.open(tmp_path / "x1.png"), m.PITCH_UM, float(dpi))
    assert shot.convert("RGB").tobytes() == want.tobytes()


@needs_mp
def test_the_window_shows_actual_size_and_says_so():
    pytest.importorskip("pygame")
    env = dict(os.environ, SDL_VIDEODRIVER="dummy", PYGAME_HIDE_SUPPORT_PROMPT="1")
    code = ("import pygame, sys\n"
            "from tools.sim import main\n"
            "set_mode, caption = pygame.display.set_mode, pygame.display.set_caption\n"
            "pygame.display.set_mode = lambda size, *a: "
            "print('SIZE', *size, flush=True) or set_mode(size, *a)\n"
            "pygame.display.set_caption = lambda t: print('TITLE', t, flush=True) or caption(t)\n"
            "sys.exit(main.main(sys.argv[1:]))\n")
    p = subprocess.Popen([sys.executable, "-c", code, "--view", "window", "--board", "pimoroni_pack2",
                          "--app", "host_tests/fixtures/demo_app.py", "--actual-size", "--dpi", "200"],
                         cwd=ROOT, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    time.sleep(2)
    p.send_signal(signal.SIGTERM)
    out, err = p.communicate(timeout=10)
    assert p.returncode == 0, out + err
    m = panel("pimoroni_pack2")
    w, h = actual.size_px(m.WIDTH, m.HEIGHT, m.PITCH_UM, 200)
    assert "SIZE %d %d" % (max(w, 480), h + 40) in out
    assert "actual size: x1.00 at 200 dpi, panel 40.6 x 30.5 mm" in out, out


def test_the_terminal_cannot_and_says_so():
    r = sim("--view", "term", "--actual-size", "--app", "host_tests/fixtures/demo_app.py")
    assert r.returncode == 2 and r.stderr.count("\n") == 1 and "window view" in r.stderr, r.stderr
