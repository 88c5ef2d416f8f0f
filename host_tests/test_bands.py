"""Colour screens are drawn in horizontal bands (boards/_base.py: the frame buffer holds one band, the
UI draws every band and pushes each as soon as it is drawn). What reaches the panel must be the very
frame a whole-frame buffer would hold: checked here under MicroPython (the driver draws each screen
both ways and compares the bytes) and end to end through the simulator link under CPython (the host
puts the bands together; a run with a whole-frame buffer must give the same frames)."""
import os
import sys

import pytest

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
from tools.proofs.harness import frames  # noqa: E402

needs_mp = pytest.mark.skipif(frames.find() is None, reason="no micropython binary")

SIZES = ("240x240", "320x240", "240x135", "128x64")


def test_band_rule():
    """One rule for the device boards and the simulator: the fewest equal bands of at most 4,800 bytes,
    none under 40 rows (a hand row of lying tiles, which a cursor move redraws alone while one band
    holds it; the 240-row screens' upright hand spans two bands and is redrawn whole)."""
    from boards._base import BAND_BYTES, MIN_BAND_ROWS, band_rows
    assert (BAND_BYTES, MIN_BAND_ROWS) == (4800, 40)
    assert band_rows(240, 240) == 40           # 6 bands, 4,800 bytes (the frame: 28,800)
    assert band_rows(320, 240) == 40           # 6 bands, 6,400 bytes (38,400)
    assert band_rows(240, 135) == 34           # 4 bands (3 x 34 + 33 rows), 4,080 bytes (16,200)
    assert band_rows(128, 64) == 64            # small enough: the whole frame (4,096 bytes)
    for w, h in ((240, 240), (320, 240), (240, 135), (160, 128), (480, 320)):
        rows = band_rows(w, h)
        n = -(-h // rows)
        most = max(BAND_BYTES // (w // 2), MIN_BAND_ROWS)
        assert rows <= most and (n == 1 or -(-h // (n - 1)) > most)


def _job(size, root):
    b = ["bands"]
    return {"size": size, "seed": 31, "root": root, "anim": 0, "think": 50, "do": [
        b,                                                         # the main menu
        ["menu", "New game"], b,                                   # the New-game form
        ["menu", "Deal"], b, ["keys", "up right up"], b,           # the deal code editor
        ["keys", "b b"],
        ["new", "fives", 2, ["human", "medium"]], ["match", 5], b,  # the table, a spinner down
        ["bands", "wheel"],                                        # the thinking wheel's frames
        ["keys", "b"], b,                                          # the game menu
        ["menu", "Score sheet"], b, ["keys", "b"],
        ["menu", "Moves"], b, ["keys", "b"],                       # the move log
        ["menu", "The line"], b, ["keys", "right"], b, ["keys", "b"],   # the line, panned
        ["menu", "Rules help"], b, ["keys", "down"], b, ["keys", "b"],
        ["menu", "Resume"], ["until", "RoundEnd"], b,              # the round's end, three pages
        ["keys", "a"], b, ["keys", "a"], b, ["keys", "a"], ["settle"], ["state"]]}


@needs_mp
@pytest.mark.parametrize("size", SIZES)
def test_banded_frames_equal_whole_frames(mpy, tmp_path, size):
    out = frames.run(_job(size, str(tmp_path / "flash")), code=mpy[0], boards=mpy[1])
    assert out["errors"] == 0, out.get("last_error")
    seen = [b["screen"] for b in out["bands"]]
    for sc in ("MainMenu", "NewGame", "CodeEditor", "Table", "Pause", "SheetView", "HelpPage",
               "RoundEnd", "LineView"):
        assert sc in seen, (sc, seen)
    banded = size != "128x64"
    for b in out["bands"]:
        assert b["diff"] == 0, (size, b["screen"], b["rows"], b)      # byte for byte
        assert b["ink"] > 0, (size, b)                             # a frame, not an empty buffer
        assert (b["band"] < int(size.split("x")[1])) == banded, b
    wheel = [b for b in out["bands"] if b["frames"] > 1]
    assert wheel and wheel[0]["frames"] == 10


@needs_mp
def test_curtain_banded(mpy, tmp_path):
    for size in ("240x240", "320x240"):
        out = frames.run({"size": size, "seed": 4, "root": str(tmp_path / size),
                          "do": [["new", "draw", 2, ["human", "human"]], ["bands"]]},
                         code=mpy[0], boards=mpy[1])
        assert out["errors"] == 0
        b = out["bands"][0]
        assert b["screen"] == "Curtain" and b["diff"] == 0 and b["ink"] > 0, b


@needs_mp
@pytest.mark.parametrize("board,size", [("pimoroni_pack2", None), ("sim", "240x135")])
def test_sim_link_assembles_the_frames_a_whole_buffer_shows(tmp_path, board, size):
    """The same key script through tools/sim/main.py, banded (as the device) and with the simulator's
    frame buffer whole (PICO_SIM_FRAME=whole, a bigger heap): every shot's frame hash the same."""
    import subprocess
    script = "wait:300 shot:{d}/1.png down a wait:200 shot:{d}/2.png right right wait:100 " \
             "shot:{d}/3.png b wait:100 a wait:1500 shot:{d}/4.png down down wait:800 shot:{d}/5.png"
    hashes = []
    for mode in ("bands", "whole"):
        d = tmp_path / mode
        d.mkdir()
        env = dict(os.environ)
        if mode == "whole":
            env["PICO_SIM_FRAME"] = "whole"
        cmd = [sys.executable, "-m", "tools.sim", "--board", board, "--seed", "7",
               "--heap", "180K" if mode == "bands" else "512K", "--data", str(tmp_path / ("data-" + mode)),
               "--keys", script.format(d=d)]
        if size:
            cmd += ["--size", size]
        r = subprocess.run(cmd, capture_output=True, text=True, timeout=240, env=env)
        assert r.returncode == 0, r.stdout + r.stderr
        shots = [ln.split("hash=")[1] for ln in r.stdout.splitlines() if ln.startswith("shot ")]
        assert len(shots) == 5, r.stdout
        hashes.append(shots)
        for i in range(1, 6):
            assert (d / ("%d.png" % i)).exists()
    assert hashes[0] == hashes[1]
    assert len(set(hashes[0])) >= 3                  # the script did change the screen
    for i in range(1, 6):
        assert (tmp_path / "bands" / ("%d.png" % i)).read_bytes() == \
            (tmp_path / "whole" / ("%d.png" % i)).read_bytes()


@needs_mp
@pytest.mark.parametrize("size", SIZES)
def test_partial_redraws_leave_the_whole_frame(mpy, tmp_path, size):
    """A cursor move redraws and sends the hand row alone, choosing an end the table and message
    areas (ui/app.py paint_parts): seeded games through the keys (the cursor along the hand, hints,
    ends chosen; a game with the AI and a pass-and-play one with its curtains), and after every pass
    of the loop the panel's content, every row sent so far put together, must equal the current
    screen drawn whole, byte for byte."""
    from boards._base import band_rows
    from tools.sim import ui_host
    w, h = (int(v) for v in size.split("x"))
    rows = band_rows(w, h)
    t = ui_host.make_table(w, h, players=2)
    # the cursor's own part (its two tiles) needs the hand row whole in one band; the 240-row
    # screens' hand of upright 24-pixel halves (56 rows with the outline's) spans two of 40
    own = (t.hand_y - 1) // rows == (h - 1) // rows
    two = 0                                      # moves whose table rows went as two spans
    for seed, game in ((5, ["fives", 2, ["human", "medium"]]), (9, ["draw", 3, ["human", "human", "easy"]])):
        out = frames.run({"size": size, "seed": seed, "root": str(tmp_path / ("s%d" % seed)), "anim": 1,
                          "think": 40, "do": [["partial"], ["new"] + game, ["match", 10, "wander"]]},
                         code=mpy[0], boards=mpy[1])
        assert out["errors"] == 0, out.get("last_error")
        p = out["partial"]
        assert p["bad"] == 0, (size, seed, p["first"])
        assert p["checks"] > 100 and p["screens"].get("Table", 0) > 50, p
        if size != "128x64":                     # (the OLED's table is drawn whole)
            cursor = "16" if own else "8"        # the cursor's tiles, else the hand row whole
            assert p["parts"].get(cursor, 0) > 5, p
            # the message line redrawn without the whole screen: alone, or with the rows of the
            # same step (after a move the message changes with the hand and the table)
            assert sum(n for k, n in p["parts"].items() if int(k) & 4) > 0, p
            assert sum(n for k, n in p["parts"].items() if int(k) & 32) > 0, p       # a move's rows
            two += sum(n for k, n in p["parts"].items() if int(k) & 64)
        if "human" == game[2][1]:
            assert p["screens"].get("Curtain", 0) > 0, p
    assert two > 0 or size in ("128x64", "240x135"), size   # (ui/paint.py changed_rows: a tile far
    #                                                       from the outline; 240x135: 42 table rows)
