"""The legibility rule measured on what the drawing layer actually draws (tools/legibility): every
board driven through its screens in the simulator, text capital heights and pip sizes converted to
millimetres with the board's pixel pitch, every text checked whole on the screen. The figures are
printed (pytest -s); the rule is asserted on every screen except those still listed in
tools/legibility/todo.py, and a listed screen that now passes must leave the list."""
import os

import pytest

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
from tools.legibility import report, todo  # noqa: E402


@pytest.fixture(scope="module")
def recordings(micropython):
    recs = [report.record(b, 7, micropython) for b in report.BOARDS]
    print("\n" + report.table(recs))
    return recs


@pytest.mark.parametrize("board", report.BOARDS)
def test_every_screen_meets_the_rule_or_is_listed_to_convert(recordings, board):
    rec = next(r for r in recordings if r["profile"] == board)
    assert rec["texts"] and rec["tiles"], "the recording saw no text or no tiles"
    got = {scr: tuple(bad) for scr, bad in report.failures(rec).items()}
    listed = todo.STILL_TO_CONVERT.get(board, {})
    new = {s: b for s, b in got.items() if set(b) - set(listed.get(s, ()))}
    assert not new, "%s: screens break the rule (not listed to convert): %r" % (board, new)
    fixed = {s: sorted(set(b) - set(got.get(s, ()))) for s, b in listed.items()}
    fixed = {s: b for s, b in fixed.items() if b}
    assert not fixed, "%s: these now pass, take them off tools/legibility/todo.py: %r" % (board,
                                                                                       fixed)


@pytest.mark.parametrize("board", report.BOARDS)
def test_every_screen_is_recorded(recordings, board):
    rec = next(r for r in recordings if r["profile"] == board)
    missing = [s for s in todo.SCREENS if s not in rec["seen"]]
    assert not missing, "%s: record.py never reached %r" % (board, missing)
    assert not todo.NOT_YET_RECORDED


@pytest.mark.parametrize("board", report.BOARDS)
def test_the_table_shows_legible_pips(recordings, board):
    """The hand's and the open ends' pips were measured (not merely absent) on every board."""
    rec = next(r for r in recordings if r["profile"] == board)
    d = report.summary(rec)["Table"]
    assert d["pip_hand"] is not None and report.pip_ok(rec, d["pip_hand"])
    ends = d["pip_ends"] if rec["ends_row"] else d["pip_table"]
    assert ends is not None and report.pip_ok(rec, ends)
