"""Which font format serves the device: font-to-py's Python modules compiled to .mpy (their bytes
land on the heap when imported from the filesystem) or the binary files ui/font.py reads glyph by
glyph from flash. Runs tools/fonts/on_device.py once on the emulated Pico (docs/PICO_EMU.md, `make
pico-emu`) and prints its figures: heap per font and per format, microseconds to draw a 20-character
line and a whole 240x240 screen of text. Needs the fonts' tools (tools/fonts/build.py) and mpy-cross.

Usage: python -m tools.fonts.measure   (takes a few minutes of CPU)
"""
import json
import os
import subprocess
import sys
import tempfile

from tools import cli
from tools.deploy.main import MPY_CROSS_FLAGS
from tools.emu import harness as emu
from tools.fonts import build

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))



def mpy(src, dst):
    subprocess.run(["mpy-cross", "-march=armv6m"] + list(MPY_CROSS_FLAGS) + ["-o", dst, src],
                   check=True)
    with open(dst, "rb") as f:
        return f.read()


def main(argv=None):
    cli.parser("python -m tools.fonts.measure", description=__doc__.split("\n\n")[0]).parse_args(argv)
    files = {}
    with tempfile.TemporaryDirectory() as tmp:
        pydir = os.path.join(tmp, "py")
        bindir = os.path.join(tmp, "bin")
        build.build(out=bindir, py_dir=pydir)
        for name, _ in build.SIZES:
            files["/%s.mpy" % name] = mpy(os.path.join(pydir, name + ".py"),
                                          os.path.join(tmp, name + ".mpy"))
            with open(os.path.join(bindir, name + ".bin"), "rb") as f:
                files["/fonts/%s.bin" % name] = f.read()
        files["/font.mpy"] = mpy(os.path.join(ROOT, "firmware", "ui", "font.py"),
                                 os.path.join(tmp, "font.mpy"))
        sizes = {p: len(b) for p, b in files.items()}
        r = emu.run(emu.flash_image(files), script=os.path.join(HERE, "on_device.py"), timeout=900)
    line = [s for s in r.stdout.splitlines() if s.startswith("{")]
    if r.rc != 0 or not line:
        print("fonts: the device run failed: %s" % (r.stderr.strip() or r.stdout.strip()),
              file=sys.stderr)
        return 1
    out = json.loads(line[-1])
    out["file_bytes"] = sizes
    print(json.dumps(out, indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main())
