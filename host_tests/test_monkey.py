"""Smoke runs of the monkey test and the device-path soak (tools/monkey.py; the long runs are
`make soak-monkey`, 100,000 presses, and `make soak-games`, 1,000 matches).

The monkey presses random keys through the real App under the MicroPython unix port at a 180K heap
(the harness's own bytes given back): it must never end on an error page, run out of memory, break
an engine invariant or show a hand's tile while the hands are face down. The smoke run uses the
240x135 and 128x64 screens; the 240x240 board is left to the long run (see the report it prints).
"""
import os
import sys

import pytest

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "ui_fakes"))
import frames  # noqa: E402
from tools import monkey  # noqa: E402

pytestmark = pytest.mark.skipif(frames.find() is None, reason="no micropython binary")


@pytest.fixture(scope="module")
def tree(tmp_path_factory):
    """The firmware as deployed plus the harness, compiled once for both runs."""
    return monkey.build(str(tmp_path_factory.mktemp("monkey")))


def test_monkey_smoke(tree, tmp_path, capsys):
    rc = monkey.main(["--presses", "3000", "--segment", "1500", "--sizes", "240x135,128x64", "--seed", "3",
                      "--require-games", "--keep", str(tmp_path)], prebuilt=tree)
    out = capsys.readouterr().out
    print(out)
    tot = monkey.SUMMARY["monkey"]
    assert rc == 0, out
    assert tot["presses"] >= 3000
    assert tot["started"] >= 5 and tot["moves"] >= 100          # games were set up and played
    assert tot["curtain_frames"] > 0 and tot["hidden_frames"] > 0   # pass-and-play frames were checked
    assert tot["think_keys"] > 0                                   # keys were down while an AI thought
    for k in ("errors", "mem_errors", "crashes", "inv_fail", "privacy_bad"):
        assert tot[k] == 0, (k, out)


def test_soak_smoke(tree, tmp_path, capsys):
    rc = monkey.main(["--soak-games", "4", "--jobs", "1", "--seed", "2", "--keep", str(tmp_path)],
                     prebuilt=tree)
    out = capsys.readouterr().out
    print(out)
    soak = monkey.SUMMARY["soak"]
    assert rc == 0, out
    assert soak["games"] == 4 and soak["moves"] > 0
    assert soak["errors"] == 0 and soak["mem_errors"] == 0 and soak["inv_fail"] == 0
    assert min(soak["frees"][0]) > 8192                            # free heap back at the menu
