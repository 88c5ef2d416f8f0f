"""The same seeded games give identical transcripts under CPython and the MicroPython unix port."""
import os
import subprocess
import sys

from tools import paths

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
SELFPLAY = ["-m", "tools.arena.selfplay"]
ENV = paths.env()          # the import roots, for CPython and the unix port alike


def _run(exe, *args):
    out = subprocess.run([exe] + SELFPLAY + list(args), stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                         universal_newlines=True, timeout=300, env=ENV)
    assert out.returncode == 0, out.stderr
    return out.stdout.strip().split("\n")


def test_every_variant_and_player_count_same_digest(micropython):
    cp = _run(sys.executable, "--all", "--games", "12", "--seed", "7")
    mp = _run(micropython, "--all", "--games", "12", "--seed", "7")
    assert len(cp) == 38          # 11 variants x player counts x team play
    assert cp == mp
    for line in cp:
        assert " games 12 " in line and " moves 0 " not in line


def test_single_variant_cli_and_transcript(micropython):
    args = ("--variant", "goat", "--players", "4", "--teams", "--games", "3", "--seed", "11", "--transcript")
    cp = _run(sys.executable, *args)
    mp = _run(micropython, *args)
    assert cp == mp
    assert cp[-1].startswith("goat 4pt digest ")
    assert len(cp) == 4           # three transcripts, then the digest line


def test_different_seeds_differ():
    a = _run(sys.executable, "--variant", "fives", "--games", "3", "--seed", "1")
    b = _run(sys.executable, "--variant", "fives", "--games", "3", "--seed", "2")
    assert a[-1].split()[3] != b[-1].split()[3]


def test_bad_arguments_exit_2():
    out = subprocess.run([sys.executable] + SELFPLAY + ["--variant", "nope"], stdout=subprocess.PIPE,
                         stderr=subprocess.PIPE, universal_newlines=True, env=ENV)
    assert out.returncode == 2 and "unknown variant" in out.stderr and "Traceback" not in out.stderr
