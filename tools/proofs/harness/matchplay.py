"""A whole match through the real App, played as a person would: New game set up from the main menu,
then A on every prompt (the cursor starts on a playable tile) until the match ends on the main menu.

Shared by the heap proofs of both runtimes: tools/proofs/harness/heapgame.py (unix port, simulated
board) and tools/emu/scripts/uimatch.py (the emulated Pico, real board). Each gives its own
`press(key)` and `step()`, as a key reaches the app differently on each.
"""
from keys import K_DOWN, K_RIGHT, K_A

try:
    from time import ticks_diff
except ImportError:                    # CPython
    def ticks_diff(a, b):
        return a - b

CURTAIN_WAIT_MS = 700                  # a pass-and-play curtain lifts for a press after 600 ms of quiet


def built(text, *values):
    """A row label the form builds from a template ("Seat {0}"): in the language in use, as the
    form makes it (the fixed labels stay English in rows(): ui/widgets.py ListScreen)."""
    import sys
    lang = sys.modules.get("ui.lang")
    return (lang.tr(text) if lang else text).format(*values)


def row(app, press, label):
    """Move the menu's cursor down to the row `label`."""
    sc = app.screen
    for _ in range(30):
        if sc.rows()[sc.sel][0] == label:
            return
        press(K_DOWN)
    raise RuntimeError("no row " + label)


def set_up(app, press, variant, players, seats, teams=False):
    """From the main menu: New game, the variant, players, teams, each seat's kind; Start game."""
    row(app, press, "New game")
    press(K_A)
    sc = app.screen
    from domino.rules import VARIANTS
    while VARIANTS[sc.vi][0] != variant:
        press(K_RIGHT)
    row(app, press, "Players")
    while sc.players != players:
        press(K_RIGHT)
    if sc.teams != bool(teams):              # (Goat with four starts in pairs)
        row(app, press, "Teams")
        press(K_RIGHT)
    for s in range(players):
        row(app, press, built("Seat {0}", s + 1))
        while sc.kinds[s] != seats[s]:
            press(K_RIGHT)
    row(app, press, "Start game")
    sc = None
    press(K_A)


def _look(app):
    """(screen class name, mode, page, text) of the screen shown. In a function of its own: this
    loop lives for the whole match, and MicroPython's GC scans a frame's whole value stack, spent
    slots too, so a screen looked at here would stay on the heap, with the module its class
    came from (a round-end screen's ui.sheet through the next round's first AI search), long after
    the app let go of it."""
    sc = app.screen
    return (type(sc).__name__, getattr(sc, "mode", -1), getattr(sc, "page", -1),
            str(getattr(sc, "text", "")))


def play(app, press, step, limit=200000):
    """Play to the end of the match: (result, rounds, human moves); result "over" when the main menu
    is back, else where it stopped."""
    moves = rounds = 0
    for _ in range(limit):
        name, mode, page, text = _look(app)
        if name not in ("Table", "RoundEnd", "MainMenu", "Screen", "Curtain"):
            return "stuck on " + name + " " + text, rounds, moves
        if name == "Table":
            if mode == 1:
                press(K_A)
                if getattr(app.screen, "mode", -1) == 2:
                    press(K_A)         # which end
                moves += 1
            elif mode == 4:
                press(K_A)
            else:
                step()
        elif name == "RoundEnd":
            if page == 0:
                rounds += 1
            press(K_A)
        elif name == "Curtain":         # pass-and-play: the device handed to the next person, who
            t0 = app.board.ticks_ms()   # waits for the curtain's quiet before pressing A
            for _ in range(100000):
                if ticks_diff(app.board.ticks_ms(), t0) >= CURTAIN_WAIT_MS:
                    break
                step()
            press(K_A)
        elif name == "MainMenu":
            return "over", rounds, moves
        else:
            step()
    return "steps", rounds, moves
