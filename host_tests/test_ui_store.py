"""firmware/store.py: saves, settings, statistics (CPython; the UI tests run it under MicroPython too).

The incremental save (previous file + one move) must give exactly the engine's own record
(domino.record.dump), and every damaged file must give a message and the newest good state,
never an exception.
"""
import json
import os

import pytest

import store
from domino.match import Match
from domino import record
from domino.record import run_forced, load, move_text
from domino.rng import Rng
from domino.rules import Rules, VARIANTS

EXTRAS = {"seats": "human,easy", "names": "You,Ann", "sheet": ""}


def dumps(match, extras=None):
    """The record as one string (was domino.record.dumps; the device streams with record.dump)."""
    import io
    buf = io.StringIO()
    record.dump(match, buf, extras)
    return buf.getvalue()


def body(path):
    """The file without its checksum line."""
    with open(path) as f:
        lines = f.read().split("\n")
    assert lines[-1] == "" and lines[-2].startswith("sum ")
    return "\n".join(lines[:-2]) + "\n"


def play_some(match, rng, st, extras, moves=10 ** 6):
    """Play random legal moves, saving after each exactly as the table does."""
    rd = match.round
    n_done = 0
    while not match.over and n_done < moves:
        run_forced(match)
        if match.round_over():
            match.finish_round()
            st.save_game(match, extras)
            if match.over:
                break
            match.start_round()
            st.save_game(match, extras)
            continue
        n = rd.legal()
        mv = rd.buf[rng.below(n)]
        tok = move_text(rd, mv)
        match.play(mv)
        assert store.last_token(rd) == tok            # the engine's text, read back after the move
        st.save_game(match, extras, tok)
        n_done += 1
    return n_done


@pytest.mark.parametrize("vid", [v[0] for v in VARIANTS])
def test_incremental_save_is_the_engine_record(tmp_path, vid):
    players = 4 if vid == "blitz" else (3 if vid in ("goat", "threes") else 2)
    st = store.Store(str(tmp_path))
    m = Match(Rules(vid, players), 1000 + len(vid))
    m.start_round()
    extras = {"seats": ",".join(["human"] + ["easy"] * (players - 1)), "names": "x", "sheet": ""}
    st.save_game(m, extras)
    rng = Rng(7)
    checks = 0
    while not m.over and checks < 400:
        play_some(m, rng, st, extras, 7)
        assert body(st.path("game.txt")) == dumps(m, extras)
        checks += 1
    m2, ex, note = st.load_game()
    assert note is None and ex["seats"] == extras["seats"]
    assert dumps(m2, extras) == dumps(m, extras)


def test_fresh_deal_save_is_the_engine_record(tmp_path):
    st = store.Store(str(tmp_path))
    m = Match(Rules("donkey", 3, False, {"fish": "one"}), 555)
    m.start_round()
    st.save_game(m, EXTRAS)
    assert body(st.path("game.txt")) == dumps(m, EXTRAS)


def test_header_matches_engine(tmp_path):
    from domino.record import header
    m = Match(Rules("goat", 4, True, {"fish": "one", "target": 202}), 77)
    assert store.header(m, EXTRAS) == header(m.rules, m.seed, EXTRAS)


def new_saved(tmp_path, moves=12):
    st = store.Store(str(tmp_path))
    m = Match(Rules("fives", 2), 4242)
    m.start_round()
    st.save_game(m, EXTRAS)
    play_some(m, Rng(3), st, EXTRAS, moves)
    return st, m


def test_truncated_save_falls_back_to_backup(tmp_path):
    st, m = new_saved(tmp_path)
    p = st.path("game.txt")
    text = open(p).read()
    open(p, "w").write(text[:len(text) // 2])          # power cut mid-write (without the rename)
    bak = open(st.path("game.bak")).read()
    m2, ex, note = st.load_game()
    assert m2 is not None and note == "Cut short: 1 move back"
    assert m2.round.moves_played == m.round.moves_played - 1 or m2.round_no < m.round_no or \
        len(m2.history) < len(m.history) + 1
    # the cut file is kept aside, the backup is game.txt again
    assert open(st.path("game.txt.bad")).read() == text[:len(text) // 2]
    assert open(st.path("game.txt")).read() == bak and not os.path.exists(st.path("game.bak"))


DAMAGE_NOTES = {"garbage": "Not a game save: set aside", "empty": "Save cut short: set aside",
                "edited": "Save damaged: set aside", "bad_seats": "Save invalid: set aside",
                "binary": "Not a game save: set aside"}


@pytest.mark.parametrize("damage", sorted(DAMAGE_NOTES))
def test_damaged_saves_give_a_message(tmp_path, damage):
    st, m = new_saved(tmp_path)
    for name in ("game.txt", "game.bak"):
        p = st.path(name)
        text = open(p).read()
        if damage == "garbage":
            text = "hello\nworld\n"
        elif damage == "empty":
            text = ""
        elif damage == "edited":
            text = text.replace("round ", "round 66 ", 1)
        elif damage == "bad_seats":
            lines = text.split("\n")
            lines = [ln for ln in lines if not ln.startswith("sum ")]
            t2 = "\n".join(lines).replace("seats human,easy", "seats robot")
            w = store.SumWriter(None)
            w.write(t2)
            text = t2 + "sum " + w.hex() + "\n"
        if damage == "binary":
            open(p, "wb").write(b"\xff\xfe\x00\x81" * 50)
        else:
            open(p, "w").write(text)
    m2, ex, note = st.load_game()
    assert m2 is None and note == DAMAGE_NOTES[damage]
    assert not st.has_game()        # both set aside, never deleted
    assert os.path.exists(st.path("game.txt.bad")) and os.path.exists(st.path("game.bak.bad"))


def test_missing_current_save_uses_backup(tmp_path):
    st, m = new_saved(tmp_path)
    os.remove(st.path("game.txt"))                      # cut between the two renames
    m2, ex, note = st.load_game()
    assert m2 is not None and note == "Save lost: 1 move back"


def test_save_without_the_move_is_rewritten_whole(tmp_path):
    """A caller that forgets the token still gets a complete save (never a stale one)."""
    st, m = new_saved(tmp_path)
    rd = m.round
    run_forced(m)
    m.play(rd.buf[0] if rd.legal() else 0)
    st.save_game(m, EXTRAS)
    assert body(st.path("game.txt")) == dumps(m, EXTRAS)


def test_append_rejects_a_foreign_file(tmp_path):
    """A save that does not hold the match before this move is rewritten whole, not appended to."""
    st, m = new_saved(tmp_path)
    other = Match(Rules("fives", 2), 9999)
    other.start_round()
    store.Store(str(tmp_path / "o")).save_game(other, EXTRAS)
    os.replace(str(tmp_path / "o" / "game.txt"), st.path("game.txt"))
    play_some(m, Rng(5), st, EXTRAS, 1)
    assert body(st.path("game.txt")) == dumps(m, EXTRAS)


def test_settings_validated(tmp_path):
    st = store.Store(str(tmp_path))
    s, note = st.load_settings()
    assert note is None and s["bright"] == 80 and s["last"] == {}
    for text, expect in [("{not json", "Settings damaged: reset"),
                         ('{"v": 99, "bright": 50}', "Settings too new: reset"),
                         ('{"v": 0, "bright": 50}', "Settings outdated: reset"),
                         ('[1, 2]', "Settings damaged: reset"), ("\xff\xfe", "Settings damaged: reset")]:
        open(st.path("settings.json"), "w").write(text)
        s, note = st.load_settings()
        assert note == expect and s["bright"] == 80
        assert open(st.path("settings.json.bad")).read() == text
        assert not os.path.exists(st.path("settings.json"))
    open(st.path("settings.json"), "w").write(json.dumps({"v": 1, "bright": 55, "sound": True,
                                                          "think": 1000, "anim": 9, "last": 3}))
    s, note = st.load_settings()
    assert s["bright"] == 80 and s["sound"] == 1 and s["anim"] == 2 and s["think"] == 1000
    assert s["last"] == {} and note == "Some settings invalid: reset"
    s["bright"] = 30
    st.save_settings(s)
    assert st.load_settings()[0]["bright"] == 30
    assert not os.path.exists(st.path("settings.json.tmp"))


def test_stats_streaks_and_damage(tmp_path):
    st = store.Store(str(tmp_path))
    for r in (1, 1, -1, 1, 1, 1, 0, -1, -1):
        row = st.record_result("fives", r)
    assert row == [9, 5, 3, -2, 3]
    stats, note = st.load_stats()
    assert note is None and stats["fives"] == row
    d = json.loads(open(st.path("stats.json")).readline())
    d["goat"] = [1, "x", 0, 0, 0]
    d["draw"] = [-1, 0, 0, 0, 0]
    json.dump(d, open(st.path("stats.json"), "w"))          # a file without a checksum line is read
    stats, note = st.load_stats()
    assert "goat" not in stats and "draw" not in stats and stats["fives"] == row
    assert note == "Some stats invalid: dropped"
    assert open(st.path("stats.json.bad")).readline().startswith("{")        # kept, as a damaged file


def test_stats_rows_no_run_of_matches_can_give_are_refused(tmp_path):
    st = store.Store(str(tmp_path))
    good = [5, 3, 1, -1, 2, 9, 4]
    rows = {"draw": good, "fives": [1, 1000000, 0, 0, 0], "block": [3, 2, 2, 0, 1],
            "goat": [4, 1, 1, 0, 2], "muggins": [4, 2, 1, 2, 1], "cross": [4, 2, 1, -2, 1],
            "allfives": [4, 2, 1, 0, 1, 3, 4]}
    json.dump(dict(rows, v=1), open(st.path("stats.json"), "w"))
    stats, note = st.load_stats()
    assert stats == {"draw": good} and note == "Some stats invalid: dropped"
    assert json.loads(open(st.path("stats.json.bad")).readline())["fives"] == [1, 1000000, 0, 0, 0]
    assert st.load_stats() == ({"draw": good}, None)                  # said once, then clean


def test_missing_root_is_created(tmp_path):
    st = store.Store(str(tmp_path / "new" / "deeper"))
    st.save_settings({"bright": 10})
    assert os.path.exists(str(tmp_path / "new" / "deeper" / "settings.json"))


def test_load_streams_a_long_match(tmp_path):
    """A whole match saved move by move loads back to the same state."""
    st = store.Store(str(tmp_path))
    m = Match(Rules("draw", 3), 31337)
    m.start_round()
    st.save_game(m, EXTRAS | {"seats": "human,easy,easy"})
    play_some(m, Rng(11), st, EXTRAS | {"seats": "human,easy,easy"})
    assert m.over
    m2, ex, note = st.load_game()
    assert m2.over and m2.scores == m.scores and note is None
    with open(st.path("game.txt")) as f:
        load(list(store._all_but_last(f)))
