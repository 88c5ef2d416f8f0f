"""A cursor move's drawing work, counted on the host so that a regression fails without the emulator's
timing: each colour board's own code (boards/<name>.py, its ST7789 driver, boards/_lcd.py) runs under
the MicroPython unix port over the fake `machine` (host_tests/fakes), whose SPI counts the bytes and
logs the commands. A cursor move along the hand sends the two tiles it touched as two rectangles
(ui/paint.py cursor_rects, board.show_rect): no band is drawn again, and far fewer bytes reach the
panel than the hand row's bands hold. The emulated Pico measures the time it takes
(tools/bench/pico.py, press-to-pixels: <= 16 ms) and that the panel shows what the simulator does
(host_tests/test_pico_emu.py)."""
import json
import os
import subprocess

import pytest

from tools import find_micropython

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
FIXTURE = os.path.join(ROOT, "host_tests", "fixtures", "cursor_work.py")
PATH = os.pathsep.join((os.path.join(ROOT, "firmware"), ROOT, os.path.join(ROOT, "host_tests", "fakes")))
MP = find_micropython.find()
BOARDS = ("waveshare_lcd13", "pimoroni_pack", "pimoroni_pack2")


@pytest.mark.skipif(not MP, reason="no micropython binary")
@pytest.mark.parametrize("board", BOARDS)
def test_a_cursor_move_sends_its_two_tiles_only(board, tmp_path):
    r = subprocess.run([MP, "-X", "heapsize=400K", FIXTURE, board, str(tmp_path / "flash")],
                       env=dict(os.environ, MICROPYPATH=PATH), cwd=str(tmp_path), capture_output=True,
                       text=True, timeout=120)
    assert r.returncode == 0, r.stdout + r.stderr
    out = json.loads(r.stdout.strip().splitlines()[-1])
    assert out["errors"] == 0
    presses = out["presses"]
    assert len(presses) == 6 and len({p["cursor"] for p in presses}) >= 3, presses   # it moved
    whole = out["whole"]
    tile_rows = presses[0]["rows"] // 2
    for p in presses:
        assert p["windows"] == 2, p                      # the tile left and the tile reached
        assert p["rows"] == 2 * tile_rows, p             # each the hand row's height, no more
        # a tile's window is a few pixels wider than the tile, at two bytes a pixel: together well
        # under half of the hand row's bands
        assert p["bytes"] <= whole * 0.5, (p, whole)
        assert p["bytes"] >= 2 * 2 * 8 * tile_rows, p      # (something was sent)
    # what a cursor move allocates (64-bit words: a few small tuples); a frame buffer or a line
    # buffer made on every move would be well over this
    assert max(out["alloc"]) <= 1200, out["alloc"]
