"""The AI under the MicroPython unix port: heap use of a hard move, and the same choices as CPython."""
import os
import subprocess
import sys

import pytest

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

HEAP_LIMIT = 8192

# Runs under both runtimes. Plays seeded rounds with hard seats on a counting clock (so the number of
# search iterations does not depend on speed) and prints every move; with "mem" it also prints the
# bytes allocated during each hard move (gc disabled: every allocation counts, garbage included).
PROBE = r'''
import sys
sys.path.insert(0, FIRMWARE)
import gc
from domino.rules import Rules
from domino.match import Match
from domino.round import PLAYING
import ai
import ai.hard        # loaded at its first use; the app loads it before a table with a hard seat


class Counter:
    def __init__(self):
        self.t = 0

    def __call__(self):
        self.t += 1
        return self.t


mem = len(sys.argv) > 1 and sys.argv[1] == "mem"
worst = 0
first = 0
CASES = (("draw", 2, False, 6), ("fives", 2, False, 6), ("goat", 4, True, 4), ("donkey", 2, False, 4),
         ("sea_goat", 3, False, 4), ("block", 2, False, 6))
for vid, players, teams, budget in CASES:
    rules = Rules(vid, players, teams)
    m = Match(rules, 17)
    m.start_round()
    rd = m.round
    out = []
    k = 0
    while rd.result == PLAYING:
        if rd.legal() == 0:
            rd.forced()
            continue
        gc.collect()
        gc.disable()
        a0 = gc.mem_alloc() if mem else 0
        mv = ai.choose(m, rd.turn, "hard", budget, Counter())
        used = (gc.mem_alloc() - a0) if mem else 0
        gc.enable()
        if k < 3:      # the first hard moves also build the AI's buffers (once per rules)
            first = max(first, used)
        else:
            worst = max(worst, used)
        out.append(str(mv))
        m.play(mv)
        k += 1
    print(vid, " ".join(out))
if mem:
    print("MEM first", first, "later", worst)
'''


@pytest.fixture(scope="module")
def probe(tmp_path_factory):
    p = tmp_path_factory.mktemp("ai") / "probe.py"
    p.write_text("FIRMWARE = %r\n" % os.path.join(ROOT, "firmware") + PROBE)
    return str(p)


@pytest.fixture(scope="module")
def probe_mpy(tmp_path_factory):
    """The probe over an mpy-compiled firmware tree (as deployed: no compiler work on the heap)."""
    from tools.proofs.mptest import compile_tree
    d = tmp_path_factory.mktemp("ai_mpy")
    tree = str(d / "fw")
    if not compile_tree(os.path.join(ROOT, "firmware"), tree):
        pytest.skip("no mpy-cross for this machine")
    p = d / "probe.py"
    p.write_text("FIRMWARE = %r\n" % tree + PROBE)
    return str(p)


def _run(cmd):
    out = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, universal_newlines=True,
                         timeout=300)
    assert out.returncode == 0, out.stderr[-2000:]
    return out.stdout.strip().split("\n")


def test_hard_move_heap_under_8k_on_a_small_heap(micropython, probe_mpy):
    # 96K: on this 64-bit port the loaded engine + AI code alone take ~54K of heap (twice the device's
    # pointer size); what is measured is the growth during each move, whatever the heap size
    lines = _run([micropython, "-X", "heapsize=96K", probe_mpy, "mem"])
    f = lines[-1].split()
    assert f[0] == "MEM"
    first, later = int(f[2]), int(f[4])
    # the first hard moves also build the search buffers (once per rules); later moves reuse them and
    # allocate (almost) nothing: the few bytes left are the probe's own clock object
    assert first < HEAP_LIMIT, first
    assert later < 256, later


def test_viper_and_cpython_make_the_same_choices(micropython, probe):
    mp = _run([micropython, probe])
    cp = _run([sys.executable, probe])
    assert len(mp) == 6
    assert mp == cp
