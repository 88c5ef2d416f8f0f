# Run under the MicroPython unix port by tools/legibility/report.py (MICROPYPATH: firmware/, the
# repo): the real App on the simulated board of one profile, driven through every screen by keys in
# virtual time (SCENES below: the menus, the forms and editors, the safe start, and seeded games of
# solo Fives, Goat 2v2, 3-player pass-and-play Draw and Blitz with their game menu, move log, score
# sheet, hint, end choice, curtain and round-end pages), with every text and tile the drawing layer
# draws recorded: one JSON line out. The recording wraps the Gfx instance's calls here, on the
# host: the device pays nothing.
#   argv: profile, seed, an empty folder for the saves (a fresh start: no saved game), and the
#   language ("en" unless given: the rows are still found by their English labels, L() below)
import json
import os
import sys

from boards import sim
from ui.app import App
from keys import K_A, K_B, K_DOWN, K_UP

KEYS = {"up": K_UP, "down": K_DOWN, "a": K_A, "b": K_B}
CAPS_8X8 = 7         # framebuf's built-in 8x8 font: capitals 7 px tall, 8 px a character

profile = sys.argv[1]
seed = int(sys.argv[2])
root = sys.argv[3]
LANG = sys.argv[4] if len(sys.argv) > 4 else "en"
SHOTS = len(sys.argv) > 5 and sys.argv[5] == "1"    # keep each screen's first whole frame
shots = {}          # screens whose first complete frame was printed ("SHOT <screen> <hex bytes>")
canvas = [None]     # the whole frame, put together from the bands shown
texts = []          # [screen, text, x, y, w, h, capitals, frame]
unglyphed = []      # [screen, text] of texts with a letter the font in use lacks (drawn as "?" or a box)
tiles = []          # [screen, where, half-tile size, pip size, gap between pips]
seen = []           # screens reached (report.py: every screen the rule covers)
frame = [0]
ends_row = [False]  # the table shows the open ends in their own row
cur = {}            # the app and board being driven


def screen():
    app = cur["app"]
    t = app.table
    name = type(app.screen).__name__
    if name == "Table" and t is not None:
        r = t.game.match.rules
        if r.teams:
            name = "Table 2v2"
        elif t.game.humans > 1:
            name = "Table pass-and-play"
        elif r.vid == "blitz":
            name = "Table Blitz"
    if name not in seen:
        seen.append(name)
    return name


def in_band(y):
    """Each thing counted once: in the band that holds its top row (a banded board draws a screen
    once per band)."""
    board = cur["board"]
    band = board.band if board.band and board.band < board.height else board.height
    return board.y0 <= y < board.y0 + band


def region(y):
    """Where on the table screen a tile lies: the hand row, the open ends' row, the table."""
    app = cur["app"]
    t = app.table
    if t is None or type(app.screen).__name__ != "Table":
        return "table"
    ends_row[0] = t.ends_h > 0
    if y >= t.hand_y - 2:
        return "hand"
    if t.ends_h and t.msg_y <= y < t.msg_y + t.ends_h:
        return "ends"
    return "table"


def keep(board, y0, y1, more):
    """The rows just shown (of the band in the buffer) into the whole frame; a complete frame of a
    screen not kept yet kept."""
    if board.mono:
        canvas[0] = bytes(board.buf)
    else:
        bpl = (board.width + 1) // 2
        if canvas[0] is None or len(canvas[0]) != bpl * board.height:
            canvas[0] = bytearray(bpl * board.height)
        top = board.y0
        end = min(top + (board.band or board.height), board.height) - 1
        a = max(y0, top)
        b = min(y1, end)
        if b >= a:
            canvas[0][a * bpl:(b + 1) * bpl] = memoryview(board.buf)[(a - top) * bpl:(b + 1 - top) * bpl]
    if not more:
        name = screen()
        if name not in shots:            # printed at once, a line each (report.record reads them)
            shots[name] = True
            print("SHOT", name.replace(" ", "_"), "".join("%02x" % b for b in canvas[0]))


def instrument(board, app):
    g = app.g
    real_show = board.show
    real_text = g.text
    real_tile = g.tile
    real_square = g.square

    def show(y0=0, y1=0x7FFF, more=False):
        real_show(y0, y1, more)
        if SHOTS:
            keep(board, y0, y1, more)
        if not more:
            frame[0] += 1

    def text(s, x, y, col, k=1):
        """Every text the UI draws goes through Gfx.text: its box and capital height."""
        if g.font is not None:
            w, h, caps = g.cw * len(s), g.lh, g.caps
        else:                            # (k8: the 8x8 font as large as a colour board needs)
            n = k * g.k8
            w, h, caps = 8 * n * len(s), 8 * n, CAPS_8X8 * n
        if s.strip() and in_band(y):
            texts.append([screen(), s, x, y, w, h, caps, frame[0]])
            f = g.font
            for ch in s:
                cp = ord(ch)
                if (f.index(cp) == f.q and cp != 63) if f is not None else not 32 <= cp <= 126:
                    unglyphed.append([screen(), s])     # (framebuf's 8x8 font: ASCII only)
                    break
        real_text(s, x, y, col, k)

    def tile(x, y, a, b, horiz, s, flags=0, mark=-1):
        real_tile(x, y, a, b, horiz, s, flags, mark)
        if flags & 2 or not in_band(y) or (not a and not b):
            return
        p = g._pip                                   # (size, pip, the columns' offsets)
        tiles.append([screen(), region(y), s, p[1], p[3] - p[2] - p[1]])

    def square(x, y, v, s, mark=-1):
        real_square(x, y, v, s, mark)
        if not in_band(y) or not v:
            return
        p = g._pip
        tiles.append([screen(), "ends", s, p[1], p[3] - p[2] - p[1]])

    board.show = show
    g.text = text
    g.tile = tile
    g.square = square


def start(folder, held=0, ask=False):
    """A fresh app on a fresh board (`held`: keys down at power-on; `ask`: a device's first boot,
    which asks the language)."""
    path = root + "/" + folder
    try:
        os.mkdir(path)
    except OSError:
        pass
    board = sim.build(profile, virtual=True)
    board.seed = seed
    board.lang = None if ask else LANG    # the first boot's language, as the browser's is given
    if held:
        board.host_keys(held)
    app = App(board, path)
    if LANG != "en" and not ask:
        from ui import langfile
        app.settings["lang"] = LANG   # (the safe start reads no settings: in LANG all the same)
        langfile.use(LANG)
        app.g.for_lang(LANG)
    board.host_keys(0)
    app.settings["anim"] = 0
    app.settings["think"] = 0
    cur["app"] = app
    cur["board"] = board
    instrument(board, app)
    settle()


def settle(n=30):
    app = cur["app"]
    board = cur["board"]
    for _ in range(n):
        app.step()
        board.sleep_ms(20)


def press(words):
    board = cur["board"]
    for w in words.split():
        board.host_keys(KEYS[w])
        settle(3)
        board.host_keys(0)
        settle(6)


def L(text):
    """A row's label as its screen builds it: a built one ("Seat 2") is in the language in use."""
    lang = sys.modules.get("ui.lang")
    return lang.tr(text) if lang else text


def name():
    return type(cur["app"].screen).__name__


def row(label):
    """Select the row of the current list screen whose label starts with `label`, and pick it."""
    scr = cur["app"].screen
    if not hasattr(scr, "rows"):
        return False
    labels = [r[0] for r in scr.rows()]
    for i in range(len(labels)):
        if labels[i].startswith(label):
            while scr.sel != i:
                press("down")
            press("a")
            return True
    return False


def value(label, want):
    """Press A on a form's row until its value is `want`."""
    scr = cur["app"].screen
    for _ in range(16):
        for lab, v in scr.rows():
            if lab == label and str(v) == want:
                return
        row(label)
    raise SystemExit("record.py: %s never became %s" % (label, want))


def turn():
    """One move of the human on turn: the next playable tile, played, placed (A on the first end
    offered); the curtain lifted, round-end pages turned."""
    n = name()
    if n == "Curtain":
        press("a")
    elif n == "RoundEnd":
        press("a")
    elif n == "Table":
        t = cur["app"].table
        if t.mode == 2:                          # choosing an end: the one shown
            press("a")
        else:
            press("down a")
    else:
        press("b")
    settle(60)


def play_until(want, most=80):
    for _ in range(most):
        if name() == want:
            return True
        turn()
    return False


def hint_and_ends():
    """The hint (from the game menu) and, on a tile that fits several ends, the end choice."""
    press("b")
    if row("Hint"):
        settle(200)
    for _ in range(12):                         # a tile that goes on more than one end
        if name() != "Table":
            turn()
            continue
        t = cur["app"].table
        if t.mode == 2:
            press("down")
            press("a")
            settle(60)
            return
        press("down a")
        settle(60)


def game_menu():
    """The game menu and what it opens: moves, scores, score sheet, settings, a rules page."""
    for label in ("Moves", "Scores", "Score sheet", "Settings", "Rules help"):
        play_until("Table", 10)
        press("b")
        if name() != "Pause":
            settle(200)
            press("b")
        if row(label):
            settle(20)
            if label == "Rules help":
                press("down a")
                press("down down")
            press("b")
            settle(20)
        if name() == "Pause":
            press("b")
        settle(20)


def new_game(variant, players, seats=(), teams=False, names=False):
    """From the main menu: the New game form set up and started."""
    row("New game")
    value("Variant", variant)
    value("Players", str(players))
    if teams:
        value("Teams", "2 v 2")
    for s, kind in seats:
        value(L("Seat {0}").format(s), kind)
    if names:
        row("Names")
        row(L("Seat {0}").format(2))
        press("up a up a")
        for _ in range(8):
            if name() != "NameEditor":
                break
            press("a")
        row("Back")
    row("Start game")
    settle(200)


# 0. a device's first boot: the language question, answered in LANG
start("first", ask=True)
screen()
if LANG != "en":
    press("down")
press("a")
settle()

# 1. the menus: main, settings, statistics, rules help and its pages, the New game form, the
#    deal-code editor; then solo Fives: hint, end choice, game menu, a round to its end
start("solo")
row("Settings")
press("b")
row("Statistics")
press("b")
row("Rules help")
row("Controls")
press("down down down down")
press("b")
row("Fives")
press("b b")
row("New game")
row("Deal")
press("up a up")
press("b")
press("b")
new_game("Fives", 2)
hint_and_ends()
game_menu()
play_until("RoundEnd")
for _ in range(4):
    if name() != "RoundEnd":
        break
    press("down")
    press("a")
    settle(60)

# 2. Goat, 2 v 2 (you and a partner against two AIs)
start("goat")
new_game("Goat", 4, teams=True)
for _ in range(6):
    turn()
game_menu()

# 3. Draw for three, passed from hand to hand: the names, the curtain
start("draw3")
new_game("Draw", 3, seats=((2, "Human"), (3, "Human")), names=True)
for _ in range(14):
    turn()
game_menu()

# 4. Blitz: four players, a line
start("blitz")
new_game("Blitz", 4)
for _ in range(10):
    turn()

# 5. the safe start (B held at power-on)
start("safe", K_B)
screen()
press("down")
press("b")

board = cur["board"]
print(json.dumps({"profile": profile, "w": board.width, "h": board.height,
                  "pitch_um": board.pitch_um, "ends_row": ends_row[0], "seen": seen,
                  "texts": texts, "tiles": tiles, "unglyphed": unglyphed}))
