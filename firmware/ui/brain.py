"""The one door from the UI to the AI (`ai.choose` / `ai.hint`).

When the `ai` package is missing or fails, a small stand-in plays (heaviest legal tile), so the
handheld never stops on an AI problem; `problem` says what went wrong.
"""
import gc
import sys
from domino.tiles import PIPS
from domino.round import first_tile
from micropython import const
from .screen import tr

_MULTI = const(0x100)  # = domino.round.MULTI

_ai = None
problem = None
make_room = None      # set by the app: unloads what the screens can load again later


def load(hard=True):
    """Load the AI now (before a table: it stays for good, low in the heap), with its hard search
    where `hard` (a hard seat; a hint loads it when first asked). False when there is none."""
    return _module(hard)


def _module(hard=False):
    global _ai, problem
    if _ai is None:
        for attempt in (0, 1):
            try:
                import ai
                _ai = ai
                break
            except MemoryError:      # a short or split heap: drop the half-loaded package, make
                _forget()            # room (the screens' droppable code) and try once more
                problem = "AI did not fit in memory"
                if make_room is not None:
                    make_room()
            except Exception as e:   # ImportError, or a broken module: play on without it
                _forget()
                problem = tr("AI unavailable: {0}").format(e)
                break
        if _ai is None:
            _ai = False
    if hard and _ai and "ai.hard" not in sys.modules:
        for attempt in (0, 1):       # (plain bytecode: it could be dropped and loaded again)
            try:
                import ai.hard
                break
            except MemoryError:      # ai.choose plays the medium pick without it
                problem = "AI did not fit in memory"
                if make_room is not None:
                    make_room()
            except Exception as e:   # a broken module: the stand-in plays its moves (choose, hint)
                problem = tr("AI unavailable: {0}").format(e)
                break
    return _ai


def _forget():
    """Drop a half-loaded `ai` package with all its modules (after a failed import only)."""
    for name in list(sys.modules):
        if name == "ai" or name.startswith("ai."):
            del sys.modules[name]
    gc.collect()


def release():
    """Give back the AI's scratch buffers while people play or a save needs the room; the AI
    builds them again at its next move. Its code stays: the `ai` package holds native (viper) code,
    and MicroPython never frees native code loaded from .mpy, so unloading and reloading the AI
    would leak on every turn."""
    a = _ai or sys.modules.get("ai")      # (this module may have been reloaded since)
    if not a:
        return
    try:
        getattr(a, "release")()
    except Exception:               # never let the AI's housekeeping stop the game
        pass
    gc.collect()


def stand_in(match):
    """Heaviest legal tile, multi moves first (a simple but sane player)."""
    rd = match.round
    n = rd.legal()
    best = rd.buf[0] if n else 0
    score = -1
    for i in range(n):
        m = rd.buf[i]
        v = PIPS[first_tile(rd.layout, m)] + (40 if m & _MULTI else 0)
        if v > score:
            score = v
            best = m
    return best


def choose(match, seat, level, budget_ms, clock=None, on_tick=None):
    global problem
    a = _module(level == "hard")
    if a:
        try:
            m = getattr(a, "choose")(match, seat, level, budget_ms, clock=clock, on_tick=on_tick)
            if match.round.is_legal(m):
                return m
            problem = "AI returned an illegal move"
        except MemoryError:
            problem = "AI ran out of memory"
        except Exception as e:
            problem = tr("AI error: {0}").format(e)
    return stand_in(match)


def hint(match, seat, budget_ms, clock=None, on_tick=None, short=False, cols=0):
    """(move, reason): the reason fits 40 characters, 16 with short, and `cols` where it is not 0
    (its short form where the long one would not; ui/words.py shows it)."""
    global problem
    a = _module(True)
    if a:
        try:
            m, why = getattr(a, "hint")(match, seat, budget_ms, clock=clock, on_tick=on_tick, short=short,
                                        cols=cols)
            if match.round.is_legal(m):
                return m, why
        except MemoryError:
            problem = "AI ran out of memory"
        except Exception as e:
            problem = tr("AI error: {0}").format(e)
    return stand_in(match), "Heaviest tile"
