"""The handheld UI under the real MicroPython unix port (real framebuf) with the simulated board.

Each test runs tools/proofs/harness/driver.py in a `micropython` subprocess on the firmware compiled
to .mpy (as deployed); the driver presses keys through the board's key lines and the Input debouncer
and prints JSON: game state, framebuffer checks, timings.
"""
import json
import os

import pytest

HERE = os.path.dirname(os.path.abspath(__file__))
from tools.proofs.harness import frames  # noqa: E402
from tools.sim.ui_host import metrics  # noqa: E402  (the font cell and pip size of each board's panel)


def pip_px(s, pip, mono):
    """Pixels across a pip of a half-tile s pixels square: the board's pip size (0.4 mm; the OLED's
    2), smaller only where three pips, gaps of half a pip (at least 1) and, on colour screens, a
    pixel of tile each side would not fit."""
    z = pip
    while z > 1 and 2 + 3 * z + 2 * (z // 2 if z > 2 else 1) + (0 if mono else 2) > s:
        z -= 1
    return z

pytestmark = pytest.mark.skipif(frames.find() is None, reason="no micropython binary")

# one full game per variant, by key presses alone; sizes and seatings spread over the cases
GAMES = [
    ("draw", 2, ["human", "easy"], False, "240x240"),
    ("block", 3, ["human", "easy", "easy"], False, "320x240"),
    ("fives", 4, ["human", "easy", "easy", "easy"], True, "240x135"),
    ("classic", 2, ["human", "medium"], False, "128x64"),
    ("goat", 3, ["human", "easy", "easy"], False, "240x240"),
    ("sea_goat", 2, ["human", "easy"], False, "320x240"),
    ("donkey", 2, ["human", "easy"], False, "240x135"),
    ("muggins", 2, ["human", "easy"], False, "128x64"),
    ("threes", 3, ["human", "easy", "medium"], False, "240x240"),
    ("telephone", 2, ["human", "easy"], False, "320x240"),
    ("blitz", 4, ["human", "easy", "easy", "easy"], True, "240x135"),
]


def run(mpy, job, tmp_path, heap=None):
    job.setdefault("root", str(tmp_path / "flash"))
    out = frames.run(job, heap=heap, code=mpy[0], boards=mpy[1])
    assert out["errors"] == 0, out.get("last_error")
    assert out["save_failures"] == 0
    return out


def sheet_totals(sheet, sides):
    """Each side's points from the score sheet's rows ("15,-;+8,20": "-" none, "+N" remembered and
    not scored, a row of "x" writes every side's points off)."""
    tot = [0] * sides
    for row in sheet.split(";"):
        toks = row.split(",")
        assert len(toks) == sides, sheet
        if toks[0] == "x":
            tot = [0] * sides
            continue
        for i, tok in enumerate(toks):
            if tok != "-" and not tok.startswith("+"):
                tot[i] += int(tok)
    return tot


@pytest.mark.parametrize("vid,players,kinds,teams,size", GAMES, ids=[g[0] for g in GAMES])
def test_full_game_by_keys(mpy, tmp_path, vid, players, kinds, teams, size):
    """A whole match by key presses: it ends by the rules (a side reached the target, the winner and
    the goat the ones the scores say), the scores are the score sheet's sums, the statistics count the
    match and its rounds for seat 1 as they went, and the screens were the table, the round ends and
    the menu (no curtain with one person, no error page)."""
    out = run(mpy, {"size": size, "seed": 100 + len(vid),
                    "do": [["new", vid, players, kinds, teams], ["match"], ["state"]]}, tmp_path)
    assert out["result"] == "over", out
    assert out["screen"] == "MainMenu"
    end = out["match_end"]
    assert end["screen"] == "RoundEnd" and end["over"], end
    sides = len(end["scores"])
    assert sides == (2 if teams else players)
    rows = end["sheet"].split(";")
    assert len(rows) == end["history"] == end["round_no"], end
    scores = end["scores"]
    assert scores == sheet_totals(end["sheet"], sides), end
    top = max(scores)
    goat = vid in ("goat", "donkey", "blitz")         # penalty points: the first to the target loses
    if goat:
        low = min(scores)
        assert top >= end["target"] and end["loser"] == scores.index(top), end
        assert end["winner"] == (scores.index(low) if scores.count(low) == 1 else 255), end
    elif top >= end["target"]:
        assert end["winner"] == scores.index(top) and scores.count(top) == 1, end
    else:                                             # Sea Goat's instant win (double-blank out)
        assert vid == "sea_goat" and end["winner"] != 255, end
    # seat 1 is human: its statistics row [played, won, lost, streak, best, rounds, rounds won]
    flash = tmp_path / "flash"
    assert not (flash / "game.txt").exists()          # a finished match is not offered to resume
    stats = json.loads((flash / "stats.json").read_text().split("\n")[0])
    row = stats[vid]
    won = end["winner"] == 0
    lost = end["loser"] == 0 or (not goat and not won)
    assert row[:3] == [1, int(won), int(lost)], (row, end)
    assert row[5] == len(rows) and 0 <= row[6] <= len(rows), (row, end)
    # the rounds were played at the table, each shown at its end; one person: no curtain
    seen = out["seen"]
    assert seen.get("Table", 0) >= out["human_moves"] > 0
    assert seen.get("RoundEnd", 0) >= len(rows)
    assert set(seen) <= {"Table", "RoundEnd"}, seen


def test_sea_goat_write_off_on_the_sheet(mpy, tmp_path):
    """RULES.md E: a record made while another side holds points writes every side's points off; the
    score sheet shows that round as a row of "x" and every total is 0 after it."""
    out = run(mpy, {"seed": 4, "do": [["new", "sea_goat", 3, ["human", "easy", "easy"]],
                                      ["match", 40], ["state"]]}, tmp_path)
    st = out["states"][0]
    rows = st["sheet"].split(";")
    wiped = [k for k, r in enumerate(rows) if r == "x,x,x"]
    assert wiped, rows
    if wiped[-1] == len(rows) - 1:                 # the last round wrote everything off
        assert st["scores"] == [0, 0, 0]
    for k, r in enumerate(rows):                  # between write-offs only one side ever holds points
        assert r == "x,x,x" or "x" not in r, rows


def test_pass_and_play_never_shows_a_hand_to_the_wrong_player(mpy, tmp_path):
    """Also in Russian on the OLED, where the curtain's longer texts reach the rows a hand takes on
    the table (the check then compares the frame with the curtain's own drawing)."""
    for size, lang in (("240x240", "en"), ("128x64", "en"), ("128x64", "ru")):
        out = run(mpy, {"size": size, "seed": 5, "lang": lang,
                        "do": [["privacy"], ["new", "goat", 3, ["human", "human", "easy"]],
                               ["match", 30]]}, tmp_path / (size + lang))
        assert out["curtains"] >= 10                 # frames of the curtain were checked
        assert out["hidden_checks"] >= 5             # and frames between turns
        assert "privacy_pixels" not in out, out.get("privacy_pixels")


def test_curtain_waits_for_a(mpy, tmp_path):
    out = run(mpy, {"seed": 8, "do": [["new", "draw", 2, ["human", "human"]], ["state"],
                                      ["keys", "down down left right x y"], ["state"],
                                      ["handoff"], ["settle"], ["state"]]}, tmp_path)
    s0, s1, s2 = out["states"]
    assert s0["screen"] == "Curtain" and s0["shown"] == 255
    assert s1["screen"] == "Curtain"                  # keys other than A do not lift it
    assert s2["screen"] == "Table" and s2["shown"] == s2["turn"] and s2["mode"] == 1


def test_a_double_tap_never_lifts_the_next_curtain(mpy, tmp_path):
    """A pressed twice quickly (the move, then 40-220 ms later again) must not lift the
    next player's curtain while the last player still holds the device. The privacy check knows
    who holds it (privacy.Holder) and fails on any frame showing a hand to anyone else."""
    for gap in (0, 2, 5, 9):                  # loop passes of 20 ms between the two presses
        out = run(mpy, {"seed": 8, "do": [["privacy"], ["new", "draw", 2, ["human", "human"]], ["handoff"],
                                          ["settle"], ["state"], ["keys", "a"], ["steps", gap],
                                          ["keys", "a"], ["steps", 10], ["state"], ["handoff"], ["state"]]},
                  tmp_path / str(gap))
        turn, tapped, passed = out["states"]
        assert turn["screen"] == "Table" and turn["mode"] == 1, turn
        assert tapped["screen"] == "Curtain" and tapped["shown"] == 255, (gap, tapped)
        assert tapped["moves_played"] == turn["moves_played"] + 1
        assert passed["screen"] == "Table" and passed["shown"] == passed["turn"] != turn["turn"], passed
        assert "privacy_holder" not in out and out["handoffs"] == 2, out
        assert "privacy_pixels" not in out


def test_hand_tiles_drawn_where_expected(mpy, tmp_path):
    for size in ("240x240", "320x240", "240x135", "128x64"):
        out = run(mpy, {"size": size, "seed": 21, "do": [["new", "fives", 2, ["human", "easy"]],
                                                         ["settle"], ["state"], ["png", "t"]]},
                  tmp_path / size)
        st = out["states"][0]
        w, h, px = frames.pixels(out["frames"]["t"])
        from domino.tiles import LO, HI
        assert st["mode"] == 1 and st["hand"]
        mono = out["frames"]["t"]["mono"]
        tile_c = 1 if mono else 4
        pip_c = 0 if mono else 5
        pip = metrics(w, h)[3]
        for i, (x, y, tw, th) in enumerate(st["hand_rects"]):
            t = st["hand"][i]
            if x < 0:
                continue                              # scrolled out of view (the cursor's tile
            if x + tw > w:                            # and those around it are shown)
                break
            # a tile face there, and in each half as many pip pixels as the tile's numbers ask
            face = sum(1 for yy in range(y, y + th) for xx in range(x, x + tw) if px[yy][xx] == tile_c)
            assert face * 4 > tw * th, (size, i)
            s = min(tw, th)                           # upright on tall screens, lying on short ones
            z = pip_px(s, pip, mono)
            for half, v in ((0, LO[t]), (1, HI[t])):
                x0 = x + half * s if tw > th else x
                y0 = y + half * s if th > tw else y
                n = sum(1 for yy in range(y0 + 1, y0 + s - 1) for xx in range(x0 + 1, x0 + s - 1)
                        if px[yy][xx] == pip_c)
                assert n == v * z * z, (size, i, t, half, n)
        # the cursor tile is outlined (and raised), playable tiles are underlined
        cx, cy, cw, ch = st["hand_rects"][st["cursor"]]
        assert px[cy - 1][cx + cw // 2] == (1 if mono else 7)


def test_resume_after_power_cut(mpy, tmp_path):
    job = {"seed": 77, "do": [["new", "muggins", 2, ["human", "medium"]], ["match", 9], ["state"]]}
    a = run(mpy, job, tmp_path)
    before = a["states"][0]
    assert a["result"] == "stopped" and (tmp_path / "flash" / "game.txt").exists()
    # the process is gone (power pulled); a new boot goes straight back into the game
    b = run(mpy, {"seed": 1, "do": [["state"], ["settle"], ["state"]]}, tmp_path)
    boot, after = b["states"]
    assert boot["screen"] == "Table" and boot["msg"] == ""
    for k in ("round_no", "moves_played", "scores", "turn", "hand", "history"):
        assert after[k] == before[k], k
    assert after["mode"] == 1


def test_resume_pass_and_play_starts_with_the_curtain(mpy, tmp_path):
    run(mpy, {"seed": 3, "do": [["new", "block", 2, ["human", "human"]], ["match", 5]]}, tmp_path)
    b = run(mpy, {"do": [["settle"], ["state"]]}, tmp_path)
    assert b["states"][0]["screen"] == "Curtain"


@pytest.mark.parametrize("damage", ["truncated", "garbage", "both"])
def test_damaged_save_loses_nothing_else(mpy, tmp_path, damage):
    played = run(mpy, {"seed": 9, "do": [["new", "draw", 2, ["human", "easy"]], ["match", 6], ["state"]]},
                 tmp_path)["states"][0]
    flash = tmp_path / "flash"
    text = (flash / "game.txt").read_text()
    if damage == "truncated":
        (flash / "game.txt").write_text(text[:len(text) - 9])
    else:
        (flash / "game.txt").write_text("\x00garbage\n" * 3)
        if damage == "both":
            (flash / "game.bak").write_text("DOMINO 1\nvariant nope\n")
    out = run(mpy, {"do": [["state"], ["settle"], ["state"]]}, tmp_path)
    boot, after = out["states"]
    if damage == "both":
        assert boot["screen"] == "MainMenu" and boot["note"] == "Not a game save: set aside"
        assert (flash / "game.txt.bad").exists() and (flash / "game.bak.bad").exists()
        assert not (flash / "game.txt").exists() and not (flash / "game.bak").exists()
        out = run(mpy, {"do": [["new", "draw", 2, ["human", "easy"]], ["state"]]}, tmp_path)
        assert out["states"][0]["screen"] == "Table"
    else:
        assert boot["screen"] == "Table"
        want = {"truncated": "Cut short: 1 move back", "garbage": "Foreign: 1 move back"}
        assert boot["msg"] == want[damage]
        assert after["screen"] == "Table" and after["mode"] == 1
        assert boot["nmoves"] == played["nmoves"] - 1          # the backup: one move back
        # the AI makes that move again (its choices are seeded by the position): the same game
        for k in ("nmoves", "events", "hand", "scores", "turn"):
            assert after[k] == played[k], k


def test_stale_settings_file(mpy, tmp_path):
    flash = tmp_path / "flash"
    flash.mkdir()
    (flash / "settings.json").write_text('{"v": 0, "bright": "max"')
    out = run(mpy, {"do": [["state"], ["menu", "Settings"], ["keys", "right down a"], ["keys", "b"],
                           ["state"]]}, tmp_path)
    assert out["states"][0]["note"] == "Settings damaged: reset"
    assert (flash / "settings.json.bad").read_text() == '{"v": 0, "bright": "max"'
    assert out["states"][1]["screen"] == "MainMenu"
    import json
    s = json.loads((flash / "settings.json").read_text().split("\n")[0])
    assert s["v"] == 1 and s["bright"] == 90 and s["sound"] == 0


def test_mashing_during_ai_thinking_plays_nothing(mpy, tmp_path):
    out = run(mpy, {"seed": 12, "ai_ms_per_call": 10, "think": 500, "anim": 1,
                    "do": [["new", "fives", 2, ["human", "hard"]], ["mash", "a"], ["match", 4],
                           ["mash", ""], ["state"]]}, tmp_path)
    assert out["mashed"] > 20                                # A was down on many AI ticks
    st = out["states"][0]
    assert st["screen"] == "Table" and st["mode"] == 1      # waiting for the human, nothing played
    assert out["human_moves"] == 4 and "stray_moves" not in out


def test_hint_points_at_a_playable_tile(mpy, tmp_path):
    out = run(mpy, {"seed": 31, "do": [["new", "draw", 2, ["human", "easy"]], ["settle"], ["hint"],
                                       ["state"], ["keys", "a"], ["settle"], ["state"]]}, tmp_path)
    s, after = out["states"]
    assert s["msg"].startswith("Hint: ")
    assert after["moves_played"] > s["moves_played"]


def test_four_button_board_plays_with_up_down_a_b(mpy, tmp_path):
    out = run(mpy, {"profile": "pimoroni_pack", "size": "240x135", "seed": 4,
                    "do": [["new", "block", 2, ["human", "easy"]], ["settle"], ["keys", "b"], ["state"],
                           ["keys", "b"], ["match"]]}, tmp_path)
    assert out["states"][0]["screen"] == "Pause"
    assert out["result"] == "over"


def test_layout_stays_readable_on_every_screen(mpy, tmp_path):
    for size in ("240x240", "320x240", "240x135", "128x64"):
        out = run(mpy, {"size": size, "do": [["layout_check", 3, 500]]}, tmp_path / size)
        lay = out["layout"]
        assert lay["errors"] == [], (size, lay["errors"])
        assert lay["positions"] > 500
        if size in ("240x240", "320x240"):
            assert lay["tall"] == 0, size            # everything fits without scrolling
        elif size == "240x135":                      # a table 44 rows high under the open ends' row:
            assert lay["tall"] * 100 <= lay["positions"], (size, lay)   # scrolls for 1 line in 100
        print(size, lay)


def test_long_goat_lines_never_touch_unjoined_tiles_on_any_frame(mpy, tmp_path):
    """A seeded 4-player Goat match through the app: every table frame shown is checked from the
    view's own geometry (tools/proofs/harness/geometry.py); its longest line has 20+ tiles."""
    for size in ("240x240", "320x240", "240x135", "128x64"):
        out = run(mpy, {"size": size, "seed": 2, "do": [
            ["geometry"], ["new", "goat", 4, ["human", "easy", "easy", "easy"]], ["match", 40]]},
            tmp_path / size)
        geo = out["geometry"]
        assert geo["errors"] == [], (size, geo)
        assert geo["frames"] > 100 and geo["most_tiles"] >= 20, (size, geo)
        print(size, geo)


def test_full_line_and_four_armed_spinner_fit(mpy, tmp_path):
    """All 28 tiles in one line (on one arm, and over both) and a spinner with four built arms:
    every colour screen shows them whole, without overlap (the open ends legible in their own row
    under the table, the older tiles as large as the room left allows: 8-pixel halves on
    240x240, whose hand of 24-pixel halves and the ends' row take 85 rows, 10 on 320x240, 5 on
    240x135, whose table is 44 rows high); the 128x64 OLED shows them on a scrolling table."""
    least = {"240x240": 8, "320x240": 10, "240x135": 5}
    for size in ("240x240", "320x240", "240x135", "128x64"):
        out = run(mpy, {"size": size, "do": [["extremes"]]}, tmp_path / size)
        for name, r in out["extremes"].items():
            assert r["tiles"] == 28 and r["error"] is None, (size, name, r)
            if size != "128x64":
                assert not r["tall"] and r["s"] >= least[size], (size, name, r)
        assert min(out["extremes"]["spinner_four_arms"]["arms"]) > 0


def test_thinking_wheel_turns_during_a_search(mpy, tmp_path):
    """The wheel turns once every _THINK_TICKS (4) of the AI's ticks, which come ~30 ms of search
    apart: ~8 turns per second of thinking. The AI's clock is the driver's (10 ms a reading), so the
    frames shown during the longest search of three moves are exact: 13 with a 1 s budget (the
    message area, with the open ends' row, and the wheel's first frame among them), 8 more with
    2 s."""
    frames_at = {}
    for think in (1000, 2000):
        out = run(mpy, {"seed": 12, "ai_ms_per_call": 10, "think": think,
                        "do": [["new", "fives", 2, ["human", "hard"]], ["match", 3]]}, tmp_path / str(think))
        frames_at[think] = out["think_frames"]
    assert frames_at == {1000: 13, 2000: 21}, frames_at


def _runs(ys):
    """Runs of consecutive rows in a set of rows: the text lines they belong to."""
    ys = sorted(ys)
    return sum(1 for i, y in enumerate(ys) if i == 0 or y != ys[i - 1] + 1)


def test_goat_sheet_shows_remembered_points_in_their_colour(mpy, tmp_path):
    """Goat's remembered "+N" points (a side that has not opened its account) are violet on the
    score sheet, and nothing else is but their legend ("+N remembered", once, under the sheet): in
    each side's column exactly one violet line per "+N" shown (the rounds' rows and the total's),
    each inside its right-aligned cells of the board's font."""
    for seed in range(1, 30):
        out = run(mpy, {"seed": seed, "do": [["new", "goat", 3, ["human", "easy", "easy"]],
                                             ["until", "RoundEnd"], ["keys", "a a"], ["state"],
                                             ["png", "sheet"]]}, tmp_path / str(seed))
        st = out["states"][0]
        assert st["screen"] == "RoundEnd" and st["page"] == 2, st
        n = len(st["scores"])
        shown = [[] for _ in range(n)]                # the "+N" texts of each side's column
        for row in st["sheet"].split(";"):
            for i, tok in enumerate(row.split(",")):
                if tok.startswith("+"):
                    shown[i].append(tok)
        for i in range(n):
            if not st["opened"][i] and st["remembered"][i]:
                shown[i].append("+%d" % st["remembered"][i])
        if not any(shown):
            continue                                  # no remembered points this deal
        w, h, px = frames.pixels(out["frames"]["sheet"])
        violet = [(x, y) for y, row in enumerate(px) for x, c in enumerate(row) if c == 12]  # REMEMBERED
        fcw = metrics(w, h)[0]                        # the font's cell
        lw = fcw * (5 if w // fcw >= 24 else 3) + 4   # ui/sheet.py draw_sheet's label column ("Total")
        legend = [(x, y) for x, y in violet if x < lw]    # the "+N remembered" line under the sheet
        top = min([y for _, y in legend] or [h])
        assert _runs(set(y for _, y in legend)) == 1, "the legend, once, left"
        violet = [(x, y) for x, y in violet if y < top]
        cw = (w - lw) // n                            # ui/sheet.py draw_sheet's columns
        for i in range(n):
            right = lw + (i + 1) * cw - 2             # where the column's texts end
            widest = fcw * max([len(tok) for tok in shown[i]] or [0])
            mine = [(x, y) for x, y in violet if lw + i * cw <= x < lw + (i + 1) * cw]
            assert all(right - widest <= x < right for x, _ in mine), (i, shown[i])
            assert _runs(set(y for _, y in mine)) == len(shown[i]), (i, shown[i], st["sheet"])
        assert all(x >= lw for x, _ in violet)        # none in the round numbers' column
        return
    pytest.fail("no round left remembered points in 30 deals")


def test_frame_draw_times(mpy, tmp_path, record_property):
    """Milliseconds per full table frame (layout placed again each time) on the unix port, with a
    spinner layout of 18+ tiles."""
    for size in ("240x240", "320x240", "240x135", "128x64"):
        out = run(mpy, {"size": size, "seed": 55, "do": [["new", "fives", 2, ["human", "easy"]],
                                                         ["settle"], ["bench", 50, 18]]}, tmp_path / size)
        b = out["bench"][0]
        assert b["screen"] == "Table" and b["tiles"] >= 10
        record_property("draw_ms_" + size, b)
        print(size, "table frame with %d tiles: avg %.2f ms, max %.2f ms" % (b["tiles"], b["avg_ms"],
                                                                            b["max_ms"]))
        assert b["max_ms"] < 200


def test_hard_ai_game_in_the_stress_heap(tmp_path, record_property):
    """The heaviest board (240x240, 4-bit colour) plays a whole match against the Hard AI inside the
    stress heap (frames.STRESS_HEAP) without a MemoryError, even a recovered one (the app would then
    play on lean: the Hard AI as Medium); the lowest free heap seen (after a collection, at every AI
    tick and every save) is recorded."""
    dst = str(tmp_path / "mpy")
    code, boards, arch = frames.build_mpy(dst)
    if not arch:
        pytest.skip("no mpy-cross for this host: the proof needs compiled code")
    out = frames.heap_game(code, boards, "fives", 2, ["human", "hard"], 250, frames.STRESS_HEAP,
                           fake_ms=10, root=str(tmp_path / "flash"))
    assert out.get("result") == "over", out["_log"][-2000:]
    assert out["errors"] == 0 and out["save_failures"] == 0 and out["ai_ticks"] > 50
    assert out["mem_errors"] == 0, out["_log"][-2000:]
    record_property("lowest_mem_free", out["lowest"])
    print("%s heap, 240x240, Hard AI: lowest gc.mem_free() after collect %d of %d bytes"
          % (frames.STRESS_HEAP, out["lowest"], out["heap"]))
    assert out["lowest"] > 4096
