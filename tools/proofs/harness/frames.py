"""CPython side of the UI tests: run the MicroPython driver, decode framebuffer dumps, save PNGs."""
import json
import os
import shutil
import subprocess

from tools.find_micropython import find
from tools.paths import FIRMWARE, ROOT

# The harness's MicroPython side runs from this folder (sources) or from a compiled copy of it (the
# launcher's "drv" folder); its modules import each other by their plain names.
HERE = os.path.dirname(os.path.abspath(__file__))
DRIVER = os.path.join(HERE, "driver.py")
HEAPGAME = os.path.join(HERE, "heapgame.py")
PRIVACY = os.path.join(HERE, "privacy.py")      # imported by the driver
RAND = os.path.join(HERE, "rand.py")            # imported by the driver
GEOMETRY = os.path.join(HERE, "geometry.py")    # imported by the driver
MATCHPLAY = os.path.join(HERE, "matchplay.py")  # imported by heapgame
UNDOPEEK = os.path.join(HERE, "undopeek.py")    # imported by the driver

# The stress heap of the whole-UI runs on the 64-bit unix port (the monkey, the soak, the whole match
# against the Hard AI, the quick bench's UI games): the engine's 180K stress heap plus what the board
# fonts cost on this port (ui/font.py's code, a font's open file, code-point runs and glyph buffer,
# the text writer: 3.8 KB at boot, 5-6 KB at a match's worst point), and 2K for the languages'
# machinery that English runs too (every text passed through screen.tr, the first boot's language
# question, the settings' language row). Still harsher than the product's budget, which is judged on
# the emulated Pico W (docs/ENGINE.md, "Memory tricks").
STRESS_HEAP = "188K"

PALETTE = None


def palette():
    global PALETTE
    if PALETTE is None:
        from boards._base import PALETTE as P
        PALETTE = P
    return PALETTE


def mp_env(code, boards, harness=HERE, **extra):
    """os.environ for a harness process under the unix port: MICROPYPATH holds the firmware tree
    `code`, the folder holding boards/ and the harness (`harness`: this folder or a compiled copy),
    in that order; plus `extra` (UI_JOB, UI_ROOT, ...)."""
    e = dict(os.environ, MICROPYPATH=os.pathsep.join((code, boards, harness)))
    e.update(extra)
    return e


def mp_cwd(code):
    """The folder a harness process runs in: the firmware tree `code`. `micropython -c` puts the
    current folder first on its path, so from the repository's root the boards/ sources would be
    imported (and compiled on the heap) ahead of the compiled tree on MICROPYPATH."""
    return code


def build_mpy(dst=os.path.join(ROOT, "build", "uitest")):
    """Compile firmware/ and boards/ to .mpy with the deploy's flags (as deployed); returns (code dir,
    board dir, arch)."""
    from tools.proofs import mptest as mt
    arch = mt.compile_tree(FIRMWARE, os.path.join(dst, "fw"))
    mt.compile_tree(os.path.join(ROOT, "boards"), os.path.join(dst, "root", "boards"), "boards")
    for f in ("help.txt", "help_ru.txt"):
        shutil.copy(os.path.join(FIRMWARE, "ui", f), os.path.join(dst, "fw", "ui", f))
    for folder in ("fonts", "lang"):     # the boards' fonts and the languages, read from the files
        os.makedirs(os.path.join(dst, "fw", folder), exist_ok=True)
        for f in os.listdir(os.path.join(FIRMWARE, folder)):
            shutil.copy(os.path.join(FIRMWARE, folder, f), os.path.join(dst, "fw", folder, f))
    drv = os.path.join(dst, "drv")
    os.makedirs(drv, exist_ok=True)
    for src in (DRIVER, HEAPGAME, PRIVACY, RAND, GEOMETRY, MATCHPLAY, UNDOPEEK):
        if arch:
            base = os.path.basename(src)[:-3] + ".mpy"
            subprocess.run(mt.cross_args(arch, shipped=False) + ["-o", os.path.join(drv, base), src],
                           check=True)
        else:
            shutil.copy(src, drv)
    return os.path.join(dst, "fw"), os.path.join(dst, "root"), arch


def run(job, heap=None, code=None, boards=None, timeout=300):
    mp = find()
    if mp is None:
        raise RuntimeError("no micropython")
    cmd = [mp]
    if heap:
        cmd += ["-X", "heapsize=" + heap]
    code = code or FIRMWARE
    boards = boards or ROOT
    drv = os.path.join(os.path.dirname(code), "drv")
    if os.path.exists(drv):
        # the compiled driver, imported by a one-line launcher: the heap holds only .mpy code
        env = mp_env(code, boards, drv, UI_JOB=json.dumps(job))
    else:
        env = mp_env(code, boards, UI_JOB=json.dumps(job))
    cmd += ["-c", "import driver"]
    res = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, universal_newlines=True,
                         cwd=mp_cwd(code),
                         timeout=timeout, env=env)
    lines = res.stdout.strip().split("\n")
    try:
        out = json.loads(lines[-1])
    except (ValueError, IndexError):
        raise AssertionError("driver failed (rc %d):\n%s\n%s" % (res.returncode, res.stdout[-3000:],
                                                                 res.stderr[-3000:]))
    out["_log"] = res.stdout[:-len(lines[-1])] + res.stderr
    return out


def pixels(frame):
    """frame dict -> (w, h, list of rows of palette indices)."""
    w, h, mono = frame["w"], frame["h"], frame["mono"]
    with open(frame["file"], "rb") as f:
        data = f.read()
    rows = []
    for y in range(h):
        row = []
        for x in range(w):
            if mono:   # MONO_VLSB
                b = data[(y // 8) * w + x]
                row.append((b >> (y % 8)) & 1)
            else:      # GS4_HMSB: left pixel in the high nibble
                b = data[y * ((w + 1) // 2) + x // 2]
                row.append(b >> 4 if x % 2 == 0 else b & 15)
        rows.append(row)
    return w, h, rows


def save_png(frame, path, scale=2):
    from PIL import Image
    w, h, rows = pixels(frame)
    img = Image.new("RGB", (w, h))
    pal = ((0, 0, 0), (255, 255, 255)) if frame["mono"] else palette()
    img.putdata([pal[p] for row in rows for p in row])
    if scale != 1:
        img = img.resize((w * scale, h * scale), Image.NEAREST)
    img.save(path)


def heap_game(code, boards, variant, players, kinds, think_ms, heap, size="240x240", fake_ms=0, root=None,
              timeout=600):
    """Run heapgame.py (compiled) at `heap`; returns its `key value` lines as a dict."""
    drv = os.path.join(os.path.dirname(code), "drv")
    env = mp_env(code, boards, drv, UI_ROOT=root or "/tmp/ui_heap",
                 UI_JOB="%s %d %s %d %s %d" % (variant, players, ",".join(kinds), think_ms, size, fake_ms))
    cmd = [find(), "-X", "heapsize=" + heap, "-c", "import heapgame"]
    res = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, universal_newlines=True,
                         cwd=mp_cwd(code),
                         timeout=timeout, env=env)
    out = {"_log": res.stdout + res.stderr, "_rc": res.returncode}
    for ln in res.stdout.split("\n"):
        if " " in ln:
            k, v = ln.split(" ", 1)
            out[k] = int(v) if v.lstrip("-").isdigit() else v
    return out
