"""Boot the real app (sim board, firmware as .mpy) on damaged flash contents, many times in one
MicroPython process, and say what each boot did. Run by host_tests/test_powercut.py,
host_tests/test_store_messages.py and tools/proofs/powercut.py (make soak-powercut):

    MICROPYPATH=<code dir>:<board dir>:<this folder> UI_JOB='<json>' micropython -c "import powercut"

Job "mode":
- "boot": {"cases": [{"root": dir, "hold": "b"?, "profile": ..., "size": ...}]}: boot the app on
  each folder as the test left it; print per case the screen, the message shown (the table's
  message line or the menu's note), the menu rows, the errors caught and the files left.
- "wrap": {"texts": [...], "cols": n}: each text as the menus wrap a note (ui.widgets.wrap).
- "proof": play a seeded game through the real UI (a human pressing A, an Easy AI) over a few moves
  and rounds, keeping the text of every save it makes; then cut game.txt, game.txt.tmp and game.bak
  at every `stride`-th byte and flip every `flip_stride`-th byte with each of `flips`, and the same
  for settings.json and stats.json. Each case writes the files afresh and boots a new App; it must
  catch no error, and either resume a match whose record is one that was saved (the table) or stop
  at the menu with a message (or, for settings/statistics, read the very values saved or the
  defaults with a message). Prints the figures: cases, outcomes by kind, seconds, the first failures.
"""
import gc
import os
import sys
import time


import json
import boards.sim as sim
from keys import K_A, K_B
from ui.app import App

FILES = ("game.txt", "game.bak", "game.txt.tmp", "game.txt.bad", "game.bak.bad", "settings.json",
         "settings.json.bad", "settings.json.tmp", "stats.json", "stats.json.bad", "stats.json.tmp")
BOARDS = {}


def board(profile="sim", size="240x240"):
    key = profile + size
    if key not in BOARDS:
        BOARDS[key] = sim.build(profile=profile, size=size, virtual=True)
    return BOARDS[key]


class Clock:
    """The AI's clock: 10 ms per reading, so a search is short and the same on every run."""

    def __init__(self):
        self.t = 0

    def __call__(self):
        self.t += 10
        return self.t


def boot(root, hold=0, profile="sim", size="240x240"):
    b = board(profile, size)
    b.host_keys(hold)
    app = App(b, root, ai_clock=Clock())
    b.host_keys(0)
    return app


def shown(app):
    """(screen name, the message on it)."""
    sc = app.screen
    name = type(sc).__name__
    if name == "Table" or name == "Curtain":
        return name, app.table.msg if app.table is not None else None
    return name, getattr(sc, "note", None)


def listing(root):
    out = {}
    for f in FILES:
        try:
            out[f] = os.stat(root + "/" + f)[6]
        except OSError:
            pass
    return out


def read(path):
    try:
        with open(path, "rb") as f:
            return f.read()
    except OSError:
        return None


def write(path, data):
    with open(path, "wb") as f:
        f.write(data)


def clean(root):
    for f in FILES:
        try:
            os.remove(root + "/" + f)
        except OSError:
            pass


def mkdir(path):
    try:
        os.mkdir(path)
    except OSError:
        pass


def body(text):
    """A save without its checksum line (what domino.record.dump writes for the match)."""
    if isinstance(text, bytes):
        text = text.decode()
    return text[:text.rfind("sum ")]


# --- "boot": one boot per folder the test prepared --------------------------------------------------
def boot_cases(job):
    out = []
    for c in job["cases"]:
        hold = K_B if c.get("hold") == "b" else 0
        try:
            app = boot(c["root"], hold, c.get("profile", "sim"), c.get("size", "240x240"))
        except Exception as e:       # the device would stop here (a MemoryError: after one retry)
            app = None
            gc.collect()
            out.append({"screen": None, "msg": None, "errors": 0, "errors_after": 0, "crash": repr(e),
                        "files": listing(c["root"])})
            continue
        name, msg = shown(app)
        r = {"screen": name, "msg": msg, "errors": app.errors, "files": listing(c["root"]),
             "bright": app.settings["bright"]}
        if app.last_error is not None:
            r["last_error"] = repr(app.last_error)
        sc = app.screen
        if hasattr(sc, "rows"):
            r["rows"] = [row[0] for row in sc.rows()]
        if app.table is not None:
            m = app.table.game.match
            r["round_no"] = m.round_no
            r["moves_played"] = m.round.moves_played
        for _ in range(3):               # the first frames draw (and an AI may move): no error
            app.step()
        r["errors_after"] = app.errors
        out.append(r)
        app = sc = None
        brain = sys.modules.get("ui.brain")      # it points at the last table's app: let it go (on
        if brain is not None:                    # the device, one boot is one process)
            brain.make_room = None
        brain = None
        gc.collect()
    return out


# --- "proof" ----------------------------------------------------------------------------------------
def play(root, job, saved):
    """A seeded match through the real UI until `moves` moves into round `rounds`; every save's text
    goes into `saved` (game.txt after each loop pass: one save per pass at most, checked by game.bak
    always being a save seen before). Returns the app."""
    from domino.rules import Rules
    from domino.match import Match
    clean(root)
    app = boot(root)
    app.settings["anim"] = 0
    m = Match(Rules(job.get("variant", "draw"), 2), job.get("seed", 7))
    m.start_round()
    app.start(m, ["human", "easy"], ["You", "Ann"], "", None, True)
    m = None
    b = board()

    def seen(what="save"):
        if what != "save":
            return
        text = read(root + "/game.txt")
        if text is not None and (not saved or text != saved[-1]):
            saved.append(text)
            bak = read(root + "/game.bak")
            if bak is not None and bak not in saved:
                raise RuntimeError("a save was missed: game.bak is none of the saves seen")

    def step(keys=0):
        b.host_keys(keys)
        app.step()
        b.host_keys(0)
        seen()
        if app.errors:
            raise RuntimeError("error while playing: %r" % app.last_error)
    from ui import nav
    nav.begin(app)                   # the new match on the table and its first save
    seen()
    cls = type(app.table)            # every save after it (a loop pass may save twice: the next
    real_save = cls.save             # round's deal, then the AI's lead)

    def save(t, token=None):
        real_save(t, token)
        seen()
    cls.save = save
    for _ in range(20000):
        step()
        t = app.table
        sc = type(app.screen).__name__
        if t is not None and sc == "Table" and t.mode in (1, 2):
            mt = t.game.match
            if mt.round_no >= job.get("rounds", 2) and mt.round.moves_played >= job.get("moves", 4):
                cls.save = real_save
                return app
            if t.mode == 1 and t.calm_until and t.now() - t.calm_until < 0:
                continue
            step(K_A)
        elif sc in ("RoundEnd", "Curtain"):
            step(K_A)
    raise RuntimeError("the match did not get there")


def next_save(app, root):
    """Play on until the next save: its text (what a power cut leaves half-written in the .tmp)."""
    before = read(root + "/game.txt")
    b = board()
    for _ in range(2000):
        t = app.table
        if t is not None and type(app.screen).__name__ == "Table" and t.mode in (1, 2):
            if not (t.mode == 1 and t.calm_until and t.now() - t.calm_until < 0):
                b.host_keys(K_A)
        app.step()
        b.host_keys(0)
        text = read(root + "/game.txt")
        if text != before:
            return text
    raise RuntimeError("no next save")


class Proof:
    def __init__(self, job):
        self.job = job
        self.root = job["root"] + "/case"
        mkdir(job["root"])
        mkdir(self.root)
        self.cases = 0
        self.kinds = {}
        self.failures = []

    def outcome(self, group, kind):
        g = self.kinds.setdefault(group, {})
        g[kind] = g.get(kind, 0) + 1

    def fail(self, group, what, why):
        if len(self.failures) < 20:
            self.failures.append(group + " " + what + ": " + why)
        self.outcome(group, "FAILED")

    def variants(self, data):
        """(label, damaged bytes): every stride-th cut, every flip_stride-th byte flipped."""
        job = self.job
        n = len(data)
        stride = job.get("stride", 1)
        for k in range(0, n + 1, stride):
            yield "cut at %d" % k, data[:k]
        if n % stride:
            yield "cut at %d" % n, data
        for i in range(0, n, job.get("flip_stride", 1)):
            for x in job.get("flips", (0xFF,)):
                d = bytearray(data)
                d[i] ^= x
                yield "byte %d ^ 0x%02x" % (i, x), bytes(d)

    def boot_on(self, files):
        clean(self.root)
        for name in files:
            write(self.root + "/" + name, files[name])
        self.cases += 1
        return boot(self.root)

    def check_game(self, group, what, files, saved, want=None):
        """Boot on `files`: a resumed match must be one that was saved (`want`, when given: that
        one), else the menu with a message."""
        app = self.boot_on(files)
        name, msg = shown(app)
        if app.errors:
            return self.fail(group, what, "error %r" % app.last_error)
        if app.table is not None:
            import io
            from domino.record import dump
            g = app.table.game
            buf = io.StringIO()
            dump(g.match, buf, g.extras())
            rec = buf.getvalue()
            on_disk = read(self.root + "/game.txt")
            if rec not in saved:
                return self.fail(group, what, "resumed a match never saved")
            if want is not None and rec != want:
                return self.fail(group, what, "resumed another save than " + ("the last" if want == saved[-1]
                                                                             else "the backup"))
            if on_disk is None or body(on_disk) != rec:
                return self.fail(group, what, "game.txt is not the match resumed")
            kind = "resumed the last save" if rec == saved[-1] else (
                "resumed the backup" if len(saved) > 1 and rec == saved[-2] else "resumed an older save")
            self.outcome(group, kind + (": " + msg if msg else ""))
        elif name == "MainMenu":
            if not msg:
                return self.fail(group, what, "menu without a message")
            self.outcome(group, "menu: " + (msg or "(no message)"))
        else:
            return self.fail(group, what, "on " + name)
        for _ in range(2):
            app.step()
        if app.errors:
            return self.fail(group, what, "error after boot %r" % app.last_error)

    def check_json(self, group, what, files, name, good):
        """Boot on a damaged settings.json or stats.json: the values saved, or defaults with a
        message and the file set aside."""
        app = self.boot_on(files)
        if app.errors:
            return self.fail(group, what, "error %r" % app.last_error)
        _screen, msg = shown(app)
        st = app.store()
        if name == "settings.json":
            got = app.settings
        else:
            got = st.load_stats()[0]
        bad = read(self.root + "/" + name + ".bad")
        if got == good and not msg and bad is None:
            self.outcome(group, "read as saved")
        elif bad is not None and msg and read(self.root + "/" + name) is None and \
                (got == st.load_settings()[0] if name == "settings.json" else got == {}):
            self.outcome(group, "defaults: " + msg)
        elif name == "stats.json" and msg == "Some stats invalid: dropped":
            self.outcome(group, "rows dropped: " + msg)
        else:
            self.fail(group, what, "read %r, message %r" % (got, msg))

    def run(self):
        job = self.job
        t0 = time.ticks_ms()
        play_root = job["root"] + "/play"
        mkdir(play_root)
        texts = []
        app = play(play_root, job, texts)
        last = read(play_root + "/game.txt")
        bak = read(play_root + "/game.bak")
        tmp = next_save(app, play_root)             # the save after the last one, never finished
        # settings and statistics as the app writes them
        st = app.store()
        s = app.settings
        s["bright"] = 50
        s["think"] = 2000
        s["last"] = {"variant": "draw", "players": 2, "teams": 0, "seats": ["human", "easy"], "options": {}}
        st.save_settings(s)
        st.record_result("draw", 1, "sum 0123abcd")
        st.record_result("fives", -1)
        settings = read(play_root + "/settings.json")
        stats = read(play_root + "/stats.json")
        good_settings = st.load_settings()[0]
        good_stats = st.load_stats()[0]
        app = st = None
        gc.collect()
        saved = [body(x) for x in texts]
        if bak is None or last is None or body(bak) not in saved or body(last) != saved[-1]:
            raise RuntimeError("the game did not leave game.txt and game.bak")
        t_play = time.ticks_diff(time.ticks_ms(), t0)
        for what, data in self.variants(last):
            self.check_game("game.txt", what, {"game.txt": data, "game.bak": bak}, saved,
                            saved[-1] if data == last else body(bak))
        for what, data in self.variants(tmp):
            self.check_game("game.txt.tmp", what, {"game.txt": last, "game.bak": bak, "game.txt.tmp": data},
                            saved, saved[-1])
        # cut between the two renames of a save: game.txt became game.bak, the new one is still .tmp
        self.check_game("between the renames", "tmp whole", {"game.bak": last, "game.txt.tmp": tmp}, saved,
                        saved[-1])
        for what, data in self.variants(bak):
            self.check_game("game.bak alone", what, {"game.bak": data}, saved,
                            body(bak) if data == bak else None)
        for what, data in self.variants(settings):
            self.check_json("settings.json", what, {"settings.json": data}, "settings.json", good_settings)
        for what, data in self.variants(stats):
            self.check_json("stats.json", what, {"stats.json": data}, "stats.json", good_stats)
        return {"cases": self.cases, "saves": len(saved), "kinds": self.kinds, "failures": self.failures,
                "bytes": {"game.txt": len(last), "game.bak": len(bak), "game.txt.tmp": len(tmp),
                          "settings.json": len(settings), "stats.json": len(stats)},
                "play_ms": t_play, "ms": time.ticks_diff(time.ticks_ms(), t0)}


def main():
    job = json.loads(os.getenv("UI_JOB"))
    if job.get("mode") == "proof":
        out = Proof(job).run()
    elif job.get("mode") == "wrap":              # texts as the menu wraps its note
        from ui.widgets import wrap
        out = {"lines": [wrap(t, job["cols"]) for t in job["texts"]]}
    else:
        out = {"cases": boot_cases(job)}
    print(json.dumps(out))


if __name__ == "__main__":
    main()
