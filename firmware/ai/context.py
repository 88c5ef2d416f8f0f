"""Scratch objects the AI reuses between moves (built once per rules, never per move)."""
from domino.layout import Layout
from .rollout import zeros, max_moves
from domino.rng import Rng


class Ctx:
    def __init__(self, rules):
        self.rules = rules
        self._lay = None          # scratch layouts of the heuristic (medium, easy, a hint's reason),
        self._lay2 = None         # built at its first use: a Hard search does not need them
        k = max_moves(rules)
        self.buf = zeros(k, "H")        # legal moves (moves fit 16 bits, as in the engine)
        self.vals = zeros(k)
        self.rng = Rng(1)
        self.hard = None          # hard.Search, built on the first hard move

    @property
    def lay(self):
        if self._lay is None:
            self._lay = Layout(self.rules.layout)
        return self._lay

    @property
    def lay2(self):
        if self._lay2 is None:
            self._lay2 = Layout(self.rules.layout)
        return self._lay2


_ctx = None


def release():
    global _ctx
    _ctx = None


def get(rules):
    global _ctx
    c = _ctx
    if c is None or c.rules is not rules:
        c = Ctx(rules)
        _ctx = c
    return c
