"""`make bench` smoke run: tools/bench/report.py --quick --no-peers measures every section and writes a report
whose tables hold real, positive numbers (the full run with the peers is `make bench`, minutes long)."""
import os
import platform
import re
import subprocess
import sys

import pytest

from tools.proofs.harness.frames import STRESS_HEAP

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

SECTIONS = ("## Machine", "## Budgets",
            "## Speed: random-vs-random full rounds per second", "### Allocation per engine move",
            "### Heap of a Hard AI move", "### A whole UI game at `-X heapsize=%s`, per board" % STRESS_HEAP,
            "## Size: the deployable .mpy tree", "## On the emulated Pico (measured)")
# retired: device figures estimated from the unix port by a factor, targets no longer in force
RETIRED = ("factor", "20x the", "80 KB", "estimate", "<= 40 ms", "<= 120 ms")


@pytest.fixture(scope="module")
def report(tmp_path_factory, micropython):
    from tools.proofs import mptest
    if not mptest.mpy_cross() or platform.machine() not in ("x86_64", "AMD64", "i386", "i686"):
        pytest.skip("no mpy-cross for this host: the memory, boot and redraw figures need compiled code")
    d = tmp_path_factory.mktemp("bench")
    out = d / "benchmarks.md"
    cmd = [sys.executable, "-m", "tools.bench", "--quick", "--no-peers", "--out", str(out),
           "--build", str(d / "b"),
           "--micropython", micropython]
    r = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, universal_newlines=True,
                       timeout=120, cwd=ROOT)
    assert r.returncode == 0, r.stdout[-3000:]
    return out.read_text(encoding="utf-8")


def table(text, heading):
    """Rows (lists of cells) of the first table after `heading`."""
    part = text.split(heading, 1)[1]
    rows = []
    for ln in part.split("\n")[1:]:
        if ln.startswith("#"):
            break
        if ln.startswith("|") and not ln.startswith("|---"):
            rows.append([c.strip() for c in ln.strip().strip("|").split("|")])
        elif rows and not ln.startswith("|"):
            break
    return rows[1:]          # without the header row


def num(cell):
    m = re.search(r"-?\d+(\.\d+)?", cell.replace(",", ""))
    assert m, "no number in %r" % cell
    return float(m.group(0))


def test_every_section_is_there(report):
    for s in SECTIONS:
        assert s in report, s
    assert "Quick smoke run" in report
    assert "make bench" in report


def test_budgets_are_the_ones_in_force(report):
    """The engine's allocation budget with its verdict; each device budget named (the smoke run
    leaves the emulated Pico out and says so); nothing retired."""
    from tools.bench import pico
    rows = table(report, "## Budgets")
    assert rows[0][0].startswith("<= 16 bytes") and rows[0][2] in ("**PASS**", "**MISS**"), rows[0]
    assert num(rows[0][1]) >= 0
    assert [r[0] for r in rows[1:]] == list(pico.BUDGETS)
    for r in rows[1:]:
        assert r[2] == "-" and r[1].startswith("not measured: the --quick smoke run"), r
    assert "p50 <= 10 ms, max <= 16 ms" in pico.BUDGETS[4] and "p50 <= 50 ms, max <= 90 ms" in pico.BUDGETS[5]
    for word in RETIRED:
        assert word not in report, word


def test_device_budgets_judged():
    """device_verdicts on figures made up for the purpose: a cursor p50 of 9 and max 16 passes, a
    max of 17 fails; a tile at p50 50 / max 90 passes, p50 51 fails; the W's 64 KB."""
    from tools.bench import pico

    def dev(cursor, tile, low):
        press = {"cursor RIGHT": cursor, "cursor DOWN": cursor, "A play": tile, "A play, save": tile}
        return {"boards": {"b (Pico W)": {"boot_ms": 900.0, "press": press}},
                "ui": [{"image": "pico_w", "board": "b", "match": m[0], "lowest": low, "result": "over"}
                       for m in pico.UI_MATCHES], "ai": []}

    def verdict(d, budget):
        return [ok for t, v, ok in pico.device_verdicts(d) if t == budget][0]

    good = dev([9, 9, 16], [40, 50, 90], 65536)
    assert verdict(good, pico.BUDGETS[0]) == "PASS"
    assert verdict(good, pico.BUDGETS[1]) == "PASS"
    assert verdict(good, pico.BUDGETS[4]) == "PASS"
    assert verdict(good, pico.BUDGETS[5]) == "PASS"
    assert verdict(dev([9, 9, 17], [40, 50, 90], 65536), pico.BUDGETS[4]) == "MISS"
    assert verdict(dev([11, 11, 12], [40, 50, 90], 65536), pico.BUDGETS[4]) == "MISS"
    assert verdict(dev([9], [51, 51, 60], 65536), pico.BUDGETS[5]) == "MISS"
    assert verdict(dev([9], [40], 65535), pico.BUDGETS[1]) == "MISS"


def test_tables_hold_positive_numbers(report):
    speed = table(report, "## Speed: random-vs-random full rounds per second")
    assert len(speed) == 6                                        # 3 variants x CPython, MicroPython
    for r in speed:
        assert num(r[3]) > 0 and num(r[4]) > 0, r
    for r in table(report, "### Allocation per engine move"):
        assert num(r[1]) > 0 and num(r[2]) > 0, r                 # rounds, moves (bytes may be 0)
    for r in table(report, "### Heap of a Hard AI move"):
        assert num(r[1]) > 0 and num(r[4]) > 0, r
    ui = table(report, "### A whole UI game at `-X heapsize=%s`, per board" % STRESS_HEAP)
    assert len(ui) == 4
    for r in ui:
        # a game that runs out of heap is a result too (the report says how it ended)
        assert r[2] == "over" and num(r[6]) > 0 or r[2].startswith(("stuck", "harness stopped")), r
    assert num(report.split("## Size:", 1)[1].split("**", 2)[1]) > 10000
