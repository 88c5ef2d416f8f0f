"""Both devices run the same engine on the same deal and apply the same moves: the pieces of that.

- `advance`: what follows a move on both sides alike: the draws and passes it forces, and at a
  round's end the score and the next round's deal (as domino.record replays a save).
- `digest`: a 16-bit CRC of the state after a move; the mover sends it with the move and the other
  side compares it with its own, so two engines that ever disagree are caught at that move.
- `count` / `move_at`: the match's moves numbered across rounds (the resync's "my last move is N").
"""
from .frame import crc_int

try:
    from micropython import const
except ImportError:  # CPython
    def const(x):
        return x

_PLAYING = const(0)   # = domino.round.PLAYING


def run_forced(match):
    """Forced draws and passes until someone has a move or the round ends (= domino.record.run_forced,
    kept here so a link game does not load the record module)."""
    rd = match.round
    while rd.result == _PLAYING and not rd.legal():
        rd.forced()


def advance(match):
    """After a move: the forced draws and passes; True when it ended the round (call turn_round)."""
    run_forced(match)
    return match.round_over()


def turn_round(match):
    """Score the ended round and, unless the match is over, deal the next one."""
    match.finish_round()
    if not match.over:
        match.start_round()
        run_forced(match)


def resume(match):
    """A match loaded from a save (domino.record.load) that stopped between a round's end and the
    next deal (the save of the deal was lost): deal it, as the other device did."""
    if not match.over and match.round_no == len(match.history):
        match.start_round()
        run_forced(match)


def digest(match):
    """CRC-16 of what the next move depends on: the hands, the stock drawn, the table's ends, whose
    turn, the scores and the round. Small ints only (no allocation)."""
    rd = match.round
    c = 0xFFFF
    for s in range(4):
        c = crc_int(c, rd.hands[s], 4)
        c = crc_int(c, match.scores[s] & 0xFFFF, 2)
    lay = rd.layout
    for a in range(4):
        c = crc_int(c, lay.end[a] | lay.st[a] << 4, 1)
    c = crc_int(c, lay.size | rd.sp << 8, 2)
    c = crc_int(c, rd.turn | rd.result << 4, 1)
    return crc_int(c, match.round_no | match.over << 12, 2)


def count(match):
    """Moves played in the whole match (a finished round's are in its history only, though
    match.moves still holds the last one's)."""
    n = match.nmoves if match.round_no > len(match.history) else 0
    for h in match.history:
        n += len(h) >> 1
    return n


def move_at(match, k):
    """Move number k (0-based, across rounds) of the match."""
    for h in match.history:
        n = len(h) >> 1
        if k < n:
            return h[2 * k] | h[2 * k + 1] << 8
        k -= n
    b = match.moves
    return b[2 * k] | b[2 * k + 1] << 8
