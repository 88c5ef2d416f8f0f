"""The emulated Pico on a USB cable: its serial port (the CDC) on a pseudo-terminal, so the real
mpremote, and so `make deploy`, talk to it as to /dev/ttyACM0 (docs/DEPLOY.md, "Tested on the
emulated Pico").

    python -m tools.emu.usb_pty [--board B] [--image pico|pico_w] [--flash FILE] [--port LINK]

boots stock MicroPython (build/pico_emu, `make pico-emu`; --image pico_w: the Pico W's build) with the
flash kept in FILE (default build/pico_usb/flash.img, flash-pico_w.img for the W; a missing file is an
erased Pico fresh from its UF2), makes LINK (default
build/pico_usb/ttyACM0) point at the pty, prints it and serves it until Ctrl-C. The link exists only
while the device is enumerated: it goes during a reset, like /dev/ttyACM0. With --board the board's
buttons are released, its display decoded, and each picture it shows is written to
build/pico_usb/screen.png. `make pico-usb BOARD=...` runs this.

From Python (the tests): `with EmulatedPico(flash, port, board=...) as pico: pico.wait_up()`, then
give `pico.port` to mpremote; `pico.sent`/`received` count the bytes over the cable, `pico.shots()`
the pictures, `pico.close()` pulls the plug.
"""
import json
import os
import pty
import select
import shutil
import signal
import subprocess
import sys
import threading
import time
import tty

from tools import cli
from tools.paths import BUILD
from tools.emu import harness as emu   # build/pico_emu, set up by `make pico-emu`
from tools.emu import wiring

DEFAULT_DIR = os.path.join(BUILD, "pico_usb")
BACKLOG = 1 << 16      # bytes from the device kept for a port nobody reads (the pty holds ~4 KB more)


class EmulatedPico:
    """One emulated Pico behind a pty; start() plugs it in, close() pulls the plug.

    flash: the file holding its filesystem (kept across resets and runs). port: where the symlink
    to the pty goes (what mpremote is given). board: release its buttons, power it from USB (VBUS)
    and decode its display into shots (in shots_dir, one each time the display has been still for
    idle_ms of device time after drawing)."""

    def __init__(self, flash, port, board=None, shots_dir=None, idle_ms=300, gpio_high=None,
                 flash_timing=False, log=None, node="node", image=emu.DEFAULT_IMAGE):
        self.flash = os.path.abspath(flash)
        self.port = os.path.abspath(port)
        self.board = board
        self.shots_dir = os.path.abspath(shots_dir or self.port + ".shots")
        self.cmd = [node, os.path.join(emu.HOME, "usb_pty.mjs"), "--flash", self.flash,
                    "--firmware", emu.firmware(image), "--fs", emu.fs_arg(image)]
        high = list(gpio_high if gpio_high is not None else
                    (wiring.released(board) if board else [wiring.VBUS]))
        if high:
            self.cmd += ["--gpio-high", ",".join(str(g) for g in high)]
        if board:
            kind, wire = wiring.display(board)
            self.display = kind, wire
            self.cmd += ["--" + kind, ",".join("%s=%d" % kv for kv in sorted(wire.items())),
                         "--shots", self.shots_dir, "--idle-ms", str(idle_ms)]
        else:
            self.display = None
        if flash_timing:
            self.cmd.append("--flash-timing")
        self.log = log
        self.events = []
        self.cond = threading.Condition()
        self.proc = None
        self.master = self.slave = None
        self.tty = None
        self.sent = 0          # bytes the PC sent to the device (while it was up)
        self.received = 0      # bytes the device sent to the PC
        self.up = False

    # -- plugging in and out
    def start(self):
        why = emu.missing()
        if why:
            raise emu.EmuError(why)
        emu.sync()
        os.makedirs(os.path.dirname(self.port), exist_ok=True)
        shutil.rmtree(self.shots_dir, ignore_errors=True)
        self.master, self.slave = pty.openpty()
        tty.setraw(self.slave)     # a USB serial port passes bytes as they are
        self.tty = os.ttyname(self.slave)
        os.set_blocking(self.master, False)
        evr, evw = os.pipe()
        self.proc = subprocess.Popen(self.cmd + ["--events-fd", str(evw)], stdin=subprocess.PIPE,
                                     stdout=subprocess.PIPE, stderr=self.log, pass_fds=(evw,), bufsize=0)
        os.close(evw)
        self._ev = os.fdopen(evr, "r")
        self._threads = [threading.Thread(target=self._events, daemon=True),
                         threading.Thread(target=self._pump, daemon=True)]
        for t in self._threads:
            t.start()
        return self

    def close(self):
        """Pull the plug: the port goes, the emulator stops; the flash file keeps what was written."""
        self._unlink()
        self.up = False
        if self.proc and self.proc.poll() is None:
            self.proc.kill()
            self.proc.wait()
        fds, self.master, self.slave = (self.master, self.slave), None, None
        for fd in fds:
            if fd is not None:
                try:
                    os.close(fd)
                except OSError:
                    pass
        for t in getattr(self, "_threads", ()):
            t.join(5)

    def __enter__(self):
        return self.start()

    def __exit__(self, *exc):
        self.close()

    # -- waiting for what the device does
    def mark(self):
        """A point in the event list: wait_*(after=mark) look only at what comes later."""
        with self.cond:
            return len(self.events)

    def wait(self, pred, timeout, after=0):
        """The first event from `after` on for which pred(event) holds, or None after timeout s."""
        end = time.monotonic() + timeout
        with self.cond:
            while True:
                for ev in self.events[after:]:
                    if pred(ev):
                        return ev
                left = end - time.monotonic()
                if left <= 0 or self.proc.poll() is not None:
                    return None
                self.cond.wait(min(left, 1.0))

    def wait_up(self, timeout=120, after=0):
        """The port is there (the device enumerated on USB)."""
        return self.wait(lambda e: e["ev"] == "up", timeout, after)

    def wait_reset(self, timeout=120, after=0):
        return self.wait(lambda e: e["ev"] == "reset", timeout, after)

    def shots(self, after=0):
        """[(event, picture bytes)] of the shots from `after` on."""
        with self.cond:
            evs = [e for e in self.events[after:] if e["ev"] == "shot"]
        out = []
        for e in evs:
            with open(e["file"], "rb") as f:
                out.append((e, f.read()))
        return out

    # -- internals
    def _link(self):
        tmp = self.port + ".new"
        try:
            os.unlink(tmp)
        except OSError:
            pass
        os.symlink(self.tty, tmp)
        os.replace(tmp, self.port)

    def _unlink(self):
        try:
            os.unlink(self.port)
        except OSError:
            pass

    def _events(self):
        for line in self._ev:
            try:
                ev = json.loads(line)
            except ValueError:
                continue
            if ev.get("ev") == "up":
                self.up = True
                self._link()
            elif ev.get("ev") == "reset":
                self.up = False
                self._unlink()
            with self.cond:
                ev["i"] = len(self.events)
                ev["wall"] = time.monotonic()
                self.events.append(ev)
                self.cond.notify_all()
        with self.cond:
            self.cond.notify_all()

    def _pump(self):
        """Bytes both ways between the pty and the emulator. What the device sends waits while the
        pty's buffer is full (a reader catches up), up to BACKLOG bytes; beyond that nobody is
        reading the port and the rest is dropped, as a USB host drops what no program reads."""
        out = self.proc.stdout.fileno()
        inp = self.proc.stdin
        master = self.master
        backlog = b""
        while True:
            try:
                r, w, _ = select.select([master, out], [master] if backlog else [], [], 0.5)
            except (OSError, ValueError):
                return
            if out in r:
                data = os.read(out, 65536)
                if not data:
                    return
                self.received += len(data)
                backlog = (backlog + data)[:BACKLOG]
            if backlog and (w or out in r):
                try:
                    backlog = backlog[os.write(master, backlog):]
                except BlockingIOError:
                    pass
                except OSError:
                    return
            if master in r:
                try:
                    data = os.read(master, 65536)
                except BlockingIOError:
                    continue
                except OSError:
                    return
                if self.up and data:
                    self.sent += len(data)
                    try:
                        inp.write(data)
                    except OSError:
                        return


def shot_png(pico, data, path):
    """Save a shot as a PNG (RGB565 big-endian for an ST7789, MONO_VLSB for an SSD1306)."""
    from PIL import Image
    kind, wire = pico.display
    w, h = wire["w"], wire["h"]
    if kind == "st7789":
        px = bytearray()
        for i in range(0, len(data), 2):
            v = data[i] << 8 | data[i + 1]
            px += bytes(((v >> 11) * 255 // 31, (v >> 5 & 63) * 255 // 63, (v & 31) * 255 // 31))
        img = Image.frombytes("RGB", (w, h), bytes(px))
    else:
        img = Image.new("L", (w, h))
        img.putdata([255 if data[(y >> 3) * w + x] >> (y & 7) & 1 else 0 for y in range(h) for x in range(w)])
    img.save(path)


def main(argv=None):
    p = cli.parser("usb_pty", settings={"--board": "BOARD", "--image": "IMAGE"},
                   description=__doc__.split("\n\n")[0])
    p.add_argument("--board", default="", choices=[""] + sorted(wiring.WIRING), metavar="BOARD",
                   help="release its buttons and decode its display: %s" % ", ".join(sorted(wiring.WIRING)))
    p.add_argument("--image", default=emu.DEFAULT_IMAGE, choices=sorted(emu.IMAGES),
                   help="the MicroPython build it boots: pico (RPI_PICO) or pico_w (RPI_PICO_W)")
    p.add_argument("--flash", type=cli.typed(cli.out_file), help="its flash file (default "
                   "build/pico_usb/flash.img, flash-pico_w.img for the W: the two filesystems differ)")
    p.add_argument("--port", default=os.path.join(DEFAULT_DIR, "ttyACM0"), type=cli.typed(cli.out_file),
                   help="where its serial port's pseudo-terminal is linked")
    a = p.parse_args(argv)
    if not a.flash:
        a.flash = os.path.join(DEFAULT_DIR, "flash.img" if a.image == "pico" else "flash-%s.img" % a.image)
    if a.board and a.board not in wiring.WIRING:
        print("usb_pty: unknown board %r; one of %s" % (a.board, ", ".join(sorted(wiring.WIRING))))
        return 2
    try:
        pico = EmulatedPico(a.flash, a.port, board=a.board or None, image=a.image).start()
    except emu.EmuError as e:
        print("usb_pty: %s" % e)
        return 2
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(0))
    screen = os.path.join(os.path.dirname(pico.port), "screen.png")
    try:
        if not pico.wait_up(120):
            print("usb_pty: the emulated Pico did not come up on USB")
            return 1
        port = os.path.relpath(pico.port)
        print("emulated Pico on %s (flash: %s); Ctrl-C unplugs it. Try: make deploy BOARD=%s PORT=%s"
              % (port, os.path.relpath(pico.flash), a.board or "<board>", port), flush=True)
        if pico.display:
            print("its display: %s" % os.path.relpath(screen), flush=True)
        seen = 0
        while pico.proc.poll() is None:
            now = pico.mark()
            shots = pico.shots(after=seen)
            seen = now
            if shots:
                shot_png(pico, shots[-1][1], screen)
            time.sleep(0.5)
    except KeyboardInterrupt:
        pass
    finally:
        pico.close()
    return 0


if __name__ == "__main__":
    sys.exit(main())
