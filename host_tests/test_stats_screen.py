"""The Statistics page with the largest counts the file may hold, on every screen size: every text
inside the screen, none overlapping another on its row, every variant's name readable (7 characters
at least) beside its figures. The real app under MicroPython (tools/proofs/harness/driver.py)."""
import json
import os

import pytest

HERE = os.path.dirname(os.path.abspath(__file__))
from tools.proofs.harness import frames  # noqa: E402
from domino.rules import VARIANTS  # noqa: E402

pytestmark = pytest.mark.skipif(frames.find() is None, reason="no micropython binary")
BIG = 1000000                        # store.COUNT_MAX
SIZES = ("240x240", "240x135", "320x240", "128x64")


def rows_for(k):
    """Rows as large as they can be and still be possible, a different shape for each variant."""
    shapes = ([BIG, BIG // 2, BIG // 2, -(BIG // 2), BIG // 2, BIG, BIG],
              [BIG, BIG, 0, BIG, BIG],
              [BIG, 0, BIG, -BIG, 0, BIG, 0],
              [999999, 499999, 499998, 1234, 450000],
              [12, 7, 5, -2, 4, 40, 21])
    return shapes[k % len(shapes)]


@pytest.mark.parametrize("size", SIZES)
def test_the_largest_statistics_fit_every_screen(mpy, tmp_path, size):
    flash = tmp_path / "flash"
    flash.mkdir()
    stats = {"v": 1}
    for k, row in enumerate(VARIANTS):
        stats[row[0]] = rows_for(k)
    (flash / "stats.json").write_text(json.dumps(stats) + "\n")
    n = len(VARIANTS) * 3 + 1
    out = frames.run({"size": size, "seed": 1, "root": str(flash),
                      "do": [["boxes"], ["menu", "Statistics"], ["state"], ["keys", "down " * n]]},
                     code=mpy[0], boards=mpy[1])
    assert out["errors"] == 0, out.get("last_error")
    assert out["states"][0]["screen"] == "Stats" and out["states"][0]["note"] != \
        "Some stats invalid: dropped", out["states"][0]
    box = out["boxes"]
    assert box["checked"] > 20 and box["bad"] == [], (size, box["bad"])    # [x, y, width, text]
    names = [row[1] for row in VARIANTS]
    shown = set(nm for nm in names for s in box["texts"]
                if len(s) >= min(7, len(nm)) and nm.startswith(s.strip("<")))
    assert shown == set(names), (size, set(names) - shown)   # every name readable, on some frame
