"""The hobbyist's path end to end: the README's commands, run as written in a copy of the
checkout, against stock MicroPython on the emulated Pico plugged in over USB (its CDC serial on a
pseudo-terminal: tools/emu/usb_pty.py), with the pinned mpremote doing the talking. The game
must then start on its own from the flash, and the first menu frame the ST7789 gets over SPI, decoded
back into pixels, must be pixel-equal to the PC simulator's.

In `make test`: a fresh Pico, `make deploy BOARD=waveshare_lcd13 PORT=<pty>`, the game boots; the same
again copies nothing; a changed source file and help text copy exactly those two files. The rest is
`make soak-deploy` (PICO_DEPLOY_SOAK=1): a full flash refused in one line and freed as the message
says; the cable pulled in the middle of `make deploy-src`, and the next run finishing the job; `make
deploy` back to .mpy; `make run` and `make repl` on a terminal; the no-clone path (`mpremote mip
install` from a package.json served on localhost, then the board question answered over the REPL).
Numbers (files, bytes, wall times) go to build/test_deploy_pico/numbers.json.

Skips, saying how to get it, where the emulator is not set up (`make pico-emu`).
"""
import functools
import hashlib
import http.server
import json
import os
import pty
import re
import select
import shutil
import signal
import subprocess
import termios
import threading
import time

import pytest

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

from tools.emu import harness as emu  # noqa: E402
from tools.emu import keys  # noqa: E402
from tools.sim import link as sim_link  # noqa: E402
from tools.emu import wiring  # noqa: E402
from tools.emu.usb_pty import EmulatedPico  # noqa: E402
from tools.deploy import main as deploy  # noqa: E402

WHY = emu.missing() or (None if hasattr(os, "openpty") and shutil.which("make") else "needs a pty and make")
pytestmark = pytest.mark.skipif(WHY is not None, reason="emulated Pico not set up: %s" % WHY)
soak = pytest.mark.skipif(not os.environ.get("PICO_DEPLOY_SOAK"),
                          reason="long: `make soak-deploy` runs it")

BOARD = "waveshare_lcd13"
BUILD = os.path.join(ROOT, "build", "test_deploy_pico")
MPREMOTE = os.path.join(ROOT, ".venv", "bin", "mpremote")
# What a hobbyist's clone has that `make deploy` uses (copied with their times, so make sees the
# venv's stamp as up to date; .venv itself is linked).
CHECKOUT = ("Makefile", "mk", "tools", "firmware", "boards", "requirements.txt", "requirements-player.txt",
            "package.json")
BOOT_S = 240          # wall seconds allowed from a reset to the first menu frame


def record(key, value):
    """Keep a measured number in build/test_deploy_pico/numbers.json (and print it)."""
    os.makedirs(BUILD, exist_ok=True)
    path = os.path.join(BUILD, "numbers.json")
    try:
        with open(path) as f:
            numbers = json.load(f)
    except (OSError, ValueError):
        numbers = {}
    numbers[key] = value
    with open(path, "w") as f:
        json.dump(numbers, f, indent=1, sort_keys=True)
    print("%s: %s" % (key, value))


def make_checkout(dst):
    os.makedirs(dst)
    for part in CHECKOUT:
        src = os.path.join(ROOT, part)
        if os.path.isdir(src):
            shutil.copytree(src, os.path.join(dst, part),
                            ignore=shutil.ignore_patterns("__pycache__", "node_modules"))
        elif os.path.exists(src):
            shutil.copy2(src, os.path.join(dst, part))
    os.symlink(os.path.join(ROOT, ".venv"), os.path.join(dst, ".venv"))
    return dst


def user_env():
    """The environment of a person at a shell: no test doubles for mpremote."""
    env = dict(os.environ)
    for k in ("MPREMOTE", "FAKE_MPREMOTE_STATE", "PICO_BOARD", "PICO_BOARD_CFG"):
        env.pop(k, None)
    return env


def make(checkout, *args, timeout=900):
    t = time.monotonic()
    r = subprocess.run(["make"] + list(args), cwd=checkout, env=user_env(), capture_output=True, text=True,
                       timeout=timeout)
    r.wall = time.monotonic() - t
    return r


def mpremote(port, *args, timeout=600):
    return subprocess.run([MPREMOTE, "connect", port] + list(args), env=user_env(), capture_output=True,
                          text=True, timeout=timeout)


def deploy_lines(r):
    """(files the deploy listed as copied, its 'deploy:' error lines)."""
    copied = [ln[4:] for ln in r.stdout.splitlines() if ln.startswith("  + ")]
    errors = [ln for ln in r.stderr.splitlines() if ln.startswith("deploy:")]
    return copied, errors


def one_line(r):
    """The deploy's error: exactly one line, no traceback."""
    _, errors = deploy_lines(r)
    assert len(errors) == 1 and "Traceback" not in r.stderr + r.stdout, r.stdout + r.stderr
    return errors[0]


def built_tree(folder):
    out = {}
    for base, _dirs, files in os.walk(folder):
        for f in files:
            p = os.path.join(base, f)
            out[os.path.relpath(p, folder).replace(os.sep, "/")] = os.path.getsize(p)
    return out


@functools.lru_cache(maxsize=None)
def sim_menu(board):
    """The simulator's first frame for `board` (fresh data folder), as the panel gets it: a fresh
    device's first boot, so the language question (ui/settings.py AskLang), which the deployed
    device shows too until someone answers it."""
    data = os.path.join(BUILD, "sim-" + board)
    shutil.rmtree(data, ignore_errors=True)
    os.makedirs(data)
    shots, hello, _ = keys.sim_play(board, [{"idle": 1500, "max": 20000}, {"shot": "menu"}], data,
                                    env={"PICO_SIM_LANG": "ask"})
    pal = wiring.rgb565_palette(board)
    return b"".join(bytes((pal[i] >> 8, pal[i] & 0xFF)) for i in sim_link.frame_indices(hello, shots[0][2]))


def blank(img):
    return img == img[:2] * (len(img) // 2)


def drawn(e):
    """A shot event whose picture is not one flat colour."""
    if e["ev"] != "shot":
        return False
    with open(e["file"], "rb") as f:
        return not blank(f.read())


def first_frame(pico, after, timeout=BOOT_S):
    """The first drawn picture after the next boot from `after` on, and its shot event; any picture
    before it (a cleared panel) must be flat."""
    up = pico.wait_up(timeout, after)
    assert up, "the device did not come up again after %s" % pico.events[after:]
    ev = pico.wait(drawn, timeout, up["i"])
    assert ev, "no picture after boot %d: %s" % (up["boot"], pico.events[up["i"]:])
    assert not ev["problems"], ev["problems"]
    for e, img in pico.shots(up["i"]):
        if e["i"] == ev["i"]:
            return img, ev
        assert blank(img), "shot %d before the menu is not the cleared panel" % e["n"]
    raise AssertionError("unreachable")


def assert_menu(pico, after, board=BOARD):
    img, ev = first_frame(pico, after)
    assert img == sim_menu(board), "the first frame after boot %d (device %.0f ms) is not the " \
        "simulator's menu" % (ev["boot"], ev["last_byte_ms"])
    return ev


@pytest.fixture
def world(tmp_path):
    """A copy of the checkout, and a way to plug in an emulated Pico whose flash is kept in the test's
    folder (a new one, or the same again after a pulled cable)."""
    class World:
        checkout = make_checkout(str(tmp_path / "pico-domino"))
        flash = str(tmp_path / "flash.img")
        port = str(tmp_path / "dev" / "ttyACM0")
        log = open(str(tmp_path / "emu.log"), "w")
        picos = []

        def plug(self, board=BOARD):
            pico = EmulatedPico(self.flash, self.port, board=board, log=self.log).start()
            self.picos.append(pico)
            assert pico.wait_up(120), "the emulated Pico did not enumerate on USB (see %s)" % self.log.name
            return pico
    w = World()
    yield w
    for p in w.picos:
        p.close()
    w.log.close()


def deploy_and_count(w, pico, target="deploy"):
    mark, sent = pico.mark(), pico.sent
    r = make(w.checkout, target, "BOARD=" + BOARD, "PORT=" + w.port)
    assert r.returncode == 0, r.stdout + r.stderr
    copied, _ = deploy_lines(r)
    out = os.path.join(w.checkout, "build", "src" if target == "deploy-src" else "rp2040")
    tree = built_tree(out)
    stats = {"files": len(copied), "bytes": sum(tree[f] for f in copied), "usb_bytes": pico.sent - sent,
             "wall_s": round(r.wall, 1)}
    return r, copied, tree, mark, stats


class Terminal:
    """A command run on a pseudo-terminal, as a person at a shell runs it."""

    def __init__(self, argv, cwd):
        env = user_env()
        env["TERM"] = "dumb"
        self.pid, self.fd = pty.fork()
        if self.pid == 0:
            os.chdir(cwd)
            os.execvpe(argv[0], argv, env)
        self.out = b""

    def expect(self, text, timeout):
        assert self.seen(text, timeout), "waited %d s for %r; the terminal shows: %r" % (
            timeout, text, self.out[-1500:])
        return self.out

    def seen(self, text, timeout):
        """True once `text` has come within `timeout` s; False when the time ran out first."""
        end = time.monotonic() + timeout
        while text.encode() not in self.out:
            left = end - time.monotonic()
            if left <= 0:
                return False
            if select.select([self.fd], [], [], min(left, 1.0))[0]:
                try:
                    data = os.read(self.fd, 4096)
                except OSError:
                    data = b""
                assert data, "the command ended without %r: %r" % (text, self.out[-1500:])
                self.out += data
        return True

    def send(self, data):
        os.write(self.fd, data.encode() if isinstance(data, str) else data)

    def wait_raw(self, timeout):
        """Until the program has put the terminal in raw mode (Ctrl-C is then a byte, not SIGINT)."""
        end = time.monotonic() + timeout
        while termios.tcgetattr(self.fd)[3] & termios.ISIG:
            assert time.monotonic() < end, "the terminal never went raw: %r" % self.out[-1500:]
            time.sleep(0.05)

    def wait(self, timeout=60):
        """Exit status, reading on so the command never blocks on a full terminal."""
        end = time.monotonic() + timeout
        while time.monotonic() < end:
            pid, status = os.waitpid(self.pid, os.WNOHANG)
            if pid:
                os.close(self.fd)
                return os.waitstatus_to_exitcode(status)
            if select.select([self.fd], [], [], 0.2)[0]:
                try:
                    self.out += os.read(self.fd, 4096)
                except OSError:
                    pass
        os.kill(self.pid, signal.SIGKILL)
        os.waitpid(self.pid, 0)
        os.close(self.fd)
        raise AssertionError("still running after %d s: %r" % (timeout, self.out[-1500:]))


def repl_answers(checkout, port):
    """`make repl` on a terminal: Ctrl-C stops what runs, a line typed gets its answer, Ctrl-X leaves.
    Run again, as a person would, when mpremote could not open the port yet (it says "failed to
    access": the device's USB serial is being opened again after the deploy's reset)."""
    for attempt in range(3):
        term = Terminal(["make", "repl", "PORT=" + port], checkout)
        try:
            term.expect("Connected to MicroPython", 60)
            break
        except AssertionError:
            if b"failed to access" not in term.out or attempt == 2:
                raise
            term.wait(30)
            time.sleep(2)
    term.wait_raw(30)
    for _ in range(6):               # as a person does: Ctrl-C again when the prompt does not come
        term.send("\x03")           # (one sent while the game is still starting can be taken as a
        if term.seen(">>> ", 10):    # plain byte: tools/deploy/main.py's probe asks twice too)
            break
    term.expect(">>> ", 1)
    term.send("print(6 * 7)\r")
    term.expect("\r\n42\r\n", 60)
    term.send("\x18")
    assert term.wait(60) == 0, term.out


# -- make test: the README's `make deploy`, and the game it starts ---------------------------------

def test_make_deploy_boots_into_the_game_and_copies_only_changes(world):
    pico = world.plug()
    r, copied, tree, mark, stats = deploy_and_count(world, pico)
    assert sorted(copied) == sorted(tree), r.stdout
    assert "copied %d files, removed 0, 0 unchanged" % len(tree) in r.stdout
    assert "main.py" in copied and "board.cfg" in copied
    record("first_deploy", stats)
    ev = assert_menu(pico, mark)
    record("boot_to_menu_after_deploy_device_ms", round(ev["last_byte_ms"]))

    # The same again: the device's files all hash equal to the build, nothing is sent but the probe.
    r, copied, tree, mark, stats = deploy_and_count(world, pico)
    assert copied == [] and "nothing to copy: all %d files are up to date" % len(tree) in r.stdout, r.stdout
    record("second_deploy_unchanged", stats)
    assert pico.wait_reset(60, mark), "the deploy did not reset the device"

    # A change in one module and in the help text: exactly those two go.
    with open(os.path.join(world.checkout, "firmware", "eventlog.py"), "a") as f:
        f.write("\n\ndef _issue21():\n    return 21\n")
    with open(os.path.join(world.checkout, "firmware", "ui", "help.txt"), "a") as f:
        f.write("\n")
    r, copied, tree, mark, stats = deploy_and_count(world, pico)
    assert sorted(copied) == ["eventlog.mpy", "ui/help.txt"], r.stdout
    assert "copied 2 files, removed 0, %d unchanged" % (len(tree) - 2) in r.stdout
    record("third_deploy_two_changed", stats)
    assert_menu(pico, mark)
    # `make repl`, non-interactively: one line sent, its answer read.
    repl_answers(world.checkout, world.port)


# -- make soak-deploy -------------------------------------------------------------------------------

def image_with_filler(free_blocks):
    """A littlefs image for the Pico holding one big file that leaves about `free_blocks` free."""
    from littlefs import LittleFS
    size = (emu.block_count() - 2 - free_blocks) * emu.BLOCK_SIZE
    while True:
        fs = LittleFS(block_size=emu.BLOCK_SIZE, block_count=emu.block_count(), read_size=32, prog_size=256,
                      lookahead_size=32, cache_size=1024, block_cycles=100)
        with fs.open("/filler.bin", "wb") as f:
            f.write(b"\0" * size)
        if emu.block_count() - fs.used_block_count <= free_blocks:
            return bytes(fs.context.buffer)
        size += emu.BLOCK_SIZE


@soak
def test_full_flash_pulled_cable_deploy_src_run_repl(world):
    # A Pico whose flash is nearly full: refused before anything is written, in one line.
    with open(world.flash, "wb") as f:
        f.write(image_with_filler(20))
    pico = world.plug()
    mark = pico.mark()
    r = make(world.checkout, "deploy", "BOARD=" + BOARD, "PORT=" + world.port)
    assert r.returncode == 2, r.stdout + r.stderr
    line = one_line(r)
    assert "not enough flash on the device" in line and "mpremote fs rm" in line, line
    assert pico.wait_reset(5, mark) is None, "a refused deploy must not touch the device"
    # Freed as the message says; then `make deploy-src`, with the cable pulled half-way.
    assert mpremote(world.port, "fs", "rm", ":filler.bin").returncode == 0
    proc = subprocess.Popen(["make", "deploy-src", "BOARD=" + BOARD, "PORT=" + world.port],
                            cwd=world.checkout, env=user_env(), stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True)
    sent = pico.sent
    while pico.sent - sent < 60000 and proc.poll() is None:
        time.sleep(0.2)
    pico.close()
    out, err = proc.communicate(timeout=120)
    r = subprocess.CompletedProcess(proc.args, proc.returncode, out, err)
    assert r.returncode == 2, out + err                   # make's status for the deploy's exit 1
    line = one_line(r)
    assert "went away while copying (unplugged, or it reset)" in line and "run the deploy again" in line, line
    # Plugged back in: the next run copies what is missing (not everything) and the game starts.
    pico = world.plug()
    r, copied, tree, mark, stats = deploy_and_count(world, pico, "deploy-src")
    assert 0 < len(copied) < len(tree), r.stdout
    record("deploy_src_after_pulled_cable", stats)
    assert_menu(pico, mark)
    # Back to .mpy: the .py files go, the game starts again.
    r, copied, tree, mark, stats = deploy_and_count(world, pico)
    assert "removed %d" % (len([f for f in tree if f.endswith(".mpy")])) in r.stdout, r.stdout
    record("deploy_back_to_mpy", stats)
    assert_menu(pico, mark)
    # `make run`: the source tree mounted from the PC, nothing copied. Ctrl-C stops it: the Pico is
    # reset and starts the deployed game again.
    mark = pico.mark()
    term = Terminal(["make", "run", "BOARD=" + BOARD, "PORT=" + world.port], world.checkout)
    term.expect("is mounted at /remote", 120)
    img, ev = first_frame_of_run(pico, mark)
    assert img == sim_menu(BOARD)
    mark = pico.mark()
    term.send("\x03")
    term.expect("stopped: the Pico was reset and runs what is deployed on it", 120)
    assert term.wait(60) != 0
    assert_menu(pico, mark)
    # `make repl` finds the prompt (not a raw REPL left behind).
    repl_answers(world.checkout, world.port)


def first_frame_of_run(pico, after, timeout=BOOT_S):
    """`make run` starts main.py without a reset: the first drawn picture from `after` on."""
    ev = pico.wait(drawn, timeout, after)
    assert ev, "nothing drawn: %s" % pico.events[after:]
    with open(ev["file"], "rb") as f:
        return f.read(), ev


class QuietHandler(http.server.SimpleHTTPRequestHandler):
    def log_message(self, *args):
        pass


@soak
def test_no_clone_mip_install_then_the_board_question(world, tmp_path):
    """README: `mpremote mip install --target / github:<owner>/<repo>`, then the Pico asks for its
    board on first boot. Here the repo's package.json is served from the checkout on localhost, and
    its micropython-lib dependency (ssd1306) from a local index (mip's --index) holding the test
    stand-in, so the test does not depend on GitHub or micropython.org."""
    index = os.path.join(world.checkout, "mip-index")
    mpy = os.path.join(str(tmp_path), "ssd1306.mpy")
    subprocess.run([deploy.mpy_cross_exe(), "-o", mpy, "-s", "ssd1306.py",
                    os.path.join(ROOT, "host_tests", "fakes", "ssd1306.py")], check=True)
    with open(mpy, "rb") as f:
        data = f.read()
    short = hashlib.sha256(data).hexdigest()[:8]       # the index's file names, as micropython.org's
    os.makedirs(os.path.join(index, "file", short[:2]))
    with open(os.path.join(index, "file", short[:2], short), "wb") as f:
        f.write(data)
    os.makedirs(os.path.join(index, "package", "6", "ssd1306"))
    with open(os.path.join(index, "package", "6", "ssd1306", "latest.json"), "w") as f:
        json.dump({"hashes": [["ssd1306.mpy", short]], "version": "0.1.0"}, f)
    httpd = http.server.ThreadingHTTPServer(("127.0.0.1", 0),
                                            functools.partial(QuietHandler, directory=world.checkout))
    threading.Thread(target=httpd.serve_forever, daemon=True).start()
    url = "http://127.0.0.1:%d" % httpd.server_address[1]
    try:
        pico = world.plug()
        t = time.monotonic()
        sent = pico.sent
        r = mpremote(world.port, "mip", "install", "--target", "/", "--index", url + "/mip-index",
                     url + "/package.json", timeout=1800)
        assert r.returncode == 0, r.stdout + r.stderr
        with open(os.path.join(world.checkout, "package.json")) as f:
            pkg = json.load(f)
        installed = [ln for ln in r.stdout.splitlines() if ln.startswith("Installing: ")]
        assert len(installed) == len(pkg["urls"]) + 1, r.stdout          # + lib/ssd1306.mpy
        size = sum(os.path.getsize(os.path.join(world.checkout, src)) for _, src in pkg["urls"]) + len(data)
        record("mip_install", {"files": len(installed), "bytes": size, "usb_bytes": pico.sent - sent,
                               "wall_s": round(time.monotonic() - t, 1)})
    finally:
        httpd.shutdown()
    mark = pico.mark()
    assert mpremote(world.port, "reset").returncode == 0
    assert pico.wait_reset(60, mark)
    assert pico.wait_up(120, mark)
    # First boot: no board.cfg, so main.py asks on the serial console; answered from `mpremote repl`.
    term = Terminal([MPREMOTE, "connect", world.port, "repl"], world.checkout)
    term.expect("board number or name: ", BOOT_S)
    term.wait_raw(30)
    names = [n for n in re.findall(r"^  (\d+)  (\w+)", term.out.decode("latin-1"), re.M)]
    number = dict((n, i) for i, n in names)[BOARD]
    mark = pico.mark()
    term.send(number + "\r")
    img, ev = first_frame_of_run(pico, mark)
    assert img == sim_menu(BOARD)
    term.send("\x18")
    term.wait(60)
    r = mpremote(world.port, "fs", "cat", ":board.cfg")
    assert r.stdout.strip().endswith(BOARD), r.stdout + r.stderr
