# On the emulated Pico (tools/bench/pico.py): a whole match through the real App on the real board
# (its SPI panel, its heap), keys given at the key reader; tools/proofs/harness/matchplay.py plays
# the match, as in the unix-port proof (heapgame.py). Config from /_uimatch_cfg.py: CFG = (BOARD,
# VARIANT, PLAYERS, TEAMS, SEATS, THINK, FAKE_MS, WARM, SEED, VISIT).
# `lowest` is the lowest gc.mem_free() after a collection at every probe: the app's (app.probe: "tick"
# during an AI search, "save" after every save) and this script's before every press ("idle SCREEN":
# what a person looking at that screen holds); per kind a line `kind NAME LOWEST COUNT MODULES` (the
# modules loaded at that kind's lowest point); `raw` the lowest uncollected free heap between loop
# steps. At the end (uimatch_end.py), `holder NAME BYTES`: the heap each module loaded at the worst
# point but not at the menu takes, imported alone. FAKE_MS > 0: the AI's clock advances FAKE_MS per
# reading (one reading per determinization: the search's work is fixed, its buffers are the same);
# with SEED too (the deal's seed, app.settings "seed") the match repeats exactly, so a change is
# judged on the same match. `qstr`: micropython.qstr_info() at the menu and after the match. VISIT:
# before the match, every module a screen loads on demand (the pause menu, settings, the move log, a
# deal code, a hint's words...) is loaded once and dropped at the menu, as for a player who opened
# them all: their names stay interned for good (`free_visited`: the menu after that).
# Everything runs in main(): its variables are locals, which MicroPython does not intern, so the
# names this harness adds to the device's are few, as a player's main.py adds (the 7th name pool
# comes at ~1,260 names, 7.7 KB at once): the figures are the product's.
import gc
import micropython
import sys
import time


def main():
    from _uimatch_cfg import CFG
    BOARD, VARIANT, PLAYERS, TEAMS, SEATS, THINK, FAKE_MS, WARM, SEED, VISIT = CFG

    gc.collect()
    free_boot = gc.mem_free()
    import boards

    board = boards.load(BOARD)
    inj = [0]
    board.read_keys = lambda: inj[0]
    low = [1 << 30, 1 << 30, 0]
    kinds = {}                    # kind -> [lowest, count, modules at the lowest]
    now = [0]

    def fake_clock():
        now[0] += FAKE_MS
        return now[0]

    def tick_probe(what):
        if what == "tick":
            low[2] += 1
        gc.collect()
        f = gc.mem_free()
        k = kinds.get(what)
        if k is None:
            k = kinds[what] = [1 << 30, 0, None]
        k[1] += 1
        if f < k[0]:
            k[0] = f
            k[2] = None
            k[2] = tuple(sys.modules)     # (taken after the figure: its ~300 B are not in it)
        if f < low[0]:
            low[0] = f

    from ui.app import App
    import matchplay

    t0 = time.ticks_ms()
    app = App(board, "/", fake_clock if FAKE_MS else None, WARM)
    app.settings["anim"] = 0
    app.settings["think"] = THINK
    if SEED is not None:
        app.settings["seed"] = SEED     # (menus.py: a fixed deal, as the tests give it)
    app.probe = tick_probe
    ready = [False]

    def step():
        app.step()
        f = gc.mem_free()
        if f < low[1]:
            low[1] = f

    def press(k):
        if ready[0]:
            tick_probe("idle " + type(app.screen).__name__)
        inj[0] = k
        step()
        inj[0] = 0
        step()

    step()
    gc.collect()
    free_menu = gc.mem_free()
    if VISIT:
        from ui.nav import WARM as ON_DEMAND
        from ui.screen import drop_module
        for name in ON_DEMAND + ("ai.reason",):
            __import__(name)
            drop_module(name)
        gc.collect()
        print("free_visited", gc.mem_free())
    micropython.qstr_info()       # the interned names at the menu and after the match: a new qstr pool
    matchplay.set_up(app, press, VARIANT, PLAYERS, SEATS, TEAMS)
    ready[0] = True
    result, rounds, moves = matchplay.play(app, press, step)
    ready[0] = False
    gc.collect()
    micropython.qstr_info()       # (twice the last one's entries, ~7.7 KB at ~1,260 names, never freed)
    import uimatch_end        # the report: loaded only now, its code is not in the figures

    uimatch_end.report(app, result, rounds, moves, low, kinds, free_boot, free_menu, t0)


main()
