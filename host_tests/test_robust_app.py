"""The app under trouble, on the real UI under the MicroPython unix port (.mpy tree, simulated board):
a MemoryError in the middle of a frame, the watchdog setting, USB plugged in while it runs.

A MemoryError must not end on the error page: the app gives memory back, plays on leaner (Hard
plays as Medium, no thinking wheel), picks the game up as it stood, and counts the event in
events.log. The watchdog is fed on every loop pass and AI tick, and stays off on USB power.
"""
import os

import pytest

HERE = os.path.dirname(os.path.abspath(__file__))
from tools.proofs.harness import frames  # noqa: E402

pytestmark = pytest.mark.skipif(frames.find() is None, reason="no micropython binary")

LEAN = "Low memory: playing lean"
# The unix port runs this code ~100x faster than an RP2040 (docs/benchmarks.md): a gap between
# feeds of 40 ms here (boards/sim.py LONG_GAP_MS) is ~4 s on the device, half the 8 s watchdog
# period. The AI's search runs on the fake clock so that only the app's own work counts (on the
# device the search feeds every ~30 ms of its own time, whatever the speed). A busy host may pause
# the process now and then, so a couple of long gaps are tolerated; work that never feeds shows up
# on every move of the match.
LONG_GAPS_ALLOWED = 2


def run(mpy, job, tmp_path, errors=0):
    job.setdefault("root", str(tmp_path / "flash"))
    out = frames.run(job, code=mpy[0], boards=mpy[1])
    assert out["errors"] == errors, out.get("last_error")
    return out


def events(tmp_path):
    p = tmp_path / "flash" / "events.log"
    return p.read_text().splitlines() if p.exists() else []


@pytest.mark.parametrize("meth", ["step", "draw"])
def test_memory_error_at_the_table_plays_on_lean(mpy, tmp_path, meth):
    out = run(mpy, {"seed": 21, "ai_ms_per_call": 5, "think": 500,
                    "do": [["new", "draw", 2, ["human", "hard"]], ["settle"], ["state"],
                           ["memerr", meth], ["keys", "right"], ["steps", 3], ["state"], ["match"],
                           ["state"]]}, tmp_path)
    before, after, end = out["states"]
    assert after["screen"] == "Table" and after["msg"] == LEAN
    assert after["moves_played"] == before["moves_played"] and after["round_no"] == before["round_no"]
    assert out["lean"] and out["mem_errors"] == 1
    assert out["result"] == "over" and end["screen"] == "MainMenu"     # and the match was finished
    log = events(tmp_path)
    assert len(log) == 1 and log[0].startswith("memory #1 Table, free ") and log[0].endswith(": injected")


def test_memory_error_keeps_the_game_as_saved(mpy, tmp_path):
    """After the recovery the flash holds the same game the table shows (saved before it resumes)."""
    out = run(mpy, {"seed": 4, "do": [["new", "fives", 2, ["human", "easy"]], ["settle"],
                                      ["keys", "a"], ["settle"], ["memerr", "step"], ["steps", 3],
                                      ["state"]]}, tmp_path)
    st = out["states"][0]
    assert st["screen"] == "Table" and st["msg"] == LEAN
    saved = (tmp_path / "flash" / "game.txt").read_text().splitlines()
    moves = [ln for ln in saved if ln.startswith("round")][-1].split()[1:]
    assert len(moves) == st["moves_played"]


def test_memory_error_in_a_menu_goes_back_to_the_menu(mpy, tmp_path):
    out = run(mpy, {"do": [["menu", "Settings"], ["memerr", "step"], ["steps", 3], ["state"]]}, tmp_path)
    st = out["states"][0]
    assert st["screen"] == "MainMenu" and st["note"] == LEAN
    assert events(tmp_path)[0].startswith("memory #1 Settings")


def test_memory_errors_in_a_row_end_on_the_error_page(mpy, tmp_path):
    """A heap that fails every frame must not loop for ever: the third in 2 s shows the error page."""
    out = run(mpy, {"seed": 3, "do": [["new", "draw", 2, ["human", "easy"]], ["settle"],
                                      ["memerr", "step"], ["steps", 2], ["memerr", "step"], ["steps", 2],
                                      ["memerr", "step"], ["steps", 2], ["state"]]}, tmp_path, errors=1)
    assert out["states"][0]["screen"] == "Message"
    assert out["mem_errors"] == 2
    log = events(tmp_path)
    assert [ln.split(" ")[0] for ln in log] == ["memory", "memory", "error"]
    assert log[2] == "error #1 MemoryError: injected"


def test_events_log_counts_and_stays_small(tmp_path):
    """eventlog.py on CPython (it is plain Python): counts per kind, rotation past 4 KB keeps them."""
    import eventlog
    root = str(tmp_path) + "/"
    assert eventlog.note(root, "memory", "a") == 1
    assert eventlog.note(root, "error", "b\nc") == 1
    assert eventlog.note(root, "memory", "d") == 2
    for _ in range(200):
        eventlog.note(root, "memory", "x" * 100)
    assert os.path.getsize(root + "events.log") <= eventlog.LIMIT + 300
    assert os.path.exists(root + "events.old")
    assert eventlog.note(root, "error", "e") == 2          # the count survives the rotation
    assert eventlog.note(root, "memory", "f") == 203
    with open(root + "events.log") as f:
        assert "\nc" not in f.read()                        # one event, one line


def test_events_log_on_a_failing_flash_returns_zero(tmp_path):
    import eventlog
    assert eventlog.note(str(tmp_path / "no" / "such" / "dir") + "/", "memory", "x") == 0


def test_watchdog_is_fed_through_a_hard_game(mpy, tmp_path):
    out = run(mpy, {"seed": 9, "wdt": 1, "usb": 0, "think": 500, "ai_ms_per_call": 1,
                    "do": [["new", "draw", 2, ["human", "hard"]], ["match"]]}, tmp_path)
    wd = out["wdt"]
    assert wd["on"] and wd["timeout"] == 8000 and wd["note"] is None
    assert wd["feeds"] > 100
    print("watchdog", wd)
    assert wd["long_gaps"] <= LONG_GAPS_ALLOWED, wd


def test_watchdog_stays_off_on_usb(mpy, tmp_path):
    out = run(mpy, {"wdt": 1, "usb": 1, "do": [["steps", 5]]}, tmp_path)
    wd = out["wdt"]
    assert not wd["on"] and wd["timeout"] == 0 and wd["note"] == "Waits: USB is connected"


def test_usb_plugged_in_while_the_watchdog_runs_reboots(mpy, tmp_path):
    out = run(mpy, {"wdt": 1, "usb": 0, "seed": 2,
                    "do": [["new", "draw", 2, ["human", "easy"]], ["settle"], ["usb", 1], ["steps", 60]]},
              tmp_path)
    assert out["wdt"]["resets"] == 1 and not out["wdt"]["on"]
    assert events(tmp_path) == ["usb #1 reboot to stop the watchdog"]


def test_watchdog_setting_from_the_menu(mpy, tmp_path):
    out = run(mpy, {"usb": 1, "do": [["menu", "Settings"], ["keys", "down down down down right"],
                                     ["state"]]}, tmp_path)
    st = out["states"][0]
    assert st["rows"][4] == "Restart if stuck" and st["values"][4] == "on"
    assert st["note"] == "Waits: USB is connected"
