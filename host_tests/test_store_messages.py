"""Every bad file the app can meet at boot, and every write the flash can refuse: the exact message
the player sees, where (the table's message line or the main menu's note), and what is left on the
flash (set aside as .bad, never deleted). The real app under the MicroPython unix port (.mpy tree,
simulated board): tools/proofs/harness/powercut.py boots each prepared folder, driver.py plays the
flash-full cases. The table of messages is in docs/UI.md.
"""
import json
import os

import pytest

HERE = os.path.dirname(os.path.abspath(__file__))
from tools.proofs import faults  # noqa: E402
from tools.proofs.harness import frames  # noqa: E402
from tools.proofs import powercut  # noqa: E402

import store  # noqa: E402
from domino.match import Match  # noqa: E402
from domino.rng import Rng  # noqa: E402
from domino.rules import Rules  # noqa: E402

pytestmark = pytest.mark.skipif(frames.find() is None, reason="no micropython binary")

EXTRAS = {"seats": "human,easy", "names": "You,Ann", "sheet": ""}


def play(st, m, rng, moves=None):
    """Random legal moves, each saved as the table saves it; None: to the end of the match."""
    faults.play(st, m, rng, moves, EXTRAS)


def saved_game(d, moves=9):
    """A game in progress saved in folder d: (game.txt bytes, game.bak bytes)."""
    st = store.Store(str(d))
    m = Match(Rules("draw", 2), 4242)
    m.start_round()
    st.save_game(m, EXTRAS)
    play(st, m, Rng(3), moves)
    return (d / "game.txt").read_bytes(), (d / "game.bak").read_bytes()


def sealed(text):
    """text with a valid checksum line: damage the checksum cannot see."""
    w = store.SumWriter(None)
    w.write(text)
    return (text + "sum " + w.hex() + "\n").encode()


def without_sum(data):
    return data[:data.rfind(b"sum ")].decode()


def damaged(kind, good):
    if kind == "cut short":
        return good[:len(good) // 2]
    if kind == "damaged":                 # one move changed, checksum not: caught by the checksum
        i = good.index(b"round ") + 7
        return good[:i] + bytes([good[i] ^ 1]) + good[i + 1:]
    if kind == "invalid":                 # a good checksum over a record that does not replay
        return sealed(without_sum(good).replace("round ", "round 99L ", 1))
    if kind == "foreign":
        return b"hello\nworld\n"
    if kind == "newer":
        return b"DOMINO 2\nsomething new\n"
    raise ValueError(kind)


KINDS = ("cut short", "damaged", "invalid", "foreign", "newer")
ON_TABLE = {"cut short": "Cut short: 1 move back", "damaged": "Damaged: 1 move back",
            "invalid": "Invalid: 1 move back", "foreign": "Foreign: 1 move back",
            "newer": "Too new: 1 move back"}
ON_MENU = {"cut short": "Save cut short: set aside", "damaged": "Save damaged: set aside",
           "invalid": "Save invalid: set aside", "foreign": "Not a game save: set aside",
           "newer": "Newer firmware's save: set aside"}


def boot(mpy, cases):
    """Boot the app once on each {"root": folder, "hold": "b"?, "profile": ...}; what each showed."""
    out = powercut.run({"mode": "boot", "cases": cases}, mpy=mpy, timeout=120)["cases"]
    for c, r in zip(cases, out):
        assert r["errors"] == 0 and r["errors_after"] == 0, (c, r)
    return out


def test_damaged_save_with_a_good_backup_resumes_one_move_back(mpy, tmp_path):
    cases = []
    for kind in KINDS:
        d = tmp_path / kind.replace(" ", "_")
        good, bak = saved_game(d)
        (d / "game.txt").write_bytes(damaged(kind, good))
        cases.append({"root": str(d)})
    for kind, c, r in zip(KINDS, cases, boot(mpy, cases)):
        d = c["root"]
        assert r["screen"] == "Table" and r["msg"] == ON_TABLE[kind], (kind, r)
        # the damaged file kept aside, the backup is game.txt again, and it is what the table shows
        assert open(d + "/game.txt.bad", "rb").read() == damaged(kind, saved_game(tmp_path / "x" / kind)[0])
        assert "game.bak" not in r["files"] and "game.txt" in r["files"]


def test_damaged_save_without_backup_goes_to_the_menu(mpy, tmp_path):
    cases = []
    for kind in KINDS:
        d = tmp_path / kind.replace(" ", "_")
        good, bak = saved_game(d)
        (d / "game.txt").write_bytes(damaged(kind, good))
        os.remove(str(d / "game.bak"))
        cases.append({"root": str(d)})
    for kind, c, r in zip(KINDS, cases, boot(mpy, cases)):
        assert r["screen"] == "MainMenu" and r["msg"] == ON_MENU[kind], (kind, r)
        assert set(r["files"]) == {"game.txt.bad"}, r["files"]      # a clean start: New game
        assert "Continue" not in r["rows"]


def test_both_saves_bad(mpy, tmp_path):
    good, bak = saved_game(tmp_path)
    (tmp_path / "game.txt").write_bytes(damaged("cut short", good))
    (tmp_path / "game.bak").write_bytes(damaged("damaged", bak))
    r = boot(mpy, [{"root": str(tmp_path)}])[0]
    assert r["screen"] == "MainMenu" and r["msg"] == "Save cut short: set aside"     # game.txt's reason
    assert set(r["files"]) == {"game.txt.bad", "game.bak.bad"}
    assert (tmp_path / "game.bak.bad").read_bytes() == damaged("damaged", bak)


def test_an_older_bad_file_is_replaced(mpy, tmp_path):
    good, bak = saved_game(tmp_path)
    (tmp_path / "game.txt.bad").write_text("an older bad save")
    (tmp_path / "game.txt").write_bytes(b"")
    r = boot(mpy, [{"root": str(tmp_path)}])[0]
    assert r["msg"] == "Cut short: 1 move back" and (tmp_path / "game.txt.bad").read_bytes() == b""


def test_leftover_tmp_and_missing_save(mpy, tmp_path):
    a, b, c = tmp_path / "tmp_with_save", tmp_path / "tmp_alone", tmp_path / "main_missing"
    good, bak = saved_game(a)
    (a / "game.txt.tmp").write_bytes(good[:40])              # the next save, cut by the power
    b.mkdir()
    (b / "game.txt.tmp").write_bytes(good[:40])              # a new match's first save, cut
    good_c, bak_c = saved_game(c)
    os.remove(str(c / "game.txt"))                           # cut between the two renames
    ra, rb, rc = boot(mpy, [{"root": str(a)}, {"root": str(b)}, {"root": str(c)}])
    assert ra["screen"] == "Table" and ra["msg"] == "Power cut: 1 move back"
    assert "game.txt.tmp" not in ra["files"] and (a / "game.txt").read_bytes() == good
    assert rb["screen"] == "MainMenu" and rb["msg"] == "Power cut: game not saved" and rb["files"] == {}
    assert rc["screen"] == "Table" and rc["msg"] == "Save lost: 1 move back"
    assert set(rc["files"]) == {"game.txt"} and (c / "game.txt").read_bytes() == bak_c


SETTINGS_CASES = {
    "damaged": ('{"v": 1, "bright": 5', "Settings damaged: reset", True),
    "outdated": ('{"v": 0, "bright": 50}\n', "Settings outdated: reset", True),
    "too new": ('{"v": 2, "bright": 50}\n', "Settings too new: reset", True),
    "checksum": ('{"v": 1, "bright": 50}\nsum 00000000\n', "Settings damaged: reset", True),
    "invalid values": ('{"v": 1, "bright": 55, "sound": 1}\n', "Some settings invalid: reset", False),
}
STATS_CASES = {
    "damaged": ('{"v": 1, "draw": [1, 1, 0, 1', "Statistics damaged: reset", True),
    "too new": ('{"v": 7}\n', "Statistics too new: reset", True),
    "bad rows": ('{"v": 1, "draw": [1, 1, 0, 1, 1], "fives": [-1, 0, 0, 0, 0]}\n',
                 "Some stats invalid: dropped", "rows"),
    "impossible rows": ('{"v": 1, "draw": [1, 1, 0, 1, 1], "fives": [1, 1000000, 0, 0, 0], '
                        '"block": [3, 1, 1, 2, 2], "goat": [2, 1, 1, 0, 2]}\n',
                        "Some stats invalid: dropped", "rows"),
}


def test_settings_and_statistics_damage(mpy, tmp_path):
    cases = []
    expect = []
    for name, table in (("settings.json", SETTINGS_CASES), ("stats.json", STATS_CASES)):
        for kind, (text, msg, aside) in table.items():
            d = tmp_path / (name + "_" + kind.replace(" ", "_"))
            d.mkdir()
            (d / name).write_text(text)
            cases.append({"root": str(d)})
            expect.append((name, kind, text, msg, aside))
    for (name, kind, text, msg, aside), c, r in zip(expect, cases, boot(mpy, cases)):
        assert r["screen"] == "MainMenu" and r["msg"] == msg, (name, kind, r)
        if aside == "rows":                  # kept as .bad; the good rows (draw's) go on
            assert open(c["root"] + "/" + name + ".bad").read() == text
            kept = json.loads(open(c["root"] + "/" + name).readline())
            assert [k for k in kept if k != "v"] == ["draw"], kept
        elif aside:
            assert open(c["root"] + "/" + name + ".bad").read() == text and name not in r["files"]
        else:
            assert name + ".bad" not in r["files"]


def test_settings_message_on_the_resumed_table(mpy, tmp_path):
    saved_game(tmp_path)
    (tmp_path / "settings.json").write_text("garbage")
    r = boot(mpy, [{"root": str(tmp_path)}])[0]
    assert r["screen"] == "Table" and r["msg"] == "Settings damaged: reset"


def test_b_held_at_boot_reads_no_file_and_offers_to_reset(mpy, tmp_path):
    cases = []
    for profile, size in (("sim", "240x240"), ("pimoroni_pack", "240x135"), ("oled_diy", "128x64")):
        d = tmp_path / profile
        saved_game(d)
        (d / "settings.json").write_text("garbage")
        cases.append({"root": str(d), "hold": "b", "profile": profile, "size": size})
    d = tmp_path / "no_b"
    saved_game(d)
    cases.append({"root": str(d)})
    out = boot(mpy, cases)
    for c, r in zip(cases[:3], out):
        assert r["screen"] == "SafeStart" and r["msg"] == "B held: no file read", r
        assert r["rows"] == ["Keep files", "Reset files"]
        assert set(r["files"]) == {"game.txt", "game.bak", "settings.json"}   # not even the settings
    assert out[3]["screen"] == "Table" and out[3]["msg"] == ""       # the same save, B not held


def test_b_held_then_keep_and_continue_resumes(mpy, tmp_path):
    good, _ = saved_game(tmp_path / "flash")
    out = frames.run({"root": str(tmp_path / "flash"), "hold_at_boot": "b",
                      "do": [["state"], ["menu", "Keep files"], ["state"], ["menu", "Continue"], ["settle"],
                             ["state"]]},
                     code=mpy[0], boards=mpy[1])
    safe, menu, table = out["states"]
    assert out["errors"] == 0
    assert safe["screen"] == "SafeStart"
    assert menu["screen"] == "MainMenu" and menu["note"] == "Files kept, not read"
    assert table["screen"] == "Table" and table["moves_played"] >= 9      # the saved game (and on)


def test_b_held_then_reset_sets_every_file_aside(mpy, tmp_path):
    flash = tmp_path / "flash"
    saved_game(flash)
    (flash / "settings.json").write_text('{"v": 1, "bright": 10}\n')
    (flash / "stats.json").write_text('{"v": 1, "draw": [1, 1, 0, 1, 1]}\n')
    out = frames.run({"root": str(flash), "hold_at_boot": "b",
                      "do": [["menu", "Reset files"], ["state"], ["keys", "a"], ["state"]]},
                     code=mpy[0], boards=mpy[1])
    sure, menu = out["states"]
    assert out["errors"] == 0
    assert sure["screen"] == "SafeStart" and sure["note"] == "A again to reset"
    assert menu["screen"] == "MainMenu" and menu["note"] == "Files reset (kept as .bad)"
    assert "Continue" not in menu["rows"]
    assert sorted(os.listdir(str(flash))) == ["game.bak.bad", "game.txt.bad", "settings.json.bad",
                                              "stats.json.bad"]


def drive(mpy, tmp_path, do, **job):
    job.update({"root": str(tmp_path / "flash"), "do": do})
    out = frames.run(job, code=mpy[0], boards=mpy[1])
    assert out["errors"] == 0, out.get("last_error")
    return out


@pytest.mark.parametrize("mode", ["full", "midway"])
def test_flash_full_while_saving_the_game(mpy, tmp_path, mode):
    """The move is played, the warning shown, the previous save left as it was (no .tmp); once the
    flash takes writes again the next move saves everything."""
    drive(mpy, tmp_path, [["new", "draw", 2, ["human", "easy"]], ["settle"]], seed=5)
    flash = tmp_path / "flash"
    before = (flash / "game.txt").read_bytes()
    out = drive(mpy, tmp_path, [["state"], ["texts"], ["flash", mode], ["match", 1], ["state"],
                                ["flash", "ok"], ["match", 1], ["state"]], seed=5)
    boot_st, failing, ok = out["states"]
    assert out["refused"] >= 2 and out["save_failures"] >= 2     # the human's move and the AI's
    assert ["text", "Flash full: not saved"] in out["texts"]      # drawn on the message line
    assert failing["moves_played"] >= boot_st["moves_played"] + 2   # play went on
    saved = (flash / "game.txt").read_text()
    moves = [ln for ln in saved.splitlines() if ln.startswith("round")][-1].split()[1:]
    assert len(moves) == ok["moves_played"] > failing["moves_played"]   # all of them, saved at last
    assert not [f for f in os.listdir(str(flash)) if f.endswith(".tmp")]
    assert before != saved.encode()


def test_flash_full_keeps_the_previous_save_intact(mpy, tmp_path):
    drive(mpy, tmp_path, [["new", "draw", 2, ["human", "easy"]], ["settle"]], seed=5)
    flash = tmp_path / "flash"
    before = {f: (flash / f).read_bytes() for f in ("game.txt", "game.bak")}
    out = drive(mpy, tmp_path, [["flash", "midway"], ["match", 2], ["state"]], seed=5)
    assert out["save_failures"] >= 2 and out["states"][0]["screen"] == "Table"
    assert {f: (flash / f).read_bytes() for f in ("game.txt", "game.bak")} == before
    assert not [f for f in os.listdir(str(flash)) if f.endswith(".tmp")]


@pytest.mark.parametrize("mode", ["full", "readonly"])
def test_save_and_quit_never_says_saved_when_it_was_not(mpy, tmp_path, mode):
    """With the flash refusing writes, Save and quit says so (and how to free space)
    and the game plays on; once the flash takes writes again it saves, reads the save back and
    only then says "Game saved"; the next power-on resumes exactly the match that was on the table."""
    drive(mpy, tmp_path, [["new", "draw", 2, ["human", "easy"]], ["settle"]], seed=5)
    flash = tmp_path / "flash"
    out = drive(mpy, tmp_path, [["settle"], ["flash", mode], ["match", 2], ["state"], ["keys", "b"],
                                ["settle"], ["menu", "Save and quit"], ["state"], ["keys", "a"], ["state"],
                                ["flash", "ok"], ["menu", "Save and quit"], ["state"]], seed=5)
    playing, refused, paused, saved = out["states"]
    assert out["save_failures"] >= 2
    assert refused["screen"] == "Message" and refused["text"].startswith(
        "Flash full: not saved\n" if mode == "full" else "Read-only: not saved\n")
    assert "mpremote rm" in refused["text"]                        # and how to free space
    assert paused["screen"] == "Pause" and paused["note"] == "Not saved"
    assert saved["screen"] == "MainMenu" and saved["note"] == "Game saved"
    assert not [f for f in os.listdir(str(flash)) if f.endswith(".tmp")]
    back = drive(mpy, tmp_path, [["settle"], ["state"]], seed=5)   # a power-on: straight back to the game
    resumed = back["states"][0]
    for k in ("round_no", "moves_played", "scores", "turn", "hand", "history"):
        assert resumed[k] == playing[k], k


def test_flash_full_while_saving_settings(mpy, tmp_path):
    out = drive(mpy, tmp_path, [["menu", "Settings"], ["flash", "midway"], ["keys", "right b"], ["state"]])
    st = out["states"][0]
    assert st["screen"] == "MainMenu" and st["note"] == "Flash full: settings unsaved"
    assert os.listdir(str(tmp_path / "flash")) == []


def finished_match(d):
    """A match played to its end and saved as the table saves it (the power cut before the save
    was removed): its checksum line."""
    st = store.Store(str(d))
    m = Match(Rules("draw", 2), 777)
    m.start_round()
    st.save_game(m, EXTRAS)
    play(st, m, Rng(5))
    assert m.over
    return st.game_sum()


def test_flash_full_while_saving_statistics(mpy, tmp_path):
    finished_match(tmp_path / "flash")
    out = drive(mpy, tmp_path, [["flash", "full"], ["match"], ["state"]])
    st = out["states"][0]
    assert out["result"] == "over"
    assert st["screen"] == "MainMenu" and st["note"] == "Flash full: stats unsaved"
    assert os.listdir(str(tmp_path / "flash")) == []          # the finished save is removed all the same


def test_a_finished_match_is_counted_once(mpy, tmp_path):
    """Power cut after the statistics were written, before the finished save was removed: the boot
    shows the match end again, and does not count it a second time."""
    flash = tmp_path / "flash"
    sid = finished_match(flash)
    st = store.Store(str(flash))
    st.save_stats({"draw": [3, 2, 1, 1, 2], "counted": sid})
    out = drive(mpy, tmp_path, [["match"], ["state"]])
    assert out["result"] == "over" and not (flash / "game.txt").exists()
    assert st.load_stats()[0]["draw"] == [3, 2, 1, 1, 2]
    # the same match not yet counted: counted now, once
    finished_match(flash)
    st.save_stats({"draw": [3, 2, 1, 1, 2], "counted": "sum 00000000"})
    drive(mpy, tmp_path, [["match"], ["state"]])
    row = st.load_stats()[0]["draw"]
    assert row[0] == 4 and st.load_stats()[0]["counted"] == sid


def test_messages_fit_the_screens(mpy):
    """Menu notes wrap into the two lines the menu shows, even on the 128x64 OLED (16 columns); the
    table's messages fit its message line beside the stock and count (22 columns on 240-wide)."""
    menu = list(ON_MENU.values()) + ["Power cut: game not saved", "B held: no file read",
                                     "Files kept, not read", "Files reset (kept as .bad)",
                                     "Reset failed: flash error", "A again to reset",
                                     "Save too big: set aside",
                                     "Settings too big: reset", "Statistics too big: reset",
                                     "Read-only: settings unsaved", "Read-only: stats unsaved",
                                     "Flash full: settings unsaved", "Flash full: stats unsaved",
                                     "Flash error 5: settings unsaved", "Some stats invalid: dropped"]
    menu += [m for _t, m, _a in SETTINGS_CASES.values()] + [m for _t, m, _a in STATS_CASES.values()]
    menu += ["Statistics outdated: reset"]
    lines = powercut.run({"mode": "wrap", "texts": menu, "cols": 16}, mpy=mpy)["lines"]
    for m, ln in zip(menu, lines):
        assert len(ln) <= 2, (m, ln)
    for m in list(ON_TABLE.values()) + [store.POWER_CUT, store.failed(OSError(28)), store.failed(OSError(30)),
                                        "Too big: 1 move back"]:
        assert len(m) <= 22, m
    assert store.failed(OSError(28)) == "Flash full: not saved"
    assert store.failed(OSError(5), "stats") == "Flash error 5: stats unsaved"
