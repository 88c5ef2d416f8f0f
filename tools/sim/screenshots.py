"""Regenerate the README and docs/UI.md screenshots (docs/img/*.png) from the real firmware in the
simulator.

Each picture is a seeded game played headless by a key script (python -m tools.sim --seed --keys, virtual
clock), enlarged with nearest-neighbour scaling, on every board size:

  menu.png, curtain.png, goat_sheet.png    240x240: the main menu, the pass-and-play curtain, a Goat
                                           score sheet with remembered "+N" points
  fives_<size>.png    Fives against the AI mid-game: a spinner with three or four arms built;
                      also fives_<size>_1x.png (one PNG pixel per panel pixel) and
                      fives_<size>_actual.png (the panel's physical size for a 96-DPI reader:
                      scaled by its pixel pitch / 0.2646 mm, tools/sim/actual.py)
  goat_<size>.png     4-player Goat: a long line that turns at least two corners on that screen
                      (one on 240x135, whose table is 42 rows high)
  moves_<size>.png    the move log of that Goat round (game menu, Moves)
  line_<size>.png     that Goat line in the line view (game menu, The line), the last move outlined
  undo_<size>.png     a practice game of Fives right after "Undo" in the game menu: your last move
                      and the AI's answer taken back
  scores_128x64.png   the OLED's scores page (Y on the table)

with <size> 240x240 (Pico-LCD-1.3), 320x240 (Display Pack 2.0), 240x135 (Display Pack), 128x64
(OLED). The scripts do not hard-code how many turns a picture needs: a first run plays turn after
turn (DOWN = next playable tile, A = play, A = place), its saved game (game.txt, docs/RECORDS.md) is
replayed here to find the first turn after which the picture shows what it must (the arms of the
spinner; the corners of the line, placed by the firmware's own ui/place.py for that screen), then
that many turns are played again for the shot, whose saved game and colours are checked before
the picture is written: an AI or UI change never silently makes a wrong picture. Usage:

  make screenshots                         (= .venv/bin/python -m tools.sim.screenshots)
  python -m tools.sim.screenshots --out /tmp/img --seed 7 --keep /tmp/shots goat_240x135 scores_128x64
"""
import importlib
import os
import re
import shutil
import subprocess
import sys
import tempfile

from tools import cli, paths
from tools.paths import ROOT
from tools.sim import actual

# board, width, height, scale
BOARDS = (("waveshare_lcd13", 240, 240, 2), ("pimoroni_pack2", 320, 240, 2),
          ("pimoroni_pack", 240, 135, 2), ("oled_diy", 128, 64, 3))
# colour indices (docs/BOARDS.md)
TABLE, TILE, ACCENT, CURSOR, REMEMBERED = 3, 4, 9, 7, 12

MENU = "wait:1000"
# New game (first row of the menu) -> variant +2 = Fives -> UP wraps to "Start game" -> A
FIVES = "wait:1000 a wait:300 right right up a wait:3000"
# ... a practice game: DOWN to the Practice row (below the two seats), A turns it on, UP past the
# first row wraps to "Start game"
FIVES_PRACTICE = "wait:1000 a wait:300 right right down*4 a up*5 a wait:3000"
# ... the same with seat 2 changed from Medium AI to Human (two steps back: Easy, Human), then UP
# to the first row and once more (the list wraps to "Start game", whatever rows follow the seats)
CURTAIN = "wait:1000 a wait:300 right right down*3 left left up*4 a wait:1500"
# Goat (variant +4), 4 players (players +2), UP UP wraps to "Start game": You + three Medium AIs
GOAT = "wait:1000 a wait:300 right*4 down right right up up a wait:3000"
TURN = " down a a wait:2500"
TURN4 = " down a a wait:4000"         # three AI players answer
MAX_TURNS = 40
TABLES = ("fives",)                   # pictures also written at 1x and at actual size
PLAN_TURNS = 12                       # a first round is over by then (its save is what is read)


class Shot:
    def __init__(self, path, hash_, size):
        self.path = path
        self.hash = hash_
        from PIL import Image
        im = Image.open(path)
        if im.mode != "P" or im.size != size:
            raise SystemExit("screenshots: unexpected image %s %s" % (im.mode, im.size))
        self.image = im
        self.w = size[0]
        self.px = im.tobytes()

    def count(self, colour, y0=0, y1=None):
        y1 = len(self.px) // self.w if y1 is None else y1
        return self.px[y0 * self.w:y1 * self.w].count(bytes([colour]))


class Runner:
    def __init__(self, work, seed, micropython=None):
        self.work = work
        self.seed = seed
        self.micropython = micropython
        self.runs = 0
        self.plans = {}                  # runs without shots (plans), by board, script and seed

    def play(self, board, script, shots, seed=None):
        """Run `script` (with {shot NAME} placeholders) on `board` with a fresh data folder (and
        another deal seed than the run's). Returns ({name: Shot}, saved game text)."""
        key = (board[0], script, seed)
        if not shots and key in self.plans:
            return {}, self.plans[key]
        self.runs += 1
        d = os.path.join(self.work, "run%03d" % self.runs)
        os.makedirs(d)
        text = script
        for name in shots:
            text = text.replace("{%s}" % name, "shot:%s" % os.path.join(d, name + ".png"))
        cmd = [sys.executable, "-m", "tools.sim", "--board", board[0],
               "--seed", str(self.seed if seed is None else seed),
               "--data",
               os.path.join(d, "data"), "--keys", text, "--timeout", "300"]
        if self.micropython:
            cmd += ["--micropython", self.micropython]
        r = subprocess.run(cmd, cwd=ROOT, env=paths.env(), capture_output=True, text=True, timeout=400)
        if r.returncode != 0 or "Traceback" in r.stdout:
            raise SystemExit("screenshots: the simulator failed:\n%s%s" % (r.stdout, r.stderr))
        out = {}
        for line in r.stdout.splitlines():
            m = re.match(r"shot (\S+) t=\d+ms frame=\d+ hash=([0-9a-f]+)$", line)
            if m:
                out[os.path.basename(m.group(1))[:-4]] = Shot(m.group(1), m.group(2), board[1:3])
        missing = [n for n in shots if n not in out]
        if missing:
            raise SystemExit("screenshots: no frame for %s:\n%s" % (missing, r.stdout))
        game = os.path.join(d, "data", "game.txt")
        saved = open(game).read() if os.path.exists(game) else ""
        if not shots:
            self.plans[key] = saved
        return out, saved


def rounds(saved):
    """Move tokens per round of a saved game."""
    return [ln.split()[1:] for ln in saved.splitlines() if ln.startswith("round")]


def arms(tokens):
    """Arms of the layout that hold tiles: L R (the line), U D (a spinner's long sides)."""
    used = set()
    for tok in tokens[1:]:             # the lead has no letter
        for part in tok.split("+"):
            used.update(c for c in part if c in "LRUD")
    return used


def replay(saved):
    """The first round of a saved game, move by move: [(seat to move, layout after)] (copies),
    and the seat-0 (your) move indices."""
    if not saved.startswith("DOMINO"):
        raise SystemExit("screenshots: no saved game to read (the match ended?)")
    from domino.layout import Layout
    from domino.match import Match
    from domino.record import load, parse_move, run_forced
    from domino.rng import parse_code
    head = {}
    for ln in saved.splitlines():
        if ln.startswith("round"):
            break
        k, _, v = ln.partition(" ")
        head[k] = v
    full, _ = load(saved.rsplit("sum ", 1)[0])
    m = Match(full.rules, parse_code(head["seed"]))
    m.start_round()
    out = []
    mine = []
    for tok in rounds(saved)[0]:
        run_forced(m)
        seat = m.round.turn
        if seat == 0:
            mine.append(len(out))
        m.play(parse_move(m.round, tok))
        lay = Layout(m.round.layout.mode)
        lay.copy_from(m.round.layout)
        out.append((seat, lay))
    return out, mine


def after_turns(saved, k):
    """The layout after k of your turns (your k-th move and the answers to it), or None when the
    first round ended before."""
    moves, mine = replay(saved)
    if k > len(mine):
        return None
    end = mine[k] if k < len(mine) else len(moves)
    if k == len(mine) and len(rounds(saved)) > 1:
        return None                    # the round ended on those answers
    return moves[end - 1][1]


def check(ok, what, shot):
    if not ok:
        raise SystemExit("screenshots: %s does not show %s (kept: %s)" % (
            os.path.basename(shot.path), what, shot.path))


def colour(board):
    return board[2] > 64


def menu(run, board):
    shots, _ = run.play(board, MENU + " {menu}", ["menu"])
    s = shots["menu"]
    check(s.count(ACCENT, 0, 20) > 100 and s.count(CURSOR) > 500 and s.count(TABLE) == 0,
          "the main menu", s)
    return s, "main menu"


def fives_turns(run, board):
    """Your turns after which the Fives spinner has the most arms (three or four), early on (the
    game does not depend on the screen: planned on the OLED, the quickest to draw)."""
    _, saved = run.play(BOARDS[3], FIVES + TURN * PLAN_TURNS, [])
    best = None
    for k in range(1, PLAN_TURNS):
        lay = after_turns(saved, k)
        if lay is None:
            break
        n = sum(1 for a in range(4) if lay.n[a])
        if lay.spin != 255 and n >= 3 and (best is None or n > best[1]):
            best = (k, n)
            if n == 4:
                break
    if best is None:
        raise SystemExit("screenshots: no spinner with three or more arms in the first round of "
                         "Fives with seed %d: try another --seed" % run.seed)
    return best[0]


def fives(run, board):
    k = fives_turns(run, board)
    shots, saved = run.play(board, FIVES + TURN * k + " {table}", ["table"])
    s = shots["table"]
    a = arms(rounds(saved)[0])
    check(len(rounds(saved)) == 1 and len(a) >= 3, "a spinner with three arms", s)
    if colour(board):
        check(s.count(TABLE) > felt_min(board) and s.count(TILE) > 0, "a Fives table", s)
    return s, "Fives, %d turns: spinner arms %s" % (k, "".join(sorted(a)))


def felt_min(board):
    """Felt pixels a table picture must show: half its table area (ui/table.py's, with four seats)."""
    from tools.sim import ui_host
    x0, y0, w, h, mono = ui_host.area(board[1], board[2])
    return w * h // 2


def corners_wanted(board):
    """Corners the Goat picture's line must turn on this screen: two, or one on a colour table under
    60 rows high (240x135: 42 rows, where a long line lies in two rows of small tiles)."""
    from tools.sim import ui_host
    x0, y0, w, h, mono = ui_host.area(board[1], board[2])
    return 1 if h < 60 and not mono else 2


def goat_turns(run, board):
    """(seed, turns): the first deal (from the run's seed on) whose 4-player Goat line turns the
    corners wanted on this screen in its first round, and after how many of your turns. The game
    does not depend on the screen: it is planned on the OLED (the quickest to draw) and shot on
    `board`."""
    from tools.sim import ui_host
    want = corners_wanted(board)
    for seed in range(run.seed, run.seed + 12):
        _, saved = run.play(BOARDS[3], GOAT + TURN4 * PLAN_TURNS, [], seed)
        best = None
        for k in range(1, PLAN_TURNS):     # the longest line of the round with the corners wanted
            lay = after_turns(saved, k)
            if lay is None:
                break
            if ui_host.layout_turns(lay, board[1], board[2]) >= want:
                best = k
        if best:
            return seed, best
    raise SystemExit("screenshots: no Goat line with %d corners at %dx%d in 12 deals from seed %d"
                     % (want, board[1], board[2], run.seed))


def goat(run, board):
    from tools.sim import ui_host
    seed, k = goat_turns(run, board)
    shots, saved = run.play(board, GOAT + TURN4 * k + " {table}", ["table"], seed)
    s = shots["table"]
    lay = replay(saved)[0][-1][1] if len(rounds(saved)) == 1 else None    # what the shot shows
    n = ui_host.layout_turns(lay, board[1], board[2]) if lay else 0
    check(n >= corners_wanted(board), "a line with its corners", s)
    if colour(board):
        check(s.count(TABLE) > felt_min(board) and s.count(TILE) > 0, "a Goat table", s)
    return s, "Goat 4 players, seed %d, %d turns: %d tiles, %d corners" % (seed, k, lay.size, n)


def moves(run, board):
    seed, k = goat_turns(run, board)
    shots, _ = run.play(board, GOAT + TURN4 * k + " b wait:300 down*3 a wait:500 {log}", ["log"], seed)
    s = shots["log"]
    check(s.count(TILE) == 0 and (s.count(ACCENT, 0, 20) > 50 or not colour(board)), "the move log", s)
    return s, "Goat 4 players, seed %d, %d turns: the move log" % (seed, k)


def line(run, board):
    """That Goat line in the line view (game menu, The line: its fifth row), opened on the last
    move: tiles with the panel's legible pips, the last move outlined."""
    seed, k = goat_turns(run, board)
    shots, _ = run.play(board, GOAT + TURN4 * k + " b wait:300 down*4 a wait:500 {line}", ["line"], seed)
    s = shots["line"]
    if colour(board):
        check(s.count(TILE) > 0 and s.count(TABLE) > 0 and s.count(ACCENT) > 0, "the line view", s)
    else:                                    # 1-bit: lit tiles under the title's line
        check(s.count(1, 12) > 500, "the line view", s)
    return s, "Goat 4 players, seed %d, %d turns: the line at a readable size" % (seed, k)


def undo(run, board):
    """A practice game of Fives (a counted game offers Undo only before the AI answers): a turn of
    yours, the AI's answer, then Undo (the game menu's third row): the saved round has two moves
    fewer than without it."""
    for k in range(2, 12):
        _, before = run.play(board, FIVES_PRACTICE + TURN * k, [])
        shots, after = run.play(board, FIVES_PRACTICE + TURN * k + " b wait:300 down down a wait:1500 {undo}",
                                ["undo"])
        rb, ra = rounds(before), rounds(after)
        check("\npractice 1\n" in after, "a practice game's save", shots["undo"])
        if len(rb) == 1 and len(ra) == 1 and len(ra[0]) == len(rb[0]) - 2:
            s = shots["undo"]
            if colour(board):
                check(s.count(TABLE) > felt_min(board), "the table after an undo", s)
            return s, "practice Fives, %d turns, then Undo: %d moves -> %d" % (k, len(rb[0]), len(ra[0]))
    raise SystemExit("screenshots: no Fives turn with seed %d could be taken back" % run.seed)


def scores(run, board):
    k = fives_turns(run, board)
    shots, _ = run.play(board, FIVES + TURN * k + " y wait:300 {scores}", ["scores"])
    return shots["scores"], "Fives, %d turns: the scores page (Y)" % k


def curtain(run, board):
    shots, saved = run.play(board, CURTAIN + " {curtain}", ["curtain"])
    s = shots["curtain"]
    check("seats human,human" in saved and s.count(TILE) == 0 and s.count(TABLE) == 0
          and s.count(ACCENT) > 0, "the pass-and-play curtain", s)
    return s, "pass-and-play curtain"


def goat_sheet(run, board):
    # one run with a frame after every turn finds the round ends (page 1: every hand shown, no felt)
    names = ["t%02d" % i for i in range(1, MAX_TURNS + 1)]
    script = GOAT + "".join(TURN4 + " {%s}" % n for n in names)
    shots, _ = run.play(board, script, names)
    ends = [i for i, n in enumerate(names, 1)
            if shots[n].count(TABLE) == 0 and shots[n].count(TILE) > 0]
    if not ends:
        raise SystemExit("screenshots: no Goat round ended in %d turns" % MAX_TURNS)
    # prefer the third round's sheet (remembered and opened accounts), else an earlier one
    for k in sorted(ends[:3], reverse=True):
        sh, saved = run.play(board, GOAT + TURN4 * k + " a wait:500 a wait:500 {sheet}", ["sheet"])
        s = sh["sheet"]
        if s.count(REMEMBERED) > 0 and s.count(TABLE) == 0 and s.count(TILE) == 0 \
                and s.count(ACCENT, 0, 20) > 100:
            return s, "Goat, %d turns: score sheet after round %d" % (k, ends.index(k) + 1)
    raise SystemExit("screenshots: no Goat score sheet with remembered points")


def pictures():
    """[(file name, maker, board)]: every picture `make screenshots` writes."""
    big = BOARDS[0]
    out = [("menu", menu, big), ("curtain", curtain, big), ("goat_sheet", goat_sheet, big)]
    for b in BOARDS:
        size = "%dx%d" % b[1:3]
        for name, make in (("fives", fives), ("goat", goat), ("moves", moves), ("line", line),
                           ("undo", undo)):
            out.append((name + "_" + size, make, b))
    out.append(("scores_128x64", scores, BOARDS[3]))
    return out


def is_table(name):
    return name.rsplit("_", 1)[0] in TABLES


def files(name):
    """The files a picture writes in --out."""
    return [name + ".png"] + ([name + "_1x.png", name + "_actual.png"] if is_table(name) else [])


def pitch_um(board):
    """The board's panel pixel pitch (boards/<board>.py PITCH_UM)."""
    return importlib.import_module("boards." + board[0]).PITCH_UM


def sizes(name, shot, board, out):
    """A table picture at 1x and at actual size for a 96-DPI reader (its dpi stored in the PNG):
    [(path, what)]."""
    one = os.path.join(out, name + "_1x.png")
    shot.image.save(one, optimize=True)
    real = os.path.join(out, name + "_actual.png")
    pitch = pitch_um(board)
    actual.resize(shot.image, pitch).save(real, optimize=True, dpi=(actual.DEFAULT_DPI,) * 2)
    return [(one, "1x"), (real, actual.describe(board[1], board[2], pitch))]


def main(argv=None):
    ap = cli.parser("screenshots", description=__doc__.split("\n")[0])
    ap.add_argument("--out", default=os.path.join(ROOT, "docs", "img"), type=cli.typed(cli.out_dir),
                    help="default docs/img")
    ap.add_argument("--seed", type=cli.typed(cli.whole, 0, cli.MAX_SEED), default=7,
                    help="deal seed (default 7)")
    ap.add_argument("--keep", type=cli.typed(cli.out_dir), help="keep the raw shots and data folders here")
    ap.add_argument("--micropython", type=cli.typed(cli.micropython),
                    help="micropython binary (default: tools/find_micropython.py)")
    ap.add_argument("only", nargs="*", metavar="NAME", help="pictures to make: %s (default all)"
                    % " ".join(n for n, _, _ in pictures()))
    args = ap.parse_args(argv)
    known = [n for n, _, _ in pictures()]
    unknown = [n for n in args.only if n not in known]
    if unknown:
        ap.error("unknown picture %s" % ", ".join(unknown))
    from PIL import Image
    work = args.keep or tempfile.mkdtemp(prefix="pico-shots-")
    os.makedirs(work, exist_ok=True)
    run = Runner(work, args.seed, args.micropython)
    os.makedirs(args.out, exist_ok=True)
    try:
        for name, make, board in pictures():
            if args.only and name not in args.only:
                continue
            shot, what = make(run, board)
            scale = board[3]
            im = shot.image.resize((board[1] * scale, board[2] * scale), Image.NEAREST)
            path = os.path.join(args.out, name + ".png")
            im.save(path, optimize=True)
            print("%s  %s (frame %s)" % (os.path.relpath(path, ROOT), what, shot.hash))
            if is_table(name):
                for extra, how in sizes(name, shot, board, args.out):
                    print("%s  %s" % (os.path.relpath(extra, ROOT), how))
    finally:
        if not args.keep:
            shutil.rmtree(work, ignore_errors=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
