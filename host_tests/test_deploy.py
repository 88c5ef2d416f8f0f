"""tools/deploy (python -m tools.deploy) against a fake `mpremote` on PATH (host_tests/fake_mpremote.py)
that records its calls
and plays a Pico's flash in a folder; plus the real tree: build, import every .mpy under MicroPython,
package.json.

The deploy logic runs on a small synthetic firmware/boards tree so these tests do not move when the
real firmware does; the last tests use the real firmware/ and boards/.
"""
import json
import os
import re
import subprocess
import sys

import pytest

from tools.deploy import main as deploy
from tools.find_micropython import find as find_micropython

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
FAKE = os.path.join(ROOT, "host_tests", "fake_mpremote.py")
PICO = "Raspberry Pi Pico with RP2040"
MPY_RP2040 = 6 | 3 << 8 | 4 << 10        # .mpy 6.3, armv6m: what MicroPython 1.23+ on an RP2040 reports

FIRMWARE_FILES = {
    "main.py": "import boards\nprint('main')\n",
    "domino/__init__.py": "",
    "domino/core.py": "X = 1\n\n\ndef f():\n    return X\n",
    "drivers/__init__.py": "",
    "drivers/fast.py": "import micropython\n\n\n@micropython.native\ndef add(a, b):\n    return a + b\n",
    "ui/__init__.py": "",
    "ui/screen.py": "from domino.core import f\n",
}
BOARD_FILES = {
    "__init__.py": "NAMES = ('lcd_a', 'oled_b', 'solo', 'sim')\n",
    "_base.py": "class Board:\n    pass\n",
    "_lcd.py": "from boards._base import Board\n",
    "lcd_a.py": ("MIP_DEPS = ()\n\n\ndef build():\n    from machine import Pin\n"
                 "    from boards._lcd import Board\n"),
    "oled_b.py": "MIP_DEPS = ('ssd1306',)\nfrom boards.lcd_a import build as _b\n",
    "solo.py": "MIP_DEPS = ()\nfrom boards._base import Board\n",
    "sim.py": "import pygame\n",
}


def write_tree(base, files):
    for rel, text in files.items():
        path = os.path.join(base, rel)
        os.makedirs(os.path.dirname(path), exist_ok=True)
        with open(path, "w") as f:
            f.write(text)


class Env:
    def __init__(self, tmp, capsys):
        self.tmp = tmp
        self.capsys = capsys
        self.log = os.path.join(tmp, "calls.jsonl")
        self.state_path = os.path.join(tmp, "state.json")
        self.state = {"log": self.log, "devices": [], "ports": {}}
        self.add_device("/dev/ttyACM0")

    def add_device(self, port, listed=True, **kw):
        root = os.path.join(self.tmp, "dev" + str(len(self.state["ports"])))
        os.makedirs(root, exist_ok=True)
        dev = {"mode": "micropython", "root": root, "name": "micropython", "version": [1, 28, 0],
               "machine": PICO, "mpy": MPY_RP2040, "bsize": 4096, "blocks": 200}
        dev.update(kw)
        self.state["ports"][port] = dev
        if listed:
            self.state["devices"].append("%s e6614c311b123456 2e8a:0005 MicroPython Board in FS mode" % port)
        self.save()
        return dev

    def save(self):
        with open(self.state_path, "w") as f:
            json.dump(self.state, f)

    def dev(self, port="/dev/ttyACM0"):
        return self.state["ports"][port]

    def run(self, *argv):
        """tools.deploy.main.main(argv) -> (exit code, stdout, stderr)."""
        self.save()
        self.capsys.readouterr()
        open(self.log, "w").close()
        code = deploy.main(list(argv))
        out, err = self.capsys.readouterr()
        return code, out, err

    def calls(self):
        with open(self.log) as f:
            return [json.loads(line) for line in f if line.strip()]

    def device_files(self, port="/dev/ttyACM0"):
        root = self.dev(port)["root"]
        out = set()
        for base, _dirs, files in os.walk(root):
            for f in files:
                out.add(os.path.relpath(os.path.join(base, f), root).replace(os.sep, "/"))
        return out

    def device_text(self, rel, port="/dev/ttyACM0"):
        with open(os.path.join(self.dev(port)["root"], rel)) as f:
            return f.read()


@pytest.fixture
def env(tmp_path, monkeypatch, capsys):
    tmp = str(tmp_path)
    write_tree(os.path.join(tmp, "src", "firmware"), FIRMWARE_FILES)
    write_tree(os.path.join(tmp, "src", "boards"), BOARD_FILES)
    monkeypatch.setattr(deploy, "FIRMWARE", os.path.join(tmp, "src", "firmware"))
    monkeypatch.setattr(deploy, "BOARDS", os.path.join(tmp, "src", "boards"))
    monkeypatch.setattr(deploy, "BUILD", os.path.join(tmp, "build"))
    monkeypatch.setattr(deploy, "PACKAGE_JSON", os.path.join(tmp, "src", "package.json"))
    bindir = os.path.join(tmp, "bin")
    os.makedirs(bindir)
    script = os.path.join(bindir, "mpremote")
    with open(script, "w") as f:
        f.write('#!/bin/sh\nexec "%s" "%s" "$@"\n' % (sys.executable, FAKE))
    os.chmod(script, 0o755)
    monkeypatch.setenv("PATH", bindir + os.pathsep + os.environ.get("PATH", ""))
    monkeypatch.delenv("MPREMOTE", raising=False)
    e = Env(tmp, capsys)
    monkeypatch.setenv("FAKE_MPREMOTE_STATE", e.state_path)
    return e


def expected_tree(board_mods, src=False):
    ext = ".py" if src else ".mpy"
    files = {"main.py", "board.cfg", "boards/__init__" + ext}
    files |= {r[:-3] + ext for r in FIRMWARE_FILES if r != "main.py"}
    files |= {"boards/%s%s" % (m, ext) for m in board_mods}
    return files


def one_line_error(err):
    lines = err.strip().splitlines()
    assert len(lines) == 1, err
    assert "Traceback" not in err
    assert lines[0].startswith("deploy: ")
    return lines[0]


# -- the command sequence and the copied tree ----------------------------------------------------

def test_first_deploy_sequence_and_tree(env):
    code, out, err = env.run("deploy", "--board", "lcd_a")
    assert code == 0, err
    calls = env.calls()
    assert calls[0] == ["connect", "list"]
    assert calls[1][:3] == ["connect", "/dev/ttyACM0", "exec"] and "MANIFEST" in calls[1][3]
    assert len(calls) == 3                           # no mip package needed by lcd_a
    copy = calls[2]
    assert copy[:2] == ["connect", "/dev/ttyACM0"]
    ops = " ".join(copy[2:]).split(" + ")
    mkdirs = [o for o in ops if o.startswith("fs mkdir")]
    assert mkdirs == ["fs mkdir :boards", "fs mkdir :domino", "fs mkdir :drivers", "fs mkdir :ui"]
    assert ops.index(mkdirs[-1]) < min(i for i, o in enumerate(ops) if o.startswith("fs cp"))
    assert ops[-2].startswith("fs cp -f ") and ops[-2].endswith(" :.deployed")
    assert ops[-1] == "reset"
    tree = expected_tree(["lcd_a", "_lcd", "_base"])
    assert env.device_files() == tree | {".deployed"}
    assert env.device_text("board.cfg") == "lcd_a\n"
    assert env.device_text("main.py") == FIRMWARE_FILES["main.py"]      # main.py stays source
    for rel in tree - {"main.py", "board.cfg"}:
        with open(os.path.join(env.dev()["root"], rel), "rb") as f:
            assert f.read(2) == b"M\x06", rel
    owned = [ln for ln in env.device_text(".deployed").splitlines() if not ln.startswith("#")]
    assert sorted(owned) == sorted(tree)
    assert "/dev/ttyACM0: MicroPython 1.28.0" in out
    assert "-march=armv6m" in out
    assert "copied %d files" % len(tree) in out


def test_second_deploy_copies_nothing_but_resets(env):
    assert env.run("deploy", "--board", "lcd_a")[0] == 0
    before = {r: os.path.getmtime(os.path.join(env.dev()["root"], r)) for r in env.device_files()}
    code, out, err = env.run("deploy", "--board", "lcd_a")
    assert code == 0, err
    calls = env.calls()
    assert len(calls) == 3
    assert calls[2] == ["connect", "/dev/ttyACM0", "reset"]
    assert "nothing to copy" in out
    assert {r: os.path.getmtime(os.path.join(env.dev()["root"], r)) for r in env.device_files()} == before


def test_only_the_changed_file_is_copied(env):
    assert env.run("deploy", "--board", "lcd_a")[0] == 0
    with open(os.path.join(deploy.FIRMWARE, "domino", "core.py"), "a") as f:
        f.write("Y = 2\n")
    code, out, err = env.run("deploy", "--board", "lcd_a")
    assert code == 0, err
    cps = [a for a in env.calls()[-1] if a.startswith(":")]
    assert cps == [":domino/core.mpy"]       # the manifest did not change: not rewritten
    assert "copied 1 files" in out


def test_force_copies_everything_again(env):
    assert env.run("deploy", "--board", "lcd_a")[0] == 0
    code, out, err = env.run("deploy", "--board", "lcd_a", "--force")
    assert code == 0, err
    cps = [a for a in env.calls()[-1] if a.startswith(":") and a != ":.deployed"]
    assert len(cps) == len(expected_tree(["lcd_a", "_lcd", "_base"]))


def test_board_with_mip_dependency_and_switching_boards_removes_stale_files(env):
    assert env.run("deploy", "--board", "solo")[0] == 0
    assert "boards/solo.mpy" in env.device_files()
    code, out, err = env.run("deploy", "--board", "oled_b")
    assert code == 0, err
    calls = env.calls()
    assert calls[2] == ["connect", "/dev/ttyACM0", "mip", "install", "ssd1306"]
    assert "fs rm :boards/solo.mpy" in " ".join(calls[3])
    tree = expected_tree(["oled_b", "lcd_a", "_lcd", "_base"])     # oled_b imports lcd_a
    assert env.device_files() == tree | {".deployed", "lib/ssd1306.mpy"}
    assert env.device_text("board.cfg") == "oled_b\n"
    # Installed once: the next deploy does not ask mip again.
    assert env.run("deploy", "--board", "oled_b")[0] == 0
    assert not any(c[2:3] == ["mip"] for c in env.calls())


def test_deploy_src_replaces_mpy_with_py_and_back(env):
    assert env.run("deploy", "--board", "lcd_a")[0] == 0
    code, out, err = env.run("deploy", "--board", "lcd_a", "--src")
    assert code == 0, err
    assert env.device_files() == expected_tree(["lcd_a", "_lcd", "_base"], src=True) | {".deployed"}
    assert env.device_text("domino/core.py") == FIRMWARE_FILES["domino/core.py"]
    assert env.run("deploy", "--board", "lcd_a")[0] == 0
    assert env.device_files() == expected_tree(["lcd_a", "_lcd", "_base"]) | {".deployed"}


def test_user_files_are_left_alone_and_shadowing_sources_removed(env):
    root = env.dev()["root"]
    write_tree(root, {"notes.txt": "mine", "saves/slot1.json": "{}", "domino/core.py": "OLD = 1\n"})
    code, out, err = env.run("deploy", "--board", "lcd_a")
    assert code == 0, err
    files = env.device_files()
    assert {"notes.txt", "saves/slot1.json"} <= files
    assert "domino/core.py" not in files         # would shadow domino/core.mpy (MicroPython prefers .py)
    assert "domino/core.mpy" in files


def test_port_given_skips_the_device_list(env):
    env.add_device("/dev/ttyACM1")
    code, out, err = env.run("deploy", "--board", "lcd_a", "--port", "/dev/ttyACM1")
    assert code == 0, err
    assert all(c[:2] == ["connect", "/dev/ttyACM1"] for c in env.calls())
    assert "board.cfg" in env.device_files("/dev/ttyACM1")
    assert env.device_files("/dev/ttyACM0") == set()


def test_the_pico_is_picked_among_other_serial_devices(env):
    env.state["devices"].append("/dev/ttyUSB0 A50285BI 0403:6001 FTDI FT232R USB UART")
    env.state["devices"].append("/dev/ttyS0 None 0000:0000 None None")
    code, out, err = env.run("deploy", "--board", "lcd_a")
    assert code == 0, err


def test_rp2350_builds_for_armv7m(env):
    env.dev()["machine"] = "Raspberry Pi Pico2 with RP2350"
    env.dev()["mpy"] = 6 | 3 << 8 | 7 << 10
    code, out, err = env.run("deploy", "--board", "lcd_a")
    assert code == 0, err
    assert "-march=armv7m" in out
    with open(os.path.join(env.dev()["root"], "drivers", "fast.mpy"), "rb") as f:
        assert f.read(3)[2] >> 2 == deploy.MPY_ARCHES.index("armv7m")   # native code for the M33


def test_chip_override(env):
    env.dev()["machine"] = "Custom board with a 2350"
    env.dev()["mpy"] = 6 | 3 << 8 | 7 << 10
    code, out, err = env.run("deploy", "--board", "lcd_a", "--chip", "rp2350")
    assert code == 0, err
    assert "-march=armv7m" in out


def test_run_mounts_a_source_tree_and_copies_nothing(env):
    code, out, err = env.run("run", "--board", "lcd_a")
    assert code == 0, err
    calls = env.calls()
    assert calls[0] == ["connect", "list"]
    run = calls[-1]
    mounted = os.path.join(deploy.BUILD, "run")
    assert run[:4] == ["connect", "/dev/ttyACM0", "mount", mounted]
    assert run[-2:] == ["run", os.path.join(mounted, "main.py")]
    assert "board.cfg" in os.listdir(mounted) and os.path.exists(os.path.join(mounted, "domino", "core.py"))
    assert env.device_files() == set()


def test_run_stopped_with_ctrl_c_resets_the_pico(env, monkeypatch):
    """mpremote leaves on Ctrl-C but the program would go on running from a mount that is gone."""
    real = deploy._attached

    def ctrl_c(cmd):
        real(cmd)                    # the fake logs the call
        return 1, True
    monkeypatch.setattr(deploy, "_attached", ctrl_c)
    code, out, err = env.run("run", "--board", "lcd_a")
    assert code == 130, err
    assert env.calls()[-1] == ["connect", "/dev/ttyACM0", "reset"]
    assert "stopped: the Pico was reset and runs what is deployed on it" in out


def test_repl(env):
    code, out, err = env.run("repl")
    assert code == 0, err
    assert env.calls() == [["connect", "list"], ["connect", "/dev/ttyACM0", "repl"]]


# -- every error message: one line, exit code 2, nothing copied ----------------------------------

def test_no_device(env):
    env.state["devices"] = []
    code, out, err = env.run("deploy", "--board", "lcd_a")
    assert code == 2
    assert "no device connected" in one_line_error(err)
    assert "RPI-RP2" in err
    assert env.calls() == [["connect", "list"]]


def test_several_devices(env):
    env.add_device("/dev/ttyACM1")
    code, out, err = env.run("deploy", "--board", "lcd_a")
    assert code == 2
    line = one_line_error(err)
    assert "several devices connected (/dev/ttyACM0, /dev/ttyACM1)" in line and "PORT=" in line
    assert env.calls() == [["connect", "list"]]


def test_not_running_micropython(env):
    env.dev()["mode"] = "silent"           # e.g. a C SDK program or Arduino sketch on the serial port
    code, out, err = env.run("deploy", "--board", "lcd_a")
    assert code == 2
    line = one_line_error(err)
    assert "/dev/ttyACM0 is not running MicroPython" in line and "UF2" in line
    assert len(env.calls()) == 3            # connect list, the probe, the probe asked again


def test_a_pico_still_booting_is_asked_again(env):
    """Just reset (by the last deploy) or plugged in: the first Ctrl-C can come before main.py runs."""
    env.dev()["booting_calls"] = 1
    code, out, err = env.run("deploy", "--board", "lcd_a")
    assert code == 0, err
    probes = [c for c in env.calls() if c[2:3] == ["exec"]]
    assert len(probes) >= 2 and "copied" in out


def test_circuitpython_is_not_micropython(env):
    env.dev()["name"] = "circuitpython"
    code, out, err = env.run("deploy", "--board", "lcd_a")
    assert code == 2
    assert "not running MicroPython (it runs circuitpython)" in one_line_error(err)


def test_port_busy_or_missing(env):
    code, out, err = env.run("deploy", "--board", "lcd_a", "--port", "/dev/ttyACM7")
    assert code == 2
    assert "cannot open /dev/ttyACM7" in one_line_error(err)


def test_firmware_too_old(env):
    env.dev()["version"] = [1, 22, 2]
    env.dev()["mpy"] = 6 | 2 << 8 | 4 << 10
    code, out, err = env.run("deploy", "--board", "lcd_a")
    assert code == 2
    line = one_line_error(err)
    assert "MicroPython 1.22.2 on /dev/ttyACM0 is older than the supported minimum 1.23.0" in line
    assert len(env.calls()) == 2 and env.device_files() == set()


def test_incompatible_mpy_version(env):
    env.dev()["version"] = [2, 0, 0]
    env.dev()["mpy"] = 7 | 4 << 10
    code, out, err = env.run("deploy", "--board", "lcd_a")
    assert code == 2
    assert "loads .mpy version 7, but mpy-cross here emits 6.3" in one_line_error(err)
    # ...while plain sources still go.
    assert env.run("deploy", "--board", "lcd_a", "--src")[0] == 0


def test_not_a_pico(env):
    env.dev()["machine"] = "Generic ESP32 module with ESP32"
    code, out, err = env.run("deploy", "--board", "lcd_a")
    assert code == 2
    assert "not an RP2040/RP2350 board" in one_line_error(err) and "CHIP=" in err


@pytest.mark.parametrize("board, expect", [
    ("nope", "unknown board 'nope'; valid boards: lcd_a, oled_b, solo"),
    ("sim", "board 'sim' is the PC simulator and cannot be deployed; choose one of: lcd_a, oled_b, solo"),
    ("", "no board chosen: use BOARD=<name>, one of: lcd_a, oled_b, solo"),
])
def test_unknown_board(env, board, expect):
    for cmd in ("deploy", "run", "build"):
        if cmd == "build" and not board:
            continue                      # build without a board is the all-boards (mip) tree
        code, out, err = env.run(cmd, "--board", board)
        assert code == 2
        assert one_line_error(err) == "deploy: " + expect
        assert env.calls() == []          # checked before talking to any device


def test_not_enough_flash(env):
    env.dev()["blocks"] = 12              # 48 KiB of flash; the tree needs ~17 blocks
    code, out, err = env.run("deploy", "--board", "lcd_a")
    assert code == 2
    line = one_line_error(err)
    assert "not enough flash on the device: this deploy needs about" in line and "KiB is free" in line
    assert len(env.calls()) == 2 and env.device_files() == set()


def test_copy_failing_half_way_is_exit_1(env):
    env.state["mip_fail"] = True
    code, out, err = env.run("deploy", "--board", "oled_b")
    assert code == 1
    assert "mip could not install ssd1306" in one_line_error(err)


def test_unplugged_half_way_then_the_next_deploy_copies_the_rest(env):
    env.dev()["unplug_after_cp"] = 3
    code, out, err = env.run("deploy", "--board", "lcd_a")
    assert code == 1
    line = one_line_error(err)
    assert "the device on /dev/ttyACM0 went away while copying (unplugged, or it reset)" in line
    assert "run the deploy again" in line
    assert len(env.device_files()) == 3
    del env.dev()["unplug_after_cp"]
    code, out, err = env.run("deploy", "--board", "lcd_a")
    assert code == 0, err
    tree = expected_tree(["lcd_a", "_lcd", "_base"])
    assert "copied %d files" % (len(tree) - 3) in out
    assert env.device_files() == tree | {".deployed"}


def test_cli_errors_are_one_line_without_traceback(env):
    env.state["devices"] = []
    env.save()
    r = subprocess.run([sys.executable, "-m", "tools.deploy", "deploy",
                        "--board", "waveshare_lcd13"], capture_output=True, text=True)
    assert r.returncode == 2
    assert one_line_error(r.stderr).startswith("deploy: no device connected")


# -- the real tree ----------------------------------------------------------------------------------

def test_build_cli_reports_mpy_size(tmp_path):
    out = str(tmp_path / "pico")
    r = subprocess.run([sys.executable, "-m", "tools.deploy", "build", "--out", out],
                       capture_output=True, text=True)
    assert r.returncode == 0, r.stderr
    total = 0
    for base, _dirs, files in os.walk(out):
        for f in files:
            path = os.path.join(base, f)
            if f.endswith(".mpy"):
                total += os.path.getsize(path)
                with open(path, "rb") as fh:
                    head = fh.read(4)
                assert head[:2] == b"M\x06", path
                assert (head[2] >> 2) in (0, deploy.MPY_ARCHES.index("armv6m")), path
            else:
                assert f in ("main.py", "boot.py") or not f.endswith(".py"), path
    assert ".mpy total %d bytes" % total in r.stdout
    assert not os.path.exists(os.path.join(out, "board.cfg"))
    names = set(os.listdir(os.path.join(out, "boards")))
    assert "sim.mpy" not in names
    assert {n + ".mpy" for n in deploy.board_names()} <= names


def firmware_copy(tmp_path):
    """The real firmware/ tree copied (its fonts and their checksums included), to damage."""
    import shutil
    dst = str(tmp_path / "firmware")
    shutil.copytree(os.path.join(ROOT, "firmware"), dst,
                    ignore=shutil.ignore_patterns("__pycache__", "*.pyc"))
    return dst


def build_cli(monkeypatch, capsys, fw, board, tmp_path):
    """`python -m tools.deploy build --src` on firmware tree `fw`: (exit code, stdout, stderr)."""
    monkeypatch.setattr(deploy, "FIRMWARE", fw)
    args = ["build", "--src", "--out", str(tmp_path / "out")] + (["--board", board] if board else [])
    code = deploy.main(args)
    out, err = capsys.readouterr()
    return code, out, err


@pytest.mark.parametrize("board", [None, "waveshare_lcd13", "oled_diy"])
@pytest.mark.parametrize("damage", ["bit", "cut", "empty", "missing", "no sums", "not in sums"])
def test_build_refuses_a_damaged_font_in_one_line(tmp_path, monkeypatch, capsys, board, damage):
    """The build checks every font it ships against the SHA-256 `make fonts` wrote beside them
    (firmware/fonts/SHA256SUMS): a bit flipped, a file cut, emptied or gone, the checksums gone or
    without the file: one line, exit code 2, nothing half-built shipped."""
    fw = firmware_copy(tmp_path)
    font = (deploy.board_font(board, firmware_dir=fw) if board else "fonts/f8x14.bin")
    path = os.path.join(fw, font)
    sums = os.path.join(fw, deploy.FONT_SUMS)
    data = open(path, "rb").read()
    if damage == "bit":
        data = data[:300] + bytes([data[300] ^ 4]) + data[301:]
    elif damage == "cut":
        data = data[:len(data) // 2]
    elif damage == "empty":
        data = b""
    if damage == "missing":
        os.remove(path)
    elif damage == "no sums":
        os.remove(sums)
    elif damage == "not in sums":
        lines = open(sums).read().splitlines(True)
        open(sums, "w").write("".join(ln for ln in lines if not ln.rstrip().endswith(font[6:])))
    else:
        open(path, "wb").write(data)
    code, out, err = build_cli(monkeypatch, capsys, fw, board, tmp_path)
    if damage == "missing" and not board:
        assert code == 0, err                    # the mip layout: every font there is, checked
        return
    assert code == 2, (out, err)
    line = one_line_error(err)
    assert font in line or deploy.FONT_SUMS in line, line


@pytest.mark.parametrize("board", [None, "oled_diy", "pimoroni_pack2"])
def test_build_ships_checked_fonts_without_their_checksums(tmp_path, monkeypatch, capsys, board):
    fw = firmware_copy(tmp_path)
    code, out, err = build_cli(monkeypatch, capsys, fw, board, tmp_path)
    assert code == 0, err
    shipped = sorted(os.listdir(str(tmp_path / "out" / "fonts")))
    assert "SHA256SUMS" not in shipped and "OFL.txt" in shipped
    if board:
        assert shipped == sorted(["OFL.txt", deploy.board_font(board, firmware_dir=fw)[6:]])


def test_make_targets_call_the_deploy_tool():
    with open(os.path.join(ROOT, "Makefile")) as f:
        if not re.search(r"^-?include\s+mk/", f.read(), re.M):
            pytest.skip("the Makefile does not include mk/*.mk: `make deploy` is unreachable")
    r = subprocess.run(["make", "-n", "-s", "deploy", "BOARD=waveshare_lcd13", "PORT=/dev/ttyACM3"],
                       cwd=ROOT, capture_output=True, text=True)
    assert "No rule to make target 'deploy'" not in r.stderr, \
        "the Makefile does not include mk/*.mk (needs `-include mk/*.mk`)"
    assert '-m tools.deploy deploy --board "$BOARD" --port "$PORT"' in r.stdout   # (mk/vars.mk)


def host_arch():
    mp = find_micropython()
    if not mp:
        pytest.skip("no micropython binary")
    r = subprocess.run([mp, "-c", "import sys; print(sys.implementation._mpy >> 10)"],
                       capture_output=True, text=True)
    n = int(r.stdout.strip() or 0)
    return mp, deploy.MPY_ARCHES[n] if n < len(deploy.MPY_ARCHES) else None


IMPORT_ALL = r"""
import sys
sys.path[:0] = %(path)r
ok = 0
for m in %(mods)r:
    try:
        __import__(m)
        f = getattr(sys.modules[m], '__file__', '')
        if not f.endswith('.mpy'):
            print('FAIL', m, 'loaded from', f)
        else:
            ok += 1
    except Exception as e:
        print('FAIL', m, repr(e))
print('OK', ok)
"""


def test_every_deployed_mpy_imports_under_micropython(tmp_path):
    """The deployable tree (all boards) compiled for this host's native arch instead of armv6m (the
    unix port cannot run ARM native code), then every .mpy imported by the real MicroPython."""
    mp, arch = host_arch()
    out = str(tmp_path / "host")
    tree = deploy.build(out, None, arch, skip_arch_errors=arch is None)
    mods = []
    for rel in sorted(tree):
        if rel.endswith(".mpy"):
            m = rel[:-4].replace("/", ".")
            mods.append(m[:-len(".__init__")] if m.endswith(".__init__") else m)
    assert "domino" in mods and "boards" in mods
    fakes = os.path.join(ROOT, "host_tests", "fakes")           # fake machine / ssd1306 modules
    path = [out] + ([fakes] if os.path.isdir(fakes) else [])
    r = subprocess.run([mp, "-c", IMPORT_ALL % {"path": path, "mods": mods}], capture_output=True,
                       text=True, timeout=60)
    assert r.returncode == 0, r.stderr
    assert "FAIL" not in r.stdout, r.stdout
    assert r.stdout.strip().splitlines()[-1] == "OK %d" % len(mods)


def test_package_json_is_current_and_complete():
    with open(os.path.join(ROOT, "package.json")) as f:
        text = f.read()
    assert text == deploy.package_json_text(), \
        "package.json is out of date with firmware/ and boards/: run `make package-json` and commit it"
    pkg = json.loads(text)
    targets = [t for t, _ in pkg["urls"]]
    assert "main.py" in targets and "board.cfg" not in targets
    assert "boards/sim.py" not in targets
    for name in deploy.board_names():
        assert "boards/%s.py" % name in targets
    for target, src in pkg["urls"]:
        assert os.path.isfile(os.path.join(ROOT, src)), src
    assert ["ssd1306", "latest"] in pkg["deps"]


def test_package_json_mip_install_layout(env, tmp_path):
    """mpremote's own mip code reads our package.json from a local path: files land where the firmware
    expects them (with --target /), every board and no board.cfg."""
    code, out, err = env.run("package-json")
    assert code == 0, err
    with open(deploy.PACKAGE_JSON) as f:
        pkg = json.load(f)
    assert sorted(t for t, _ in pkg["urls"]) == sorted(
        list(FIRMWARE_FILES) + ["boards/__init__.py"]
        + ["boards/%s.py" % m for m in ("_base", "_lcd", "lcd_a", "oled_b", "solo")])
    assert pkg["deps"] == [["ssd1306", "latest"]]
    code, out, err = env.run("package-json", "--check")
    assert code == 0


def test_native_code_needs_the_same_mpy_sub_version(env):
    env.dev()["mpy"] = 6 | 2 << 8 | 4 << 10          # native code of another .mpy sub-version
    code, out, err = env.run("deploy", "--board", "lcd_a")
    assert code == 2
    assert "loads native code of .mpy 6.2, but drivers/fast.mpy was built as 6.3" in one_line_error(err)
    assert env.device_files() == set()


def test_wrong_chip_override_is_caught(env):
    code, out, err = env.run("deploy", "--board", "lcd_a", "--chip", "rp2350")   # an RP2040 device
    assert code == 2
    assert "native code built for armv7m cannot run on /dev/ttyACM0 (a armv6m device)" in one_line_error(err)


# -- the real mpremote, against a pretend Pico on a pseudo-terminal ----------------------------------

@pytest.fixture
def pty_device(env, tmp_path, monkeypatch):
    """The synthetic tree deployed by the pinned mpremote itself (not the fake) to a pty served by
    host_tests/pty_device.py, whose code runs in the real MicroPython: proves mpremote accepts the
    chained command lines and the probe, and that what lands on the device is the built tree."""
    if not hasattr(os, "openpty") or sys.platform == "win32":
        pytest.skip("needs a pseudo-terminal")
    mp, arch = host_arch()
    if arch is None:
        pytest.skip("this micropython has no native emitter")
    real = os.path.join(os.path.dirname(sys.executable), "mpremote")
    if not os.path.exists(real):
        pytest.skip("no mpremote in this venv")
    monkeypatch.setenv("MPREMOTE", real)
    # The unix port reports its own arch: build "rp2040" for it, so its native code loads there too.
    monkeypatch.setitem(deploy.CHIPS, "rp2040", arch)
    root = str(tmp_path / "pty-dev")
    os.makedirs(os.path.join(root, "saves"))
    with open(os.path.join(root, "saves", "slot1"), "w") as f:
        f.write("user data")
    proc = subprocess.Popen([sys.executable, os.path.join(ROOT, "host_tests", "pty_device.py"), root, mp],
                            stdout=subprocess.PIPE, text=True)
    try:
        port = proc.stdout.readline().strip()
        yield port, root, mp
    finally:
        proc.kill()
        proc.wait()


def test_real_mpremote_deploys_to_a_pty_device(env, pty_device):
    port, root, mp = pty_device
    code, out, err = env.run("deploy", "--board", "lcd_a", "--port", port, "--chip", "rp2040")
    assert code == 0, err
    built = os.path.join(deploy.BUILD, "rp2040")
    for rel in expected_tree(["lcd_a", "_lcd", "_base"]):
        with open(os.path.join(built, rel), "rb") as a, open(os.path.join(root, rel), "rb") as b:
            assert a.read() == b.read(), rel
    with open(os.path.join(root, "saves", "slot1")) as f:
        assert f.read() == "user data"
    # What landed runs: import the deployed .mpy modules on the "device" with the real MicroPython.
    r = subprocess.run([mp, "-c", "import sys; sys.path[:0] = [%r]; import drivers.fast, ui.screen, "
                        "boards.lcd_a; print(drivers.fast.add(2, 3), ui.screen.f())" % root],
                       capture_output=True, text=True)
    assert r.stdout.split() == ["5", "1"], r.stderr
    code, out, err = env.run("deploy", "--board", "lcd_a", "--port", port, "--chip", "rp2040")
    assert code == 0, err
    assert "nothing to copy" in out
    code, out, err = env.run("deploy", "--board", "solo", "--port", port, "--chip", "rp2040")
    assert code == 0, err
    assert not os.path.exists(os.path.join(root, "boards", "lcd_a.mpy"))
    assert not os.path.exists(os.path.join(root, "boards", "_lcd.mpy"))
    with open(os.path.join(root, "board.cfg")) as f:
        assert f.read() == "solo\n"
