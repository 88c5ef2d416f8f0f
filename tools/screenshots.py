#!/usr/bin/env python3
"""Regenerate the README screenshots (docs/img/*.png) from the real firmware in the simulator.

Each picture is a seeded game played headless by a key script (tools/sim.py --seed --keys, virtual
clock), on the 240x240 Pico-LCD-1.3 board, enlarged x2 with nearest-neighbour scaling:

  menu.png           the main menu
  fives_spinner.png  a Fives table whose spinner has three or four arms built
  curtain.png        the pass-and-play curtain (a game with two human seats)
  goat_sheet.png     a Goat score sheet with remembered "+N" points (you and three AI players)

The scripts do not hard-code how many turns it takes: the tool plays turn after turn (DOWN = next
playable tile, A = play, A = place) until the saved game (the data folder's game.txt, docs/RECORDS.md)
or the frame shows what the picture needs, and checks each picture's colours before writing it, so
an AI or UI change does not silently produce a wrong picture. Usage:

  make screenshots                         (= .venv/bin/python tools/screenshots.py)
  tools/screenshots.py --out /tmp/img --seed 7 --keep /tmp/shots
"""
import argparse
import os
import re
import shutil
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
SIM = os.path.join(HERE, "sim.py")
BOARD = "waveshare_lcd13"
SIZE = 240
SCALE = 2
# colour indices (docs/BOARDS.md)
TABLE, TILE, ACCENT, CURSOR, REMEMBERED = 3, 4, 9, 7, 12

MENU = "wait:1000"
# New game (first row of the menu) -> variant +2 = Fives -> UP wraps to "Start game" -> A
FIVES = "wait:1000 a wait:300 right right up a wait:3000"
# ... the same with seat 2 changed from Medium AI to Human (two steps back: Easy, Human), then UP
# to the first row and once more (the list wraps to "Start game", whatever rows follow the seats)
CURTAIN = "wait:1000 a wait:300 right right down*3 left left up*4 a wait:1500"
# Goat (variant +4), 4 players (players +2), UP UP wraps to "Start game": You + three Medium AIs
GOAT = "wait:1000 a wait:300 right*4 down right right up up a wait:3000"
TURN = " down a a wait:2500"
MAX_TURNS = 40


class Shot:
    def __init__(self, path, hash_):
        self.path = path
        self.hash = hash_
        from PIL import Image
        im = Image.open(path)
        if im.mode != "P" or im.size != (SIZE, SIZE):
            raise SystemExit("screenshots: unexpected image %s %s" % (im.mode, im.size))
        self.image = im
        self.px = im.tobytes()

    def count(self, colour, y0=0, y1=SIZE):
        return self.px[y0 * SIZE:y1 * SIZE].count(bytes([colour]))


class Runner:
    def __init__(self, work, seed, micropython=None):
        self.work = work
        self.seed = seed
        self.micropython = micropython
        self.runs = 0

    def play(self, script, shots):
        """Run `script` (with {shot NAME} placeholders) on a fresh data folder.
        Returns ({name: Shot}, saved game text)."""
        self.runs += 1
        d = os.path.join(self.work, "run%03d" % self.runs)
        os.makedirs(d)
        text = script
        for name in shots:
            text = text.replace("{%s}" % name, "shot:%s" % os.path.join(d, name + ".png"))
        cmd = [sys.executable, SIM, "--board", BOARD, "--seed", str(self.seed), "--data",
               os.path.join(d, "data"), "--keys", text]
        if self.micropython:
            cmd += ["--micropython", self.micropython]
        r = subprocess.run(cmd, cwd=ROOT, capture_output=True, text=True, timeout=120)
        if r.returncode != 0 or "Traceback" in r.stdout:
            raise SystemExit("screenshots: the simulator failed:\n%s%s" % (r.stdout, r.stderr))
        out = {}
        for line in r.stdout.splitlines():
            m = re.match(r"shot (\S+) t=\d+ms frame=\d+ hash=([0-9a-f]+)$", line)
            if m:
                out[os.path.basename(m.group(1))[:-4]] = Shot(m.group(1), m.group(2))
        missing = [n for n in shots if n not in out]
        if missing:
            raise SystemExit("screenshots: no frame for %s:\n%s" % (missing, r.stdout))
        game = os.path.join(d, "data", "game.txt")
        saved = open(game).read() if os.path.exists(game) else ""
        return out, saved


def rounds(saved):
    """Move tokens per round of a saved game."""
    return [ln.split()[1:] for ln in saved.splitlines() if ln.startswith("round ")]


def arms(tokens):
    """Arms of the layout that hold tiles: L R (the line), U D (a spinner's long sides)."""
    used = set()
    for tok in tokens[1:]:             # the lead has no letter
        for part in tok.split("+"):
            used.update(c for c in part if c in "LRUD")
    return used


def check(ok, what, shot):
    if not ok:
        raise SystemExit("screenshots: %s does not show %s (kept: %s)" % (
            os.path.basename(shot.path), what, shot.path))


def menu(run):
    shots, _ = run.play(MENU + " {menu}", ["menu"])
    s = shots["menu"]
    check(s.count(ACCENT, 0, 20) > 100 and s.count(CURSOR) > 500 and s.count(TABLE) == 0,
          "the main menu", s)
    return s, "main menu"


def fives_spinner(run):
    best = None
    for n in range(1, MAX_TURNS + 1):
        shots, saved = run.play(FIVES + TURN * n + " {table}", ["table"])
        rs = rounds(saved)
        if len(rs) != 1:               # the first round is over: keep the best seen
            break
        a = arms(rs[0])
        if "U" in a or "D" in a:
            if len(a) == 4:
                best = (shots["table"], n, a)
                break
            if len(a) == 3 and best is None:
                best = (shots["table"], n, a)
    if best is None:
        raise SystemExit("screenshots: no spinner with three or more arms in the first round of "
                         "Fives with seed %d: try another --seed" % run.seed)
    s, n, a = best
    check(s.count(TABLE) > SIZE * 100 and s.count(TILE, 20, 195) > 0, "a Fives table", s)
    return s, "Fives, %d turns: spinner arms %s" % (n, "".join(sorted(a)))


def curtain(run):
    shots, saved = run.play(CURTAIN + " {curtain}", ["curtain"])
    s = shots["curtain"]
    check("seats human,human" in saved and s.count(TILE) == 0 and s.count(TABLE) == 0
          and s.count(ACCENT) > 0, "the pass-and-play curtain", s)
    return s, "pass-and-play curtain"


def goat_sheet(run):
    # one run with a frame after every turn finds the round ends (page 1: every hand shown, no felt)
    names = ["t%02d" % i for i in range(1, MAX_TURNS + 1)]
    script = GOAT + "".join(TURN + " {%s}" % n for n in names)
    shots, _ = run.play(script, names)
    ends = [i for i, n in enumerate(names, 1)
            if shots[n].count(TABLE) == 0 and shots[n].count(TILE) > 0]
    if not ends:
        raise SystemExit("screenshots: no Goat round ended in %d turns" % MAX_TURNS)
    # prefer the third round's sheet (remembered and opened accounts), else an earlier one
    for k in sorted(ends[:3], reverse=True):
        sh, saved = run.play(GOAT + TURN * k + " a wait:500 a wait:500 {sheet}", ["sheet"])
        s = sh["sheet"]
        if s.count(REMEMBERED) > 0 and s.count(TABLE) == 0 and s.count(TILE) == 0 \
                and s.count(ACCENT, 0, 20) > 100:
            return s, "Goat, %d turns: score sheet after round %d" % (k, ends.index(k) + 1)
    raise SystemExit("screenshots: no Goat score sheet with remembered points")


PICTURES = (("menu", menu), ("fives_spinner", fives_spinner), ("curtain", curtain),
            ("goat_sheet", goat_sheet))


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--out", default=os.path.join(ROOT, "docs", "img"), help="default docs/img")
    ap.add_argument("--seed", type=int, default=7, help="deal seed (default 7)")
    ap.add_argument("--keep", help="keep the raw shots and data folders here")
    ap.add_argument("--micropython", help="micropython binary (default: tools/find_micropython.py)")
    ap.add_argument("only", nargs="*", metavar="NAME", help="pictures to make: %s (default all)"
                    % " ".join(n for n, _ in PICTURES))
    args = ap.parse_args(argv)
    unknown = [n for n in args.only if n not in dict(PICTURES)]
    if unknown:
        ap.error("unknown picture %s" % ", ".join(unknown))
    from PIL import Image
    work = args.keep or tempfile.mkdtemp(prefix="pico-shots-")
    os.makedirs(work, exist_ok=True)
    run = Runner(work, args.seed, args.micropython)
    os.makedirs(args.out, exist_ok=True)
    try:
        for name, make in PICTURES:
            if args.only and name not in args.only:
                continue
            shot, what = make(run)
            im = shot.image.resize((SIZE * SCALE, SIZE * SCALE), Image.NEAREST)
            path = os.path.join(args.out, name + ".png")
            im.save(path, optimize=True)
            print("%s  %s (frame %s)" % (os.path.relpath(path, ROOT), what, shot.hash))
    finally:
        if not args.keep:
            shutil.rmtree(work, ignore_errors=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
