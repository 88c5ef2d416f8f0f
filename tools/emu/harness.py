"""The emulated Pico from Python: set it up, build its flash, run it, read what it did (docs/PICO_EMU.md).

    python -m tools.emu setup [--rp2emu DIR]   copy the firmware images and npm-install rp2040js
    python -m tools.emu check                  say whether it is ready (exit 0) or how to get it

Pieces (each usable alone):
  setup() / missing()       build/pico_emu: stock MicroPython RPI_PICO and RPI_PICO_W (from
                            tools/emu/images), the boot ROM, rp2040js pinned by
                            tools/emu/package-lock.json, our .mjs
  IMAGES, geometry(image)   the two images ("pico", "pico_w") and where each one's filesystem lives
                            (read from the image itself: uf2info.py)
  flash_image(files, image) a littlefs2 image for that image's filesystem ({device path: bytes})
  run(...)                  node run.mjs: a script over the raw REPL, or main.py as at power-on, with
                            buttons driven by a plan in device time and the display decoded -> Result
The board wiring (display bus, buttons) is in wiring.py beside this file; key words -> plans in keys.py.
"""
import json
import os
import shutil
import subprocess
import sys
import tempfile

from tools.paths import BUILD

HERE = os.path.dirname(os.path.abspath(__file__))
HOME = os.path.join(BUILD, "pico_emu")
IMAGES_DIR = os.path.join(HERE, "images")  # the pinned images travel with the repo (images/README.md)
RP2EMU = os.environ.get("PICO_EMU_RP2EMU") or IMAGES_DIR
# Stock MicroPython v1.28.0 builds: the image choice every harness entry takes -> its file
IMAGES = {"pico": "firmware.uf2", "pico_w": "firmware-pico-w.uf2"}
DEFAULT_IMAGE = "pico"
FROM_RP2EMU = tuple(IMAGES.values()) + ("bootrom.mjs",)   # (and the RP2040 B1 boot ROM)
NPM_FILES = ("package.json", "package-lock.json")
HOW = ("the emulated Pico needs stock MicroPython's RPI_PICO and RPI_PICO_W images (firmware.uf2, "
       "firmware-pico-w.uf2) and bootrom.mjs (tools/emu/images, or a folder named by "
       "PICO_EMU_RP2EMU), node >= 18 and npm, then run `make pico-emu`")

# The device budget (docs/benchmarks.md): at least this free after a collection at the worst point
# of every whole match on the Pico W, the image with the least heap (its radio stack: 40.7 KB of
# static RAM).
W_FREE_BUDGET = 64 * 1024

# The filesystem: rp2.Flash(), littlefs2 with MicroPython's settings (extmod/vfs_lfs.c: readsize 32,
# progsize 256, lookahead 32) in 4 KiB blocks; where and how many, the image says (geometry()).
BLOCK_SIZE = 4096
_GEOMETRY = {}


class EmuError(Exception):
    pass


def firmware(image=DEFAULT_IMAGE):
    """The path of an image's .uf2 in build/pico_emu."""
    if image not in IMAGES:
        raise EmuError("no image %r: one of %s" % (image, ", ".join(IMAGES)))
    return os.path.join(HOME, IMAGES[image])


def geometry(image=DEFAULT_IMAGE):
    """(flash offset, bytes) of the image's filesystem, from the block device its binary info declares."""
    if image not in _GEOMETRY:
        from tools.emu import uf2info
        path = firmware(image)
        try:
            with open(path, "rb") as f:
                _GEOMETRY[image] = uf2info.filesystem(f.read())
        except OSError:
            raise EmuError("no %s in build/pico_emu: %s" % (IMAGES[image], HOW))
        except uf2info.Uf2Error as e:
            raise EmuError("%s: %s" % (path, e))
    return _GEOMETRY[image]


def block_count(image=DEFAULT_IMAGE):
    return geometry(image)[1] // BLOCK_SIZE


def fs_arg(image=DEFAULT_IMAGE):
    """The .mjs side's --fs OFFSET:BYTES for an image (they take the geometry from here)."""
    return "0x%x:%d" % geometry(image)


def missing():
    """None when build/pico_emu can run, else why not and how to get it."""
    for f in FROM_RP2EMU:
        if not os.path.exists(os.path.join(HOME, f)):
            return "no %s in build/pico_emu: %s" % (f, HOW)
    if not os.path.isdir(os.path.join(HOME, "node_modules", "rp2040js")):
        return "rp2040js is not installed in build/pico_emu: %s" % HOW
    if not shutil.which("node"):
        return "no `node` on PATH: %s" % HOW
    try:
        import littlefs  # noqa: F401
    except ImportError:
        return "littlefs-python is missing: run `make venv` (requirements.txt pins it)"
    return None


def setup(rp2emu=RP2EMU, log=print):
    """Fill build/pico_emu. Returns None, or why it could not (nothing is half-done then)."""
    if not all(os.path.exists(os.path.join(rp2emu, f)) for f in FROM_RP2EMU):
        return "no %s: %s" % (rp2emu, HOW)
    if not shutil.which("node") or not shutil.which("npm"):
        return "no node/npm on PATH: %s" % HOW
    os.makedirs(HOME, exist_ok=True)
    for f in FROM_RP2EMU:
        _copy_if_changed(os.path.join(rp2emu, f), os.path.join(HOME, f))
    fresh = False
    for f in NPM_FILES:
        fresh |= _copy_if_changed(os.path.join(HERE, f), os.path.join(HOME, f))
    if fresh or not os.path.isdir(os.path.join(HOME, "node_modules", "rp2040js")):
        log("pico_emu: npm ci (rp2040js, uf2) in build/pico_emu")
        r = subprocess.run(["npm", "ci", "--no-audit", "--no-fund", "--loglevel=error"], cwd=HOME,
                           stdout=subprocess.PIPE, stderr=subprocess.STDOUT, universal_newlines=True)
        if r.returncode:
            shutil.rmtree(os.path.join(HOME, "node_modules"), ignore_errors=True)
            return "npm ci failed in build/pico_emu: %s" % (r.stdout.strip().splitlines() or ["?"])[-1]
    sync()
    return None


def _copy_if_changed(src, dst):
    with open(src, "rb") as f:
        data = f.read()
    if os.path.exists(dst):
        with open(dst, "rb") as f:
            if f.read() == data:
                return False
    with open(dst, "wb") as f:
        f.write(data)
    return True


def sync():
    """Our .mjs files next to node_modules (ES modules resolve packages from their own folder)."""
    for f in sorted(os.listdir(HERE)):
        if f.endswith(".mjs"):
            _copy_if_changed(os.path.join(HERE, f), os.path.join(HOME, f))


# --- the flash ---------------------------------------------------------------------------------
def tree_files(local, dev="/"):
    """{device path: bytes} of a folder's files (sorted walk)."""
    out = {}
    for base, dirs, files in os.walk(local):
        dirs.sort()
        rel = os.path.relpath(base, local)
        d = dev.rstrip("/") + ("" if rel == "." else "/" + rel.replace(os.sep, "/"))
        for f in sorted(files):
            with open(os.path.join(base, f), "rb") as fh:
                out[d + "/" + f] = fh.read()
    return out


def flash_image(files, image=DEFAULT_IMAGE):
    """A littlefs2 image of {device path: bytes} (folders made as needed) for `image`'s filesystem."""
    from littlefs import LittleFS
    fs = LittleFS(block_size=BLOCK_SIZE, block_count=block_count(image), read_size=32, prog_size=256,
                  lookahead_size=32, cache_size=1024, block_cycles=100)
    for path in sorted(files):
        parent = path.rsplit("/", 1)[0]
        if parent:
            fs.makedirs(parent, exist_ok=True)
        with fs.open(path, "wb") as f:
            f.write(files[path])
    return bytes(fs.context.buffer)


def read_flash(flash, path, image=DEFAULT_IMAGE):
    """A file's bytes from a littlefs image of `image`'s filesystem (None when it is not there): what
    the device wrote."""
    from littlefs import LittleFS
    fs = LittleFS(block_size=BLOCK_SIZE, block_count=block_count(image), read_size=32, prog_size=256,
                  lookahead_size=32, cache_size=1024, block_cycles=100, mount=False)
    fs.context.buffer = bytearray(flash)
    fs.mount()
    try:
        with fs.open(path, "rb") as f:
            return f.read()
    except Exception:
        return None


# --- a run -------------------------------------------------------------------------------------
class Result:
    """What a run left: rc, stdout, stderr, the report (device times in ms) and the display's shots."""

    def __init__(self, rc, stdout, stderr, report, shots_bin, flash=None):
        self.rc = rc
        self.stdout = stdout
        self.stderr = stderr
        self.report = report or {}
        self._shots = shots_bin
        self.flash = flash

    @property
    def display(self):
        return self.report.get("display") or {}

    def shots(self):
        """[(label, device ms, image bytes)]: RGB565 big-endian (ST7789) or the 1 KB MONO_VLSB RAM."""
        out = []
        for s in self.report.get("shots", []):
            out.append((s["label"], s["t"], self._shots[s["offset"]:s["offset"] + s["bytes"]]))
        return out

    def marks(self):
        return [(m["label"], m["t"]) for m in self.report.get("marks", [])]

    def windows(self):
        return self.display.get("windows", [])

    def why(self):
        """One line on how the run ended (for assertion messages)."""
        tail = (self.stderr.strip().splitlines() or [""])[-3:]
        return "exit %s (%s); console tail: %r; stderr: %s" % (
            self.rc, self.report.get("why", ""), self.report.get("console", "")[-600:], " / ".join(tail))


def run(flash, script=None, code=None, plan=(), gpio_high=(), st7789=None, ssd1306=None, timeout=600,
        device_s=0, flash_timing=False, keep_flash=False, quiet=True, node="node", image=DEFAULT_IMAGE):
    """Run the emulated Pico once, booting `image` ("pico" or "pico_w").
    flash: its filesystem's bytes (flash_image for the same image). script: a .py file sent over the
    raw REPL; code: a raw-REPL line instead; neither: main.py runs as at power-on, until the plan ends.
    st7789 / ssd1306: a display's wiring dict (boards.py). Returns a Result."""
    why = missing()
    if why:
        raise EmuError(why)
    sync()
    with tempfile.TemporaryDirectory(prefix="pico_emu-") as tmp:
        img = os.path.join(tmp, "flash.img")
        with open(img, "wb") as f:
            f.write(flash)
        cmd = [node, os.path.join(HOME, "run.mjs"), "--flash", img, "--firmware", firmware(image),
               "--fs", fs_arg(image), "--timeout", str(timeout), "--out", tmp]
        if script:
            cmd.insert(2, os.path.abspath(script))
        if code:
            cmd += ["--run", code]
        if plan:
            with open(os.path.join(tmp, "plan.json"), "w") as f:
                json.dump(list(plan), f)
            cmd += ["--plan", os.path.join(tmp, "plan.json")]
        if gpio_high:
            cmd += ["--gpio-high", ",".join(str(g) for g in gpio_high)]
        if st7789:
            cmd += ["--st7789", ",".join("%s=%d" % kv for kv in sorted(st7789.items()))]
        if ssd1306:
            cmd += ["--ssd1306", ",".join("%s=%d" % kv for kv in sorted(ssd1306.items()))]
        if device_s:
            cmd += ["--device-s", str(device_s)]
        if flash_timing:
            cmd.append("--flash-timing")
        if keep_flash:
            cmd += ["--save-flash", os.path.join(tmp, "after.img")]
        if quiet:
            cmd.append("--quiet")
        try:
            r = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, timeout=timeout + 30)
        except subprocess.TimeoutExpired:
            raise EmuError("the emulator did not stop after %d s" % (timeout + 30))
        rep = None
        shots = b""
        if os.path.exists(os.path.join(tmp, "report.json")):
            with open(os.path.join(tmp, "report.json")) as f:
                rep = json.load(f)
            with open(os.path.join(tmp, "shots.bin"), "rb") as f:
                shots = f.read()
        after = None
        if keep_flash and os.path.exists(os.path.join(tmp, "after.img")):
            with open(os.path.join(tmp, "after.img"), "rb") as f:
                after = f.read()
    return Result(r.returncode, r.stdout.decode("latin-1"), r.stderr.decode("latin-1"), rep, shots, after)


def main(argv):
    usage = "usage: python -m tools.emu setup [--rp2emu DIR] | check"
    if argv[:1] == ["setup"]:
        if argv[1:] and (len(argv) != 3 or argv[1] != "--rp2emu"):
            sys.stderr.write("pico_emu: setup takes --rp2emu DIR alone, not %s (%s)\n"
                             % (" ".join(argv[1:]), usage))
            return 2
        src = argv[2] if argv[1:] else RP2EMU
        if not os.path.isdir(src):
            sys.stderr.write("pico_emu: --rp2emu %s: no such folder (the images: tools/emu/images)\n" % src)
            return 2
        why = setup(src)
        if why:
            print("pico_emu: not set up (the emulated-Pico tests will skip): " + why)
            return 0
        print("pico_emu: ready in build/pico_emu")
        return 0
    if argv[:1] == ["check"] and len(argv) > 1:
        sys.stderr.write("pico_emu: check takes no options (%s)\n" % usage)
        return 2
    if argv[:1] == ["check"]:
        why = missing()
        print("pico_emu: " + (why or "ready"))
        return 1 if why else 0
    if argv[:1] in (["--help"], ["-h"]):
        print(usage + "\n\n" + __doc__.strip())
        return 0
    sys.stderr.write(usage + "\n")
    return 2
