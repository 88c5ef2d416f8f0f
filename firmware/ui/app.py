"""The handheld app: one loop that polls the keys, hands each press to the current screen, lets the
screen advance (AI turns, animations) and redraws it when it asks. Screens are small objects with
key(k), step() and draw(g); `App.go` switches between them. Nothing here knows the board's size.

Any unexpected error is caught and shown as a message (the game was saved after its last move), so
the device never stops at a traceback.
"""
import gc
import sys
from micropython import const
from ui.input import EV_PRESS, EV_REPEAT, EV_KIND, EV_KEY, K_A, K_B, K_UP, K_DOWN, K_LEFT, K_RIGHT, K_PRESS
from ui.gfx import Gfx
import store

FRAME_MS = const(20)
ANIM_MS = (0, 150, 450, 1000)          # pause after each AI move: settings "anim" off/fast/normal/slow
ROW_H = const(11)


def ticks_diff(a, b):
    return ((a - b + 0x20000000) & 0x3FFFFFFF) - 0x20000000


def wrap(text, cols):
    """Lines of at most `cols` characters, broken at spaces (or hard when a word is longer)."""
    out = []
    for para in text.split("\n"):
        line = ""
        for word in para.split(" "):
            while len(word) > cols:
                if line:
                    out.append(line)
                    line = ""
                out.append(word[:cols])
                word = word[cols:]
            if not line:
                line = word
            elif len(line) + 1 + len(word) <= cols:
                line += " " + word
            else:
                out.append(line)
                line = word
        out.append(line)
    return out


def drop_module(name):
    """Forget a screen module so its code can be collected (the Pico's heap holds all bytecode)."""
    mod = sys.modules.get(name)
    if mod is None:
        return
    del sys.modules[name]
    pkg = sys.modules.get("ui")
    short = name.split(".")[-1]
    if pkg is not None and short in pkg.__dict__:
        try:
            delattr(pkg, short)
        except (AttributeError, TypeError):
            pass


class Screen:
    def __init__(self, app):
        self.app = app

    def enter(self):
        pass

    def key(self, k):
        pass

    def step(self):
        pass

    def draw(self, g):
        pass


class ListScreen(Screen):
    """A title over rows "label ... value": UP/DOWN move, LEFT/RIGHT change the value, A picks (on a
    value row: the next value, so four-button boards need no LEFT/RIGHT), B goes back."""

    def __init__(self, app, title):
        Screen.__init__(self, app)
        self.title = title
        self.sel = 0
        self.top = 0
        self.note = None             # one line under the title (a message for the player)
        self.note_col = -1

    def rows(self):
        return ()

    def change(self, i, d):
        pass

    def pick(self, i):
        self.change(i, 1)

    def back(self):
        self.app.menu()

    def key(self, k):
        n = len(self.rows())
        if k == K_UP:
            self.sel = (self.sel - 1) % n
        elif k == K_DOWN:
            self.sel = (self.sel + 1) % n
        elif k == K_LEFT:
            self.change(self.sel, -1)
        elif k == K_RIGHT:
            self.change(self.sel, 1)
        elif k == K_A:
            self.pick(self.sel)
        elif k == K_B:
            self.back()
            return
        self.app.redraw()

    def draw(self, g):
        c = g.c
        fb = g.fb
        fb.fill(c.BG)
        y = 2 + g.big_center(self.title, 2, c.ACCENT)
        if self.note:
            for ln in wrap(self.note, g.cols)[:2]:
                g.text(ln, 0, y + 2, self.note_col if self.note_col >= 0 else c.WARN)
                y += 9
        y += 4
        rows = self.rows()
        n = len(rows)
        if self.sel >= n:
            self.sel = n - 1
        foot = 10 if g.h >= 100 else 0
        vis = (g.h - y - foot) // ROW_H
        if vis < 1:
            vis = 1
        if self.sel < self.top:
            self.top = self.sel
        if self.sel >= self.top + vis:
            self.top = self.sel - vis + 1
        for i in range(self.top, min(n, self.top + vis)):
            label, value = rows[i]
            yy = y + (i - self.top) * ROW_H
            fg = c.FG
            if i == self.sel:
                fb.fill_rect(0, yy - 2, g.w, ROW_H, c.CURSOR)
                fg = c.BG
            v = "" if value is None else str(value)
            if v and i == self.sel and g.cols >= 20:
                v = "<" + v + ">"
            g.text(g.fit(label, g.cols - len(v) - (1 if v else 0)), 2, yy, fg)
            if v:
                g.right(v, g.w - 2, yy, fg)
        if self.top > 0:
            g.right("^", g.w, y - 10, c.DIM)
        if self.top + vis < n:
            g.right("v", g.w, g.h - foot - 8, c.DIM)
        if foot:
            g.text(g.fit(self.footer(), g.cols), 0, g.h - 8, c.DIM)

    def footer(self):
        return "A select  B back"


class Message(Screen):
    """A title and a wrapped text; A or B goes on (to `then`, or the main menu)."""

    def __init__(self, app, title, text, then=None, col=-1):
        Screen.__init__(self, app)
        self.title = title
        self.text = text
        self.then = then
        self.col = col
        self.top = 0

    def key(self, k):
        if k == K_DOWN:
            self.top += 1
        elif k == K_UP and self.top:
            self.top -= 1
        elif k == K_A or k == K_B:
            if self.then:
                self.then()
            else:
                self.app.menu()
            return
        self.app.redraw()

    def draw(self, g):
        c = g.c
        g.fb.fill(c.BG)
        y = 4 + g.big_center(self.title, 2, c.WARN if self.col < 0 else self.col)
        lines = wrap(self.text, g.cols)
        vis = (g.h - y - 10) // 9
        if self.top > len(lines) - vis:
            self.top = max(0, len(lines) - vis)
        for ln in lines[self.top:self.top + vis]:
            g.text(ln, 0, y, c.FG)
            y += 9
        g.text(g.fit("A: OK", g.cols), 0, g.h - 8, c.DIM)


class App:
    def __init__(self, board, root="/", ai_clock=None):
        self.board = board
        self.inp = board.make_input()
        self.g = Gfx(board)
        self.store = store.Store(root)
        self.settings, note = self.store.load_settings()
        self.ai_clock = ai_clock
        self.screen = None
        self.dirty = True
        self.errors = 0              # unexpected errors caught (tests expect 0)
        self.last_error = None
        self.low_mem = 1 << 30       # lowest gc.mem_free() seen between steps
        self.table = None            # the Table screen of the game in progress
        board.set_brightness(self.settings["bright"])
        self.menu(note)

    # --- navigation ----------------------------------------------------------------------------
    def go(self, screen):
        self.screen = screen
        screen.enter()
        self.dirty = True

    def redraw(self):
        self.dirty = True

    def menu(self, note=None):
        self.table = None
        from ui.menus import MainMenu
        self.go(MainMenu(self, note))

    def message(self, title, text, then=None, col=-1):
        self.go(Message(self, title, text, then, col))

    def start(self, match, kinds, names, sheet="", note=None):
        """Play a match (new or resumed) on the table screen."""
        drop_module("ui.menus")
        gc.collect()
        from ui.table import Game, Table
        self.table = Table(self, Game(match, kinds, names, sheet))
        if note:
            self.table.say(note, 3000)
        self.go(self.table)

    def resume(self):
        match, extras, note = self.store.load_game()
        if match is None:
            if note:
                self.store.keep_bad_game()
                self.menu(note + " (kept as game.txt.bad)")
            else:
                self.menu("No saved game")
            return
        self.start(match, extras["seats"].split(","), extras.get("names", "").split(","),
                   extras.get("sheet", ""), note)

    # --- feedback ------------------------------------------------------------------------------
    def beep(self, freq, ms):
        if self.settings["sound"]:
            self.board.beep(freq, ms)

    def save_settings(self):
        try:
            self.store.save_settings(self.settings)
        except OSError as e:
            return "Settings not saved: " + str(e)
        return None

    # --- the loop ------------------------------------------------------------------------------
    def handle_keys(self):
        inp = self.inp
        inp.poll()
        ev = inp.get()
        while ev:
            kind = ev & EV_KIND
            if kind == EV_PRESS or kind == EV_REPEAT:
                k = ev & EV_KEY
                if k == K_PRESS:
                    k = K_A
                screen = self.screen
                screen.key(k)
                if self.screen is not screen:
                    self.inp.flush()     # a new screen starts with no stale presses
                    break
            ev = inp.get()

    def step(self):
        """One pass of the loop: keys, screen work, redraw. Never raises."""
        try:
            self.handle_keys()
            self.screen.step()
            if self.dirty:
                self.dirty = False
                self.screen.draw(self.g)
                self.board.show()
        except Exception as e:
            self.fail(e)
        free = gc.mem_free()
        if free < self.low_mem:
            self.low_mem = free
        self.board.sleep_ms(FRAME_MS)

    def fail(self, e):
        self.errors += 1
        self.last_error = e
        self.table = None
        gc.collect()
        text = type(e).__name__ + ": " + str(e)
        try:
            sys.print_exception(e)
        except AttributeError:
            pass
        self.message("Oops", text + "\nThe game is saved after its last move: choose Continue.")
        try:
            self.screen.draw(self.g)
            self.board.show()
        except Exception:
            pass

    def run(self):
        while True:
            self.step()


def run(board, root="/"):
    App(board, root).run()
