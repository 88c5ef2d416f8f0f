"""The PC simulator: key scripts, headless screenshots with a deterministic framebuffer, the
four-button mapping through the sim, the mono OLED layout, crash/quit paths, the terminal view
under tmux and the window view on a dummy video driver."""
import os
import shutil
import signal
import subprocess
import sys
import time

import pytest

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

from tools import find_micropython  # noqa: E402
from tools.sim import link as sim_link  # noqa: E402

MP = find_micropython.find()
needs_mp = pytest.mark.skipif(not MP, reason="no micropython binary")
PY = sys.executable
SIM = "-m tools.sim"          # in shell command lines; lists use SIM.split()
DEMO = os.path.join(ROOT, "host_tests", "fixtures", "demo_app.py")
YELLOW = (255, 219, 0)  # CURSOR as RGB565 shows it


def sim(*args, timeout=30):
    return subprocess.run([PY] + SIM.split() + ["--app", DEMO] + list(args), cwd=ROOT, capture_output=True,
                          text=True, timeout=timeout)


def test_key_bits_match_firmware():
    import keys as inp
    for name, bit in sim_link.KEY_BITS.items():
        assert getattr(inp, "K_" + name.upper()) == bit


def test_parse_script():
    tl, end = sim_link.parse_script("wait:50 a shot:x.png b+x hold:down:300 up*2")
    assert tl[0] == (50, "keys", 0x10) and tl[1] == (150, "keys", 0)
    assert tl[2] == (250, "shot", "x.png")
    assert tl[3:7] == [(250, "keys", 0x20), (290, "keys", 0x60), (390, "keys", 0x20),
                       (430, "keys", 0)]
    assert tl[7] == (530, "keys", 0x02) and tl[8] == (830, "keys", 0)
    assert end == 930 + 400
    for bad in ("jump", "wait:x", "hold:a", "a*z", "wait:-5"):
        with pytest.raises(sim_link.ScriptError):
            sim_link.parse_script(bad)


@needs_mp
def test_bad_script_is_one_line():
    r = sim("--keys", "wait:100 jump")
    assert r.returncode == 2 and r.stderr.strip().count("\n") == 0
    assert "unknown key 'jump'" in r.stderr


def _pixel(path, x, y):
    from PIL import Image
    return Image.open(path).convert("RGB").getpixel((x, y))


@needs_mp
def test_headless_screenshot_deterministic(tmp_path):
    keys = "wait:100 down*3 right a a wait:200 shot:%s/mid.png left" % tmp_path
    runs = []
    for i in range(2):
        out = tmp_path / ("end%d.png" % i)
        r = sim("--board", "waveshare_lcd13", "--keys", keys, "--screenshot", str(out))
        assert r.returncode == 0, r.stdout + r.stderr
        runs.append([line.split("hash=")[1] for line in r.stdout.splitlines() if "hash=" in line])
        assert out.exists()
    assert runs[0] == runs[1] and len(runs[0]) == 2 and runs[0][0] != runs[0][1]
    assert r.stdout.splitlines()[-1] == "sim: script done"
    from PIL import Image
    im = Image.open(tmp_path / "mid.png")
    assert im.size == (240, 240)
    # cursor: start at the centre (120, 120), down x3 (4 px each), right x1
    assert _pixel(tmp_path / "mid.png", 124, 132) == YELLOW
    assert _pixel(tmp_path / "end0.png", 120, 132) == YELLOW


@needs_mp
def test_four_button_profile(tmp_path):
    # Pimoroni pack: X = up, B held + X = left, B + Y = right, B alone acts on release
    r = sim("--board", "pimoroni_pack", "--keys",
            "wait:100 x shot:%s/up.png b+x shot:%s/left.png b+y b+y shot:%s/right.png"
            % (tmp_path, tmp_path, tmp_path))
    assert r.returncode == 0, r.stdout + r.stderr
    assert _pixel(tmp_path / "up.png", 120, 63) == YELLOW
    assert _pixel(tmp_path / "left.png", 116, 63) == YELLOW
    assert _pixel(tmp_path / "right.png", 124, 63) == YELLOW
    from PIL import Image
    assert Image.open(tmp_path / "up.png").size == (240, 135)


@needs_mp
def test_mono_oled_profile(tmp_path):
    out = tmp_path / "oled.png"
    r = sim("--board", "oled_diy", "--keys", "wait:100 a", "--screenshot", str(out), "--scale", "2")
    assert r.returncode == 0, r.stdout + r.stderr
    from PIL import Image
    im = Image.open(out).convert("RGB")
    assert im.size == (256, 128)
    assert set(c for _, c in im.getcolors()) == {(0, 0, 0), (255, 255, 255)}
    assert im.getpixel((128, 64)) == (255, 255, 255)  # cursor dot (64, 32) at x2


@needs_mp
def test_sizes_override(tmp_path):
    out = tmp_path / "s.png"
    r = sim("--board", "sim", "--size", "320x240", "--keys", "wait:50", "--screenshot", str(out))
    assert r.returncode == 0, r.stdout + r.stderr
    from PIL import Image
    assert Image.open(out).size == (320, 240)


@needs_mp
def test_crash_shows_traceback(tmp_path):
    r = sim("--source", "--keys", "wait:100 x wait:100")
    assert r.returncode == 1
    assert "Traceback (most recent call last)" in r.stdout
    assert "RuntimeError: demo crash on purpose" in r.stdout
    assert r.stdout.strip().splitlines()[-1].startswith("sim: MicroPython crashed (exit 1)")


@needs_mp
def test_app_ends_early():
    r = sim("--keys", "wait:100 hold:b:800 wait:500")
    assert r.returncode == 0, r.stdout + r.stderr
    assert "app: demo: bye" in r.stdout and r.stdout.strip().endswith("sim: the app ended")


@needs_mp
def test_firmware_main_runs_in_sim(tmp_path):
    """The real entry point (firmware/main.py -> ui.app.run) starts on the sim board."""
    if not os.path.exists(os.path.join(ROOT, "firmware", "ui", "app.py")):
        pytest.skip("no ui.app yet")
    out = tmp_path / "main.png"
    r = subprocess.run([PY] + SIM.split() + ["--board", "waveshare_lcd13", "--data", str(tmp_path / "data"),
                        "--keys", "wait:500", "--screenshot", str(out)], cwd=ROOT,
                       capture_output=True, text=True, timeout=60)
    assert r.returncode == 0, r.stdout + r.stderr
    assert out.exists()


# terminal view under tmux -----------------------------------------------------------------------

def _tmux(*a):
    return subprocess.run(["tmux"] + list(a), capture_output=True, text=True, timeout=10)


def _wait_for(sock, text, timeout=30.0):   # generous: CI machines can be loaded
    end = time.time() + timeout
    screen = ""
    while time.time() < end:
        screen = _tmux("-L", sock, "capture-pane", "-p", "-t", "t").stdout
        if text in screen:
            return screen
        time.sleep(0.1)
    raise AssertionError("%r not on screen:\n%s" % (text, screen))


@needs_mp
@pytest.mark.skipif(not shutil.which("tmux"), reason="tmux not installed")
def test_terminal_view_tmux(tmp_path):
    sock = "simtest%d" % os.getpid()
    cmd = ("cd %s && %s %s --view term --board oled_diy --app %s; echo EXIT=$?; "
           "stty -a | grep -o -- '-\\?icanon' ; sleep 20" % (ROOT, PY, SIM, DEMO))
    _tmux("-L", sock, "new-session", "-d", "-s", "t", "-x", "140", "-y", "40", cmd)
    try:
        screen = _wait_for(sock, "pixel-exact")
        assert "oled_diy 128x64 mono" in screen
        assert "arrows=joystick" in screen and "q/Esc=quit" in screen
        assert "\u2580" in screen  # the picture is drawn with half blocks
        _tmux("-L", sock, "send-keys", "-t", "t", "a")
        _wait_for(sock, "beep 880 30")  # the app saw A and beeped; the status line shows it
        _tmux("-L", sock, "send-keys", "-t", "t", "q")
        screen = _wait_for(sock, "EXIT=")
        assert "sim: quit" in screen and "EXIT=0" in screen
        assert "\nicanon" in screen  # the terminal is back in canonical (sane) mode
    finally:
        _tmux("-L", sock, "kill-server")


@needs_mp
@pytest.mark.skipif(not shutil.which("tmux"), reason="tmux not installed")
def test_terminal_view_crash_and_small_terminal(tmp_path):
    sock = "simtest%dc" % os.getpid()
    cmd = ("cd %s && %s %s --view term --board waveshare_lcd13 --app %s; echo EXIT=$?; sleep 20"
           % (ROOT, PY, SIM, DEMO))
    _tmux("-L", sock, "new-session", "-d", "-s", "t", "-x", "80", "-y", "24", cmd)
    try:
        screen = _wait_for(sock, "1/6 scale")
        assert screen.startswith("sim: 1/6 scale, unreadable: needs a 240x124 terminal"), screen
        assert "board: Joystick move, A play" in screen
        _tmux("-L", sock, "send-keys", "-t", "t", "x")
        screen = _wait_for(sock, "EXIT=")
        assert "RuntimeError: demo crash on purpose" in screen
        assert "sim: MicroPython crashed (exit 1)" in screen and "EXIT=1" in screen
        assert "areadablepictureneeds240x124" in "".join(screen.split())      # (wrapped at 80)
    finally:
        _tmux("-L", sock, "kill-server")


# window view ------------------------------------------------------------------------------------

@needs_mp
def test_window_view_dummy_driver():
    pytest.importorskip("pygame")
    env = dict(os.environ, SDL_VIDEODRIVER="dummy", PYGAME_HIDE_SUPPORT_PROMPT="1")
    p = subprocess.Popen([PY] + SIM.split() + ["--view", "window", "--board", "pimoroni_pack2",
                                               "--app", DEMO],
                         cwd=ROOT, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                         text=True)
    time.sleep(1.5)
    assert p.poll() is None
    p.send_signal(signal.SIGTERM)
    out, err = p.communicate(timeout=10)
    assert p.returncode == 0, out + err
    assert out.strip().splitlines()[-1] == "sim: terminated"


@needs_mp
@pytest.mark.skipif(not shutil.which("tmux"), reason="tmux not installed")
def test_terminal_view_ctrl_c():
    sock = "simtest%di" % os.getpid()
    cmd = ("cd %s && %s %s --view term --app %s; echo EXIT=$?; "
           "stty -a | grep -o -- '-\\?icanon' ; sleep 20" % (ROOT, PY, SIM, DEMO))
    _tmux("-L", sock, "new-session", "-d", "-s", "t", "-x", "140", "-y", "40", cmd)
    try:
        _wait_for(sock, "pixel-exact")
        _tmux("-L", sock, "send-keys", "-t", "t", "C-c")
        screen = _wait_for(sock, "EXIT=")
        assert "sim: interrupted" in screen and "EXIT=130" in screen
        assert "\nicanon" in screen
    finally:
        _tmux("-L", sock, "kill-server")


def test_the_window_hint_names_the_make_setting():
    from tools.sim import term
    env = dict(os.environ)
    try:
        os.environ["PICO_DOMINO_MAKE"] = "1"
        top, last = term.too_small(240, 240, 80, 24, window=True)
        assert top.startswith("sim: 1/6 scale, unreadable: needs a 240x124 terminal, or VIEW=window"), top
        assert last.endswith("or VIEW=window"), last
        os.environ.pop("PICO_DOMINO_MAKE")
        top, last = term.too_small(240, 240, 80, 24, window=True)
        assert "or --view window" in top and "VIEW" not in top
        assert term.too_small(128, 64, 128, 36) is None and term.too_small(240, 135, 240, 72) is None
        assert term.too_small(128, 64, 128, 35) is not None
        top, _ = term.too_small(128, 64, 80, 24, window=False)
        assert "needs a 128x36 terminal (" in top and "window," not in top
    finally:
        os.environ.clear()
        os.environ.update(env)
