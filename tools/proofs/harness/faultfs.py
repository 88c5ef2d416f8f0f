"""Fault injection: the real app (sim board, firmware as .mpy, MicroPython unix port) on a
filesystem that fails on purpose, and booted on data files replaced by what no firmware wrote. Run
by tools/proofs/faults.py (make soak-faults: every case) and host_tests/test_faults.py (a smoke set):

    MICROPYPATH=<code dir>:<board dir>:<this folder> UI_JOB='<json>' micropython -c "import faultfs"

The app reaches its files only through savegame.Files, which uses `board.fs` when a board has one:
here FaultFS, which passes every call to the real os and open and counts the operations (each open,
read, readline, line, write, rename, remove). A plan {"at": k, "err": e} makes operation k fail:
"EIO" or "MEM" (MemoryError) once, "ENOSPC" (writes and renames) or "EROFS" (writes, renames,
removes) from k on, as a full or read-only flash does.

Job "mode":
- "ops": for each plan in "plans" (none: the baseline, which lists every operation), play a session on a
  fresh flash: "play" (a new practice match through the New-game form, human moves, Save and quit, then
  Settings changed and Continue, more moves, Undo), or "finish" (boot on a finished match's save copied from
  "prep": its end pages, the statistics written, the save retired). Then the power goes and the app boots
  again on what is left, without faults. Checked: no error page and no exception out of the loop;
  every save the flash took holds the match in memory; "Game saved" only when
  game.txt holds the match on the table; the power-on resumes the newest save the flash took (else
  the menu, when no save was ever taken), its message one line; a finished match counted once (or
  the player told the statistics were not saved).
- "boot": {"cases": [{"root", "want", "alt"}]}: boot on each prepared folder (a data file replaced by
  an oversized, nested, mistyped, CRLF, directory or device variant): no error; the table with the
  record `want` (or `alt`, the backup, with a message), or the menu with a message when neither is
  given; then a second power-on must resume the same match with no new damage.
Prints one JSON line: cases, outcomes by kind, failures (the first 30), operations counted.
"""
import gc
import io
import json
import os


import powercut as pc
from keys import K_A, K_B, K_DOWN, K_RIGHT
from ui.app import App

ERRNO = {"EIO": 5, "ENOSPC": 28, "EROFS": 30}
STICKY = {"ENOSPC": ("write", "rename"), "EROFS": ("write", "rename", "remove")}
CODE = {"read": "R", "write": "W", "rename": "N", "remove": "D"}     # in the trace
KIND = {"R": "read", "W": "write", "N": "rename", "D": "remove"}
REAL_OPEN = open


class Injected(Exception):
    pass


class FaultFS:
    """os + open for the app's files, failing where the plan says; `trace` lists every operation."""

    def __init__(self, plan=None, trace=None):
        self.n = 0
        self.at = plan["at"] if plan else -1
        self.err = plan["err"] if plan else None
        self.fired = False
        self.on = True
        self.trace = trace
        self.commits = []        # game.txt as each rename into it left it

    def op(self, kind, path=""):
        if not self.on:
            return
        i = self.n
        self.n += 1
        if self.trace is not None:
            self.trace.append(CODE[kind] + path.rsplit("/", 1)[-1])
        fire = i == self.at
        if not fire and self.fired and kind in STICKY.get(self.err, ()):
            fire = True
        if fire:
            self.fired = True
            if self.err == "MEM":
                raise MemoryError("injected at op %d" % i)
            raise OSError(ERRNO[self.err])

    def stat(self, p):
        return os.stat(p)

    def mkdir(self, p):
        return os.mkdir(p)

    def rename(self, a, b):
        self.op("rename", b)
        os.rename(a, b)
        if b.endswith("/game.txt"):
            self.commits.append(pc.read(b))

    def remove(self, p):
        self.op("remove", p)
        os.remove(p)

    def rmdir(self, p):
        self.op("remove", p)
        os.rmdir(p)

    def open(self, p, mode="r"):
        w = "w" in mode or "a" in mode
        self.op("write" if w else "read", p)
        return File(self, REAL_OPEN(p, mode), "write" if w else "read")


class File:
    def __init__(self, fs, f, kind):
        self.fs = fs
        self.f = f
        self.kind = kind

    def __enter__(self):
        return self

    def __exit__(self, *a):
        self.f.close()

    def close(self):
        self.f.close()

    def write(self, s):
        self.fs.op("write")
        return self.f.write(s)

    def read(self, *a):
        self.fs.op("read")
        return self.f.read(*a)

    def readline(self, *a):
        self.fs.op("read")
        return self.f.readline(*a)

    def __iter__(self):
        return self

    def __next__(self):
        self.fs.op("read")
        ln = self.f.readline()
        if not ln:
            raise StopIteration
        return ln


# --- the app under the harness ----------------------------------------------------------------------
class Run:
    """One boot of the app on `root` (fs: a FaultFS or None), driven by key presses; on `b` (a
    simulated board: the plain 240x240 one by default) with the keys `held` held at power-on."""

    def __init__(self, case, root, fs=None, b=None, held=0):
        self.case = case
        self.root = root
        b = b or pc.board()
        b.fs = fs
        b.host_keys(held)
        self.b = b
        self.fs = fs
        try:
            self.app = App(b, root, ai_clock=pc.Clock())
        except MemoryError:          # as ui.app.run does on the device: once more, from a clean slate
            gc.collect()
            self.app = App(b, root, ai_clock=pc.Clock())
        b.host_keys(0)
        self.app.settings["anim"] = 0
        b.seed = 4242

    def screen(self):
        return type(self.app.screen).__name__

    def check(self):
        app = self.app
        if app.errors:
            raise Bad("error page: %r" % app.last_error)

    def step(self, keys=0):
        self.b.host_keys(keys)
        try:
            self.app.step()
        except Exception as e:       # App.step never raises: on the device this stops the game
            raise Bad("exception out of the loop: %r" % e)
        self.b.host_keys(0)
        self.check()

    def press(self, k):
        self.step(k)
        self.step()

    def pick(self, label):
        sc = self.app.screen
        rows = [r[0] for r in sc.rows()]
        if label not in rows:
            raise Bad("no row %s on %s: %r" % (label, self.screen(), rows))
        for _ in range(len(rows) + 1):
            if sc.sel == rows.index(label):
                break
            self.press(K_DOWN)
        self.press(K_A)

    def settle(self, limit=3000):
        """Step while the table runs by itself (AI moves, pauses): until a person is asked."""
        for _ in range(limit):
            t = self.app.table
            nm = self.screen()
            if nm == "Screen" or nm == "Table" and t is not None and t.mode in (0, 3):
                self.step()
                continue
            if nm == "Table" and t.mode == 1 and t.calm_until and t.now() - t.calm_until < 0:
                self.step()
                continue
            return nm
        raise Bad("the table never waits for a person")

    def moves(self, n):
        """n human moves (A on the tile the cursor is on; A again for its first end)."""
        done = 0
        for _ in range(200):
            if done >= n:
                return
            nm = self.settle()
            t = self.app.table
            if nm == "Table" and t.mode == 1:
                self.press(K_A)
                if self.app.table is not None and self.app.table.mode == 2:
                    self.press(K_A)
                done += 1
            elif nm == "Table" and t.mode == 4 or nm == "RoundEnd":
                self.press(K_A)
            else:
                return                   # a menu (Low memory ...), the end: the session goes on
        raise Bad("no human turn")

    def record(self):
        """The record of the match on the table (what its save must hold), or None."""
        t = self.app.table
        if t is None:
            return None
        from domino.record import dump
        g = t.game
        buf = io.StringIO()
        on = self.fs is not None and self.fs.on
        if self.fs is not None:
            self.fs.on = False
        try:
            dump(g.match, buf, g.extras())
        finally:
            if self.fs is not None:
                self.fs.on = on
        return buf.getvalue()


class Bad(Exception):
    pass


def moves_of(rec):
    """A record without the lines that are only shown (names, score sheet): those fall back to
    defaults when damaged, the match is kept."""
    if rec is None:
        return None
    return "\n".join([ln for ln in rec.split("\n") if not ln.startswith("names ") and
                      not ln.startswith("sheet ")])


def body(text):
    return None if text is None else pc.body(text)


def fits(msg):
    """A message the player sees: one line (the menu wraps it into 2 x 16, the table shows 22)."""
    if not msg:
        return True
    from ui.widgets import wrap
    return len(wrap(msg, 16)) <= 2 and "\n" not in msg


# --- "ops" ------------------------------------------------------------------------------------------
def play_session(r, out):
    """New practice match, moves, Save and quit (checked), Settings, Continue, moves, Undo (your
    last move and the AI's answer: the whole record written again)."""
    app = r.app
    app.settings["last"] = {"variant": "draw", "players": 2, "seats": ["human", "easy"]}
    if r.screen() != "MainMenu":
        raise Bad("boot on an empty flash: %s" % r.screen())
    r.pick("New game")
    r.pick("Practice")
    r.pick("Start game")
    r.moves(4)
    if app.table is None or r.screen() != "Table":
        return
    want = r.record()
    r.press(K_B)
    r.settle()
    if r.screen() != "Pause":
        return
    r.pick("Save and quit")
    note = getattr(app.screen, "note", None)
    if r.screen() == "MainMenu" and note == "Game saved":
        out["said_saved"] += 1
        if body(pc.read(r.root + "/game.txt")) != want:
            raise Bad("'Game saved' but game.txt does not hold the match")
        r.pick("Settings")
        r.press(K_RIGHT)
        r.press(K_B)
        if r.screen() == "MainMenu" and "Continue" in [x[0] for x in app.screen.rows()]:
            r.pick("Continue")
            r.settle()
            t = app.table
            if t is not None and "move back" in t.msg:
                raise Bad("Continue after 'Game saved' went back: %r" % t.msg)
    elif r.screen() == "Message":
        out["said_not_saved"] += 1
        r.press(K_A)                     # back to the game menu
        if r.screen() == "Pause":
            r.pick("Resume")
    elif r.screen() == "MainMenu":
        raise Bad("Save and quit went to the menu saying %r" % note)
    r.moves(3)
    if r.settle() != "Table" or app.table.mode != 1:
        return
    r.press(K_B)
    r.settle()
    if r.screen() != "Pause":
        return
    undo = [x[0] for x in app.screen.rows() if x[0].startswith("Undo ")]
    if undo:
        r.pick(undo[0])
        r.settle()
        if app.table is not None and app.table.msg.startswith("Undone: "):
            out["undone"] += 1


def finish_session(r, out):
    """A finished match's save: the end pages, the statistics, the save retired."""
    for _ in range(40):
        nm = r.settle()
        if nm == "MainMenu":
            return
        if nm in ("RoundEnd", "Message") or nm == "Table" and r.app.table.mode == 4:
            r.press(K_A)
        elif nm == "Table" and r.app.table.mode == 1:
            r.moves(1)
        else:
            raise Bad("stuck on %s" % nm)
    raise Bad("the match end never reaches the menu")


def commits_ok(r, fs, seen):
    """Every save the flash took (a rename into game.txt) holds a match the app had: checked as it
    happens through the table's record at the next step (cheap) and at the end here."""
    for text in fs.commits[seen:]:
        if text is None or not text.startswith(b"DOMINO 1\n"):
            raise Bad("a save the flash took is not a record")
    return len(fs.commits)


def ops_case(job, plan, out):
    root = job["root"] + "/case"
    pc.clean(root)
    pc.mkdir(root)
    for name in job.get("prep", {}):
        pc.write(root + "/" + name, job["prep"][name].encode())
    trace = [] if plan is None else None
    fs = FaultFS(plan, trace)
    session = job.get("session", "play")
    r = None
    try:
        r = Run(job, root, fs)
        watch_saves(r, fs)
        if session == "play":
            play_session(r, out)
        else:
            finish_session(r, out)
        commits_ok(r, fs, 0)
        last = last_good(r, fs)
        mem = r.app.mem_errors
        stats_note = getattr(r.app.screen, "note", None)
    except Bad as e:
        return "FAILED during the session: %s" % e, trace
    finally:
        fs.on = False
        r = None
        gc.collect()
    # the power goes; the app boots again on what is left, no faults
    try:
        r2 = Run(job, root, None)
        got = power_on(r2, job, session, last, stats_note)
        r2 = None
    except Bad as e:
        return "FAILED at the power-on: %s" % e, trace
    gc.collect()
    return got + (" (lean after a MemoryError)" if mem else ""), trace


def watch_saves(r, fs):
    """Each rename into game.txt: the file must hold the match the table has at that moment."""
    real = fs.rename
    fs.bad_commit = None

    def rename(a, b):
        real(a, b)
        if b.endswith("/game.txt") and a.endswith(".tmp") and fs.bad_commit is None:
            want = r.record()
            if want is not None and body(fs.commits[-1]) != want:
                fs.bad_commit = "save %d holds another match than the table's" % len(fs.commits)
    fs.rename = rename


def last_good(r, fs):
    if fs.bad_commit:
        raise Bad(fs.bad_commit)
    return body(fs.commits[-1]) if fs.commits else None


def power_on(r, job, session, last, stats_note):
    app = r.app
    nm = r.screen()
    t = app.table
    msg = t.msg if t is not None else getattr(app.screen, "note", None)
    if not fits(msg):
        raise Bad("message does not fit: %r" % msg)
    if session == "finish":
        return finish_power_on(r, job, stats_note)
    if t is not None:
        rec = r.record()
        if last is None:
            raise Bad("resumed a match no save holds")
        if rec != last:
            raise Bad("resumed another match than the last save the flash took")
        return "resumed the last save" + (": " + msg if msg else "")
    if last is not None and pc.read(r.root + "/game.txt") is not None:
        raise Bad("%s instead of the saved game" % nm)
    if last is not None:
        raise Bad("the last save is lost (%s)" % nm)
    return "clean start" + (": " + msg if msg else "")


def finish_power_on(r, job, stats_note):
    """The finished match is counted exactly once (or the player was told the statistics were not
    saved), whatever was left."""
    finish_session(r, {})
    st = r.app.store()
    stats, _ = st.load_stats()
    row = stats.get(job["vid"])
    before = job["played"]
    played = row[0] if row else 0
    if played == before + 1:
        return "counted once" + (": " + stats_note if stats_note and stats_note != "Game saved" else "")
    if played == before and stats_note and "stats unsaved" in stats_note:
        return "not counted, said: " + stats_note
    raise Bad("played %d, was %d (note %r)" % (played, before, stats_note))


def run_ops(job):
    out = {"said_saved": 0, "said_not_saved": 0, "undone": 0}
    kinds = {}
    failures = []
    base, trace = ops_case(job, None, out)
    if base.startswith("FAILED"):
        return {"failures": ["baseline " + base], "cases": 1, "kinds": {}, "ops": trace}
    plans = job.get("plans")
    if plans is None:                    # every operation with every fault it can meet
        plans = []
        for i, op in enumerate(trace):
            for e in ("EIO", "MEM", "ENOSPC", "EROFS"):
                if e in ("EIO", "MEM") or KIND[op[0]] in STICKY[e]:
                    plans.append({"at": i, "err": e})
        stride = job.get("stride", 1)
        plans = plans[job.get("offset", 0)::stride]
    for plan in plans:
        got, _ = ops_case(job, plan, out)
        if job.get("verbose"):
            print(plan["err"], plan["at"], trace[plan["at"]], "->", got)
        if got.startswith("FAILED"):
            if len(failures) < 30:
                failures.append("%s at op %d (%s): %s" % (plan["err"], plan["at"], trace[plan["at"]], got))
            got = "FAILED"
        k = kinds.setdefault(plan["err"], {})
        k[got] = k.get(got, 0) + 1
    return {"cases": len(plans), "kinds": kinds, "failures": failures, "ops": len(trace),
            "op_kinds": op_kinds(trace), "baseline": base, "said_saved": out["said_saved"],
            "said_not_saved": out["said_not_saved"], "undone": out["undone"]}


def op_kinds(trace):
    n = {}
    for op in trace:
        k = KIND[op[0]]
        n[k] = n.get(k, 0) + 1
    return n


# --- "boot" -----------------------------------------------------------------------------------------
def boot_case(c):
    root = c["root"]
    r = Run(c, root, None)
    nm = r.screen()
    app = r.app
    t = app.table
    msg = t.msg if t is not None else getattr(app.screen, "note", None)
    rec = moves_of(r.record())
    if not fits(msg):
        raise Bad("message does not fit: %r" % msg)
    want = moves_of(c.get("want"))
    alt = moves_of(c.get("alt"))
    if t is not None:
        if rec == want:
            got = "resumed the save" + (": " + msg if msg else "")
        elif rec == alt and msg:
            got = "resumed the backup: " + msg
        else:
            raise Bad("resumed a match that is neither the save nor the backup (message %r)" % msg)
    elif want is None and alt is None:
        got = "clean start" + (": " + msg if msg else "")
    else:
        raise Bad("%s, message %r: the saved game is not resumed" % (nm, msg))
    for _ in range(3):
        r.step()
    rec = r.record()
    r = t = app = None
    gc.collect()
    r2 = Run(c, root, None)                      # and again: the damage is behind it
    t2 = r2.app.table
    if r2.record() != rec:
        raise Bad("the second power-on does not resume what the first did")
    if t2 is not None and t2.msg:
        raise Bad("the second power-on still finds damage: %r" % t2.msg)
    r2 = t2 = None
    return got


def run_boot(job):
    kinds = {}
    failures = []
    for c in job["cases"]:
        try:
            got = boot_case(c)
        except Bad as e:
            got = "FAILED"
            if len(failures) < 30:
                failures.append("%s: %s" % (c.get("label", c["root"]), e))
        except Exception as e:           # the harness itself, or the App's constructor
            got = "FAILED"
            if len(failures) < 30:
                failures.append("%s: crash %r" % (c.get("label", c["root"]), e))
        g = kinds.setdefault(c.get("group", "?"), {})
        g[got] = g.get(got, 0) + 1
        if job.get("verbose"):
            print(c.get("label"), "->", got)
        gc.collect()
    return {"cases": len(job["cases"]), "kinds": kinds, "failures": failures}


def main():
    job = json.loads(os.getenv("UI_JOB"))
    if job.get("mode") == "ops":
        out = run_ops(job)
    else:
        out = run_boot(job)
    print(json.dumps(out))


if __name__ == "__main__":
    main()
