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

SECTIONS = ("## Machine", "## Targets", "## Device factor (calibration)",
            "## Speed: random-vs-random full rounds per second", "### Allocation per engine move",
            "### Heap of a Hard AI move", "### A whole UI game at `-X heapsize=%s`, per board" % STRESS_HEAP,
            "## Size: the deployable .mpy tree", "### Hard AI decision", "### Full table redraw",
            "### Boot to menu")


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


def test_targets_have_verdicts(report):
    rows = table(report, "## Targets")
    assert len(rows) == 5
    assert rows[0][2] == "-" and "--no-peers" in rows[0][1]     # no peers in the smoke run
    for r in rows[1:]:
        assert r[2] in ("**PASS**", "**MISS**"), r
        assert num(r[1]) > 0, r


def test_tables_hold_positive_numbers(report):
    cal = table(report, "## Device factor (calibration)")
    assert num(cal[0][1]) > 0 and num(cal[0][3]) > 0
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
    for h in ("### Hard AI decision", "### Full table redraw", "### Boot to menu"):
        rows = table(report, h)
        assert rows, h
        for r in rows:
            assert all(num(c) > 0 for c in r[2:] if re.match(r"^[\d.]+", c)), r
