"""The link game's screens where the link cannot be: a board without the cable's pins (the browser,
a simulator started without the virtual cable) says so at the main menu's Link game, before any
set-up, and never shows an error page."""
import sys

from tools.proofs.harness import frames


def test_no_cable_says_so_before_any_set_up(mpy, tmp_path):
    out = frames.run({"root": str(tmp_path / "flash"),
                      "do": [["menu", "Link game"], ["state"], ["keys", "a"], ["state"]]},
                     code=mpy[0], boards=mpy[1])
    assert out["errors"] == 0, out.get("last_error")
    first, after = out["states"]
    assert first["screen"] == "MainMenu" and first["note"] == "No link cable on this board", first
    assert after["screen"] != "Message", after          # (the menu goes on as usual)


def test_the_browser_board_has_no_link_port(monkeypatch):
    """The browser's build has no boards/_linkpipe.py (no pipes there): the board says it has no
    cable instead of failing the import (it was "Oops - ImportError: no module named
    'boards._linkpipe'")."""
    from tools.sim.ui_host import device_module
    sim = device_module("boards.sim")
    monkeypatch.setitem(sys.modules, "boards._linkpipe", None)      # import fails as in the browser
    board = sim.SimBoard.__new__(sim.SimBoard)
    board._link_port = None
    assert board.link_port() is None
