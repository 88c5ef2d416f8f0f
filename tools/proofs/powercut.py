"""The power-cut proof: the real app, booted on every damaged save it could meet.

A seeded match is played through the real UI (firmware compiled to .mpy as deployed, the simulated
board, MicroPython unix port) keeping the text of every save; then game.txt, a half-written
game.txt.tmp and game.bak alone are cut at every byte offset and have every byte flipped (several
bit patterns), and so are settings.json and stats.json. Each case boots a new App in the same
micropython process (tools/proofs/harness/powercut.py): no error may be caught, and the app must
either resume a match that was saved (its record equal to one of the saves) or stop at the menu
with a message; settings and statistics read back as saved or as defaults with a message.

    python -m tools.proofs.powercut                  # everything: make soak-powercut
    python -m tools.proofs.powercut --stride 13 --flip-stride 13 --flips ff,01   # the smoke run of make test

Prints the figures (cases, outcomes by kind, time); exit status 1 on any failure.
"""
import argparse
import json
import os
import subprocess
import sys
import time

from tools import cli
from tools.paths import ROOT
from tools.proofs.harness import frames

HARNESS = os.path.join(frames.HERE, "powercut.py")



def run(job, build=os.path.join(ROOT, "build", "powercut"), timeout=3600, mpy=None, heap=None):
    """Run the harness on `job` (see tools/proofs/harness/powercut.py); its JSON answer. The firmware
    is compiled into build/mpy first, unless `mpy` names a compiled tree: (code dir, board dir).
    `heap`: micropython's -X heapsize (e.g. "180K", the monkey's heap); default: the port's own."""
    mp = frames.find()
    if mp is None:
        raise RuntimeError("no micropython binary: make venv")
    if mpy is None:
        code, boards, _arch = frames.build_mpy(os.path.join(build, "mpy"))
    else:
        code, boards = mpy
    env = frames.mp_env(code, boards, UI_JOB=json.dumps(job))
    cmd = [mp] + (["-X", "heapsize=" + heap] if heap else []) + [HARNESS]
    res = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                         universal_newlines=True, timeout=timeout, env=env)
    try:
        return json.loads(res.stdout.strip().split("\n")[-1])
    except (ValueError, IndexError):
        raise RuntimeError("the harness failed (rc %d):\n%s\n%s" % (res.returncode, res.stdout[-3000:],
                                                                     res.stderr[-3000:]))


def proof(stride=1, flip_stride=1, flips=(0xFF, 0x01, 0x80, 0x20), rounds=3, moves=5, seed=7,
          work=os.path.join(ROOT, "build", "powercut")):
    job = {"mode": "proof", "root": os.path.join(work, "flash"), "stride": stride, "flip_stride": flip_stride,
           "flips": list(flips), "rounds": rounds, "moves": moves, "seed": seed}
    return run(job, work)


def report(out):
    """The figures, a line each."""
    lines = ["power-cut proof: %d cases, %d saves in the match played, %.1f s" %
             (out["cases"], out["saves"], out["ms"] / 1000.0),
             "file sizes: " + ", ".join("%s %d B" % kv for kv in sorted(out["bytes"].items()))]
    return "\n".join(lines + outcome_lines(out["kinds"], out["failures"]))


def outcome_lines(groups, failures):
    """Cases by group and outcome, most frequent first, then the failures (shared with faults.py)."""
    lines = []
    for group in sorted(groups):
        kinds = groups[group]
        lines.append("  %s: %d cases" % (group, sum(kinds.values())))
        for kind in sorted(kinds, key=lambda k: -kinds[k]):
            lines.append("    %6d  %s" % (kinds[kind], kind))
    return lines + ["FAILED " + f for f in failures]


def flips(text):
    """--flips: xor patterns 01..ff, hex, comma separated."""
    try:
        out = [int(x, 16) for x in text.split(",")]
    except ValueError:
        out = []
    if not out or not all(0 < x < 256 for x in out):
        raise argparse.ArgumentTypeError("wants hex bytes 01..ff, comma separated, not %r" % text)
    return out


def main():
    ap = cli.parser("powercut", description=__doc__.split("\n")[0])
    step = cli.typed(cli.whole, 1, 1 << 20)
    ap.add_argument("--stride", type=step, default=1, help="cut at every Nth byte offset")
    ap.add_argument("--flip-stride", type=step, default=1, help="flip every Nth byte")
    ap.add_argument("--flips", type=flips, default="ff,01,80,20", help="xor patterns, hex, comma separated")
    ap.add_argument("--rounds", type=cli.typed(cli.whole, 1, 20), default=3, help="play into this round")
    ap.add_argument("--moves", type=cli.typed(cli.whole, 0, 28), default=5,
                    help="... and this many moves into it")
    ap.add_argument("--seed", type=cli.typed(cli.whole, 0, cli.MAX_SEED), default=7)
    a = ap.parse_args()
    t0 = time.time()
    out = proof(a.stride, a.flip_stride, a.flips, a.rounds, a.moves, a.seed)
    print(report(out))
    print("wall time %.1f s" % (time.time() - t0))
    sys.exit(1 if out["failures"] else 0)


if __name__ == "__main__":
    main()
