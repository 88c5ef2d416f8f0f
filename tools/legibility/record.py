# Run under the MicroPython unix port by tools/legibility/report.py (MICROPYPATH: firmware/, the
# repo): the real App on the simulated board of one profile, driven through its screens by keys in
# virtual time, with every text and tile the drawing layer draws recorded: one JSON line out.
# The recording wraps the Gfx instance's calls here, on the host: the device pays nothing.
#   argv: profile, seed, an empty folder for the saves (a fresh start: no saved game)
import json
import sys

from boards import sim
from ui.app import App
from keys import K_A, K_B, K_DOWN, K_UP

KEYS = {"up": K_UP, "down": K_DOWN, "a": K_A, "b": K_B}
CAPS_8X8 = 7         # framebuf's built-in 8x8 font: capitals 7 px tall, 8 px a character

profile = sys.argv[1]
seed = int(sys.argv[2])
board = sim.build(profile, virtual=True)
board.seed = seed
app = App(board, sys.argv[3])
app.settings["anim"] = 0
app.settings["think"] = 0
g = app.g
texts = []          # [screen, text, x, y, w, h, capitals, frame]
tiles = []          # [screen, where, half-tile size, pip size, gap between pips]


def screen():
    return type(app.screen).__name__


def in_band(y):
    """Each thing counted once: in the band that holds its top row (a banded board draws a screen
    once per band)."""
    band = board.band if board.band and board.band < board.height else board.height
    return board.y0 <= y < board.y0 + band


frame = [0]


def wrap_show():
    real = board.show

    def show(y0=0, y1=0x7FFF, more=False):
        real(y0, y1, more)
        if not more:
            frame[0] += 1
    board.show = show


wrap_show()
real_put = g.put


def put(s, x, y, col, k=1):
    """Every text the UI draws goes through Gfx.put: its box and capital height."""
    if g.font is not None:
        w, h, caps = g.cw * len(s), g.lh, g.caps
    else:
        w, h, caps = 8 * k * len(s), 8 * k, CAPS_8X8 * k
    if s.strip() and in_band(y):
        texts.append([screen(), s, x, y, w, h, caps, frame[0]])
    real_put(s, x, y, col, k)


g.put = put
real_tile = g.tile
real_square = g.square


ends_row = [False]   # the table shows the open ends in their own row


def region(y):
    """Where on the table screen a tile lies: the hand row, the open ends' row, the table."""
    t = app.table
    if t is None or screen() != "Table":
        return "table"
    ends_row[0] = t.ends_h > 0
    if y >= t.hand_y - 2:
        return "hand"
    if t.ends_h and t.ends_y <= y < t.ends_y + t.ends_h:
        return "ends"
    return "table"


def tile(x, y, a, b, horiz, s, flags=0, mark=-1):
    real_tile(x, y, a, b, horiz, s, flags, mark)
    if flags & 2 or not in_band(y) or (not a and not b):
        return
    at = g._pip_at
    z = g._pip_z
    tiles.append([screen(), region(y), s, z, at[1] - at[0] - z])


def square(x, y, v, s, mark=-1):
    real_square(x, y, v, s, mark)
    if not in_band(y) or not v:
        return
    at = g._pip_at
    z = g._pip_z
    tiles.append([screen(), "ends", s, z, at[1] - at[0] - z])


g.tile = tile
g.square = square


def settle(n=30):
    for _ in range(n):
        app.step()
        board.sleep_ms(20)


def press(words):
    for w in words.split():
        board.host_keys(KEYS[w])
        settle(3)
        board.host_keys(0)
        settle(6)


settle()
# the main menu, settings, statistics, rules help and a help page, back each time
press("down a")
press("b")
press("down down a")
press("b")
press("down down down a")
press("b")
press("down down down down a")
press("a")
press("b b")
# the New game form, then start: the last row
press("up up up up a")
press("up a")
settle(200)
for _ in range(6):
    press("a")
    settle(100)
print(json.dumps({"profile": profile, "w": board.width, "h": board.height,
                  "pitch_um": board.pitch_um, "ends_row": ends_row[0], "texts": texts,
                  "tiles": tiles}))
