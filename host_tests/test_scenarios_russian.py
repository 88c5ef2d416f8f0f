"""Hand-built scenarios for RULES.md sections D-I (Goat, Sea Goat, Donkey, Muggins / All Threes,
Telephone, Blitz) through tools/scenarios/replay.py.

Every `host_tests/scenarios/{goat,sea_goat,donkey,muggins,threes,telephone,blitz}_*.json` holds a fixed
deal, the moves, and either `expect` (the exact JSON replay must print) or `expect_error` (a substring of
its one-line error). The expected values were worked out by hand from RULES.md and the decisions in
firmware/domino/rules.py (each file's `about` shows the working), not copied from the engine.
"""
import glob
import json
import os
import subprocess
import sys

import pytest

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
SCEN = os.path.join(ROOT, "host_tests", "scenarios")
VARIANTS = ("goat", "sea_goat", "donkey", "muggins", "threes", "telephone", "blitz")
FILES = sorted(f for v in VARIANTS for f in glob.glob(os.path.join(SCEN, v + "_*.json")))
ROUND_KEYS = ("ended", "winner", "counts", "in_play", "recorded", "remembered", "scores", "carry")


def run_replay(path, module=False, cwd=ROOT):
    cmd = [sys.executable, "-m", "tools.scenarios"]
    p = subprocess.run(cmd + [path], cwd=cwd, capture_output=True, text=True, timeout=60)
    return p.returncode, p.stdout, p.stderr


def load(path):
    with open(path, encoding="utf-8") as f:
        return json.load(f)


def check(sc, code, out, err):
    if "expect_error" in sc:
        assert code == 2, (code, out, err)
        assert out == ""
        assert err.count("\n") == 1 and "Traceback" not in err, err
        assert sc["expect_error"] in err, err
        return
    assert code == 0, err
    assert err == ""
    got = json.loads(out)
    want = sc["expect"]
    assert len(got["rounds"]) == len(want["rounds"])
    for i, (g, w) in enumerate(zip(got["rounds"], want["rounds"])):
        for k in ROUND_KEYS:
            assert g[k] == w[k], "round %d %s: got %r, worked out %r" % (i + 1, k, g[k], w[k])
    assert got == want


def test_every_variant_has_scenarios():
    names = [os.path.basename(f) for f in FILES]
    for v in VARIANTS:
        n = sum(1 for x in names if x.startswith(v + "_"))
        assert n >= (2 if v == "threes" else 4), v


@pytest.mark.parametrize("path", FILES, ids=[os.path.basename(f)[:-5] for f in FILES])
def test_scenario(path):
    sc = load(path)
    assert ("expect" in sc) != ("expect_error" in sc), "a scenario has expect or expect_error"
    assert sc.get("about"), "say what the scenario checks and how the numbers were worked out"
    if "expect" in sc:
        for r in sc["expect"]["rounds"]:
            assert set(r) == set(ROUND_KEYS), "expect every round key"
    check(sc, *run_replay(path))


@pytest.mark.parametrize("name", ["goat_fish_one_tie.json", "donkey_close_two_ends.json",
                                  "telephone_four_doubles_off.json"])
def test_module_form(name, tmp_path):
    """`python -m tools.scenarios` gives the same answer in this process and from any directory."""
    path = os.path.join(SCEN, name)
    sc = load(path)
    a = run_replay(path, module=True)
    check(sc, *a)
    assert a == run_replay(path)
    # and the script form works from any directory
    check(sc, *run_replay(path, cwd=str(tmp_path)))
