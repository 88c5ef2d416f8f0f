"""Move lookup with reasons, for the scenario replay (replay.py beside it: a scenario's error names what
is wrong).

The device's record loader (firmware/domino/record.py) only needs to know whether a move is legal:
its find_move/find_multi return NONE when not. These wrappers look the move up the same way and, when
there is none, say why (`3-4 does not match the L end`), as RecordError. The reasons live here so the
Pico does not carry their code and strings.
"""
from domino import record
from domino.layout import ARM_NAMES
from domino.record import RecordError
from domino.tiles import LO, HI, NONE, name


def find_move(rd, tile, arm, close):
    """The legal single move placing `tile` (on `arm`, or on the only end that matters when arm is
    None). Raises RecordError with the reason."""
    lay = rd.layout
    if not (rd.hands[rd.turn] >> tile) & 1:
        raise RecordError(name(tile) + " is not in seat " + str(rd.turn) + "'s hand")
    found = record.find_move(rd, tile, arm, close)
    if found != NONE:
        return found
    if lay.lead == NONE and rd.lead_tile != NONE:
        raise RecordError("the lead must be " + name(rd.lead_tile))
    if close and not rd.rules.close:
        raise RecordError("this variant has no closing")
    if arm is not None and not lay.fits(tile, arm):
        raise RecordError(name(tile) + " does not match the " + ARM_NAMES[arm] + " end")
    raise RecordError(name(tile) + " does not match any open end")


def find_multi(rd, parts):
    """parts: [(tile, arm, close)], the first one the spinner candidate. Raises RecordError with the
    reason when that is not a legal move."""
    lay = rd.layout
    for t, a, _c in parts:
        if a is None:
            raise RecordError("each double of a multi-tile move needs its end")
        if LO[t] != HI[t]:
            raise RecordError(name(t) + " is not a double: only doubles go in one move")
        if not lay.fits(t, a):
            raise RecordError(name(t) + " does not match the " + ARM_NAMES[a] + " end")
    m = record.find_multi(rd, parts)
    if m == NONE:
        raise RecordError("that multi-tile move is not allowed here")
    return m
