"""ui/brain.py loads the hard search's module (ai/hard.py) at its first use. When that module is
broken, a hard seat's move and a hint still come back legal from the stand-in, with the problem
named, as when the whole `ai` package fails: the table never stops on an AI problem."""
import builtins
import sys

from tools.sim import ui_host  # noqa: F401  (the device's micropython module, for ui/)

from domino.match import Match
from domino.rules import Rules
from ui import brain


def at_a_move():
    m = Match(Rules("draw", 2), 4242)
    m.start_round()
    rd = m.round
    while rd.legal() == 0:
        rd.forced()
    return m


def test_a_broken_hard_module_leaves_the_stand_in(monkeypatch):
    real = builtins.__import__

    def broken(name, globals=None, locals=None, fromlist=(), level=0):
        # `import ai.hard` (ui/brain.py) and `from . import hard` (ai/__init__.py)
        if name == "ai.hard" or "hard" in (fromlist or ()):
            raise SyntaxError("invalid syntax")
        return real(name, globals, locals, fromlist, level)

    monkeypatch.delitem(sys.modules, "ai.hard", raising=False)
    monkeypatch.setattr(builtins, "__import__", broken)
    m = at_a_move()
    rd = m.round
    mv = brain.choose(m, rd.turn, "hard", 50)
    assert rd.is_legal(mv) and mv == brain.stand_in(m)
    assert "invalid syntax" in brain.problem, brain.problem
    mv, why = brain.hint(m, rd.turn, 50)
    assert rd.is_legal(mv) and why
