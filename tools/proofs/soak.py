"""Long engine proofs (`make soak`): 1,000 seeded games per variant x player count under CPython and
MicroPython with equal digests, and the property tests at 3,000 examples. Prints the figures."""
import os
import subprocess
import sys
import time

from tools import paths
from tools.find_micropython import find
from tools.paths import ROOT

GAMES = os.environ.get("SOAK_GAMES", "1000")


def selfplay(exe):
    t = time.time()
    out = subprocess.run([exe, "-m", "tools.arena.selfplay", "--all", "--games", GAMES, "--seed", "2026"],
                         stdout=subprocess.PIPE, universal_newlines=True, check=True, cwd=ROOT,
                         env=paths.env())
    return out.stdout.strip().split("\n"), time.time() - t


def main(argv):
    if argv:
        print("usage: python -m tools.proofs.soak   (no options; SOAK_GAMES=N, PROPERTY_EXAMPLES=N in the"
              " environment)" + ("" if argv[0] in ("--help", "-h") else ": unknown argument " + argv[0]),
              file=sys.stdout if argv[0] in ("--help", "-h") else sys.stderr)
        return 0 if argv[0] in ("--help", "-h") else 2
    mp = find()
    cp, tc = selfplay(sys.executable)
    mpl, tm = selfplay(mp)
    for line in cp:
        print(line)
    same = cp == mpl
    print("selfplay %s games x %d combos: CPython %.0f s, MicroPython %.0f s, digests %s" %
          (GAMES, len(cp), tc, tm, "EQUAL" if same else "DIFFERENT"))
    env = dict(os.environ, PROPERTY_EXAMPLES=os.environ.get("PROPERTY_EXAMPLES", "3000"))
    tests = os.path.join(ROOT, "host_tests")
    files = [os.path.join(tests, f) for f in sorted(os.listdir(tests)) if f.startswith("test_properties_")]
    rc = subprocess.call([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider"] + files, env=env)
    return 0 if same and rc == 0 else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
