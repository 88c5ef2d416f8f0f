"""A whole game through the UI at a small heap: the lean driver of the memory proof.

Imported by a one-line launcher with the firmware compiled to .mpy (as deployed), so the heap holds
what the device holds plus this small file. Env: MICROPYPATH (the compiled firmware, boards and this
folder: frames.heap_game), UI_ROOT (save dir),
UI_JOB = "variant players seat,seat,.. think_ms size [ms_per_clock_reading]".
Prints `key value` lines; `lowest` is the lowest gc.mem_free()
seen after a collection on every AI tick and after every save (app.probe: the live heap at its
fullest), `raw`
the lowest uncollected mem_free between loop steps.
"""
import gc
import os
import sys

JOB = os.getenv("UI_JOB").split()

import boards.sim as sim  # noqa: E402
from ui.app import App  # noqa: E402
import matchplay  # noqa: E402

low = [1 << 30, 1 << 30, 0]      # live low, raw low, ticks


def probe():
    gc.collect()
    f = gc.mem_free()
    if f < low[0]:
        low[0] = f


def tick_probe(what):
    if what == "tick":
        low[2] += 1
    probe()


fake_ms = int(JOB[5]) if len(JOB) > 5 else 0
now = [0]


def fake_clock():
    """The AI's clock: `fake_ms` per reading, so a search does the same work on every run."""
    now[0] += fake_ms
    return now[0]


board = sim.build(profile="sim", size=JOB[4], virtual=True)
# warm: the boot warm-up of the 180K stress runs (as the monkey's): the names every screen will intern
# are made at boot, so MicroPython's name pool grows while the heap is still whole, as it can on the
# Pico's larger heap (docs/ENGINE.md, "Memory tricks"; the device's own figures: make bench)
app = App(board, os.getenv("UI_ROOT") or "/tmp/ui_heap", fake_clock if fake_ms else None, True)
app.settings["anim"] = 0
app.settings["think"] = int(JOB[3])
app.settings["seed"] = 4321
app.probe = tick_probe          # every AI tick and every save


def step():
    app.step()
    f = gc.mem_free()
    if f < low[1]:
        low[1] = f


def press(k):
    board.host_keys(k)
    step()
    board.host_keys(0)
    step()


step()
matchplay.set_up(app, press, JOB[0], int(JOB[1]), JOB[2].split(","))
gc.collect()
start = gc.mem_free()
result, rounds, moves = matchplay.play(app, press, step, 100000)
print("result", result)
print("rounds", rounds)
print("human_moves", moves)
print("ai_ticks", low[2])
print("errors", app.errors)
print("mem_errors", app.mem_errors)      # MemoryErrors recovered (then played on lean: Hard as Medium)
print("save_failures", app.save_failures)
print("last_error", repr(app.last_error))
print("ai_problem", sys.modules["ui.brain"].problem if "ui.brain" in sys.modules else "-")
print("heap", gc.mem_free() + gc.mem_alloc())
print("start_free", start)
print("lowest", low[0])
print("raw", low[1])
