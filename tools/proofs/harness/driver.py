"""Drive the handheld UI under the MicroPython unix port with the simulated board and scripted keys;
print one JSON line of results. Used by host_tests/test_ui*.py through a subprocess.

    UI_JOB='<json job>' MICROPYPATH=<code-dir>:<board-dir>:<harness-dir> \
        micropython [-X heapsize=180K] -c "import driver"

<code-dir> holds domino/ ai/ ui/ drivers/ store (sources or .mpy); <board-dir> holds boards/;
<harness-dir> this folder or its compiled copy (frames.run sets it all up).
Job keys: size ("240x240"...), profile ("sim"), root (save dir), seed, anim, think, then "do": a list
of steps, each [name, args...]; see STEPS below. Every key goes through the board's key lines and
the Input debouncer, exactly like a button.
"""
import gc
import os
import sys

# The job comes in the environment: the unix port stops with "FATAL: uncaught NLR" on a command-line
# argument longer than 255 bytes (arguments become qstrs).
JOB = os.getenv("UI_JOB")

import json  # noqa: E402
import boards.sim as sim  # noqa: E402
from keys import K_UP, K_DOWN, K_LEFT, K_RIGHT, K_A, K_B, K_X, K_Y  # noqa: E402
from ui.app import App  # noqa: E402
from rand import Rand  # noqa: E402
import geometry  # noqa: E402

KEYS = {"up": K_UP, "down": K_DOWN, "left": K_LEFT, "right": K_RIGHT, "a": K_A, "b": K_B,
        "x": K_X, "y": K_Y, "press": 0x100}


def keybits(spec):
    """Key lines for "a", "a+x+up" (held together) or "all" (every button, the joystick press too)."""
    if not spec:
        return 0
    if spec == "all":
        return 0x1FF
    bits = 0
    for k in spec.split("+"):
        bits |= KEYS[k]
    return bits


def name(obj):
    return type(obj).__name__


def seat_label(n):
    """The form's row for seat n as it builds it: in the language in use (the other labels are
    English, translated as drawn)."""
    lang = sys.modules.get("ui.lang")
    return (lang.tr("Seat {0}") if lang else "Seat {0}").format(n)


class Driver:
    def __init__(self, job):
        self.job = job
        self.board = sim.build(profile=job.get("profile", "sim"), size=job.get("size", "240x240"),
                               virtual=True)
        self.shown = None        # the whole frame as shown, put together from the bands (capture)
        self.partial = None      # ["partial"]: after every pass, the panel against a whole redraw
        if job.get("draw") or [1 for st in job.get("do", []) if st[0] in ("png", "bands", "partial")]:
            self.capture()
        self.fake_ai_ms = job.get("ai_ms_per_call", 0)
        self.ai_now = 0
        clock = self.ai_clock if self.fake_ai_ms else None
        if job.get("lang"):
            self.board.lang = job["lang"]       # a first boot's language (a saved choice wins)
        hold = job.get("hold_at_boot")          # keys held while the app starts (B: safe start)
        if hold:
            self.board.host_keys(keybits(hold))
        self.app = App(self.board, job.get("root", "/tmp/ui"), ai_clock=clock, warm=bool(job.get("warm")))
        self.app.low_mem = 1 << 30              # the app's own lowest free heap between steps, watched
        s = self.app.settings
        s["anim"] = job.get("anim", 0)
        s["think"] = job.get("think", 250)
        s["seed"] = job.get("seed", 1234)
        if "usb" in job:
            self.board.watchdog.usb = bool(job["usb"])
        if job.get("wdt"):
            s["wdt"] = 1
            self.out_wdt_note = self.app.arm_watchdog()
        self.rand = Rand(job.get("seed", 1234))
        self.out = {"errors": 0}
        self.steps = 0
        self.keys = 0
        self.mash = 0            # key mashed while the AI thinks (see mash_keys)
        self.mashed = 0
        self.after = 0
        self.think_frames = 0    # most frames shown during one AI search (the wheel turning)
        self.frames_at_think = 0
        self.mash_keys()
        self.human_moves = 0
        self.low = 1 << 30
        self.curtain_checks = 0
        self.hidden_checks = 0
        self.in_turn = False
        self.holder = None
        self.max_frame_ms = 0
        if hold:
            for _ in range(job.get("hold_steps", 0)):   # still held for this many loop passes
                self.app.step()
            self.board.host_keys(0)

    def capture(self):
        """From now on every show() copies the rows it pushes into self.shown: the frame as the
        panel has it, whole (a banded board's buffer holds one band). Only jobs that look at frames
        (png, bands, extremes' draw) pay for the second frame buffer."""
        board = self.board
        buf = board.buf
        stride = (board.width + 1) // 2
        h = board.height
        self.shown = shown = bytearray(len(buf) if board.mono else stride * h)
        real = board.show

        def show(y0=0, y1=0x7FFF, more=False):
            if board.mono:
                shown[:] = buf
            else:
                top = board.y0
                a = max(y0, top)
                b = min(y1, top + board.band - 1, h - 1)
                if a <= b:
                    shown[a * stride:(b + 1) * stride] = buf[(a - top) * stride:(b + 1 - top) * stride]
            real(y0, y1, more)
        board.show = show

    def mash_keys(self):
        """While an AI thinks and its move is shown, the mash key reads as pressed on every other
        poll (a child mashing A)."""
        app = self.app
        real = app.inp._read
        d = self

        def read():
            t = app.table
            if t is not None and t.thinking != 255:
                d.think_frames = max(d.think_frames, d.board.frames - d.frames_at_think)
            elif t is not None:
                d.frames_at_think = d.board.frames
            if d.mash and t is not None and app.screen is t:
                if t.thinking != 255:
                    d.after = 8                  # and on for 8 more polls once the AI has moved
                if t.thinking != 255 or d.after > 0:
                    d.after -= 1
                    d.mashed += 1
                    return d.mash if d.mashed & 1 else 0
            return real()
        app.inp._read = read

    def ai_clock(self):
        self.ai_now += self.fake_ai_ms
        return self.ai_now

    # --- keys ------------------------------------------------------------------------------------
    def step(self, n=1):
        for _ in range(n):
            self.app.step()
            self.steps += 1
            if self.partial is not None:
                self.check_partial()
            f = gc.mem_free()
            if f < self.low:
                self.low = f

    def press(self, k):
        self.keys += 1
        self.board.host_keys(k)
        self.step()
        self.board.host_keys(0)
        self.step()

    def handoff(self):
        """The device passes to the player the curtain names (0.8 s of no keys), who presses A."""
        self.step(40)
        self.press(K_A)

    def chord(self, hold, k):
        """Hold one key, press and release another, let go (a four-button board's B + X)."""
        self.keys += 1
        for held in (hold, hold | k, hold, 0):
            self.board.host_keys(held)
            self.step()

    def screen(self):
        return name(self.app.screen)

    def check_partial(self):
        """The panel's content (every row shown so far, self.shown) against the current screen drawn
        whole into a frame of its own: byte for byte, after every pass of the loop. Redraws of a
        screen's regions alone (App.paint_parts) must leave the very frame a whole redraw would."""
        app = self.app
        sc = app.screen
        nm = name(sc)
        if nm == "Screen" or app.pending is not None or app.dirty or app.parts:
            return                               # between two screens: nothing drawn yet
        p = self.partial
        ref = unbanded(self, sc.draw)
        p["checks"] += 1
        p["screens"][nm] = p["screens"].get(nm, 0) + 1
        if ref == self.shown:
            return
        stride = len(ref) // self.board.height
        rows = [r for r in range(self.board.height)
                if ref[r * stride:(r + 1) * stride] != self.shown[r * stride:(r + 1) * stride]]
        p["bad"] += 1
        if len(p["first"]) < 5:
            r = rows[0] * stride
            xs = [2 * i for i in range(stride) if ref[r + i] != self.shown[r + i]]
            p["first"].append({"screen": nm, "step": self.steps, "rows": rows[:3] + rows[-1:],
                               "x": xs[:1] + xs[-1:], "mode": getattr(sc, "mode", -1)})
        self.shown[:] = ref                      # count each difference once

    def watch_moves(self, table):
        """Count human moves that happen outside the driver's own turns (a press leaking in)."""
        cls = type(table)
        if getattr(cls, "_watched", False):
            return
        orig = cls.play
        d = self

        def play(t, mv, hide=False):
            if t.game.kinds[t.game.match.round.turn] == "human" and not d.in_turn:
                d.out["stray_moves"] = d.out.get("stray_moves", 0) + 1
            orig(t, mv, hide)
        cls.play = play
        cls._watched = True

    def settle(self, limit=400):
        """Step until the screen waits for a person (a human turn, a curtain, a menu...)."""
        for _ in range(limit):
            sc = self.app.screen
            if name(sc) == "Table":
                self.watch_moves(sc)
            if name(sc) == "Table" and sc.mode in (0, 3) or name(sc) == "Screen":
                self.step()                      # running, pausing, or between two screens
                continue
            return
        raise RuntimeError("no settle in %d steps on %s" % (limit, self.screen()))

    # --- menus -----------------------------------------------------------------------------------
    def menu_pick(self, label):
        sc = self.app.screen
        rows = [r[0] for r in sc.rows()]
        if label not in rows:
            raise RuntimeError("no row %r in %s: %r" % (label, name(sc), rows))
        target = rows.index(label)
        for _ in range(len(rows) + 1):
            if sc.sel == target:
                break
            self.press(K_DOWN)
        self.press(K_A)

    def pick_prefix(self, prefix):
        """Select the first row of the current list screen whose label starts with `prefix`."""
        sc = self.app.screen
        for label in [r[0] for r in sc.rows()]:
            if label.startswith(prefix):
                self.menu_pick(label)
                return label
        raise RuntimeError("no row %r... in %s" % (prefix, name(sc)))

    def new_game(self, variant, players, kinds, teams=False, options=None, practice=False):
        """From the main menu, set up and start a game by key presses (practice: the form's
        Practice row turned on)."""
        self.menu_pick("New game")
        sc = self.app.screen
        from domino.rules import VARIANTS
        target = [v[0] for v in VARIANTS].index(variant)
        self._goto_row(sc, "Variant")
        while sc.vi != target:
            self.press(K_RIGHT)
        self._goto_row(sc, "Players")
        while sc.players != players:
            self.press(K_RIGHT)
        if sc.teams != bool(teams):              # (Goat with four starts in pairs)
            self._goto_row(sc, "Teams")
            self.press(K_A)
        for s in range(players):
            self._goto_row(sc, seat_label(s + 1))
            while sc.kinds[s] != kinds[s]:
                self.press(K_RIGHT)
        if practice:
            self._goto_row(sc, "Practice")
            if not sc.practice:
                self.press(K_A)
        for key in (options or {}):
            from ui.menus import OPTION_LABELS
            self._goto_row(sc, OPTION_LABELS.get(key, key))
            for _ in range(8):
                if str(sc.options[key]) == str(options[key]):
                    break
                self.press(K_RIGHT)
        self._goto_row(sc, "Start game")
        self.press(K_A)
        if self.screen() not in ("Table", "Curtain"):
            raise RuntimeError("game did not start: %s %s" % (self.screen(), getattr(sc, "note", "")))

    def _goto_row(self, sc, label):
        for _ in range(40):
            rows = [r[0] for r in sc.rows()]
            if rows[sc.sel] == label:
                return
            self.press(K_DOWN)
        raise RuntimeError("row %s not found" % label)

    # --- playing ---------------------------------------------------------------------------------
    def human_turn(self, style="random"):
        """Play one tile with key presses: move to a playable tile, A, then pick an end."""
        t = self.app.screen
        # how many playable tiles: pick one of them by DOWN presses
        n = 0
        for i in range(t.nh):
            if (t.playable >> t.hand[i]) & 1:
                n += 1
        jumps = self.rand.below(n) if style in ("random", "wander") else 0
        if style == "wander":                    # the cursor along the hand, now and then a hint
            for _ in range(self.rand.below(4)):
                self.press((K_LEFT, K_RIGHT, K_RIGHT, K_UP, K_LEFT, K_X)[self.rand.below(6)])
                self.settle()
        for _ in range(jumps):
            self.press(K_DOWN)
        if style == "left":                      # exercise LEFT/RIGHT and the 'does not fit' message
            self.press(K_LEFT)
        before = t.game.match.round.moves_played
        self.in_turn = True
        while t.calm_until and t.now() - t.calm_until < 0:
            self.step()                          # a person takes a moment after the AI's move
        self.press(K_A)
        if t.mode == 1 and not (t.playable >> t.hand[t.cursor]) & 1:
            self.out["misfits"] = self.out.get("misfits", 0) + 1
            self.press(K_DOWN)
            self.press(K_A)
        if t.mode == 2:                          # several ends: choose one
            for _ in range(self.rand.below(t.nopts)):
                self.press(K_DOWN)
            self.press(K_A)
        self.in_turn = False
        self.human_moves += 1
        return t.game.match.round.moves_played != before or t.game.match.round_over()

    def play_match(self, max_rounds=60, style="random", stop_after=None, stop_at=None):
        app = self.app
        rounds = 0
        moves = 0
        seen = self.out.setdefault("seen", {})   # screens waited on, and how often
        for _ in range(20000):
            self.settle()
            sc = app.screen
            nm = name(sc)
            seen[nm] = seen.get(nm, 0) + 1
            if nm == stop_at:
                return "at " + nm
            if nm == "Table" and sc.mode == 1:
                if stop_after is not None and moves >= stop_after:
                    return "stopped"
                self.human_turn(style)
                moves += 1
            elif nm == "Table" and sc.mode == 4:
                self.press(K_A)
            elif nm == "Curtain":
                self.handoff()
            elif nm == "RoundEnd":
                if sc.page == 0:
                    rounds += 1
                    if rounds > max_rounds:
                        return "too many rounds"
                over = sc.game.match.over
                if over:
                    self.out["match_end"] = state(self)   # the table's last state, before the menu
                self.press(K_A)
                if over and self.screen() == "MainMenu":
                    return "over"
            elif nm == "Message":
                self.out["message"] = sc.title + ": " + sc.text
                return "message"
            else:
                return "stuck on " + nm
        return "too many steps"

    def watch_privacy(self):
        """Check every frame shown: a curtain frame holds no tile pixels at all, and while no hand
        is face up (pass-and-play between turns) the hand area holds none either (check_frame)."""
        from privacy import Holder
        board = self.board
        real = board.show
        d = self
        self.holder = holder = Holder()
        app = self.app
        real_read = app.inp._read

        def read():
            k = real_read()
            holder.read(app, board.ticks_ms(), k)
            return k
        app.inp._read = read

        def show(y0=0, y1=0x7FFF, more=False):
            d.check_frame(y0, y1)
            real(y0, y1, more)
        board.show = show

    def watch_geometry(self):
        """Check the table's layout on every frame shown with the table on it (geometry.py beside this,
        from the view's own positions): out["geometry"] counts the frames, the tiles and the
        longest line seen, and keeps the first errors."""
        board = self.board
        real = board.show
        d = self
        sep, tall = 4, 3                    # ui/place.py's _SEP, _TALL (folded: no name at run time)
        stats = d.out["geometry"] = {"frames": 0, "errors": [], "most_tiles": 0}

        def show(y0=0, y1=0x7FFF, more=False):
            t = d.app.table
            if t is not None and d.app.screen is t and not more:
                v = t.view
                lay = t.game.match.round.layout
                if v.key == lay.played and v.size == lay.size:
                    stats["frames"] += 1
                    if v.n > stats["most_tiles"]:
                        stats["most_tiles"] = v.n
                    err = geometry.check(v, lay, sep, True, tall)
                    if err and len(stats["errors"]) < 5:
                        stats["errors"].append(err)
            real(y0, y1, more)
        board.show = show

    def check_frame(self, y0=0, y1=0x7FFF):
        """privacy.py's check, shared with the monkey test (it also checks the game menu, score sheet
        and help opened while the hands are face down): each band as it is shown, the frame counted
        at its last band."""
        from privacy import check, last_band
        kind, bad = check(self.app, self.board, y0, y1)
        last = last_band(self.board)
        if not last:
            kind = -kind
        if kind == 1:
            self.curtain_checks += 1
        elif kind == 2:
            self.hidden_checks += 1
        if bad:
            self.out["privacy_pixels"] = self.out.get("privacy_pixels", 0) + bad
        if last and self.holder.frame(self.app, self.board.ticks_ms()):
            self.out["privacy_holder"] = self.out.get("privacy_holder", 0) + 1

    def layout_check(self, games, seed):
        """Place the layout of every position of random games in every variant on this screen and
        check: tiles inside the table area (or the tall, scrolling table), no two overlapping, and
        each tile's touching half equal to its neighbour's along every chain."""
        from domino.rules import Rules, VARIANTS
        from domino.match import Match
        from domino.record import run_forced
        from ui.gfx import TableView
        from ui import place
        t = Table_geometry(self.app)
        view = TableView(t[0], t[1], t[2], t[3], self.app.g.mono)
        rnd = Rand(seed)
        stats = {"positions": 0, "tall": 0, "max_tiles": 0, "sizes": {}}
        errors = []
        for row in VARIANTS:
            for g in range(games):
                players = 2 if row[2] <= 2 and g % 2 == 0 else row[2] + (g % (row[3] - row[2] + 1))
                m = Match(Rules(row[0], players, False), seed + g * 101)
                m.start_round()
                rd = m.round
                while not m.round_over():
                    run_forced(m)
                    if m.round_over():
                        break
                    n = rd.legal()
                    m.play(rd.buf[rnd.below(n)])
                    view.key = -1
                    place.place(view, rd.layout)
                    stats["positions"] += 1
                    stats["tall"] += view.tall
                    stats["max_tiles"] = max(stats["max_tiles"], view.n)
                    stats["sizes"][view.s] = stats["sizes"].get(view.s, 0) + 1
                    err = geometry.check(view, rd.layout)
                    if err and len(errors) < 5:
                        errors.append(row[0] + ": " + err)
        stats["errors"] = errors
        return stats

    def extremes(self):
        """The largest layouts there are, placed on this screen: all 28 tiles in one line (on one
        arm, and split over both), and a spinner with all four arms built."""
        from domino.layout import Layout
        from domino.tiles import tile
        from ui.gfx import TableView
        from ui import place
        t = Table_geometry(self.app)
        out = {}
        # an Euler trail through all 28 tiles (every number has even degree): 0-0 0-1 1-1 1-2 ...
        trail = euler_trail()
        for name, mode, arms in (("line_one_arm", 0, "R"), ("line_two_arms", 0, "LR"),
                                 ("spinner_four_arms", 1, "LRUD")):
            lay = Layout(mode)
            ends_built(lay, trail, arms, tile)
            view = TableView(t[0], t[1], t[2], t[3], self.app.g.mono)
            place.place(view, lay)
            err = geometry.check(view, lay)
            out[name] = {"tiles": lay.size, "s": view.s, "tall": view.tall, "error": err,
                         "arms": [lay.n[a] for a in range(4)]}
            if self.job.get("draw"):
                from ui.paint import draw_layout

                def draw(g):
                    g.fb.fill(g.c.TABLE)
                    draw_layout(view, g)
                self.app.paint(draw)
                path = self.job.get("root", "/tmp/ui") + "/" + name + ".fb"
                out[name]["frame"] = dump_fb(self, path)
        return out

    def bench(self, n, fill=0):
        """Milliseconds to draw and show the current screen, every band of it (and to place a
        changed layout), n times. With `fill`, random moves are played first (engine only) until the
        layout has that many tiles."""
        import time
        from domino.record import run_forced
        sc = self.app.screen
        t = self.app.table
        if fill and t is not None:
            m = t.game.match
            rd = m.round
            while rd.layout.size < fill and not m.round_over():
                run_forced(m)
                if not m.round_over():
                    m.play(rd.buf[self.rand.below(rd.legal())])
        worst = total = 0
        for i in range(n):
            t = self.app.table
            if t is not None and sc is t:
                t.view.key = -1          # worst case: the layout is placed again too
            t0 = time.ticks_us()
            self.app.paint(sc.draw)
            dt = time.ticks_diff(time.ticks_us(), t0)
            total += dt
            worst = max(worst, dt)
        return {"screen": name(sc), "avg_ms": total / n / 1000, "max_ms": worst / 1000,
                "tiles": t.game.match.round.layout.size if t is not None else 0}


def euler_trail():
    """All 28 tiles as one chain of matching numbers (Hierholzer on the double-six graph)."""
    left = [[b for b in range(7)] for a in range(7)]   # left[a]: numbers still joined to a
    stack = [0]
    path = []
    while stack:
        v = stack[-1]
        if left[v]:
            u = left[v].pop()
            if u != v:
                left[u].remove(v)
            stack.append(u)
        else:
            path.append(stack.pop())
    return path                                        # 29 numbers: 28 tiles end to end


def ends_built(lay, trail, arms, tile):
    """Lay all 28 tiles: the trail is a closed circuit, so turned to start at a double x-x it is
    that double (the lead, the spinner when the layout has one) followed by stretches from x back
    to x; the stretches are shared out over the given arms, built a tile per arm in turn."""
    n = len(trail) - 1
    for i in range(n):
        if trail[i] == trail[i + 1]:
            break
    c = trail[i:n] + trail[:i + 1]                  # starts x, x and ends x
    x = c[0]
    lay.place_lead(tile(x, x))
    segs = [[]]
    for j in range(1, n):
        a, b = c[j], c[j + 1]
        segs[-1].append(tile(min(a, b), max(a, b)))
        if b == x and j + 1 < n:
            segs.append([])
    want = len(arms)
    while len(segs) < want:       # too few: a stretch x..x cut in two, its tail read backwards
        segs.sort(key=len)
        longest = segs.pop()
        k = len(longest) // 2
        tail = longest[k:]
        tail.reverse()
        segs.append(longest[:k])
        segs.append(tail)
    while len(segs) > want:                         # join stretches until one per arm
        last = segs.pop()
        segs[-1] = segs[-1] + last
    per_arm = [segs[k] if k < len(segs) else [] for k in range(want)]
    arm_ids = ["LRUD".index(a) for a in arms]
    for _ in range(30):
        for k in range(want):
            a = arm_ids[k]
            if per_arm[k] and lay.is_open(a) and lay.fits(per_arm[k][0], a):
                lay.place(per_arm[k].pop(0), a)
    return lay


def Table_geometry(app):
    """(x0, y0, w, h) of the table area the Table screen would use on this board."""
    from ui.table import Table, Game
    from domino.rules import Rules
    from domino.match import Match
    m = Match(Rules("draw", 2), 1)
    m.start_round()
    t = Table(app, Game(m, ["human", "easy"], ["A", "B"]))
    v = t.view
    return v.x0, v.y0, v.w, v.h


def main():
    job = json.loads(JOB)
    d = Driver(job)
    out = d.out
    for st in job.get("do", []):
        op = st[0]
        if op == "keys":
            for k in st[1].split():
                if "+" in k:                     # "b+x": the first held while the second is pressed
                    d.chord(KEYS[k.split("+")[0]], KEYS[k.split("+")[1]])
                else:
                    d.press(KEYS[k])
        elif op == "handoff":
            d.handoff()
        elif op == "steps":
            d.step(st[1])
        elif op == "settle":
            d.settle()
        elif op == "new":
            d.new_game(st[1], st[2], st[3], st[4] if len(st) > 4 else False, st[5] if len(st) > 5 else None,
                       st[6] if len(st) > 6 else False)
        elif op == "match":
            out["result"] = d.play_match(stop_after=st[1] if len(st) > 1 else None,
                                         style=st[2] if len(st) > 2 else "random")
        elif op == "partial":
            d.partial = part = out["partial"] = {"checks": 0, "bad": 0, "first": [], "screens": {},
                                                 "parts": {}}
            real_parts = d.app.paint_parts

            def paint_parts(sc, parts, real=real_parts, part=part):
                k = str(parts)                   # regions drawn alone: how often each mask
                part["parts"][k] = part["parts"].get(k, 0) + 1
                real(sc, parts)
            d.app.paint_parts = paint_parts
        elif op == "until":
            out["result"] = d.play_match(stop_at=st[1])
        elif op == "privacy":
            d.watch_privacy()
        elif op == "geometry":
            d.watch_geometry()
        elif op == "layout_check":
            out["layout"] = d.layout_check(st[1], st[2])
        elif op == "extremes":
            out["extremes"] = d.extremes()
        elif op == "bench":
            out.setdefault("bench", []).append(d.bench(st[1], st[2] if len(st) > 2 else 0))
        elif op == "hint":
            d.press(K_X)
            d.settle()
        elif op == "pick":
            d.pick_prefix(st[1])
        elif op == "undo_peek":                  # ["undo_peek", turns, tries a turn]
            import undopeek
            undopeek.run(d, st[1], st[2])
        elif op == "menu":
            d.menu_pick(st[1])
        elif op == "state":
            out.setdefault("states", []).append(state(d))
        elif op == "hold":                       # ["hold", "a+x" or "all", passes]: held, let go
            d.keys += 1
            d.board.host_keys(keybits(st[1]))
            d.step(st[2] if len(st) > 2 else 1)
            d.board.host_keys(0)
            d.step()
        elif op == "mash":                       # a key, a chord "a+x" or "all" ("": stop)
            d.mash = keybits(st[1])
            out["mashed"] = d.mashed
        elif op == "deal":
            out.setdefault("deals", []).append(deal_state(d))
        elif op == "texts":
            record_texts(d)
        elif op == "boxes":
            record_boxes(d)
        elif op == "draw_alloc":
            out.setdefault("draw_alloc", []).append(draw_alloc(d, st[1]))
        elif op == "memerr":
            inject_memerr(d, st[1], st[2] if len(st) > 2 else 1)
        elif op == "usb":
            d.board.watchdog.usb = bool(st[1])
        elif op == "flash":
            flash(d, st[1])
        elif op == "png":
            path = job.get("root", "/tmp/ui") + "/" + st[1] + ".fb"
            out.setdefault("frames", {})[st[1]] = dump_fb(d, path)
        elif op == "bands":
            out.setdefault("bands", []).append(bands_check(d, st[1] if len(st) > 1 else None))
    out["think_frames"] = d.think_frames
    out["errors"] = d.app.errors
    out["save_failures"] = d.app.save_failures
    if d.app.last_error is not None:
        out["last_error"] = repr(d.app.last_error)
    out["screen"] = d.screen()
    out["steps"] = d.steps
    out["keys"] = d.keys
    out["human_moves"] = d.human_moves
    out["low_mem"] = min(d.low, d.app.low_mem)
    out["curtains"] = d.curtain_checks
    if d.holder is not None:
        out["handoffs"] = d.holder.handoffs
    out["hidden_checks"] = d.hidden_checks
    out["final"] = state(d)
    wd = d.board.watchdog
    out["wdt"] = {"on": d.app.wd_on, "feeds": wd.feeds, "max_gap": wd.max_gap, "long_gaps": wd.long_gaps,
                  "timeout": wd.timeout, "resets": wd.resets, "note": getattr(d, "out_wdt_note", None)}
    out["lean"] = d.app.lean
    out["mem_errors"] = d.app.mem_errors
    print(json.dumps(out))


def flash(d, mode):
    """From now on the flash refuses writes in the save folder: "full" (opening a file to write
    raises ENOSPC), "readonly" (EROFS), "midway" (a write stores half its text, then raises ENOSPC:
    a partial .tmp);
    "ok" lets them through again. Installed as builtins.open, which every module looks up."""
    import builtins
    real = getattr(d, "real_open", None) or builtins.open
    d.real_open = real
    root = d.job.get("root", "/tmp/ui")
    if mode == "ok":
        builtins.open = real
        return

    class Refusing:
        def __init__(self, f):
            self.f = f

        def __enter__(self):
            return self

        def __exit__(self, *a):
            self.f.close()

        def close(self):
            self.f.close()

        def write(self, s):
            self.f.write(s[:len(s) // 2])
            raise OSError(28)

    def refusing_open(path, m="r", *a):
        if path.startswith(root) and ("w" in m or "a" in m):
            d.out["refused"] = d.out.get("refused", 0) + 1
            if mode == "full":
                raise OSError(28)
            if mode == "readonly":
                raise OSError(30)
            return Refusing(real(path, m, *a))
        return real(path, m, *a)
    builtins.open = refusing_open


def inject_memerr(d, meth, times):
    """The current screen raises MemoryError from `meth` on its next `times` calls: a heap that ran
    short in the middle of a frame. "draw": a frame drawn whole or in parts (draw_parts), the
    `times` shared."""
    sc = d.app.screen
    left = [times]

    def wrap(name):
        real = getattr(sc, name)

        def boom(*a):
            if left[0] > 0:
                left[0] -= 1
                raise MemoryError("injected")
            return real(*a)
        setattr(sc, name, boom)
    wrap(meth)
    if meth == "draw" and hasattr(sc, "draw_parts"):
        wrap("draw_parts")


def state(d):
    app = d.app
    sc = app.screen
    s = {"screen": name(sc)}
    t = app.table
    if t is not None:
        m = t.game.match
        s.update({"round_no": m.round_no, "over": m.over, "scores": m.scores[:m.rules.sides],
                  "winner": m.winner, "loser": m.loser, "target": m.rules.target,
                  "remembered": m.remembered[:m.rules.sides], "opened": list(m.opened[:m.rules.sides]),
                  "moves_played": m.round.moves_played, "turn": m.round.turn, "mode": t.mode,
                  "shown": t.shown, "hand": [t.hand[i] for i in range(t.nh)], "cursor": t.cursor,
                  "msg": t.msg, "history": len(m.history), "sheet": t.game.sheet,
                  "names": t.game.names, "nmoves": m.nmoves, "last_text": t.last_text,
                  "practice": t.game.practice, "inplay": list(m.round.inplay[:m.rules.players]),
                  "saved": saved(d),
                  "events": [[m.round.events[2 * i] >> 4, m.round.events[2 * i] & 15,
                              m.round.events[2 * i + 1]] for i in range(m.round.nev)]})
        if name(sc) == "Table":
            s["hand_rects"] = [t.hand_rect(i) for i in range(t.nh)]
            s["held_text"] = t.held_text
            s["now"] = app.need("ui.paint").now(t)[0]     # what the message area shows
    if name(sc) == "LineView":                   # the line at a readable size (ui/lineview.py)
        v = sc.v
        s["line"] = {"s": sc.s, "legible": app.g.legible, "pip": app.g.pip, "n": v.n, "ox": sc.ox,
                     "oy": sc.oy, "vw": sc.vw, "vh": sc.vh, "top": sc.top, "ext": list(sc.ext),
                     "last": sc.last, "tiles": [[v.pt[i], v.px[i], v.py[i], v.pf[i] & 1]
                                                for i in range(v.n)],
                     "played": sum((t.game.match.round.layout.played >> k) & 1 for k in range(28))}
    if hasattr(sc, "note"):
        s["note"] = sc.note
        s["note_col"] = sc.note_col
    if hasattr(sc, "text"):
        s["text"] = sc.text
    if hasattr(sc, "page"):
        s["page"] = sc.page
    for k in ("sel", "title"):
        if isinstance(getattr(sc, k, None), (int, str)):
            s[k] = getattr(sc, k)
    if isinstance(getattr(sc, "text", None), str):
        s["text"] = sc.text
    if hasattr(sc, "rows"):
        s["rows"] = [r[0] for r in sc.rows()]
        s["values"] = [r[1] if r[1] is None or isinstance(r[1], (int, str)) else str(r[1]) for r in sc.rows()]
    return s


def saved(d):
    """What game.txt holds: [the moves on each round line], and whether it is a practice game's
    save (None: no save)."""
    try:
        f = open(d.job.get("root", "/tmp/ui") + "/game.txt")
    except OSError:
        return None
    rounds = []
    practice = False
    with f:
        for ln in f:
            if ln.startswith("round"):
                rounds.append(len(ln.split()) - 1)
            elif ln.startswith("practice "):
                practice = ln.split()[1] == "1"
    return {"rounds": rounds, "practice": practice}


def deal_state(d):
    """The match's current deal: code, first seed, every hand (tile bitmasks), leader, moves so far."""
    m = d.app.table.game.match
    rd = m.round
    return {"code": m.deal_code(), "seed": m.seed, "round_no": m.round_no, "leader": rd.leader,
            "hands": [rd.hands[s] for s in range(m.rules.players)], "moves_played": rd.moves_played}


def record_texts(d):
    """From now on, every string drawn through the Gfx text calls goes into out["texts"] as
    [call, text] ([call, text, scale] for big): what the screens showed, in words."""
    g = d.app.g
    got = d.out["texts"] = []
    board = d.board

    def wrap(call):
        real = getattr(g, call)

        def rec(s, *a):
            # a banded board draws a menu in every band, a table region in the bands it lies in:
            # each text counted once, in the band that holds its top row
            y = a[0] if call == "center" else a[1]
            band = board.band if board.band and board.band < board.height else board.height
            if board.y0 <= y < board.y0 + band:
                got.append([call, s] + ([a[3]] if call == "big" and len(a) > 3 else []))
            return real(s, *a)
        return rec
    for call in ("text", "right", "center", "big"):
        setattr(g, call, wrap(call))


def record_boxes(d):
    """From now on, every string drawn through Gfx.text/right/center is checked (glyphs g.cw wide):
    inside the screen, and not overlapping another drawn on the same row of the same frame. A call
    made inside another (right and center draw through text) is the same string: not checked again.
    out["boxes"]: texts checked, the texts seen (each once), the first few bad ones."""
    g = d.app.g
    out = d.out["boxes"] = {"checked": 0, "texts": [], "bad": []}
    seen = {}
    rows = {}                        # y -> [(x0, x1, text)] of the frame being drawn
    board = d.board
    at = [-1]
    depth = [0]

    def wrap(call):
        real = getattr(g, call)

        def rec(s, *a):
            y = a[0] if call == "center" else a[1]
            band = board.band if board.band and board.band < board.height else board.height
            if depth[0] == 0 and board.y0 <= y < board.y0 + band and s:
                if board.frames != at[0]:
                    at[0] = board.frames
                    rows.clear()
                w = g.cw * len(s)
                if call == "text" and len(a) > 3 and g.font is None:
                    w *= a[3]                # framebuf's 8x8 font k times larger
                x = (g.w - w) // 2 if call == "center" else (a[0] - w if call == "right" else a[0])
                out["checked"] += 1
                if s not in seen:
                    seen[s] = 1
                    out["texts"].append(s)
                bad = x < 0 or x + w > g.w
                for x0, x1, o in rows.get(y, ()):
                    if x < x1 and x0 < x + w:
                        bad = True
                rows.setdefault(y, []).append((x, x + w, s))
                if bad and len(out["bad"]) < 5:
                    out["bad"].append([x, y, w, s])
            depth[0] += 1
            try:
                return real(s, *a)
            finally:
                depth[0] -= 1
        return rec
    for call in ("text", "right", "center"):
        setattr(g, call, wrap(call))


def draw_alloc(d, n):
    """Bytes the current screen allocates over n draws (after one draw to warm up), the GC off."""
    g = d.app.g
    sc = d.app.screen
    sc.draw(g)
    gc.collect()
    gc.disable()
    a = gc.mem_alloc()
    for _ in range(n):
        sc.draw(g)
    b = gc.mem_alloc()
    gc.enable()
    return {"screen": name(sc), "bytes": b - a}


def dump_fb(d, path):
    """The frame last shown, whole, into a file (a huge JSON line would not print); its description."""
    board = d.board
    with open(path, "wb") as f:
        f.write(d.shown if d.shown is not None else board.buf)
    return {"w": board.width, "h": board.height, "mono": board.mono, "file": path}


def unbanded(d, draw):
    """draw(g) into a whole-frame buffer of its own, as a board without bands draws: the bytes."""
    import framebuf
    board = d.board
    g = d.app.g
    keep = (g.fb, board.band, board.y0)
    full = bytearray(len(d.shown))
    g.fb = framebuf.FrameBuffer(full, board.width, board.height, board.fb_format)
    board.band = board.height
    board.y0 = 0
    try:
        draw(g)
    finally:
        g.fb, board.band, board.y0 = keep
    return full


def bands_check(d, what=None):
    """The current screen drawn band by band (App.paint, what reaches the panel) against the same
    screen drawn once into a whole frame: bytes that differ. what "wheel": the table while an AI
    thinks, the wheel's frames 0..8 drawn as on_tick does (only its rows), and once more with the
    buffer on another band (the screen then drawn again under it)."""
    app = d.app
    sc = app.screen
    out = {"screen": name(sc), "band": d.board.band, "frames": 0, "diff": 0, "rows": [], "ink": 0}

    def compare(draw_ref):
        ref = unbanded(d, draw_ref)
        bad = 0
        rows = []
        stride = len(ref) // d.board.height
        first = ref[0]
        ink = 0
        for i in range(len(ref)):
            if ref[i] != first:
                ink += 1                             # bytes unlike the first: a picture
            if ref[i] != d.shown[i]:
                bad += 1
                r = i // stride
                if not rows or rows[-1] != r:
                    rows.append(r)
        out["frames"] += 1
        out["diff"] += bad
        out["ink"] += ink
        out["rows"] = (out["rows"] + rows)[:20]

    if what == "wheel":
        t = app.table
        t.thinking = t.game.match.round.turn
        t.frame = 0
        app.paint(t.draw)
        compare(t.draw)
        y = t.wheel_y()
        for k in range(1, 10):
            t.frame = k
            if k == 9 and d.board.band < d.board.height:
                d.board.set_band(0)          # the wheel's band not in the buffer
            app.paint_rows(t._draw_wheel, y - 5, y + 5)
            compare(t.draw)
        t.thinking = 255
        app.redraw()
        return out
    app.paint(sc.draw)
    compare(sc.draw)
    return out


main()
