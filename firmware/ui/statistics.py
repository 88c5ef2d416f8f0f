"""The Statistics screen (from the main menu): loaded when opened."""
from micropython import const
from domino.rules import VARIANTS
from .widgets import ListScreen

_STATS_LABEL = const(7)  # characters of a variant's name the statistics always show


class Stats(ListScreen):
    """Per variant: matches won-lost, the current streak (+ wins / - losses in a row), the best one;
    under it the rounds won of those played."""

    def __init__(self, app):
        ListScreen.__init__(self, app, "Statistics")
        self.stats, self.note = app.store().load_stats()
        if not self.note:
            self.note = "Matches won-lost streak (best)" if self.stats else "No finished games yet"
            self.note_col = app.g.c.DIM

    def rows(self):
        out = []
        cols = self.app.g.cols
        room = cols - (2 if cols >= 20 else 0) - _STATS_LABEL - 1   # ("<value>" when selected)
        for row in VARIANTS:
            st = self.stats.get(row[0])
            if not st:
                continue
            v = _fit_counts(st, cols >= 24, room)
            if v is None:                        # the name on its own row, the figures under it
                out.append((row[1], None))
                v = _fit_counts(st, cols >= 24, room + _STATS_LABEL - 1) or ""
                out.append(("", v))
            else:
                out.append((row[1], v))
            if len(st) > 5:
                v = str(st[6]) + "/" + str(st[5])
                v = v if len(v) <= room else _short(st[6]) + "/" + _short(st[5])
                out.append((" rounds won" if len(v) <= room + _STATS_LABEL - 11 else " rounds", v))
        out.append(("Back", None))
        return out

    def pick(self, i):
        self.back()

    def footer(self):
        return "B back"


def _short(n):
    """A count in at most four characters: 9999, 12k, 3M."""
    if n < 10000:
        return str(n)
    return str(n // 1000) + "k" if n < 1000000 else str(n // 1000000) + "M"


def _fit_counts(st, best, room):
    """won-lost, the streak, (the best one): what fits in `room` characters beside the variant's
    name, the least needed going first (the best streak, then the streak), then shorter numbers;
    None when not even won-lost does."""
    for f in (str, _short):
        v = f(st[1]) + "-" + f(st[2])
        s = ((" +" if st[3] > 0 else " -") + f(abs(st[3]))) if st[3] else ""
        b = " (" + f(st[4]) + ")" if best else ""
        for cand in (v + s + b, v + s, v):
            if len(cand) <= room:
                return cand
    return None
