"""Every file the firmware reads has a size and shape budget, checked before it is parsed.
A file over its budget (length, line length, line count, nesting, bytes that are not printable ASCII,
value types and ranges) is damage like any other: set aside as .bad, the backup tried, one line for
the player; a MemoryError while loading is damage too, never a crash. Settings are checked field by
field (a wrong field falls back to its default, the rest kept). Something that is not a regular file
where a file should be (a directory, a device node, a FIFO) is damage when read and cleared out of
the way when written.

The real app boots on each case under the MicroPython unix port at the monkey's 180K heap
(tools/proofs/harness/powercut.py, "boot" mode); store-level checks run under CPython.
"""
import json
import os

import pytest

HERE = os.path.dirname(os.path.abspath(__file__))
from tools.proofs.harness import frames  # noqa: E402
from tools.proofs import powercut  # noqa: E402

import store  # noqa: E402
from test_store_messages import saved_game, sealed, without_sum, EXTRAS, play  # noqa: E402
from domino.match import Match  # noqa: E402
from domino.rng import Rng  # noqa: E402
from domino.rules import Rules  # noqa: E402

needs_mp = pytest.mark.skipif(frames.find() is None, reason="no micropython binary")
HEAP = frames.STRESS_HEAP    # a boot through the whole UI, to its first frames (frames.py says why)


def boot(mpy, cases, heap=HEAP):
    """Boot the app on each prepared folder at `heap`, one process each (a power-on: nothing left
    from the boot before): what each showed. No crash, no error page."""
    out = [powercut.run({"mode": "boot", "cases": [c]}, mpy=mpy, timeout=60, heap=heap)["cases"][0]
           for c in cases]
    for c, r in zip(cases, out):
        assert "crash" not in r, (c["root"], r)
        assert r["errors"] == 0 and r["errors_after"] == 0, (c["root"], r)
    return out


def huge_names(good):
    return sealed(without_sum(good).replace("names You,Ann", "names " + "x" * 60000))


def many_headers(good):
    return sealed(without_sum(good).replace("sheet \n", "sheet \n" + "pad 1\n" * 3000))


def crlf(good):
    return sealed(without_sum(good).replace("\n", "\r\n"))


# --- 1. an oversized save: the backup is used, never a crash ----------------------------------------
@needs_mp
def test_oversized_save_uses_the_backup(mpy, tmp_path):
    cases = []
    for what, bad in (("names", huge_names), ("headers", many_headers)):
        d = tmp_path / what
        good, _bak = saved_game(d)
        (d / "game.txt").write_bytes(bad(good))
        cases.append({"root": str(d)})
        d = tmp_path / (what + "_alone")
        good, _bak = saved_game(d)
        (d / "game.txt").write_bytes(bad(good))
        os.remove(str(d / "game.bak"))
        cases.append({"root": str(d)})
    d = tmp_path / "cut_and_big_backup"            # game.txt cut short, game.bak oversized
    good, bak = saved_game(d)
    (d / "game.txt").write_bytes(good[:len(good) // 2])
    (d / "game.bak").write_bytes(huge_names(bak))
    cases.append({"root": str(d)})
    out = boot(mpy, cases)
    for r in (out[0], out[2]):
        assert r["screen"] == "Table" and r["msg"] == "Too big: 1 move back", r
        assert "game.txt.bad" in r["files"] and "game.txt" in r["files"], r
    for r in (out[1], out[3]):
        assert r["screen"] == "MainMenu" and r["msg"] == "Save too big: set aside", r
        assert set(r["files"]) == {"game.txt.bad"} and "Continue" not in r["rows"], r
    r = out[4]
    assert r["screen"] == "MainMenu" and r["msg"] == "Save cut short: set aside", r
    assert set(r["files"]) == {"game.txt.bad", "game.bak.bad"}, r


# --- 2. oversized or deeply nested settings: defaults, never a crash --------------------------------
@needs_mp
def test_oversized_or_nested_settings_and_stats_reset(mpy, tmp_path):
    texts = {
        "settings.json": [json.dumps({"v": 1, "last": {"pad": "x" * 80000}}) + "\n",
                          "[" * 3000 + "]" * 3000 + "\n",
                          '{"v": 1, "last": ' + "[" * 3000 + "]" * 3000 + "}\n"],
        "stats.json": [json.dumps({"v": 1, "draw": [1, 1, 0, 1, 1], "pad": "x" * 80000}) + "\n",
                       '{"v": 1, "draw": ' + "[" * 3000 + "]" * 3000 + "}\n"],
    }
    cases = []
    expect = []
    for name, variants in texts.items():
        for i, t in enumerate(variants):
            for signed in (True, False):
                d = tmp_path / ("%s_%d_%d" % (name, i, signed))
                d.mkdir()
                (d / name).write_bytes(sealed(t) if signed else t.encode())
                cases.append({"root": str(d)})
                expect.append(name)
    for name, c, r in zip(expect, cases, boot(mpy, cases)):
        label = "Settings" if name == "settings.json" else "Statistics"
        assert r["screen"] == "MainMenu" and r["msg"] in (label + " too big: reset",
                                                          label + " damaged: reset"), (c, r)
        assert name + ".bad" in r["files"] and name not in r["files"], r


@needs_mp
def test_b_held_skips_a_settings_file_that_would_stop_the_boot(mpy, tmp_path):
    """Even before the budgets: B held at power-on reads no file at all (settings included)."""
    d = tmp_path / "flash"
    saved_game(d)
    (d / "settings.json").write_bytes(sealed(json.dumps({"v": 1, "bright": 10}) + "\n"))
    r = boot(mpy, [{"root": str(d), "hold": "b"}])[0]
    assert r["screen"] == "SafeStart", r
    assert r["bright"] == 80                          # the defaults: the file was not read
    assert set(r["files"]) == {"game.txt", "game.bak", "settings.json"}


# --- 3. a remembered set-up of the wrong type: New game works -----------------------------------------
MISTYPED_LAST = [
    {"variant": "fives", "players": "2"},
    {"variant": 7, "players": 9, "teams": "yes", "seats": "human", "options": []},
    {"variant": "fives", "players": 2, "seats": [1, None, "hard"], "options": {"target": "61x"}},
    {"variant": "block", "players": True, "teams": 1.5, "options": {"x" * 100: 1}},
    [1, 2, 3],
]


@needs_mp
def test_mistyped_last_setup_still_starts_a_game(mpy, tmp_path):
    for i, last in enumerate(MISTYPED_LAST):
        root = tmp_path / str(i)
        root.mkdir()
        (root / "settings.json").write_text(json.dumps({"v": 1, "last": last}) + "\n")   # older format
        out = frames.run({"root": str(root), "do": [["state"], ["menu", "New game"], ["state"],
                                                     ["menu", "Start game"], ["settle"], ["state"]]},
                         code=mpy[0], boards=mpy[1])
        assert out["errors"] == 0, (last, out.get("last_error"))
        boot_st, form, table = out["states"]
        assert boot_st["screen"] == "MainMenu", (last, boot_st)
        assert boot_st["note"] == "Some settings invalid: reset", (last, boot_st)
        assert form["screen"] == "NewGame", (last, form)
        assert table["screen"] in ("Table", "Curtain", "RoundEnd") and table["round_no"] == 1, (last, table)


def test_settings_are_checked_field_by_field(tmp_path):
    st = store.Store(str(tmp_path))
    good_last = {"variant": "fives", "players": 3, "teams": 0, "seats": ["human", "easy", "hard"],
                 "options": {"target": 61}}
    (tmp_path / "settings.json").write_text(json.dumps(
        {"v": 1, "bright": 30, "sound": "1", "think": 250, "anim": 7,
         "last": dict(good_last, players="3", seats=["human", "god", "hard"])}) + "\n")
    s, msg = st.load_settings()
    assert msg == "Some settings invalid: reset"
    assert s["bright"] == 30 and s["think"] == 250            # the good fields kept
    assert s["sound"] == 1 and s["anim"] == 2                  # the bad ones: their defaults
    last = s["last"]
    assert last["variant"] == "fives" and "players" not in last       # a wrong field dropped
    assert last["seats"] == ["human", "medium", "hard"] or "seats" not in last
    assert last["options"] == {"target": 61}
    (tmp_path / "settings.json").write_text(json.dumps({"v": 1, "last": good_last}) + "\n")
    s, msg = st.load_settings()
    assert msg is None and s["last"] == good_last


# --- 5. a directory (or a device node) where a file should be ----------------------------------------
def test_directory_where_backup_or_tmp_should_be_does_not_stop_saving(tmp_path):
    for name in ("game.bak", "game.txt.tmp"):
        d = tmp_path / name
        st = store.Store(str(d))
        m = Match(Rules("draw", 2), 4242)
        m.start_round()
        st.save_game(m, EXTRAS)
        os.makedirs(str(d / name / "inner"))               # not even an empty one
        play(st, m, Rng(3), 3)                             # every save goes through
        m2, ex, note = st.load_game()
        assert m2 is not None and note is None, note
        assert m2.round.moves_played == m.round.moves_played
        assert (d / "game.txt").is_file()


@needs_mp
def test_directory_or_device_where_a_save_should_be(mpy, tmp_path):
    cases = []
    d = tmp_path / "tmp_dir"                          # a directory game.txt.tmp: no "Power cut" every boot
    saved_game(d)
    os.makedirs(str(d / "game.txt.tmp" / "inner"))
    cases.append({"root": str(d)})
    d = tmp_path / "txt_dir"
    saved_game(d)
    os.remove(str(d / "game.txt"))
    os.makedirs(str(d / "game.txt" / "inner"))
    cases.append({"root": str(d)})
    d = tmp_path / "txt_fifo"                         # a FIFO: opening it would wait for ever
    saved_game(d)
    os.remove(str(d / "game.txt"))
    os.mkfifo(str(d / "game.txt"))
    cases.append({"root": str(d)})
    d = tmp_path / "txt_zero"                         # a device node: endless bytes
    saved_game(d)
    os.remove(str(d / "game.txt"))
    os.symlink("/dev/zero", str(d / "game.txt"))
    cases.append({"root": str(d)})
    out = boot(mpy, cases)
    r = out[0]
    assert r["screen"] == "Table" and r["msg"] == "", r
    assert "game.txt.tmp" not in r["files"]
    for r in out[1:]:
        assert r["screen"] == "Table" and r["msg"] == "Foreign: 1 move back", r
        assert "game.txt" in r["files"] and "game.bak" not in r["files"], r


# --- 6. CRLF line ends with a valid checksum -----------------------------------------------------------
def test_crlf_save_is_not_taken(tmp_path):
    good, bak = saved_game(tmp_path)
    (tmp_path / "game.txt").write_bytes(crlf(good))
    st = store.Store(str(tmp_path))
    m, ex, note = st.load_game()
    assert note == "Invalid: 1 move back" and m is not None
    assert (tmp_path / "game.txt").read_bytes() == bak           # the backup is game.txt again
    play(st, m, Rng(9), 2)                                       # and the appends keep it whole
    m2, ex, note = st.load_game()
    assert note is None and m2.round.moves_played == m.round.moves_played


@needs_mp
def test_crlf_save_at_boot(mpy, tmp_path):
    cases = []
    for alone in (False, True):
        d = tmp_path / str(alone)
        good, bak = saved_game(d)
        (d / "game.txt").write_bytes(crlf(good))
        if alone:
            os.remove(str(d / "game.bak"))
        cases.append({"root": str(d)})
    a, b = boot(mpy, cases)
    assert a["screen"] == "Table" and a["msg"] == "Invalid: 1 move back", a
    assert b["screen"] == "MainMenu" and b["msg"] == "Save invalid: set aside", b


# --- 7. the practice line: only "practice 1" (it decides whether the match is counted) ----------------
def test_practice_line_is_kept_and_checked(tmp_path):
    d = tmp_path / "practice"
    st = store.Store(str(d))
    m = Match(Rules("draw", 2), 4242)
    m.start_round()
    st.save_game(m, dict(EXTRAS, practice=1))
    play(st, m, Rng(3), 4)
    st.save_game(m, dict(EXTRAS, practice=1))                    # (the appends keep the line)
    assert b"\npractice 1\n" in (d / "game.txt").read_bytes()
    _m, ex, note = st.load_game()
    assert note is None and ex["practice"] == "1"
    good, _bak = saved_game(tmp_path / "counted")                # a save from before: counted
    assert b"practice" not in good
    assert "practice" not in store.Store(str(tmp_path / "counted")).load_game()[1]
    for i, v in enumerate(("0", "yes", "", "1 1", "1" * 40)):
        d = tmp_path / ("bad%d" % i)
        good, bak = saved_game(d)
        bad = without_sum(good).replace("sheet \n", "sheet \npractice " + v + "\n")
        (d / "game.txt").write_bytes(sealed(bad))
        m, ex, note = store.Store(str(d)).load_game()
        assert note == "Invalid: 1 move back" and m is not None, v
        assert "game.txt.bad" in os.listdir(str(d)) and (d / "game.txt").read_bytes() == bak


# --- the other files the firmware reads: the event log, the board's name ------------------------------
def test_event_log_over_budget_or_not_a_file(tmp_path):
    import eventlog
    root = str(tmp_path) + "/"
    (tmp_path / "events.log").write_text("memory #7 " + "x" * 100000 + "\n")   # not a log it wrote
    assert eventlog.note(root, "memory", "now") == 1
    assert (tmp_path / "events.old").stat().st_size > 100000                  # set aside unread
    assert (tmp_path / "events.log").read_text() == "memory #1 now\n"
    os.remove(str(tmp_path / "events.log"))
    os.mkdir(str(tmp_path / "events.log"))
    assert eventlog.note(root, "memory", "now") == 0                          # no log, no exception


def test_board_cfg_over_budget_or_not_a_file(tmp_path):
    import boards
    cfg = tmp_path / "board.cfg"
    cfg.write_text("# a comment\n" + "x" * 100000)
    assert boards.read_cfg(str(cfg)) is None or len(boards.read_cfg(str(cfg))) <= 32
    cfg.write_text("\n# which board\noled_diy\n")
    assert boards.read_cfg(str(cfg)) == "oled_diy"
    os.remove(str(cfg))
    os.mkfifo(str(cfg))                          # opening it would wait for ever
    assert boards.read_cfg(str(cfg)) is None


# --- a refused rename never costs the file it would have replaced (found by tools/proofs/faults.py) ---
class RefusingRenames:
    """os for savegame.Files whose renames fail with `errno` (the flash full: ENOSPC)."""

    def __init__(self, errno):
        self.errno = errno

    def open(self, p, mode="r"):
        return open(p, mode)

    def rename(self, a, b):
        raise OSError(self.errno, "refused")

    def __getattr__(self, name):
        return getattr(os, name)


def test_a_refused_rename_keeps_the_file_it_would_replace(tmp_path):
    st = store.Store(str(tmp_path))
    st.save_stats({"draw": [4, 3, 1, 2, 2]})
    before = (tmp_path / "stats.json").read_bytes()
    for errno in (28, 30, 5):
        full = store.Store(str(tmp_path), RefusingRenames(errno))
        with pytest.raises(OSError):
            full.save_stats({"draw": [5, 4, 1, 3, 3]})
        assert (tmp_path / "stats.json").read_bytes() == before, errno
        assert not (tmp_path / "stats.json.tmp").exists()
    assert st.load_stats()[0]["draw"] == [4, 3, 1, 2, 2]


def test_stats_read_short_of_heap_keeps_the_file(tmp_path, monkeypatch):
    """A statistics file read twice into a heap too short or split for it is not the file's fault: the
    MemoryError goes to the caller (the app's recovery) and the file stays where it is, not set
    aside as damaged; read with room, every row is there."""
    st = store.Store(str(tmp_path))
    st.record_result("fives", 1)
    st.record_result("fives", -1)
    good = (tmp_path / store.STATS).read_bytes()
    calls = []

    def short(name, limit):
        calls.append(name)
        raise MemoryError

    monkeypatch.setattr(st, "_parse", short)
    with pytest.raises(MemoryError):
        st.load_stats()
    assert len(calls) == 2                                   # tried once more after a collection
    assert (tmp_path / store.STATS).read_bytes() == good
    assert not (tmp_path / (store.STATS + ".bad")).exists()
    monkeypatch.undo()
    stats, msg = store.Store(str(tmp_path)).load_stats()
    assert msg is None and stats["fives"][:3] == [2, 1, 1]
