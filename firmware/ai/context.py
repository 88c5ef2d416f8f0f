"""Scratch objects the AI reuses between moves (built once per rules, never per move)."""
from domino.layout import Layout
from .rollout import zeros
from domino.round import MAX_MOVES
from domino.rng import Rng


class Ctx:
    def __init__(self, rules):
        self.rules = rules
        self.lay = Layout(rules.layout)
        self.lay2 = Layout(rules.layout)
        self.buf = zeros(MAX_MOVES)
        self.vals = zeros(MAX_MOVES)
        self.rng = Rng(1)
        self.hard = None          # hard.Search, built on the first hard move


_ctx = None


def get(rules):
    global _ctx
    c = _ctx
    if c is None or c.rules is not rules:
        c = Ctx(rules)
        _ctx = c
    return c
