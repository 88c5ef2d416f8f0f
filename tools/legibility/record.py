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
texts = []
tiles = []


def screen():
    return type(app.screen).__name__


def in_band(y):
    """Each thing counted once: in the band that holds its top row (a banded board draws a screen
    once per band)."""
    band = board.band if board.band and board.band < board.height else board.height
    return board.y0 <= y < board.y0 + band


def wrap_text(call):
    real = getattr(g, call)

    def rec(s, *a):
        if call == "center":
            y, k = a[0], 1
            x = (g.w - 8 * len(s)) // 2
        elif call == "right":
            x, y, k = a[0] - 8 * len(s), a[1], 1
        elif call == "big":
            x, y = a[0], a[1]
            k = (a[3] if len(a) > 3 else 0) or g.scale
        else:
            x, y, k = a[0], a[1], 1
        if s and in_band(y):
            texts.append([screen(), s, x, y, 8 * k * len(s), 8 * k, CAPS_8X8 * k])
        return real(s, *a)
    setattr(g, call, rec)


for call in ("text", "right", "center", "big"):
    wrap_text(call)
real_tile = g.tile


def tile(x, y, a, b, horiz, s, flags=0, mark=-1):
    real_tile(x, y, a, b, horiz, s, flags, mark)
    if flags & 2 or not in_band(y) or (not a and not b):
        return
    at = g._pip_at
    z = g._pip_z
    t = app.table
    where = "hand" if t is not None and s == t.hs and screen() == "Table" else "table"
    tiles.append([screen(), where, s, z, at[1] - at[0] - z])


g.tile = tile


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
# the main menu, settings, statistics, rules help and a help page, back each time (the menu's
# cursor comes back on the row chosen)
press("down a")
press("b")
press("down a")
press("b")
press("down a")
press("a")
press("b b")
# the New game form (from Rules help, three rows up), then start: the last row
press("up up up a")
press("up a")
settle(200)
for _ in range(6):
    press("a")
    settle(100)
print(json.dumps({"profile": profile, "w": board.width, "h": board.height,
                  "pitch_um": board.pitch_um, "texts": texts, "tiles": tiles}))
