"""The power-cut proof, smoke run (make test; the full run is `make soak-powercut`, tools/proofs/powercut.py).

A seeded match is played through the real UI under the MicroPython unix port (.mpy as deployed),
keeping every save; then game.txt, a half-written game.txt.tmp, game.bak alone, settings.json and
stats.json are cut at every 13th byte offset and have every 13th byte flipped (two patterns), and the
real app boots on each: never an error, never a match that was not saved, else the menu with a
message (settings and statistics: the values saved, or defaults with a message).
"""
import os

import pytest

HERE = os.path.dirname(os.path.abspath(__file__))
from tools.proofs.harness import frames  # noqa: E402
from tools.proofs import powercut  # noqa: E402

pytestmark = pytest.mark.skipif(frames.find() is None, reason="no micropython binary")


def test_power_cut_smoke(tmp_path, record_property):
    out = powercut.proof(stride=13, flip_stride=13, flips=(0xFF, 0x01), work=str(tmp_path))
    print(powercut.report(out))
    record_property("powercut_cases", out["cases"])
    assert out["failures"] == []
    assert out["cases"] > 250 and out["saves"] > 20
    k = out["kinds"]
    # a damaged game.txt: always the backup (the save before), with the reason on the table
    assert k["game.txt"]["resumed the last save"] == 1                       # the undamaged case
    assert sum(k["game.txt"].values()) - 1 == sum(n for kind, n in k["game.txt"].items()
                                                 if kind.startswith("resumed the backup: "))
    assert k["game.txt"]["resumed the backup: Cut short: 1 move back"] > 10
    assert k["game.txt"]["resumed the backup: Damaged: 1 move back"] > 10
    # a half-written .tmp never matters: the last save, and the player is told the last move is lost
    assert list(k["game.txt.tmp"]) == ["resumed the last save: Power cut: 1 move back"]
    assert list(k["between the renames"]) == ["resumed the last save: Power cut: 1 move back"]
    # the backup alone, damaged: the menu with the reason (nothing else to resume)
    assert k["game.bak alone"]["menu: Save damaged: set aside"] > 10
    assert k["settings.json"]["defaults: Settings damaged: reset"] > 10
    assert k["stats.json"]["defaults: Statistics damaged: reset"] > 5
