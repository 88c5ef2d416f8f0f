"""The 128x64 OLED's table: the hand and the line never run together. Lit on lit, the raised cursor
tile's outline (which reaches the row above the hand's) would join the table's lowest tiles: two
dark rows lie between them on every frame of a human's turn, the table as full as a match makes it."""

import pytest

from test_ui import run
from tools.proofs.harness import frames

pytestmark = pytest.mark.skipif(frames.find() is None, reason="no micropython binary")


@pytest.mark.parametrize("seed", [5, 23, 61])
def test_two_dark_rows_between_the_line_and_the_raised_tile(mpy, tmp_path, seed):
    do = [["new", "draw", 2, ["human", "easy"]]]
    for k in range(8):                           # a turn's frame after each of eight moves
        do += [["match", 1], ["state"], ["png", "t%d" % k]]
    out = run(mpy, {"size": "128x64", "seed": seed, "do": do}, tmp_path)
    checked = lit_above = 0
    for k, st in enumerate(out["states"]):
        if st["screen"] != "Table" or st["mode"] != 1 or not st["hand_rects"]:
            continue
        raised = min(r[1] for r in st["hand_rects"])     # the cursor tile: 2 rows up
        w, h, px = frames.pixels(out["frames"]["t%d" % k])
        outline = raised - 2                     # ui/gfx.py tile(): the mark's outer ring
        for y in (outline - 2, outline - 1):
            assert not any(px[y]), (seed, k, y, px[y])
        lit_above += sum(1 for y in range(10, outline - 2) for x in range(w) if px[y][x])
        checked += 1
    assert checked >= 4 and lit_above > 0, (checked, lit_above)
