"""The emulated Pico from Python: set it up, build its flash, run it, read what it did (docs/PICO_EMU.md).

    python -m tools.emu setup [--rp2emu DIR]   copy the firmware and npm-install rp2040js
    python -m tools.emu check                  say whether it is ready (exit 0) or how to get it

Pieces (each usable alone):
  setup() / missing()       build/pico_emu: stock MicroPython RPI_PICO (from tools/emu/images), the
                            boot ROM, rp2040js pinned by tools/emu/package-lock.json, our .mjs
  flash_image(files)        a littlefs2 image for the RPI_PICO filesystem ({device path: bytes})
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
IMAGES = os.path.join(HERE, "images")      # the pinned images travel with the repo (images/README.md)
RP2EMU = os.environ.get("PICO_EMU_RP2EMU") or IMAGES
FROM_RP2EMU = ("firmware.uf2", "bootrom.mjs")          # stock MicroPython v1.28.0 RPI_PICO, boot ROM B1
NPM_FILES = ("package.json", "package-lock.json")
HOW = ("the emulated Pico needs stock MicroPython's RPI_PICO firmware.uf2 and bootrom.mjs (tools/emu/images, "
       "or a folder named by PICO_EMU_RP2EMU), node >= 18 and npm, then run `make pico-emu`")

# RPI_PICO's filesystem: rp2.Flash() = the last 1408 KiB of the 2 MiB flash, littlefs2 with
# MicroPython's settings (extmod/vfs_lfs.c: readsize 32, progsize 256, lookahead 32).
BLOCK_SIZE = 4096
BLOCK_COUNT = 1408 * 1024 // BLOCK_SIZE


class EmuError(Exception):
    pass


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


def flash_image(files):
    """A littlefs2 image of {device path: bytes} (folders made as needed), as bytes."""
    from littlefs import LittleFS
    fs = LittleFS(block_size=BLOCK_SIZE, block_count=BLOCK_COUNT, read_size=32, prog_size=256,
                  lookahead_size=32, cache_size=1024, block_cycles=100)
    for path in sorted(files):
        parent = path.rsplit("/", 1)[0]
        if parent:
            fs.makedirs(parent, exist_ok=True)
        with fs.open(path, "wb") as f:
            f.write(files[path])
    return bytes(fs.context.buffer)


def read_flash(image, path):
    """A file's bytes from a littlefs image (None when it is not there): what the device wrote."""
    from littlefs import LittleFS
    fs = LittleFS(block_size=BLOCK_SIZE, block_count=BLOCK_COUNT, read_size=32, prog_size=256,
                  lookahead_size=32, cache_size=1024, block_cycles=100, mount=False)
    fs.context.buffer = bytearray(image)
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
        device_s=0, flash_timing=False, keep_flash=False, quiet=True, node="node"):
    """Run the emulated Pico once. flash: image bytes (flash_image). script: a .py file sent over the
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
        cmd = [node, os.path.join(HOME, "run.mjs"), "--flash", img, "--timeout", str(timeout),
               "--out", tmp]
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
    if argv[:1] == ["setup"]:
        src = argv[2] if argv[1:2] == ["--rp2emu"] and len(argv) > 2 else RP2EMU
        why = setup(src)
        if why:
            print("pico_emu: not set up (the emulated-Pico tests will skip): " + why)
            return 0
        print("pico_emu: ready in build/pico_emu")
        return 0
    if argv[:1] == ["check"]:
        why = missing()
        print("pico_emu: " + (why or "ready"))
        return 1 if why else 0
    if argv[:1] in (["--help"], ["-h"]):
        print("usage: python -m tools.emu setup [--rp2emu DIR] | check\n\n" + __doc__.strip())
        return 0
    sys.stderr.write("usage: python -m tools.emu setup [--rp2emu DIR] | check\n")
    return 2
