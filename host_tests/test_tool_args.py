"""Every tool validates its arguments. A bad one gets exactly one line on stderr and exit
status 2, never a traceback; inputs that would run away (huge repeats, zooms, counts) are refused
before any work starts, so each case here ends in seconds. The shared checks live in tools/cli.py.
Every entry point (test_tool_help.py's list) has its cases here; run from make (PICO_DOMINO_MAKE=1),
the line names the make setting the person typed."""
import os
import shutil
import socket
import subprocess
import sys

import pytest
from test_tool_help import ENTRY_POINTS

from tools import cli, paths
from tools.find_micropython import find

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

PY = sys.executable
DEMO = "host_tests/fixtures/demo_app.py"
ARENA = ["--variant", "draw", "--players", "2", "--a", "easy", "--b", "random", "--matches", "4"]

# The tool (its name in the one-line error) -> its module, run as `python -m MODULE`.
MODULES = {"replay": "tools.scenarios", "selfplay": "tools.arena.selfplay", "arena": "tools.arena",
           "dominoes_adapter": "tools.arena.dominoes_adapter", "sim": "tools.sim", "deploy": "tools.deploy",
           "monkey": "tools.proofs.monkey", "bench": "tools.bench", "powercut": "tools.proofs.powercut",
           "sim-link": "tools.link.sim_pair", "web": "tools.web.build", "web-serve": "tools.web.serve",
           "web-figures": "tools.web.figures", "screenshots": "tools.sim.screenshots",
           "usb_pty": "tools.emu.usb_pty", "uf2info": "tools.emu.uf2info",
           "ai_budget": "tools.bench.ai_budget", "ai_speed": "tools.bench.ai_speed",
           "pico_emu": "tools.emu", "bench_pico": "tools.bench.pico",
           "heap_replay": "tools.bench.heap_replay", "legibility_report": "tools.legibility.report",
           "emu_link": "tools.emu.link", "link_frames": "tools.emu.link_frames",
           "bench_engine": "tools.bench.engine", "bench_peers": "tools.bench.peers",
           "faults": "tools.proofs.faults", "filefaults": "tools.proofs.filefaults",
           "webfaults": "tools.web.webfaults",
           "gallery": "tools.legibility.gallery", "extract": "tools.lang.extract",
           "measure": "tools.fonts.measure", "soak": "tools.proofs.soak", "mptest": "tools.proofs.mptest",
           "find_micropython": "tools.find_micropython", "replay_script": "tools.replay",
           "menu_match": "tools.link.menu_match", "link_selfplay": "tools.link.selfplay",
           "fonts_build": "tools.fonts.build"}
# Entry points whose bad arguments still get argparse's several lines (their files belong to other
# work in progress: the link's tools, the font build): listed so the gap shows, and fails once closed.
NOT_YET = set()
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
            ["--actual-size", "--view", "term"], ["--screenshot", "x.foo"], ["--keys", "shot:y.jpg2"],
            ["--screenshot", "none"], ["--keys", "wait:10 shot:out/a.jpg"], ["--micropython", PY],
            ["--micropython", "README.md"], ["--data", "/nonexistent-pico-domino/dir"],
            ["--data", "README.md/x"]],
    "sim-link": [["--board", "zzz"], ["--form", "zzz"], ["--form", "right*0"], ["--form", "right*x"],
                 ["--demo", "--game", "zzz 2 0 HG"], ["--game", "x"], ["--game", "fives 2 0 HH"],
                 ["--game", "fives 2 0 HGq"], ["--game", "blitz 2 0 HG"], ["--game", "goat 3 1 HGm"],
                 ["--game", "fives two 0 HG"], ["--game", "fives 2 2 HG"], ["--rate", "5"],
                 ["--rate", "-0.1"], ["--rate", "nan"], ["--seed", "-1"], ["--think", "x"],
                 ["--timeout", "0"], ["--cut-at", "-1"],
                 ["--kill-at", "1e9"], ["--bogus"], ["--board"]],
    "web": [["--out", "README.md"], ["--out", "/etc/hostname"], ["--out", "/proc/x"], ["--bogus"]],
    "web-serve": [["--port", "99999"], ["--port", "-1"], ["--port", "0"], ["--port", "x"], ["/nonexistent"],
                  ["README.md"], ["--bogus"]],
    "web-figures": [["--loads", "0"], ["--moves", "x"], ["--screenshot", "x.jpg"], ["--bogus"]],
    "screenshots": [["--out", "README.md"], ["--seed", "x"], ["nope"], ["--micropython", PY],
                    ["--keep", "README.md"]],
    "usb_pty": [["--board", "zz"], ["--image", "zz"], ["--flash", "/tmp"], ["--port", "/tmp"], ["--bogus"]],
    "uf2info": [[], ["/nonexistent"], ["tools"], ["a", "b"]],
    "ai_budget": [["--bogus"], ["--case", "zz:2"], ["--case", "fives:9"], ["--case", "fives"],
                  ["--case", "fives:2:x"], ["--moves"], ["--board", "x"], ["--ms", "0"], ["--seed", "-1"]],
    "ai_speed": [["--decisions", "-1"], ["--decisions", "x"], ["--variant", "zz"], ["--bogus"],
                 ["--device-ms"]],
    "pico_emu": [["bogus"], [], ["setup", "--bogus"], ["setup", "--rp2emu", "/nonexistent"], ["check", "x"]],
    "bench_pico": [["--jobs", "0"], ["--json", "/tmp"], ["--only", "x"],
                   ["--from", "/nonexistent", "--doc", "x.md"],
                   ["--image", "zz"], ["--boards", "zz"], ["--matches", "99"], ["--lang", "xx"]],
    "heap_replay": [["--from", "/nonexistent"], ["--board", "oled_diy"], ["--below", "-1"],
                    ["--keep", "/tmp"],
                    ["--image", "zz"], ["--probe", "x"]],
    "legibility_report": [["--seed", "x"], ["--bogus"]],
    "emu_link": [["--image", "zz"], ["--bogus"]],
    "link_frames": [["--bogus"]],
    "bench_engine": [["zz"], ["rounds", "--players", "9"]],
    "bench_peers": [["zz"], ["dominoes", "--ms", "x"]],
    "faults": [["--bogus"]],
    "filefaults": [["--bogus"]],
    "webfaults": [["--site", "README.md"], ["--bogus"]],
    "gallery": [["--lang", "xx"], ["--bogus"]],
    "extract": [["--bogus"]],
    "measure": [["--bogus"]],
    "soak": [["--bogus"]],
    "mptest": [["--bogus"]],
    "find_micropython": [["x"]],
    "replay_script": [["/dev/zero"], ["tools"]],
    "menu_match": [["--board", "zz"], ["--bogus"]],
    "link_selfplay": [["--bogus"]],
    "fonts_build": [["--bogus"]],
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


NOT_YET_MARK = [pytest.mark.xfail(strict=True, reason="argparse's usage lines")]


@pytest.mark.parametrize("tool,args", [pytest.param(t, a, marks=NOT_YET_MARK if t in NOT_YET else [])
                                       for t, cases in CASES.items() for a in cases],
                         ids=["%s:%s" % (t, " ".join(a) or "-") for t, cases in CASES.items() for a in cases])
def test_bad_argument_one_line_exit_2(tool, args):
    line = one_line_exit_2([PY, "-m", MODULES[tool]] + (["--app", DEMO] if tool == "sim" else []) + args)
    assert line.split(":")[0] in (tool, "python -m " + MODULES[tool], "usage", "bench_engine", "bench_peers",
                                  "replay", "link", "link_frames", "pico_emu"), line


def test_every_entry_point_has_its_cases():
    assert set(MODULES.values()) == set(ENTRY_POINTS), set(ENTRY_POINTS) ^ set(MODULES.values())
    assert set(CASES) == set(MODULES)


def test_a_data_folder_in_a_missing_folder_is_not_made():
    one_line_exit_2([PY, "-m", "tools.sim", "--keys", "wait:10", "--data", "/nonexistent-pico-domino/dir"])
    assert not os.path.exists("/nonexistent-pico-domino")


@pytest.mark.skipif(find() is None, reason="no micropython binary")
def test_a_relative_micropython_path_works(tmp_path):
    mp = os.path.relpath(find(), ROOT)
    shot = str(tmp_path / "a.png")
    r = subprocess.run([PY, "-m", "tools.sim", "--app", DEMO, "--micropython", mp, "--keys", "wait:100",
                        "--screenshot", shot, "--data", str(tmp_path / "data")], cwd=ROOT,
                       capture_output=True, text=True, timeout=120, env=paths.env())
    assert r.returncode == 0 and os.path.exists(shot), r.stdout + r.stderr


def under_make():
    return dict(paths.env(), PICO_DOMINO_MAKE="1")


def test_run_from_make_the_line_names_the_setting():
    line = one_line_exit_2([PY, "-m", "tools.sim", "--board", "nonsense"], under_make())
    assert line.startswith("sim: BOARD=nonsense is not one of") and "waveshare_lcd13" in line, line
    line = one_line_exit_2([PY, "-m", "tools.link.sim_pair", "--board", "nonsense"], under_make())
    assert line.startswith("sim-link: BOARD=nonsense is not one of") and "oled_diy" in line, line
    line = one_line_exit_2([PY, "-m", "tools.sim", "--seed", "x"], under_make())
    assert line.startswith("sim: SEED=:"), line
    env = {k: v for k, v in under_make().items()
           if k not in ("DISPLAY", "WAYLAND_DISPLAY", "SDL_VIDEODRIVER")}
    line = one_line_exit_2([PY, "-m", "tools.sim", "--view", "window", "--app", DEMO], env)
    assert "use VIEW=term" in line and "--view" not in line, line
    line = one_line_exit_2([PY, "-m", "tools.sim", "--view", "term", "--actual-size", "--app", DEMO],
                           under_make())
    assert "ACTUAL=1 needs the window view (VIEW=window)" in line, line
    line = one_line_exit_2([PY, "-m", "tools.web.serve", "--port", "99999"], under_make())
    assert line.startswith("web-serve: WEB_PORT=:"), line
    line = one_line_exit_2([PY, "-m", "tools.web.build", "--out", "README.md"], under_make())
    assert line.startswith("web: WEB_OUT=:"), line


def test_a_busy_port_names_the_setting(tmp_path):
    (tmp_path / "index.html").write_text("<html></html>")
    s = socket.socket()
    s.bind(("127.0.0.1", 0))
    s.listen(1)
    port = s.getsockname()[1]
    try:
        line = one_line_exit_2([PY, "-m", "tools.web.serve", str(tmp_path), "--port", str(port)],
                               under_make())
        assert "cannot listen on 127.0.0.1:%d" % port in line and "WEB_PORT=%d" % (port + 1) in line, line
        line = one_line_exit_2([PY, "-m", "tools.web.serve", str(tmp_path), "--port", str(port)])
        assert "--port %d" % (port + 1) in line, line
    finally:
        s.close()


@pytest.mark.skipif(find() is None, reason="no micropython binary")
def test_a_link_match_that_cannot_end_stops_with_a_message():
    """A cable so bad the match cannot end: a bounded wait, then one line (not a hang)."""
    res = subprocess.run([PY, "-m", "tools.link.sim_pair", "--demo", "--rate", "0.1", "--timeout", "3"],
                         cwd=ROOT, capture_output=True, text=True, timeout=60, env=paths.env())
    lines = [ln for ln in res.stderr.splitlines() if ln.strip()]
    want = "sim-link: the match did not end within 3 s (the cable's --rate 0.1 loses too much?)"
    assert res.returncode == 1 and lines == [want], res.stdout + res.stderr


@pytest.mark.skipif(shutil.which("make") is None, reason="no make")
def test_make_sim_link_with_an_unknown_board_names_it():
    stamp = os.path.join(ROOT, ".venv", ".installed-player")
    req = os.path.join(ROOT, "requirements-player.txt")
    if not os.path.exists(stamp) or os.path.getmtime(stamp) < os.path.getmtime(req):
        pytest.skip("the player's install is not up to date (make would install it)")
    r = subprocess.run(["make", "--no-print-directory", "sim-link", "BOARD=nonsense"], cwd=ROOT,
                       capture_output=True, text=True, timeout=60)
    lines = [ln for ln in (r.stdout + r.stderr).splitlines() if ln.strip() and not ln.startswith("make")]
    assert len(lines) == 1 and "BOARD=nonsense is not one of" in lines[0], r.stdout + r.stderr


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
