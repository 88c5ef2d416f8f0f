"""Round-end scoring: three families, chosen by `rules.family`. Each fills the match's per-side
`counts`, `recorded`, `remembered`, `scores`, `pot` and `round_winner`; in-play points were already
counted by the round.
"""
from .tiles import pips
try:
    from micropython import const
except ImportError:  # CPython
    def const(x):
        return x

_NONE = const(255)           # = domino.tiles.NONE
_FAM_GOAT = const(1)        # = domino.rules._FAM_GOAT
_FAM_SEA = const(2)         # = domino.rules._FAM_SEA
_END_ROUND5 = const(1)      # = domino.rules._END_ROUND5
_END_ROUND5_DIV5 = const(2)  # = domino.rules._END_ROUND5_DIV5
_END_CEIL_DIV5 = const(3)   # = domino.rules._END_CEIL_DIV5

_B00 = const(1)           # 1 << DOUBLE[0]: 0-0 is tile 0
_B66 = const(1 << 27)     # 1 << DOUBLE[6]: 6-6 is tile 27


def hand_value(r, m):
    """A hand's count under the variant's tile values (lone 0-0 = 10 in Goat, 0-0 = 25 in Sea Goat...)."""
    if not m:
        return 0
    if r.lone00 and m == _B00:
        return r.lone00
    if r.lone66 and m == _B66:
        return r.lone66
    s = pips(m)
    if r.any00 and m & _B00:
        s += r.any00
    if r.any66 and m & _B66:
        s += r.any66 - 12
    return s


def round5(x):
    """Nearest multiple of 5; remainder 3 or 4 rounds up, 1 or 2 down."""
    return (x + 2) // 5 * 5


def transform(r, x):
    mode = r.end_mode
    if mode == _END_ROUND5:
        return round5(x)
    if mode == _END_ROUND5_DIV5:
        return round5(x) // 5
    if mode == _END_CEIL_DIV5:
        return (x + 4) // 5
    return x


def unique(vals, n, best_low):
    """Index of the single lowest (or highest) of vals[0:n], NONE on a tie."""
    b = 0
    for i in range(1, n):
        if (vals[i] < vals[b]) if best_low else (vals[i] > vals[b]):
            b = i
    for i in range(n):
        if i != b and vals[i] == vals[b]:
            return _NONE
    return b


def finish(m):
    """Score the finished round of match m."""
    r = m.rules
    rd = m.round
    n = r.sides
    for i in range(4):
        m.counts[i] = 0
        m.recorded[i] = 0
        m.inplay[i] = 0
    for s in range(r.players):
        side = r.side(s)
        m.counts[side] += hand_value(r, rd.hands[s])
        m.inplay[side] += rd.inplay[s]
    out_side = r.side(rd.winner) if rd.result == 1 else _NONE
    if r.family == _FAM_GOAT:
        _goat(m, r, n, out_side)
    elif r.family == _FAM_SEA:
        _sea(m, r, n, out_side)
        return                                # Sea Goat keeps the sheet itself (write-offs)
    else:
        _points(m, r, n, out_side)
    for i in range(n):
        m.scores[i] += m.recorded[i] + m.inplay[i]


def _points(m, r, n, out_side):
    c = m.counts
    total = 0
    for i in range(n):
        total += c[i]
    if out_side != _NONE:
        m.round_winner = out_side
        # 2v2: all three other hands, the partner's included (RULES.md B); else the opponents' hands
        m.recorded[out_side] = transform(r, total if r.teams else total - c[out_side])
        return
    w = unique(c, n, True)
    m.round_winner = w
    if w != _NONE:
        m.recorded[w] = transform(r, total if r.teams else total - 2 * c[w])


def _goat_add(m, side, count):
    """Record or remember one side's round count (the 13-point opening of an account)."""
    if m.opened[side] or count > m.rules.open_over:
        m.recorded[side] = count + m.remembered[side]
        m.remembered[side] = 0
        m.opened[side] = 1
    else:
        m.remembered[side] += count


def _goat(m, r, n, out_side):
    c = m.counts
    if out_side != _NONE:
        c[out_side] = 0                       # the side that went out counts nothing
        m.remembered[out_side] = 0            # ... and its remembered points are erased
    m.round_winner = out_side if out_side != _NONE else unique(c, n, True)
    hi = unique(c, n, False)
    if out_side == _NONE and r.fish_one:
        total = m.pot
        for i in range(n):
            total += c[i]
        if hi == _NONE:                        # tie for the highest: the eggs carry on
            m.pot = total
            return
        m.pot = 0
        m.recorded[hi] = total + m.remembered[hi]
        m.opened[hi] = 1
        for i in range(n):
            m.remembered[i] = 0
        return
    if m.pot and hi != _NONE:                  # the highest count of this round takes the eggs
        c_hi = c[hi]
        c[hi] += m.pot
        m.pot = 0
        for i in range(n):
            if i != out_side:
                _goat_add(m, i, c[i])
        c[hi] = c_hi
        return
    for i in range(n):
        if i != out_side:
            _goat_add(m, i, c[i])


def _sea(m, r, n, out_side):
    """Only one side may hold points (RULES.md E): a record made while another side holds points
    writes every side's points off, the new record's included; a holder adds to its own."""
    c = m.counts
    if out_side != _NONE:
        c[out_side] = 0                       # as in Goat: the side that went out counts nothing
    w = out_side
    if w == _NONE and not r.team_out_only:
        w = unique(c, n, True)
    m.round_winner = w if out_side != _NONE else unique(c, n, True)
    if w == _NONE:
        return
    total = 0
    for i in range(n):
        if i != w:
            total += c[i]
    if total < r.sea_min:
        return                                # nothing recorded: nothing written off
    m.recorded[w] = total
    sc = m.scores
    for i in range(n):
        if i != w and sc[i]:                  # another side holds points: all are written off
            for k in range(n):
                sc[k] = 0
            return
    sc[w] += total


def wrote_off(m):
    """After a Sea Goat round: did its record write every side's points off? (The recorder holds
    nothing after its own record only then.)"""
    if m.rules.family != _FAM_SEA:
        return False
    for i in range(m.rules.sides):
        if m.recorded[i] and not m.scores[i]:
            return True
    return False
