"""The real firmware played headless in the simulator (tools/sim/main.py --keys, virtual clock) with a
fixed deal seed (--seed, i.e. PICO_SIM_SEED -> board.seed): a new game is set up from the main menu
by keys, the human plays tiles by keys against an Easy and a Medium AI, and screenshots are taken at
chosen moments. The same script twice gives the same frames, and the frames match golden hashes.

Golden hashes: when the UI, the AI or the deal changes on purpose, the hashes below change. Look
at the new frames first (`make screenshots`, or run the script below with `tools/sim/main.py --seed 7
--keys "..." --scale 2` and shot: words), then refresh them with

    UPDATE_GOLDEN=1 .venv/bin/python -m pytest host_tests/test_sim_game.py

which rewrites the GOLDEN block of this file (commit it with the change that caused it).
"""
import os
import re
import subprocess
import sys

import pytest

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

from tools import find_micropython  # noqa: E402

MP = find_micropython.find()
pytestmark = pytest.mark.skipif(not MP, reason="no micropython binary")

BOARD = "waveshare_lcd13"
SEED = 7
# colour indices (docs/BOARDS.md)
TABLE, TILE, CURSOR, ACCENT = 3, 4, 7, 9

# Main menu -> New game -> Fives (variant +2), 3 players, seat 2 Easy AI (Medium - 1), seat 3 stays
# Medium AI -> UP to the first row and once more: the list wraps to its last row, "Start game" (so
# rows added below the seats, like "Deal", need no change here) -> then four turns of ours: DOWN
# (next playable tile), A (play it), A (place it, when it fits several ends; otherwise ignored or
# the next screen's A).
FIVES_SETUP = "wait:1000 shot:{d}/menu.png a wait:300 right right down right down down left " \
              "wait:300 shot:{d}/form.png up*4 a wait:3000 shot:{d}/table0.png"
TURN = " down a a wait:2500 shot:{d}/move%d.png"
FIVES = FIVES_SETUP + "".join(TURN % i for i in range(1, 5))
# Pass-and-play: Fives with two human seats (seat 2 Medium -> Human), the curtain before P2's turn,
# then P2's hand after A.
CURTAIN = "wait:1000 a wait:300 right right down*3 left left up*4 a wait:1500 " \
          "shot:{d}/curtain.png a wait:500 shot:{d}/p2.png"

# GOLDEN BEGIN (rewritten by UPDATE_GOLDEN=1)
GOLDEN = {
    "curtain": "135107dd873a7977",
    "form": "2d5cd1e9967fe2fb",
    "menu": "629516a5968e1488",
    "move1": "8317fbd162589682",
    "move2": "3c1e38d4f51d35b6",
    "move3": "f27f1a0ccbc013aa",
    "move4": "00129b67b7389f7d",
    "p2": "f663297d5e26906a",
    "table0": "ebf857067a0c9bba",
}
# GOLDEN END


def play(tmp_path, name, script, seed=SEED):
    """Run the script on a fresh data folder: ({shot name: hash}, saved game text, shot dir)."""
    d = tmp_path / name
    d.mkdir()
    r = subprocess.run([sys.executable, "-m", "tools.sim", "--board", BOARD,
                        "--seed", str(seed), "--data", str(d / "data"),
                        "--keys", script.format(d=d)],
                       cwd=ROOT, capture_output=True, text=True, timeout=60)
    assert r.returncode == 0, r.stdout + r.stderr
    assert r.stdout.splitlines()[-1] == "sim: script done", r.stdout
    assert "Traceback" not in r.stdout, r.stdout
    hashes = {}
    for line in r.stdout.splitlines():
        m = re.match(r"shot (\S+) t=\d+ms frame=\d+ hash=([0-9a-f]{16})$", line)
        if m:
            hashes[os.path.basename(m.group(1))[:-4]] = m.group(2)
    saved = (d / "data" / "game.txt").read_text() if (d / "data" / "game.txt").exists() else ""
    return hashes, saved, d


def pixels(path):
    """Palette indices of a screenshot (scale 1: one PNG pixel per framebuffer pixel)."""
    from PIL import Image
    im = Image.open(path)
    assert im.mode == "P" and im.size == (240, 240)
    return im.tobytes()


def count(px, colour, y0=0, y1=240):
    return px[y0 * 240:y1 * 240].count(bytes([colour]))


def _update_golden(found):
    path = os.path.abspath(__file__)
    src = open(path).read()
    body = "".join('    "%s": "%s",\n' % (k, found[k]) for k in sorted(found))
    new = re.sub(r"(# GOLDEN BEGIN[^\n]*\nGOLDEN = \{\n).*?(\}\n# GOLDEN END)",
                 lambda m: m.group(1) + body + m.group(2), src, flags=re.S)
    with open(path, "w") as f:
        f.write(new)


def test_seeded_game_by_keys(tmp_path):
    h1, save1, d1 = play(tmp_path, "a", FIVES)
    h2, save2, _ = play(tmp_path, "b", FIVES)
    names = ["menu", "form", "table0", "move1", "move2", "move3", "move4"]
    assert sorted(h1) == sorted(names)
    assert h1 == h2, "the same seeded key script gave different frames"
    assert save1 == save2 and save1
    assert len(set(h1.values())) == len(names), "every shot should show something new"

    # what the frames show
    menu = pixels(d1 / "menu.png")
    assert count(menu, ACCENT, 0, 20) > 100 and count(menu, CURSOR) > 500  # title, selected row
    assert count(menu, TABLE) == 0
    table0 = pixels(d1 / "table0.png")
    # the felt: the table's ~92 of the 240 rows (the one-row header of three players, the open
    # ends' row, two message lines and the hand of 24-pixel halves take 146), less the lead tile
    assert count(table0, TABLE) > 240 * 88
    assert count(table0, TILE, 20, 195) > 0        # the lead is on the table
    # the save: Fives for three seats as set up by keys, and the moves made (ours among them)
    assert "variant fives" in save1 and "players 3" in save1
    assert "seats human,easy,medium" in save1 and "names You,Bob,Cat" in save1
    moves = [ln.split()[1:] for ln in save1.splitlines() if ln.startswith("round ")]
    assert sum(len(m) for m in moves) >= 8, save1   # 4 of ours and the AIs' answers

    # another seed deals another game from the same keys
    h3, save3, _ = play(tmp_path, "c", FIVES_SETUP, seed=SEED + 1)
    assert h3["menu"] == h1["menu"] and h3["form"] == h1["form"]
    assert h3["table0"] != h1["table0"] and save3 != save1

    # pass-and-play: the curtain hides every tile until P2 presses A
    hc, savec, dc = play(tmp_path, "curtain", CURTAIN)
    curtain = pixels(dc / "curtain.png")
    assert count(curtain, TILE) == 0 and count(curtain, TABLE) == 0
    assert count(curtain, ACCENT) > 0                          # "P2" (or "P1") in the title colour
    assert count(pixels(dc / "p2.png"), TILE, 195, 240) > 0   # then the hand shows
    assert "seats human,human" in savec

    found = dict(h1)
    found.update(curtain=hc["curtain"], p2=hc["p2"])
    if os.environ.get("UPDATE_GOLDEN"):
        _update_golden(found)
        return
    assert GOLDEN, "no golden hashes yet: run with UPDATE_GOLDEN=1 (see the module docstring)"
    wrong = {k: (GOLDEN.get(k), v) for k, v in found.items() if GOLDEN.get(k) != v}
    assert not wrong, ("frames differ from the golden hashes (golden, now): %r\nIf the UI/AI "
                       "changed on purpose, look at the frames and refresh: UPDATE_GOLDEN=1 "
                       ".venv/bin/python -m pytest host_tests/test_sim_game.py" % wrong)


def test_screenshots_tool(tmp_path):
    """`make screenshots` (tools/sim/screenshots.py) finds and checks the README pictures: a sample of
    them here (every kind of search: the spinner's arms, the line's corners, a page of the OLED),
    a table also at 1x and at the panel's actual size for a 96-DPI reader, and every picture it
    makes is in docs/img."""
    from PIL import Image
    from boards import waveshare_lcd13
    from tools.sim import actual, screenshots
    sample = {"menu": (480, 480), "fives_240x240": (480, 480), "goat_128x64": (384, 192),
              "scores_128x64": (384, 192)}
    r = subprocess.run([sys.executable, "-m", "tools.sim.screenshots", "--out",
                        str(tmp_path)] + sorted(sample), cwd=ROOT, capture_output=True, text=True,
                       timeout=600)
    assert r.returncode == 0, r.stdout + r.stderr
    for name, size in sample.items():
        im = Image.open(tmp_path / (name + ".png"))
        assert im.size == size and im.mode == "P"
    one = Image.open(tmp_path / "fives_240x240_1x.png")
    assert one.mode == "P" and one.resize((480, 480), Image.NEAREST).tobytes() == \
        Image.open(tmp_path / "fives_240x240.png").tobytes()
    real = Image.open(tmp_path / "fives_240x240_actual.png")
    assert real.size == (88, 88) and real.info["dpi"] == pytest.approx((96, 96), abs=0.1)
    assert real.tobytes() == actual.resize(one, waveshare_lcd13.PITCH_UM).tobytes()
    for name, _, _ in screenshots.pictures():
        for f in screenshots.files(name):
            assert os.path.exists(os.path.join(ROOT, "docs", "img", f)), f
