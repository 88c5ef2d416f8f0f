"""Where things are in the repository, and the import roots every Python process of the project uses.

The roots are the repository (packages `tools`, `boards`) and firmware/ (the device's own top level:
`domino`, `ai`, `ui`, `store`, ...). `make venv` writes them into the venv as a .pth file and
host_tests/conftest.py sets them for pytest; a subprocess gets them from `env()` (PYTHONPATH for
CPython, MICROPYPATH for the MicroPython unix port, which reads no .pth)."""
import os

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
FIRMWARE = os.path.join(ROOT, "firmware")
BOARDS = os.path.join(ROOT, "boards")
TOOLS = os.path.join(ROOT, "tools")
BUILD = os.path.join(ROOT, "build")
IMPORT_ROOTS = (ROOT, FIRMWARE)


def micropypath(*first):
    """MICROPYPATH for the unix port: `first` (e.g. a compiled tree or a harness folder), then the
    import roots; ".frozen" keeps the port's frozen modules reachable."""
    return os.pathsep.join(list(first) + list(IMPORT_ROOTS) + [".frozen"])


def env(*micropython_first, **extra):
    """os.environ for a subprocess of this project: PYTHONPATH and MICROPYPATH hold the import roots
    (MICROPYPATH with `micropython_first` before them), plus `extra`."""
    e = dict(os.environ)
    old = e.get("PYTHONPATH")
    e["PYTHONPATH"] = os.pathsep.join(list(IMPORT_ROOTS) + ([old] if old else []))
    e["MICROPYPATH"] = micropypath(*micropython_first)
    e.update(extra)
    return e
