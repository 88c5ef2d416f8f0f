"""Every tool validates its arguments. A bad one gets exactly one line on stderr and exit
status 2, never a traceback; inputs that would run away (huge repeats, zooms, counts) are refused
before any work starts, so each case here ends in seconds. The shared checks live in tools/cli.py."""
import os
import subprocess
import sys

import pytest

from tools import cli, paths
from tools.find_micropython import find

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

PY = sys.executable
DEMO = "host_tests/fixtures/demo_app.py"
ARENA = ["--variant", "draw", "--players", "2", "--a", "easy", "--b", "random", "--matches", "4"]

# The tool (its name in the one-line error) -> its module, run as `python -m MODULE`.
MODULES = {"replay": "tools.scenarios", "selfplay": "tools.arena.selfplay", "arena": "tools.arena",
           "dominoes_adapter": "tools.arena.dominoes_adapter", "sim": "tools.sim", "deploy": "tools.deploy",
           "monkey": "tools.proofs.monkey", "bench": "tools.bench", "powercut": "tools.proofs.powercut"}
CASES = {
    "replay": [[], ["a.json", "b.json"], ["--bogus"], ["missing.json"], ["tools"], ["/dev/zero"]],
    "selfplay": [["--games", "-5"], ["--games", "x"], ["--games", "99999999999"], ["--variant", "nope"],
                 ["--variant", "fives", "--players", "9"], ["--bogus"], ["--games"], [],
                 ["--variant", "fives", "--seed", "-1"]],
    "arena": [ARENA + ["--shard", "x"], ARENA + ["--shard", "a/b"], ARENA + ["--shard", "0/0"],
              ARENA + ["--shard", "3/2"], ARENA + ["--jobs", "2", "--python", "/nonexistent"],
              ARENA + ["--matches", "-1"], ARENA + ["--jobs", "0"], ARENA + ["--rollouts", "-1"],
              ARENA + ["--option", "target"], ARENA[:6] + ["--b", "god"], ARENA + ["--bogus"],
              ARENA + ["--matches"], ARENA + ["--matches", "1e9"], ARENA + ["--goal", "x"],
              ARENA + ["--budget", "5"]],
    "dominoes_adapter": [["--b", "nobody"], ["--matches", "0"], ["--rollouts", "x"], ["--shard", "2/2"],
                         ["--goal", "101"], ["--bogus"], ["--seed"]],
    "sim": [["--keys", "shot:"], ["--screenshot", "/tmp"], ["--scale", "-2"], ["--data", "README.md"],
            ["--app", "missing_module"], ["--app", "missing.py"], ["--heap", "20K"], ["--heap", "abc"],
            ["--keys", "a*99999999999"], ["--keys", "wait:99999999999"], ["--scale", "100000"],
            ["--keys", "shot:README.md/x.png"], ["--keys", "nokey"], ["--timeout", "-1"], ["--seed", "x"],
            ["--micropython", "/nonexistent"], ["--board", "nope"], ["--data", "/proc/foo"],
            ["--data", "/proc/self/x/y"], ["--dpi", "x"], ["--dpi", "0"], ["--dpi", "-96"],
            ["--dpi", "1e9"], ["--dpi", "nan"], ["--dpi"], ["--actual-size", "--scale", "2"],
            ["--actual-size", "--view", "term"]],
    "deploy": [["build", "--out", "README.md"], ["build", "--out", "/proc/x"],
               ["build", "--chip", "z80"], ["build", "--board", "nope"], [],
               ["nope"], ["deploy", "--bogus"]],
    "monkey": [["--presses", "-1"], ["--jobs", "0"], ["--sizes", "1x1"], ["--seed", "x"], ["--heap", "1K"],
               ["--keep", "README.md"], [], ["--ai-ms", "0"], ["--presses", "999999999999"]],
    "bench": [["--reps", "-1"], ["--ms", "x"], ["--out", "/tmp"],
              ["--no-peers", "--micropython", "/nonexistent"],
              ["--peer-python", "/nonexistent"], ["--build", "README.md"]],
    "powercut": [["--stride", "0"], ["--flips", "zz"], ["--flips", "100"], ["--rounds", "x"]],
}


def one_line_exit_2(cmd, env=None):
    res = subprocess.run(cmd, cwd=ROOT, capture_output=True, text=True, timeout=60, env=env or paths.env())
    lines = [ln for ln in res.stderr.splitlines() if ln.strip()]
    text = res.stdout + res.stderr
    assert res.returncode == 2 and len(lines) == 1 and "Traceback" not in text, (cmd, res.returncode, text)
    return lines[0]


@pytest.mark.parametrize("tool,args", [(t, a) for t, cases in CASES.items() for a in cases],
                         ids=["%s:%s" % (t, " ".join(a) or "-") for t, cases in CASES.items() for a in cases])
def test_bad_argument_one_line_exit_2(tool, args):
    line = one_line_exit_2([PY, "-m", MODULES[tool]] + (["--app", DEMO] if tool == "sim" else []) + args)
    assert line.startswith(tool + ":") or line.startswith("usage:"), line


def test_sim_window_without_a_display_says_so():
    """`make sim VIEW=window` on a machine without a display: one line, not an SDL error and a hang."""
    env = {k: v for k, v in paths.env().items() if k not in ("DISPLAY", "WAYLAND_DISPLAY", "SDL_VIDEODRIVER")}
    line = one_line_exit_2([PY, "-m", "tools.sim", "--view", "window", "--app", DEMO], env)
    assert "display" in line


@pytest.mark.skipif(find() is None, reason="no micropython binary")
@pytest.mark.parametrize("tool,args", [("selfplay", ["--games", "-5"]), ("selfplay", ["--bogus"]),
                                       ("arena", ARENA + ["--shard", "x"]),
                                       ("arena", ARENA + ["--jobs", "2"])])
def test_bad_argument_under_micropython(tool, args):
    one_line_exit_2([find(), "-m", MODULES[tool]] + args)


def test_checks():
    assert cli.whole("--n", "12", 1, 20) == 12
    assert cli.shard("--shard", "1/4") == (1, 4)
    assert cli.heap("--heap", "180k") == "180K" and cli.heap("--heap", "2M") == "2M"
    for bad in (lambda: cli.whole("--n", "0", 1, 2), lambda: cli.shard("", "4/4"),
                lambda: cli.heap("", "1G"), lambda: cli.number("", "nan", 0, 1)):
        with pytest.raises(cli.BadArg):
            bad()


def test_good_arguments_still_work(tmp_path):
    res = subprocess.run([PY, "-m", "tools.arena.selfplay", "--variant", "fives", "--games", "2",
                          "--seed", "3"],
                         cwd=ROOT, capture_output=True, text=True, timeout=120, env=paths.env())
    assert res.returncode == 0 and "digest" in res.stdout
    res = subprocess.run([PY, "-m", "tools.arena"] + ARENA + ["--jobs", "2"], cwd=ROOT, capture_output=True,
                         text=True, timeout=300, env=paths.env())
    assert res.returncode == 0 and "A (easy) wins" in res.stdout, res.stdout + res.stderr
