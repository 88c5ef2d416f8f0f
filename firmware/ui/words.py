"""Every text the table says, built here from the game. A move is named by the number it goes on,
which is what the player sees at that end of the table ("3-5 on 3"); where two ends show the same
number the end is shown by its outline on the table instead. The message area (ui/paint.py) wraps a
text over its lines and shows a longer one in steps: it never cuts one. host_tests/test_messages.py
renders every text here with its longest values at every screen size: at most two steps each.
"""
from micropython import const
from domino.tiles import DOUBLE, LO, HI, name as tile_name
from domino.round import first_arm
from .screen import tr

_NONE = const(255)         # = domino.tiles.NONE
_MULTI = const(0x100)      # = domino.round.MULTI
_CLOSE = const(0x80)       # = domino.round.CLOSE
_ARM_SHIFT = const(5)     # = domino.round._ARM_SHIFT
_TILE_MASK = const(0x1F)  # = domino.round._TILE_MASK
_ARM_MASK = const(3)      # = domino.round._ARM_MASK
_CLOSES_SHIFT = const(4)  # = domino.round._CLOSES_SHIFT



def describe(rd, m, short=False):
    """Move m of round rd (before it is played) in words: '3-5 on 3', '6-6', the lead '3-5', a
    Donkey close '4-4 closed', several doubles '5-5 + 6-6 closed' (short: '5-5+6-6', for 16-column
    screens and hints; the table shows closed tiles face down, the choice of ends says which)."""
    lay = rd.layout
    if m & _MULTI:
        f = first_arm(m)
        out = ""
        for k in range(-1, 4):               # the first arm's double first, as it is laid
            a = f if k < 0 else k
            if k >= 0 and (a == f or not (m >> a) & 1):
                continue
            if out:
                out += "+" if short else " + "
            out += tile_name(DOUBLE[lay.end[a]])
            if not short and (m >> (_CLOSES_SHIFT + a)) & 1:
                out += tr(" closed")
        return out
    return placed(m & _TILE_MASK, lay.end[(m >> _ARM_SHIFT) & _ARM_MASK] if lay.lead != _NONE else _NONE,
                  m & _CLOSE)


def placed(t, on=_NONE, closed=False):
    """Tile t put on an end showing `on` ('3-5 on 3'; a double or the lead: '6-6'), closed or not."""
    s = tile_name(t)
    if on != _NONE and LO[t] != HI[t]:
        s += tr(" on {0}").format(on)
    if closed:
        s += tr(" closed")
    return s


def played(name, text, gain=0):
    """'Ann: 3-5 on 3', and what it scored in play: 'Ann: 3-5 on 3 scores 10' (the move scores: a
    language whose verbs have a form per person says it of the move, fit for any player)."""
    return name + ": " + text + (tr(" scores {0}").format(gain) if gain else "")


def drew(name, tile=_NONE, n=1):
    """A draw from the stock: the tile when its owner is looking ('You drew 3-5', name None: the
    person; 'ANN drew 3-5' in pass-and-play), else how many were drawn in a row ('Ann drew 3
    tiles')."""
    if tile != _NONE:
        if name is None:
            return tr("You drew {0}").format(tile_name(tile))
        return tr("{0} drew {1}").format(name, tile_name(tile))
    return name + (tr(" draws") if n < 2 else tr(" drew {0} tiles").format(n))


def passes(name, wait=False):
    """A pass; `wait`: pass-and-play, the player (whose hand is showing) presses A to go on."""
    if wait:
        return tr("{0} can't play\nA: go on").format(name)
    return tr("You pass") if name is None else tr("{0} passes").format(name)


def thinking(name):
    return tr("{0} thinking").format(name)


def your_turn(name, practice=False, short=False):
    """practice: a practice game's turn (one person against the AI: name is None), said on every
    turn so the table shows the game is not counted."""
    if practice:
        return tr("Practice turn" if short else "Practice: your turn")
    return tr("Your turn") if name is None else tr("{0}, your turn").format(name)


def where(text, i, n):
    """Choosing the end for a tile that fits several (the end is outlined on the table)."""
    return text + " (" + str(i) + "/" + str(n) + ")"


def misfit(tile, vals):
    """A tile that fits no open end, and the numbers the ends show."""
    out = ""
    for e in vals:
        out += ("," if out else "") + str(e)
    return tr("{0} does not fit\nEnds: {1}").format(tile_name(tile), out)


def hint(text, reason, short=False):
    """The AI's suggestion, named on every screen ('Hint: 3-5 on 3', then why): the tile is raised
    in the hand and its end marked on the table too. `short` (16-column screens): a move too long
    for one line with "Hint: " (several doubles at once) is named alone on its line."""
    head = tr("Hint: {0}").format(text)
    return (text if short and len(head) > 16 else head) + "\n" + tr(reason)


def undone(text):
    """Your last move taken back (the game menu's Undo)."""
    return tr("Undone: {0}").format(text)
