# uimatch.py's report, a module of its own so that its code is not in the heap during the match.
import gc
import sys
import time


def report(app, result, rounds, moves, low, kinds, free_boot, free_menu, t0):
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
    worst = None
    for name in kinds:
        k = kinds[name]
        print("kind", name.replace(" ", "_"), k[0], k[1], ",".join(sorted(k[2])))
        if worst is None or k[0] < kinds[worst][0]:
            worst = name
    if worst is not None:             # what the worst point loads on top of the menu: each module's
        from ui.screen import drop_module   # heap, imported alone now (its imports not yet loaded
        for name in sorted(kinds[worst][2]):    # counted with it)
            if name not in sys.modules:
                pre = set(sys.modules)
                gc.collect()
                f = gc.mem_free()
                try:
                    __import__(name)
                except ImportError:
                    continue
                gc.collect()
                print("holder", name, f - gc.mem_free())
                for m in [m for m in sys.modules if m not in pre]:
                    drop_module(m)
