# On the emulated Pico (tools/bench/pico.py --only press): where the time of a press goes, part by
# part, with the real App and board (its SPI panel, its flash with a W25Q16's erase/program times).
# Config from /_presstime_cfg.py: BOARD, REPEAT. A Draw game, you vs Medium, at your turn; each line
# printed is "name p50_us max_us count" over REPEAT runs:
#   keys      the key reader and the screen's work on a cursor RIGHT (App.handle_keys: poll, pick.key)
#   whole     a whole frame drawn and sent (App.paint: every band drawn, then sent)
#   whole_draw  the same, drawing only (the panel's show() a no-op)
#   hand      the hand row alone (App.paint_parts(P_HAND)), drawn and sent; hand_draw: drawing only
#   cursor    a cursor move's two tiles drawn over the hand row the buffer holds, the row sent
#   msg       the message area alone (what the AI's turn sends after a played tile)
#   band_spi  one band's rows sent (boards/_st7789.py show(): GS4 to RGB565 a line at a time over SPI)
#   gc        a collection (the played tile's play() makes one before its save)
#   save      Table.save(): the move's save (savegame.py: a new file, renames; flash erase/program)
#   load_paint  ui.paint loaded again from flash (play() drops it before the save)
#   load_savegame  savegame loaded again (App.release drops it for the AI's search)
#   step_idle   one pass of the loop with nothing to do (App.step without its sleep)
#   s_copy, s_renames  an A's save: game.txt copied with the move added (read, checked, written),
#             the two renames (game.txt to game.bak, the new file to game.txt)
#   sum_kb    the save's checksum (savegame.SumWriter) over 1 KB
#   a_*       an A that plays a tile: a_to_redraw the key's work up to the redraw (the move, its
#             words, the layout placed), a_pixels to the redraw's end, a_drop_gc modules dropped +
#             a collection, a_save the save, a_total the whole key; a_place the layout placed
#             (TableView.update: ui/place.py loaded from flash, when it is not, and run: the new
#             tile laid alone, or the layout placed whole)
#   load_place  ui.place loaded again from flash (play() drops it before the save)
#   place_whole the layout placed again whole at the table's fit (ui/place.py place(..., True));
#             a_place_whole the same on the layout just played to
#   layout_draw the layout drawn once into the band (ui/paint.py draw_layout)
#   span_row  one table row drawn and sent as a span of its own (App.paint_parts(P_TROWS)): what a
#             second span costs beside its rows (band_spi / band_rows a row), ui/paint.py SPAN_GAP
import gc
import sys
import time

from _presstime_cfg import BOARD, REPEAT

import boards  # noqa: E402

board = boards.load(BOARD)
inj = [0]
board.read_keys = lambda: inj[0]

from ui.app import App  # noqa: E402
from keys import K_A, K_RIGHT  # noqa: E402
from ui.screen import drop_module  # noqa: E402
import matchplay  # noqa: E402

app = App(board, "/")
app.settings["anim"] = 0


step = app.step


def press(k):
    for keys in (k, 0):                 # held for one pass of the loop, let go for the next
        inj[0] = keys
        app.step()


step()
matchplay.set_up(app, press, "draw", 2, ("human", "medium"))
for _ in range(400):
    sc = app.screen
    if type(sc).__name__ == "Table" and sc.mode == 1:
        break
    if type(sc).__name__ == "Table" and sc.mode == 4:
        press(K_A)
    else:
        step()
t = app.screen
assert type(t).__name__ == "Table" and t.mode == 1, type(t).__name__
sleep = board.sleep_ms
board.idle_ms = lambda ms: None         # the loop's wait apart from the rest
times = {}


def note(name, us):
    times.setdefault(name, []).append(us)


def timed(name, fn, *a):
    gc.collect()
    t0 = time.ticks_us()
    fn(*a)
    note(name, time.ticks_diff(time.ticks_us(), t0))


def no_show(y0=0, y1=0x7FFF, more=False):
    pass


real_show = board.show
for i in range(REPEAT):
    inj[0] = K_RIGHT
    timed("keys", app.handle_keys)
    inj[0] = 0
    app.handle_keys()
    app.parts = 0
    app.dirty = False
    timed("whole", app.paint, t.draw)
    timed("hand", app.paint_parts, t, 8)
    t.cursor_was = t.cursor - 1 if t.cursor else 1
    timed("cursor", app.paint_parts, t, 16)   # (the buffer holds the hand row just drawn)
    timed("msg", app.paint_parts, t, 4)
    board.show = no_show
    timed("whole_draw", app.paint, t.draw)
    timed("hand_draw", app.paint_parts, t, 8)
    board.show = real_show
    top = board.band if board.band and board.band < board.height else board.height
    board.set_band(0)
    timed("band_spi", board.display.show, board.buf, 0, top - 1, 0)
    timed("gc", gc.collect)
    timed("save", t.save)
    timed("step_idle", app.step)
    timed("idle_poll", app.handle_keys)
    timed("idle_screen", t.step)
    timed("idle_memfree", gc.mem_free)
    timed("idle_feed", app.feed)
    drop_module("ui.paint")
    timed("load_paint", app.need, "ui.paint")
    drop_module("savegame")
    timed("load_savegame", app.need, "savegame")
    drop_module("ui.place")
    timed("load_place", app.need, "ui.place")
    timed("place_whole", app.need("ui.place").place, t.view, t.game.match.round.layout, True)
    p = app.need("ui.paint")
    timed("layout_draw", p.draw_layout, t.view, app.g, t.last, app.g.c.ACCENT)
    p = None
    y = t.view.y0 + t.view.h // 2
    t.trows = t.trows2 = (y, y)
    board.set_band(y)
    timed("span_row", app.paint_parts, t, 32)
# A that plays a tile, stage by stage: the key's work up to the redraw (the move, its words, the
# layout placed), the redraw (first band sent, last), drop + collection, the save
stamps = {}
real_flush = app.flush
real_save = t.save


def flush():
    stamps.setdefault("flush", time.ticks_us())
    real_flush()
    stamps.setdefault("flushed", time.ticks_us())


def save(*a):
    stamps["save"] = time.ticks_us()
    real_save(*a)
    stamps["saved"] = time.ticks_us()


def show(y0=0, y1=0x7FFF, more=False):
    stamps.setdefault("band", time.ticks_us())
    real_show(y0, y1, more)


TV = type(t.view)
real_update = TV.update


def update(v, lay, a):
    t0 = time.ticks_us()
    real_update(v, lay, a)
    stamps["place"] = stamps.get("place", 0) + time.ticks_diff(time.ticks_us(), t0)


# the save's own steps, wrapped (each A's save: game.txt copied with the move added, the renames)
spent = {}


class Dummy:
    _append = rename = None


def clocked(name, real):
    def run(*a):
        t0 = time.ticks_us()
        try:
            return real(*a)
        finally:
            spent[name] = spent.get(name, 0) + time.ticks_diff(time.ticks_us(), t0)
    return run


for i in range(REPEAT):
    for _ in range(2000):                    # the next turn of yours with a tile that plays at once
        if t.mode == 1 and not t.calm_until:
            t.cursor = 0
            from ui import pick
            pick.jump(t, 1, True)
            if pick.moves_of(t, t.hand[t.cursor]) == 1:
                break
        if app.screen is not t:
            break
        if t.mode == 1:
            inj[0] = K_RIGHT
            step()
            inj[0] = 0
        step()
    if app.screen is not t or t.mode != 1:
        break
    app.flush = flush
    t.save = save
    board.show = show
    TV.update = update
    sg = sys.modules.get("savegame")        # (loaded again after every AI move: a new class;
    files = sg.Files if sg else Dummy           # not loaded here on purpose, that would change the A)
    real_copy = files._append
    real_rename = files.rename
    files._append = clocked("s_copy", real_copy)
    files.rename = clocked("s_renames", real_rename)
    spent.clear()
    stamps.clear()
    inj[0] = K_A
    gc.collect()
    t0 = time.ticks_us()
    app.handle_keys()
    t1 = time.ticks_us()
    inj[0] = 0
    app.flush = real_flush
    t.save = real_save
    board.show = real_show
    TV.update = real_update
    files._append = real_copy
    files.rename = real_rename
    if "save" not in stamps:
        continue
    for name in spent:
        note(name, spent[name])
    note("a_to_redraw", time.ticks_diff(stamps["flush"], t0))
    note("a_first_band", time.ticks_diff(stamps["band"], t0))
    note("a_pixels", time.ticks_diff(stamps["flushed"], t0))
    note("a_drop_gc", time.ticks_diff(stamps["save"], stamps["flushed"]))
    note("a_save", time.ticks_diff(stamps["saved"], stamps["save"]))
    note("a_total", time.ticks_diff(t1, t0))
    note("a_place", stamps.get("place", 0))
    timed("a_place_whole", app.need("ui.place").place, t.view, t.game.match.round.layout, True)
    drop_module("ui.place")
    step()
kb = bytes(range(256)) * 4                   # the save's checksum over 1 KB (the record grows ~1.5 KB
w = app.need("savegame").SumWriter(None)     # in a long match; it is summed twice a save)
timed("sum_kb", w.add, kb)
for name in sorted(times):
    xs = sorted(times[name])
    print(name, xs[len(xs) // 2], xs[-1], len(xs))
print("band_rows", board.band, "height", board.height)
print("free", gc.mem_free())
