"""The one door from the UI to the AI (`ai.choose` / `ai.hint`).

When the `ai` package is missing or fails, a small stand-in plays (heaviest legal tile), so the
handheld never stops on an AI problem; `problem` says what went wrong.
"""
import gc
import sys
from domino.tiles import PIPS, DOUBLE
from domino.round import MULTI

_ai = None
problem = None


def _module():
    global _ai, problem
    if _ai is None:
        try:
            import ai
            _ai = ai
        except Exception as e:       # ImportError, or a broken/oversized module: play on without it
            _ai = False
            problem = "AI unavailable: " + str(e)
    return _ai


def release():
    """Give back the AI's code and search buffers while people play (a human's turn, a save, the
    round's end): the whole `ai` package is forgotten and loaded again at the AI's next move. An
    AI that offers `ai.release()` frees its memory its own way instead."""
    global _ai
    a = _ai
    if not a:
        return
    try:
        f = getattr(a, "release", None)
        if f is not None:
            f()
            return
    except Exception:               # never let the AI's housekeeping stop the game
        pass
    _ai = None
    for name in list(sys.modules):  # the package with all its modules, never a part of it
        if name == "ai" or name.startswith("ai."):
            del sys.modules[name]
    gc.collect()


def _tile_of(rd, m):
    if m & MULTI:
        a = (m >> 9) & 3
        return DOUBLE[rd.layout.end[a]]
    return m & 31


def stand_in(match):
    """Heaviest legal tile, multi moves first (a simple but sane player)."""
    rd = match.round
    n = rd.legal()
    best = rd.buf[0] if n else 0
    score = -1
    for i in range(n):
        m = rd.buf[i]
        v = PIPS[_tile_of(rd, m)] + (40 if m & MULTI else 0)
        if v > score:
            score = v
            best = m
    return best


def choose(match, seat, level, budget_ms, clock=None, on_tick=None):
    global problem
    a = _module()
    if a:
        try:
            m = a.choose(match, seat, level, budget_ms, clock=clock, on_tick=on_tick)
            if match.round.is_legal(m):
                return m
            problem = "AI returned an illegal move"
        except MemoryError:
            problem = "AI ran out of memory"
        except Exception as e:
            problem = "AI error: " + str(e)
    return stand_in(match)


def hint(match, seat, budget_ms, clock=None, on_tick=None):
    """(move, reason)."""
    global problem
    a = _module()
    if a:
        try:
            m, why = a.hint(match, seat, budget_ms, clock=clock, on_tick=on_tick)
            if match.round.is_legal(m):
                return m, why
        except MemoryError:
            problem = "AI ran out of memory"
        except Exception as e:
            problem = "AI error: " + str(e)
    return stand_in(match), "heaviest tile"
