"""The monkey test and the device-path soak: random button presses through the real App under the
MicroPython unix port (a child with the handheld), at the heap the proof asks for.

Imported by a one-line launcher with the firmware compiled to .mpy (tools/proofs/monkey.py does
this), so the heap holds what the device holds plus this file, invariants.py and privacy.py. Env:
MICROPYPATH (the firmware, the folder holding boards/, this folder or its compiled copy), UI_ROOT
(the save directory: saves are real, a later run on it resumes them), and
UI_JOB = "mode seed count size profile ms_per_ai_clock_reading [keys_held_at_boot]".

mode "monkey": `count` random presses: single keys, repeats, long presses, chords, all buttons at
  once, presses while an AI thinks (the key lines read random states on the AI's ticks), steering
  through the New-game form with random choices now and then (variants, player counts, teams,
  options, seats: all AI, one human, pass-and-play with 2-4 humans), wandering into settings,
  statistics, help and the game menu. After every move, draw and pass the engine's invariants
  (invariants.py) are checked; every frame shown while the hands are face down is checked for tile
  pixels (privacy.py).
mode "soak": `count` complete all-AI matches started from the New-game form (random variant,
  players, teams, options, levels); after each, back at the main menu, gc.collect() and the free
  heap is printed: `game <i> <mem_free> <variant> <players> <seats>`.

Prints `key value` lines at the end; `result ok` when the run got through. `boot_alloc` (the heap
in use once the app has booted under the harness) lets tools/proofs/monkey.py weigh what the harness
itself holds and give it back, so the firmware has the heap it would have alone.
"""
import gc
import os
import sys

JOB = (os.getenv("UI_JOB") or "monkey 1 0 240x240 sim 10").split()
MODE = JOB[0]
COUNT = int(JOB[2])

import boards.sim as sim  # noqa: E402
from keys import K_DOWN, K_RIGHT, K_A  # noqa: E402
from ui.app import App  # noqa: E402
from domino.rules import VARIANTS, FAM_POINTS  # noqa: E402
import domino.match as dmatch  # noqa: E402
import invariants as inv  # noqa: E402
import privacy  # noqa: E402
from rand import Rand  # noqa: E402

KINDS = ("human", "easy", "medium", "hard")
# single presses: key bit numbers, as often as a child presses them (A most, the joystick press least)
PICK = b"\x04" * 30 + b"\x00" * 12 + b"\x01" * 12 + b"\x02" * 10 + b"\x03" * 10 + b"\x05" * 8 + \
    b"\x06" * 6 + b"\x07" * 6 + b"\x08" * 2
ALL_KEYS = 0x1FF
FIXED_ROWS = ("Variant", "Players", "Teams", "Deal", "Start game")

C = {}
for _k in ("presses", "steps", "moves", "draws_passes", "rounds", "setups", "started", "resumed",
           "finished", "curtain_frames", "hidden_frames", "menu_frames", "privacy_bad", "inv_fail",
           "think_polls", "think_keys", "ai_problems", "boot_keys", "crashes", "oom_calls",
           "error_pages_oom", "boot_retries", "cut_short", "privacy_holder", "handoffs"):
    C[_k] = 0
NOTES = {}                       # first failure of each kind: what and where
WHERE = {}                       # exceptions by kind, screen and place: how many


low = [1 << 30]                  # lowest gc.mem_free() after a collection (app.probe)


class Crash(Exception):
    """An exception escaped App.step (which never raises): on the device the program would stop."""


R = Rand((int(JOB[1]) * 2654435761 + 12345) & 0xFFFFFFFF)   # spread nearby seeds apart
fake_ms = int(JOB[5])
now = [0]


def fake_clock():
    """The AI's clock: `fake_ms` per reading, so a search does the same work on every run."""
    now[0] += fake_ms
    return now[0]


def note(kind, text):
    if kind not in NOTES:
        sc = app.screen if app is not None else None
        NOTES[kind] = "press %d on %s: %s" % (C["presses"], type(sc).__name__, text)


def tally(kind, e, screen):
    """Count an exception by kind, screen and the innermost place it came from ('ui/gfx.py in
    __init__'): the report's `where` lines."""
    at = "?"
    try:
        import io
        buf = io.StringIO()
        sys.print_exception(e, buf)
        for ln in buf.getvalue().split("\n"):
            if ln.startswith("  File "):
                at = ln[8:].replace('", line 1,', "").replace('"', "")
        buf = None
    except MemoryError:
        pass
    key = "%s %s: %s at %s" % (kind, screen, type(e).__name__, at)
    if key in WHERE or len(WHERE) < 40:
        WHERE[key] = WHERE.get(key, 0) + 1


# --- the engine's invariants after every move, draw, pass, deal and round end ----------------------
M = dmatch.Match
_play = M.play
_forced = M.forced
_start = M.start_round
_finish = M.finish_round


def h_play(m, mv):
    rd = m.round
    try:
        inv.before_play(rd, mv)
    except AssertionError as e:
        C["inv_fail"] += 1
        note("invariant", "before move %d: %s" % (mv, e))
    _play(m, mv)
    C["moves"] += 1
    try:
        inv.after_play(rd)
        inv.check_round(rd)
    except AssertionError as e:
        C["inv_fail"] += 1
        note("invariant", "after move %d: %s" % (mv, e))


def h_forced(m):
    rd = m.round
    s = rd.turn
    had = rd.hands[s]
    try:
        inv.before_forced(rd)
    except AssertionError as e:
        C["inv_fail"] += 1
        note("invariant", "before draw/pass: %s" % e)
    ev = _forced(m)
    C["draws_passes"] += 1
    try:
        inv.after_forced(rd, s, had, ev)
        inv.check_round(rd)
    except AssertionError as e:
        C["inv_fail"] += 1
        note("invariant", "after draw/pass: %s" % e)
    return ev


def h_start(m, *a):
    _start(m, *a)
    try:
        inv.check_round(m.round)
    except AssertionError as e:
        C["inv_fail"] += 1
        note("invariant", "after the deal: %s" % e)


def h_finish(m):
    before = m.scores[:]
    was_over = m.over
    _finish(m)
    C["rounds"] += 1
    r = m.rules
    try:
        if r.family == FAM_POINTS:
            inv.check_points_round(m, m.round, before)
            if m.over:
                top = max(m.scores[:r.sides])
                assert top >= r.target and m.scores[m.winner] == top, "match over below the target"
    except AssertionError as e:
        C["inv_fail"] += 1
        note("invariant", "round end: %s" % e)
    if m.over and not was_over:
        C["finished"] += 1


board = None
app = None
holder = privacy.Holder()        # who holds the device, from the keys alone
mash = [0]         # presses while an AI thinks: 0 none, 1 any key but B/Y, 2 any key (see read)
REAL = {}          # the app's and board's own functions the harness wraps


def probe(what):
    """app.probe: every AI tick and every save, the live heap at its fullest."""
    gc.collect()
    f = gc.mem_free()
    if f < low[0]:
        low[0] = f


def start(match, kinds, names, sheet="", note_=None, fresh=False, *more):
    if fresh:
        C["started"] += 1
    REAL["start"](match, kinds, names, sheet, note_, fresh, *more)


def resume(note_=None):
    C["resumed"] += 1
    REAL["resume"](note_)


def fail(e):
    sc = name(app.screen)
    if isinstance(e, MemoryError):
        C["error_pages_oom"] += 1
    note("error", repr(e))
    REAL["fail"](e)
    tally("error", e, sc)


def out_of_memory(e):
    sc = name(app.screen)
    C["oom_calls"] += 1
    note("memory", repr(e))
    REAL["out_of_memory"](e)
    tally("memory", e, sc)


def read():
    """The key lines: on each AI tick while an AI thinks, a random state (mash[0]); the documented
    effect of B/Y then is the game menu once the move is made, of any other key none. Every state
    read goes to the privacy check's idea of who holds the device (privacy.Holder)."""
    k = _read()
    holder.read(app, board.ticks_ms(), k)
    return k


def _read():
    t = app.table
    if t is not None and t.thinking != 255 and app.screen is t:
        C["think_polls"] += 1
        if mash[0] and R.below(2):
            k = R.below(512) if R.below(8) else ALL_KEYS
            if mash[0] == 1:
                k &= ~0xA0
            if k:
                C["think_keys"] += 1
            return k
        return 0
    return REAL["_read"]()


def show(y0=0, y1=0x7FFF, more=False):
    """Every frame shown while the hands are face down: no tile pixels (privacy.py; each band of a
    banded board as it is shown, the frame counted at its last band)."""
    if MODE == "monkey":
        kind, bad = privacy.check(app, board, y0, y1)
        if privacy.last_band(board):
            if kind == 1:
                C["curtain_frames"] += 1
            elif kind == 2:
                C["hidden_frames"] += 1
            elif kind == 3:
                C["menu_frames"] += 1
        if bad:
            C["privacy_bad"] += bad
            note("privacy", "kind %d, %d bytes" % (kind, bad))
        if privacy.last_band(board) and holder.frame(app, board.ticks_ms()):
            C["privacy_holder"] += 1
            note("holder", "seat %d's hand shown while seat %d holds the device" % (app.table.shown,
                                                                                   holder.seat))
    REAL["show"](y0, y1, more)


# --- keys ------------------------------------------------------------------------------------------
def step(n=1):
    for _ in range(n):
        sc = name(app.screen)
        try:
            app.step()
        except Exception as e:               # App.step never raises: on the device this stops it
            C["crashes"] += 1
            note("crash", repr(e))
            tally("crash", e, sc)
            raise Crash()
        C["steps"] += 1
        brain = sys.modules.get("ui.brain")
        if brain is not None and brain.problem is not None:
            C["ai_problems"] += 1
            note("ai", brain.problem)
            brain.problem = None


def hold(keys, n=1):
    """Keys down for n loop passes, then up: one press (a chord is one press of several keys)."""
    C["presses"] += 1
    board.host_keys(keys)
    step(n)
    board.host_keys(0)
    step()


def rand_key():
    return 1 << PICK[R.below(len(PICK))]


def name(sc):
    return type(sc).__name__


def goto(sc, label):
    for _ in range(40):
        if app.screen is not sc:
            return False
        if sc.rows()[sc.sel][0] == label:
            return True
        hold(K_DOWN)
    return False


def turn_to(sc, label, get, want):
    """RIGHT on the row until get(sc) == want (the values wrap: at most 16 presses)."""
    if not goto(sc, label):
        return
    for _ in range(16):
        if app.screen is not sc or get(sc) == want:
            return
        hold(K_RIGHT)


def set_up(sc, all_ai):
    """Fill the New-game form with key presses: random variant, players, teams, seats (all AI, one
    human, or pass-and-play with 2-4 humans), options; then Start game."""
    C["setups"] += 1
    vi = R.below(len(VARIANTS))
    row = VARIANTS[vi]
    turn_to(sc, "Variant", lambda s: s.vi, vi)
    n = row[2] + R.below(row[3] - row[2] + 1)
    turn_to(sc, "Players", lambda s: s.players, n)
    if app.screen is not sc:
        return
    if row[4] and n == 4 and R.below(2) and goto(sc, "Teams"):
        hold(K_A)
    shape = 0 if all_ai else R.below(8)  # 0-1 all AI, 2-3 one human, else 2..n humans
    humans = 0 if shape < 2 else (1 if shape < 4 else 2 + R.below(n - 1))
    for s in range(n):
        want = "human" if s < humans else KINDS[1 + R.below(3)]
        turn_to(sc, "Seat " + str(s + 1), lambda x, s=s: x.kinds[s], want)
    if app.screen is not sc:
        return
    for label in [r[0] for r in sc.rows()]:
        if label not in FIXED_ROWS and not label.startswith("Seat") and R.below(2):
            if goto(sc, label):
                for _ in range(1 + R.below(2)):
                    hold(K_RIGHT)
    if goto(sc, "Start game"):
        hold(K_A)


def random_action():
    r = R.below(100)
    if r < 50:
        hold(rand_key())
    elif r < 58:
        step(1 + R.below(30))                # a pause: the table and the AI go on
    elif r < 68:
        k = rand_key()                       # the same key again and again
        for _ in range(2 + R.below(5)):
            hold(k)
    elif r < 76:
        hold(rand_key(), 30 + R.below(40))   # a long press (repeats on the directions)
    elif r < 90:
        k = 0
        for _ in range(2 + R.below(3)):      # a chord of 2-4 keys
            k |= rand_key()
        hold(k, 1 + R.below(6))
    else:
        hold(ALL_KEYS, 1 + R.below(40))      # every button at once


def monkey():
    seen = 0                                 # id() of the last form or menu seen (holding the screen
    while C["presses"] < COUNT:              # itself would keep its module's code on the heap)
        sc = app.screen
        nm = name(sc)
        t = app.table
        if t is not None and t.thinking == 255:
            mash[0] = R.below(3)             # for the next AI turn
        if nm in ("NewGame", "MainMenu") and id(sc) != seen:
            seen = id(sc)
            if nm == "NewGame" and R.below(4):
                set_up(sc, False)
                continue
            if nm == "MainMenu" and R.below(3) == 0 and goto(sc, "New game"):
                hold(K_A)
                continue
        if nm == "Curtain" and R.below(3) == 0:
            C["handoffs"] += 1               # the device passes to the next player, who presses A
            step(32 + R.below(30))
            hold(K_A)
            continue
        sc = t = None
        board.seed = R.below(1 << 30)        # the next new game's deal: the run replays from its seed
        random_action()


def to_menu(g):
    """Let an all-AI match play out (A on the round-end pages) until the main menu is back."""
    for _ in range(400000):
        nm = name(app.screen)
        if nm == "MainMenu":
            return True
        if nm == "RoundEnd" or nm == "Message":
            hold(K_A)                        # (the error page: counted, on to the menu)
        elif nm in ("Table", "Screen"):
            step()
        else:
            note("soak", "game %d stuck on %s" % (g, nm))
            return False
    note("soak", "game %d does not end" % g)
    return False


def soak():
    g = 0
    tries = 0
    while g < COUNT:
        if not to_menu(g):                   # (a boot may have gone back into a saved match)
            return
        sc = app.screen
        if not goto(sc, "New game"):
            note("soak", "no New game row before game %d" % g)
            return
        board.seed = R.below(1 << 30)
        hold(K_A)
        sc = app.screen
        if name(sc) != "NewGame":
            note("soak", "no New game form")
            return
        set_up(sc, True)
        for _ in range(50):                  # (a MemoryError on the way restarts the table)
            if app.table is not None:
                break
            step()
        if app.table is None:                # an error page instead: counted; try again
            tries += 1
            note("nostart", "game %d did not start: %s" % (g, getattr(app.screen, "note", "")))
            if tries > 20:
                note("soak", "games do not start")
                return
            continue
        m = app.table.game.match
        desc = "%s %d %s" % (m.rules.vid, m.rules.players, ",".join(app.table.game.kinds))
        m = sc = None
        done = C["finished"]
        if not to_menu(g):
            return
        if C["finished"] == done:            # an error page cut the match short: not counted
            tries += 1
            C["cut_short"] += 1
            note("cutshort", "game %d did not finish" % g)
            if tries > 20:
                note("soak", "matches do not finish")
                return
            continue
        gc.collect()
        print("game", g, gc.mem_free(), desc)
        g += 1


def wrap(obj, attr, fn):
    REAL[attr] = getattr(obj, attr)
    setattr(obj, attr, fn)


def run():
    """Boot the app on the sim board (keys held at boot if the job says so), hook it, go."""
    global board, app
    M.play = h_play
    M.forced = h_forced
    M.start_round = h_start
    M.finish_round = h_finish
    board = sim.build(profile=JOB[4], size=JOB[3], virtual=True)
    privacy.ready(board)
    boot_keys = int(JOB[6]) if len(JOB) > 6 else 0
    if boot_keys:
        board.host_keys(boot_keys)       # held while the app boots (and a moment after)
        C["boot_keys"] = boot_keys
    root = os.getenv("UI_ROOT") or "/tmp/ui_monkey"
    try:                                 # warm: the boot warm-up this 180K 64-bit heap needs
        app = App(board, root, fake_clock if fake_ms else None, True)
    except MemoryError as e:             # as ui.app.run does: once more, from a clean slate
        C["boot_retries"] += 1
        note("boot", repr(e))
        tally("boot", e, "boot")
        e = None
        gc.collect()
        try:
            app = App(board, root, fake_clock if fake_ms else None, True)
        except MemoryError as e2:        # on the device: stopped at boot (B held is the way out)
            C["crashes"] += 1
            note("crash", "at boot: " + repr(e2))
            tally("crash", e2, "boot")
            report()
            return
    app.settings["anim"] = R.below(4) if MODE == "monkey" else 0
    app.settings["think"] = 250
    app.settings.pop("seed", None)       # deals from board.seed, drawn from the run's seed
    app.probe = probe
    app.low_mem = 1 << 30                # the app's own lowest free heap between steps, watched
    board.seed = R.below(1 << 30)
    wrap(app, "start", start)
    wrap(app, "resume", resume)
    wrap(app, "fail", fail)
    if hasattr(app, "out_of_memory"):
        wrap(app, "out_of_memory", out_of_memory)
    wrap(app.inp, "_read", read)
    wrap(board, "show", show)
    gc.collect()
    print("boot_alloc", gc.mem_alloc())  # tools/proofs/monkey.py weighs the harness with these
    print("boot_free", gc.mem_free())
    if boot_keys:
        step(1 + R.below(10))
        board.host_keys(0)
        step()
    try:
        if MODE == "soak":
            soak()
        else:
            monkey()
    except Crash:
        pass
    report()


def report():
    for k in C:
        print(k, C[k])
    for k in NOTES:
        print("note_" + k, NOTES[k])
    for k in WHERE:
        print("where", WHERE[k], k)
    print("result", "crashed" if C["crashes"] else ("ok" if "soak" not in NOTES else "stopped"))
    if app is None:
        return
    print("errors", app.errors)
    print("mem_errors", getattr(app, "mem_errors", 0))
    print("save_failures", app.save_failures)
    gc.collect()
    print("heap", gc.mem_free() + gc.mem_alloc())
    print("lowest", low[0])
    print("raw", app.low_mem)
    print("screen", name(app.screen))
