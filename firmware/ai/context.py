"""Scratch objects the AI reuses between moves (built once per rules, never per move)."""
from domino.layout import Layout
from .rollout import zeros, max_moves
from domino.rng import Rng


class Ctx:
    def __init__(self, rules):
        self.rules = rules
        self.lay = Layout(rules.layout)
        self.lay2 = Layout(rules.layout)
        k = max_moves(rules)
        self.buf = zeros(k, "H")        # legal moves (moves fit 16 bits, as in the engine)
        self.vals = zeros(k)
        self.rng = Rng(1)
        self.hard = None          # hard.Search, built on the first hard move


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
