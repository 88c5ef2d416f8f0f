"""`make sim` as a person uses it: the terminal view of the real firmware in a tmux session.

The test types on the keyboard with `tmux send-keys` and reads the screen back with
`tmux capture-pane -p -e -N`. The terminal view draws the 128x64 OLED pixel-exact with half blocks
(one cell = the top pixel as the foreground colour of `▀`, the bottom pixel as the background), so
the capture is decoded back into pixels and compared with the frame a headless run of the same
seeded game draws (tools/sim/main.py --keys, virtual clock): first the main menu, then the table after
our tile went down (and the AI's answer). Both runs use PICO_SIM_SEED (`--seed`) and a fresh data
folder, so the deal and the AI's moves are the same; the medium AI does not look at the clock.

Needs tmux (skipped without it: `apt-get install tmux`).
"""
import os
import re
import shutil
import subprocess
import sys
import time

import pytest

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

from tools import find_micropython  # noqa: E402

MP = find_micropython.find()
BOARD, W, H = "oled_diy", 128, 64
SEED = 7
COLS, ROWS = 140, 40          # pixel-exact for the OLED: 128 columns, 32 picture rows + 4 lines
TOP = 1                       # picture starts on the second line (sim_term.TOP)

pytestmark = [
    pytest.mark.skipif(not shutil.which("tmux"), reason="tmux not installed (apt-get install tmux)"),
    pytest.mark.skipif(not shutil.which("make"), reason="make not installed"),
    pytest.mark.skipif(not MP, reason="no micropython binary"),
]

# The same game twice: headless (reference frames) and typed into `make sim`.
# Main menu -> A: New game (Draw, You vs Medium AI) -> UP wraps to "Start game" -> A. The AI leads
# 6-6 with this seed; then DOWN puts the cursor on a playable tile and A plays it (it fits one end).
MENU_KEYS = "wait:1500"
START_KEYS = ["a", "up", "a"]
PLAY_KEYS = ["down", "a"]


def _headless(tmp_path):
    """Frames (palette index bytes) of the menu, our turn, and after our move, from tools/sim/main.py."""
    from PIL import Image
    script = "%s shot:%s/menu.png %s wait:4000 shot:%s/turn.png %s wait:4000 shot:%s/played.png" % (
        MENU_KEYS, tmp_path, " wait:400 ".join(START_KEYS), tmp_path,
        " wait:400 ".join(PLAY_KEYS), tmp_path)
    r = subprocess.run([sys.executable, "-m", "tools.sim", "--board", BOARD,
                        "--seed", str(SEED), "--data", str(tmp_path / "ref-data"), "--keys", script],
                       cwd=ROOT, capture_output=True, text=True, timeout=60)
    assert r.returncode == 0, r.stdout + r.stderr
    out = {}
    for name in ("menu", "turn", "played"):
        im = Image.open(tmp_path / (name + ".png")).convert("L")
        out[name] = bytes(1 if v else 0 for v in im.tobytes())
    assert len(set(out.values())) == 3, "the reference frames should all differ"
    return out


_SGR = re.compile(r"\x1b\[([0-9;]*)m")


def decode_picture(capture):
    """capture-pane -e -N text -> bytes of W*H pixels (1 lit, 0 dark), or None when the lines do
    not hold a full picture. Cell colours: fg = top pixel (for '▀'), bg = bottom (and both for ' ')."""
    lines = capture.split("\n")
    if len(lines) < TOP + H // 2:
        return None
    px = bytearray(W * H)
    fg = bg = None
    x0 = None
    for r in range(H // 2):
        cells = []
        line = lines[TOP + r]
        pos = 0
        for m in _SGR.finditer(line + "\x1b[m"):
            for ch in line[pos:m.start()]:
                cells.append((ch, fg, bg))
            pos = m.end()
            parts = [int(p) if p else 0 for p in m.group(1).split(";")] if m.group(1) else [0]
            i = 0
            while i < len(parts):
                p = parts[i]
                if p == 0:
                    fg = bg = None
                elif p == 39:
                    fg = None
                elif p == 49:
                    bg = None
                elif p in (38, 48) and i + 4 < len(parts) and parts[i + 1] == 2:
                    c = tuple(parts[i + 2:i + 5])
                    if p == 38:
                        fg = c
                    else:
                        bg = c
                    i += 4
                i += 1
        first = next((i for i, c in enumerate(cells) if c[2] is not None), None)
        if first is None:
            return None
        if x0 is None:
            x0 = first
        if len(cells) < x0 + W:
            return None
        for x in range(W):
            ch, f, b = cells[x0 + x]
            if b is None:
                return None
            top = f if ch == "\u2580" else b
            px[(2 * r) * W + x] = 1 if top and top[0] > 127 else 0
            px[(2 * r + 1) * W + x] = 1 if b[0] > 127 else 0
    return bytes(px)


class Tmux:
    def __init__(self, sock):
        self.sock = sock

    def run(self, *a):
        return subprocess.run(["tmux", "-L", self.sock] + list(a), capture_output=True, text=True,
                              timeout=10)

    def screen(self, colours=False):
        args = ["capture-pane", "-p", "-N", "-t", "t"] + (["-e"] if colours else [])
        return self.run(*args).stdout

    def keys(self, *keys):
        for k in keys:
            self.run("send-keys", "-t", "t", {"up": "Up", "down": "Down", "left": "Left",
                                              "right": "Right"}.get(k, k))
            time.sleep(0.4)

    def wait_picture(self, want, what, timeout=30.0):
        end = time.time() + timeout
        got = None
        while time.time() < end:
            got = decode_picture(self.screen(colours=True))
            if got == want:
                return
            time.sleep(0.1)
        text = self.screen()
        differ = "no picture" if got is None else "%d pixels differ" % sum(
            a != b for a, b in zip(got, want))
        raise AssertionError("%s not on the terminal after %.0f s (%s):\n%s"
                             % (what, timeout, differ, text))

    def wait_text(self, text, timeout=10.0):
        end = time.time() + timeout
        screen = ""
        while time.time() < end:
            screen = self.screen()
            if text in screen:
                return screen
            time.sleep(0.1)
        raise AssertionError("%r not on screen:\n%s" % (text, screen))


def test_make_sim_terminal_menu_and_a_played_tile(tmp_path):
    ref = _headless(tmp_path)
    sock = "makesim%d" % os.getpid()
    tm = Tmux(sock)
    data = tmp_path / "data"
    cmd = ("cd %s && make sim VIEW=term SIM_ARGS='--data %s --seed %d'; echo EXIT=$?; sleep 30"
           % (ROOT, data, SEED))
    r = tm.run("new-session", "-d", "-s", "t", "-x", str(COLS), "-y", str(ROWS), cmd)
    assert r.returncode == 0, r.stderr
    try:
        # the first start may compile the firmware to .mpy (build/sim-mpy) first
        tm.wait_text("pixel-exact", timeout=60)
        screen = tm.screen()
        assert "sim: oled_diy 128x64 mono" in screen and "q/Esc=quit" in screen
        tm.wait_picture(ref["menu"], "the main menu")
        tm.keys(*START_KEYS)
        tm.wait_picture(ref["turn"], "our first turn (the AI led)")
        time.sleep(0.6)  # the UI ignores A for 300 ms after another player's move
        tm.keys(*PLAY_KEYS)
        tm.wait_picture(ref["played"], "the table with our tile played")
        assert sum(ref["played"]) > sum(ref["turn"])  # more tile pixels lit on the table
        tm.keys("q")
        screen = tm.wait_text("EXIT=")
        assert "sim: quit" in screen and "EXIT=0" in screen
        saved = (data / "game.txt").read_text()
        assert re.search(r"^round 66 \d\d[LR]", saved, re.M), saved  # our move is in the save
    finally:
        tm.run("kill-server")


def test_make_sim_in_a_small_terminal_says_what_size_it_needs(tmp_path):
    """80x24, the 240x240 board: the top line names the terminal size a readable picture needs (and
    the make setting for the window view when there is a display); quitting leaves that line on the
    normal screen."""
    sock = "makesimsmall%d" % os.getpid()
    tm = Tmux(sock)
    cmd = ("cd %s && env -u DISPLAY -u WAYLAND_DISPLAY make sim VIEW=term BOARD=waveshare_lcd13 "
           "SIM_ARGS='--data %s'; echo EXIT=$?; sleep 30" % (ROOT, tmp_path / "data"))
    r = tm.run("new-session", "-d", "-s", "t", "-x", "80", "-y", "24", cmd)
    assert r.returncode == 0, r.stderr
    try:
        screen = tm.wait_text("needs a 240x124 terminal", timeout=60)
        top = screen.split("\n")[0]
        assert top.startswith("sim: 1/6 scale, unreadable: needs a 240x124 terminal"), screen
        assert "--view" not in screen
        time.sleep(0.5)
        tm.keys("q")
        screen = tm.wait_text("EXIT=")
        said = "sim: this 80x24 terminal showed the 240x240 screen at 1/6, too small to read: a readable " \
               "picture needs 240x124"
        assert "".join(said.split()) in "".join(screen.split()), screen      # (wrapped at 80)
        assert "EXIT=0" in screen
    finally:
        tm.run("kill-server")

