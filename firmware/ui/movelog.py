"""The move log of the round on the table (from the game menu): who played what where and, in the
variants that score in play (Fives, Muggins...), what it scored; draws as counts (never which tiles:
the log is safe to show between pass-and-play turns) and passes, newest last. Built from the round's
event list when opened; loaded only then."""
from micropython import const
from domino.tiles import LO, HI
from domino.layout import Layout
from . import words
from .widgets import Message
from .screen import tr

_NONE = const(255)       # = domino.tiles.NONE
_ARM_SHIFT = const(5)   # = domino.round._ARM_SHIFT
_EV_DRAW = const(2)      # = domino.round.EV_DRAW
_EV_PASS = const(3)      # = domino.round.EV_PASS
_TILE_MASK = const(0x1F)  # = domino.round._TILE_MASK
_ARM_MASK = const(3)  # = domino.round._ARM_MASK


def lines(game):
    """The log as one text, a line per event: 'Ann: 3-5 on 3 scores 10', 'Bob drew 2', 'Cat passes'.
    The points a play made are worked out again on a layout of its own, the tiles put down as the
    round did (the events do not keep them)."""
    rd = game.match.round
    lay = rd.layout
    r = rd.rules
    again = Layout(r.layout) if r.inplay_mod else None
    names = game.names
    you = game.saved_names           # "You": the person playing, said in the verb's form for "you"
    ev = rd.events
    cur = [0, 0, 0, 0]               # the number each arm's end shows, while walking the events
    if lay.spin != _NONE:
        cur[2] = cur[3] = LO[lay.spin]
    out = ""
    k = 0                            # tiles placed so far (the layout's play order)
    drew = who = 0
    for i in range(rd.nev + 1):
        if i < rd.nev:
            kind = ev[2 * i] >> 4
            seat = ev[2 * i] & 15
            data = ev[2 * i + 1]
        else:
            kind = seat = data = -1
        if drew and (kind != _EV_DRAW or seat != who):
            if you[who] == "You":
                out += tr("You drew {0}\n").format(drew)
            else:
                out += tr("{0} drew {1}\n").format(names[who], drew)
            drew = 0
        if kind == _EV_DRAW:
            drew += 1
            who = seat
        elif kind == _EV_PASS:
            out += words.passes(None if you[seat] == "You" else names[seat]) + "\n"
        elif kind >= 0:
            t = data & _TILE_MASK
            a = (data >> _ARM_SHIFT) & _ARM_MASK
            closed = k < lay.size and lay.seq_arm[k] & 8
            gain = 0
            if again is not None:
                if k == 0:
                    again.place_lead(t)
                else:
                    again.place(t, a, closed)
                c = again.count(r.spinner_keeps)
                if c and c % r.inplay_mod == 0:
                    gain = c // r.inplay_div
            if k == 0:
                cur[0] = LO[t]
                cur[1] = HI[t]
                out += words.played(names[seat], words.placed(t), gain) + "\n"
            else:
                on = cur[a]
                cur[a] = HI[t] if LO[t] == on else LO[t]
                out += words.played(names[seat], words.placed(t, on, closed), gain) + "\n"
            k += 1
    return out[:-1] if out else tr("No move yet")     # (no empty line after the last move)


class MoveLog(Message):
    """The log, scrolled to its end (UP/DOWN scroll); A or B goes back to the game menu."""

    def __init__(self, app, game, back):
        Message.__init__(self, app, "Moves", lines(game), None, app.g.c.ACCENT)
        self.back_to = back
        self.top = 99

    def done(self):
        self.app.go(self.back_to)

    def footer(self, more):
        """Where the page is in the log: '^' earlier lines above, 'v' later ones below, and the
        lines shown of how many, on one line: in words where they fit ('^ lines 5-12 of 20  B back'),
        else short ('^ 18/20 B back')."""
        n = len(self.lines or ())
        last = min(n, self.top + self.vis)
        marks = ("^" if self.top else " ") + ("v" if more else " ")
        out = tr("{0} lines {1}-{2} of {3}  B back").format(marks, self.top + 1, last, n)
        if len(out) > self.app.g.cols - 1:       # (the footer's lines keep a margin column)
            out = tr("{0}{1}/{2} B back").format(marks, last, n)
        return out
