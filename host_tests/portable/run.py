"""Tiny test runner for MicroPython: imports each portable test module, runs its test_* functions and
prints `N passed, N failed`. The same modules are plain pytest files under CPython.

    micropython -X heapsize=64K host_tests/portable/run.py <firmware-dir> <tests-dir> [module ...]
"""
import sys
import gc


def run_module(name, counts):
    mod = __import__(name)
    for attr in sorted(dir(mod)):
        if not attr.startswith("test_"):
            continue
        fn = getattr(mod, attr)
        gc.collect()
        if "-v" in sys.argv:
            print(name + "." + attr + " free " + str(gc.mem_free()))
        try:
            fn()
            counts[0] += 1
        except Exception as e:  # report and go on: one failure must not hide the others
            counts[1] += 1
            print("FAIL " + name + "." + attr + ": " + type(e).__name__ + ": " + str(e))
            sys.print_exception(e) if hasattr(sys, "print_exception") else None
    del sys.modules[name]
    gc.collect()


def main(argv):
    fw = argv[0]
    tests = argv[1]
    sys.path.insert(0, tests)
    sys.path.insert(0, fw)
    names = [a for a in argv[2:] if a != "-v"]
    counts = [0, 0]
    for name in names:
        try:
            run_module(name, counts)
        except Exception as e:
            counts[1] += 1
            print("FAIL " + name + " (import): " + type(e).__name__ + ": " + str(e))
    print("micropython: %d passed, %d failed" % (counts[0], counts[1]))
    return 1 if counts[1] else 0


sys.exit(main(sys.argv[1:]))
