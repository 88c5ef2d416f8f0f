"""Build the browser version (docs/WEB.md) into build/web/: a static site, no server logic.

    python -m tools.web.build [--out build/web] [--source]

What it writes:
  index.html, page.js, worker.js, fsutil.mjs, storage.mjs, sw.js, style.css   the page and its glue
  micropython.mjs, micropython.wasm                   the MicroPython WebAssembly runtime, from the npm
                                                      package pinned in tools/web/package-lock.json
  firmware.json                                       the firmware the browser runs: firmware/ at the
                                                      root and boards/ beside it, as on a device, each
                                                      module compiled to .mpy (--source: plain .py)

The firmware modules are the device's own. The one change is mechanical and made here: this runtime's
compiler has no native emitter and rejects `@micropython.viper` / `@micropython.native` outright, so
in a module that uses them the decorators go and its `import micropython` raises ImportError, which
selects the plain-Python twins that CPython runs (rollout's undecorated functions, gs4.expand_py).
host_tests/test_web_twins.py proves those give the same games and AI decisions as CPython and the unix
port.
"""
import base64
import hashlib
import json
import os
import shutil
import subprocess
import sys
import tempfile

from tools import cli
from tools.deploy import main as deploy
from tools.paths import ROOT

HERE = os.path.dirname(os.path.abspath(__file__))

RUNTIME_PKG = os.path.join(HERE, "node_modules", "@micropython", "micropython-webassembly-pyscript")
RUNTIME_FILES = ("micropython.mjs", "micropython.wasm")
PAGE_FILES = ("index.html", "page.js", "worker.js", "fsutil.mjs", "storage.mjs", "sw.js", "style.css")
# Board modules the browser needs: the web board, the simulator board it drives, and the profiles it
# mimics (their size, keys and help line; their build() needs `machine` and is never called here).
WEB_BOARDS = ("__init__", "_base", "_gs4", "sim", "web", "waveshare_lcd13", "pimoroni_pack", "pimoroni_pack2",
              "oled_diy")
# Device-only firmware: main.py picks a board from /board.cfg (the page starts the web board itself,
# boards/web.py start()).
DEVICE_ONLY = ("main.py",)
NATIVE = ("@micropython.viper", "@micropython.native")
NO_NATIVE = 'raise ImportError("no native emitter")  # web build: the plain-Python twins'


class BuildError(Exception):
    pass


def _code(line):
    """A line without its comment and indentation (decorators and imports carry no strings)."""
    return line.split("#", 1)[0].strip()


def without_native(text, name="module"):
    """The source with its viper/native decorators removed (each becomes an empty line, so line
    numbers stay) and its `import micropython` raising ImportError: the module then takes the path
    it takes under CPython. Unchanged when it has no such decorator."""
    lines = text.split("\n")
    if not any(_code(ln) in NATIVE for ln in lines):
        return text
    out = []
    imports = 0
    for ln in lines:
        s = _code(ln)
        if s in NATIVE:
            out.append("")
        elif s == "import micropython":
            out.append(ln[:len(ln) - len(ln.lstrip())] + NO_NATIVE)
            imports += 1
        else:
            out.append(ln)
    if not imports:
        raise BuildError("%s has native code but no `import micropython` line (inside a try whose "
                         "except takes the plain-Python path): the web build cannot select its "
                         "twin" % name)
    return "\n".join(out)


def web_files():
    """[(path in the browser's file system, source path)]: firmware/ at the root, boards/ beside."""
    skip = set(DEVICE_ONLY)
    out = []
    for rel, path in deploy.source_files():
        if rel.startswith("boards/") or rel in skip:
            continue
        out.append((rel, path))
    for b in WEB_BOARDS:
        out.append(("boards/%s.py" % b, os.path.join(ROOT, "boards", b + ".py")))
    return out


def ensure_runtime():
    """node_modules as tools/web/package-lock.json pins it (npm ci when missing or out of date)."""
    stamp = os.path.join(HERE, "node_modules", ".package-lock.json")
    lock = os.path.join(HERE, "package-lock.json")
    if (all(os.path.exists(os.path.join(RUNTIME_PKG, f)) for f in RUNTIME_FILES) and
            os.path.exists(stamp) and os.path.getmtime(stamp) >= os.path.getmtime(lock)):
        return
    npm = shutil.which("npm")
    if not npm:
        raise BuildError("npm not found: the web build needs Node.js and npm (the MicroPython "
                         "WebAssembly runtime comes from the npm registry)")
    r = subprocess.run([npm, "ci", "--no-audit", "--no-fund", "--loglevel=error"], cwd=HERE,
                       capture_output=True, text=True)
    if r.returncode:
        raise BuildError("npm ci in tools/web failed:\n" + (r.stderr or r.stdout).strip())


def compile_module(cross, rel, text, tmp):
    """Source text -> .mpy bytes, with the name a device gives the module."""
    src = os.path.join(tmp, "m.py")
    dst = os.path.join(tmp, "m.mpy")
    with open(src, "w") as f:
        f.write(text)
    r = subprocess.run([cross] + list(deploy.MPY_CROSS_FLAGS) + ["-s", rel, "-o", dst, src],
                       capture_output=True, text=True)
    if r.returncode:
        raise BuildError("mpy-cross failed on %s: %s" % (rel, r.stderr.strip()))
    with open(dst, "rb") as f:
        return f.read()


def bundle(source=False):
    """{path: base64 bytes} of the firmware the browser runs, and the total bytes."""
    cross = None if source else deploy.mpy_cross_exe()
    tmp = tempfile.mkdtemp(prefix="pico-web-")
    files = {}
    total = 0
    for rel, path in web_files():
        with open(path, "rb") as f:
            data = f.read()
        if rel.endswith(".py"):
            text = without_native(data.decode("utf-8"), rel)
            if cross:
                data = compile_module(cross, rel, text, tmp)
                rel = rel[:-3] + ".mpy"
            else:
                data = text.encode("utf-8")
        files[rel] = base64.b64encode(data).decode("ascii")
        total += len(data)
    shutil.rmtree(tmp, ignore_errors=True)
    return files, total


def build(out, source=False):
    """Write the site into `out`. Returns {name: bytes} of what a browser downloads."""
    ensure_runtime()
    files, fw_bytes = bundle(source)
    blob = json.dumps({"files": files}, sort_keys=True, separators=(",", ":")).encode("ascii")
    digest = hashlib.sha256(blob)
    for name in PAGE_FILES + ("package-lock.json",):
        with open(os.path.join(HERE, name), "rb") as f:
            digest.update(f.read())
    version = digest.hexdigest()[:12]
    os.makedirs(out, exist_ok=True)
    sizes = {}
    for name in RUNTIME_FILES:
        shutil.copyfile(os.path.join(RUNTIME_PKG, name), os.path.join(out, name))
        sizes[name] = os.path.getsize(os.path.join(out, name))
    with open(os.path.join(out, "firmware.json"), "wb") as f:
        f.write(blob)
    sizes["firmware.json"] = len(blob)
    sizes["firmware"] = fw_bytes
    for name in PAGE_FILES:
        with open(os.path.join(HERE, name), encoding="utf-8") as f:
            text = f.read()
        text = text.replace("%BUILD%", version)
        with open(os.path.join(out, name), "w", encoding="utf-8") as f:
            f.write(text)
        sizes[name] = len(text.encode("utf-8"))
    return sizes, version


def main(argv=None):
    ap = cli.parser("web", settings={"--out": "WEB_OUT"}, description=__doc__.split("\n")[0],
                    epilog="make web runs python -m tools.web.build")
    ap.add_argument("--out", default=os.path.join(ROOT, "build", "web"), type=cli.typed(cli.out_dir),
                    help="site folder (default build/web)")
    ap.add_argument("--source", action="store_true", help="ship .py sources instead of .mpy")
    args = ap.parse_args(argv)
    try:
        sizes, version = build(args.out, args.source)
    except (BuildError, deploy.DeployError) as e:
        print("web: %s" % e, file=sys.stderr)
        return 2
    page = sum(sizes[n] for n in PAGE_FILES)
    print("web: %s  build %s" % (os.path.relpath(args.out), version))
    print("web: runtime %s B (wasm %s B), firmware %s B of %s (firmware.json %s B), page %s B" % (
        format(sizes["micropython.mjs"] + sizes["micropython.wasm"], ","),
        format(sizes["micropython.wasm"], ","), format(sizes["firmware"], ","),
        "source" if args.source else ".mpy", format(sizes["firmware.json"], ","), format(page, ",")))
    return 0


if __name__ == "__main__":
    sys.exit(main())
