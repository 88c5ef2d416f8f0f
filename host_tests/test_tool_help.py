"""Every tool answers --help (and -h) with its usage and exit status 0, without doing any work: the
entry points below are all of them (a new job folder of tools/ without one here fails the last test).
Those that also run under the MicroPython unix port answer there too (MICROPYPATH holds the roots)."""
import os
import subprocess
import sys

import pytest

from tools import paths
from tools.find_micropython import find

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
ENTRY_POINTS = (
    "tools.sim", "tools.sim.screenshots",
    "tools.deploy",
    "tools.emu", "tools.emu.usb_pty", "tools.emu.uf2info", "tools.emu.link", "tools.emu.link_frames",
    "tools.bench", "tools.bench.ai_speed", "tools.bench.engine", "tools.bench.peers", "tools.bench.pico",
    "tools.bench.ai_budget", "tools.bench.heap_replay",
    "tools.arena", "tools.arena.selfplay", "tools.arena.dominoes_adapter",
    "tools.scenarios", "tools.replay",
    "tools.proofs.monkey", "tools.proofs.faults", "tools.proofs.powercut", "tools.proofs.soak",
    "tools.proofs.filefaults",
    "tools.proofs.mptest",
    "tools.web.build", "tools.web.serve", "tools.web.figures", "tools.web.webfaults",
    "tools.fonts.build", "tools.fonts.measure", "tools.legibility.report", "tools.legibility.gallery",
    "tools.link.selfplay", "tools.link.sim_pair", "tools.lang.extract", "tools.link.menu_match",
    "tools.find_micropython",
)
UNDER_MICROPYTHON = ("tools.arena", "tools.arena.selfplay", "tools.bench.engine", "tools.bench.ai_speed")


def answers_help(cmd, flag):
    r = subprocess.run(cmd + [flag], cwd=ROOT, capture_output=True, text=True, timeout=60, env=paths.env())
    assert r.returncode == 0, (cmd, r.returncode, r.stdout[-2000:] + r.stderr[-2000:])
    assert r.stdout.lstrip().lower().startswith("usage:"), (cmd, r.stdout[:300])
    assert "Traceback" not in r.stdout + r.stderr
    return r.stdout


@pytest.mark.parametrize("module", ENTRY_POINTS)
def test_help_gives_the_usage_and_exit_0(module):
    out = answers_help([sys.executable, "-m", module], "--help")
    assert module in out or module.rpartition(".")[2] in out.split("\n")[0], out[:300]
    assert answers_help([sys.executable, "-m", module], "-h")


@pytest.mark.skipif(find() is None, reason="no micropython binary")
@pytest.mark.parametrize("module", UNDER_MICROPYTHON)
def test_help_under_micropython(module):
    answers_help([find(), "-m", module], "--help")


def test_every_entry_point_is_listed():
    """Each tools module that runs as a program (`if __name__ == "__main__"`, or a package's
    __main__.py) is in ENTRY_POINTS."""
    found = set()
    for base, dirs, files in os.walk(os.path.join(ROOT, "tools")):
        dirs[:] = [d for d in dirs if d not in ("node_modules", "__pycache__")]
        for f in files:
            if not f.endswith(".py"):
                continue
            rel = os.path.relpath(os.path.join(base, f), ROOT)[:-3].replace(os.sep, ".")
            if f == "__main__.py":
                found.add(rel[:-len(".__main__")])
            elif rel.startswith(("tools.proofs.harness.", "tools.emu.scripts.")):
                continue           # the MicroPython side of the harness: run by the launchers
            else:
                with open(os.path.join(base, f), encoding="utf-8") as fh:
                    if 'if __name__ == "__main__":' in fh.read():
                        found.add(rel)
    assert found == set(ENTRY_POINTS), (sorted(found - set(ENTRY_POINTS)), sorted(set(ENTRY_POINTS) - found))
