# On the emulated Pico (tools/bench_pico.py): a whole match through the real App on the real board
# (its SPI panel, its heap), keys given at the key reader; host_tests/ui_fakes/matchplay.py plays
# the match, as in the unix-port proof (heapgame.py). Config from /_uimatch_cfg.py: BOARD VARIANT
# PLAYERS TEAMS SEATS THINK FAKE_MS WARM.
# `lowest` is the lowest gc.mem_free() after a collection at every AI tick and after every save;
# `raw` the lowest uncollected free heap between loop steps. FAKE_MS > 0: the AI's clock advances
# FAKE_MS per reading (a search does the same, smaller, work; its buffers are the same).
import gc
import sys
import time

from _uimatch_cfg import BOARD, VARIANT, PLAYERS, TEAMS, SEATS, THINK, FAKE_MS, WARM

gc.collect()
free_boot = gc.mem_free()
import boards  # noqa: E402

board = boards.load(BOARD)
inj = [0]
board.read_keys = lambda: inj[0]
low = [1 << 30, 1 << 30, 0]
now = [0]


def fake_clock():
    now[0] += FAKE_MS
    return now[0]


def tick_probe(what):
    if what == "tick":
        low[2] += 1
    gc.collect()
    f = gc.mem_free()
    if f < low[0]:
        low[0] = f


from ui.app import App  # noqa: E402
import matchplay  # noqa: E402

t0 = time.ticks_ms()
app = App(board, "/", fake_clock if FAKE_MS else None, WARM)
app.settings["anim"] = 0
app.settings["think"] = THINK
app.probe = tick_probe


def step():
    app.step()
    f = gc.mem_free()
    if f < low[1]:
        low[1] = f


def press(k):
    inj[0] = k
    step()
    inj[0] = 0
    step()


step()
gc.collect()
free_menu = gc.mem_free()
matchplay.set_up(app, press, VARIANT, PLAYERS, SEATS, TEAMS)
result, rounds, moves = matchplay.play(app, press, step)
gc.collect()
print("result", result)
print("rounds", rounds)
print("human_moves", moves)
print("ai_ticks", low[2])
print("errors", app.errors)
print("mem_errors", app.mem_errors)
print("ai_problem", sys.modules["ui.brain"].problem if "ui.brain" in sys.modules else "-")
print("free_boot", free_boot)
print("free_menu", free_menu)
print("lowest", low[0])
print("raw", low[1])
print("game_ms", time.ticks_diff(time.ticks_ms(), t0))
