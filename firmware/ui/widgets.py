"""Screens made of text: a list of rows with values (menus, forms) and a message page. Loaded by the
menus, the in-game menu and the error screen; not resident while a game is played."""

from micropython import const
from .screen import Screen, tr
from ui.gfx import wrap
_K_A = const(0x010)      # = keys.K_A
_K_B = const(0x020)      # = keys.K_B
_K_UP = const(0x001)     # = keys.K_UP
_K_DOWN = const(0x002)   # = keys.K_DOWN
_K_LEFT = const(0x004)   # = keys.K_LEFT
_K_RIGHT = const(0x008)  # = keys.K_RIGHT

_MX = const(2)           # the text's margin from the screen's left edge (a column is kept for it)
OPTION_LABELS = {
    "target": "Target", "hand": "Hand size", "big_tiles": "0-0=25 6-6=50", "lone_00": "Lone 0-0",
    "lone_66": "Lone 6-6", "reserve": "Reserve", "fish": "Fish for", "leader": "Next lead",
    "divide": "Divide by 5", "spinner": "Spinner", "spinner_counts": "Spinner counts",
    "four_doubles": "4 doubles",
}
_STEP_MS = const(1500)  # = ui.table._STEP_MS


def refused(e):
    """What a domino.rules.RulesError says, in the player's language where its text is whole (the
    errors built with values stay in English: the form offers no set-up that raises them)."""
    return tr(str(e))


def save_settings(app):
    """Write the settings; a message when the flash refuses."""
    try:
        app.store().save_settings(app.settings)
    except OSError as e:
        return app.need("store").failed(e, "settings")
    return None


class ListScreen(Screen):
    """A title over rows "label ... value": UP/DOWN move, LEFT/RIGHT change the value, A picks (on a
    value row: the next value, so four-button boards need no LEFT/RIGHT), B goes back."""

    def __init__(self, app, title):
        Screen.__init__(self, app)
        self.title = title
        self.sel = 0
        self.top = 0
        self.note = None             # under the title: a message for the player, whole where the
        self.note_col = -1           # screen has room for it and the chosen row, else in steps
        self.page = 0                # of as many lines as the room has, STEP_MS each
        self.pages = 1               # the note's steps, as last drawn

    def step(self):
        if self.note and self.pages > 1:
            k = self.app.board.ticks_ms() // _STEP_MS
            if k != self.page:
                self.page = k
                self.app.redraw()

    def rows(self):  # type: () -> list
        """[(label, value or None)]: what the list shows."""
        return []

    def change(self, i, d):
        pass

    def dim(self, i):  # type: (int) -> bool
        """Whether row i is shown dim: it cannot be chosen now (choosing it says why)."""
        return False

    def pick(self, i):
        self.change(i, 1)

    def back(self):
        self.app.menu()

    def key(self, k):
        n = len(self.rows())
        if k == _K_UP:
            self.sel = (self.sel - 1) % n
        elif k == _K_DOWN:
            self.sel = (self.sel + 1) % n
        elif k == _K_LEFT:
            self.change(self.sel, -1)
        elif k == _K_RIGHT:
            self.change(self.sel, 1)
        elif k == _K_A:
            self.pick(self.sel)
        elif k == _K_B:
            self.back()
            return
        self.app.redraw()

    def _lines(self, g, label, v):
        """The lines a row takes: "label ... value" on one when it fits, else the label wrapped and
        the value on a line of its own (nothing is cut)."""
        cols = g.cols - 1            # a column kept for the left margin
        if len(label) + (len(v) + 1 if v else 0) <= cols:
            return 1
        return len(wrap(label, cols)) + (1 if v else 0)

    def draw(self, g):
        c = g.c
        fb = g.fb
        fb.fill(c.BG)
        lh = g.lh
        y = 2 + g.big_center(tr(self.title), 2, c.ACCENT)
        rows = [(tr(label), value) for label, value in self.rows()]     # the labels as shown
        n = len(rows)
        if self.sel >= n:
            self.sel = n - 1
        foot = foot_lines(g, tr(self.footer())) if g.h >= 100 else ()
        bottom = g.h - len(foot) * lh
        vals = [("" if value is None else tr(str(value))) for _, value in rows]
        for i in range(n):
            if vals[i] and i == self.sel and len(rows[i][0]) + len(vals[i]) + 3 <= g.cols - 1:
                vals[i] = "<" + vals[i] + ">"
        if self.note:
            lines = wrap(tr(self.note), g.cols - 1)
            keep = self._lines(g, rows[self.sel][0], vals[self.sel]) * lh + 2 if n else 0
            per = (bottom - y - 6 - keep) // lh  # all of it where it fits, else steps of the
            per = len(lines) if len(lines) <= per else max(2, per)   # room (two at least)
            self.pages = (len(lines) + per - 1) // per
            k = per * (self.page % self.pages)
            for ln in lines[k:k + per]:
                g.text(ln, _MX, y + 2, self.note_col if self.note_col >= 0 else c.WARN)
                y += lh
            if k + per > len(lines) > per:
                y += (k + per - len(lines)) * lh    # the rows stay put between the steps
        y += 4
        if self.sel < self.top:
            self.top = self.sel
        while self.top < self.sel:                   # the selected row whole on the screen
            used = 0
            for i in range(self.top, self.sel + 1):
                used += self._lines(g, rows[i][0], vals[i]) * lh + 2
            if y + used <= bottom:
                break
            self.top += 1
        yy = y
        last = self.top
        cols = g.cols - 1
        for i in range(self.top, n):
            label = rows[i][0]
            v = vals[i]
            k = self._lines(g, label, v)
            if yy + k * lh + 2 > bottom and i > self.top:
                break
            fg = c.DIM if self.dim(i) else c.FG
            if i == self.sel:
                fb.fill_rect(0, yy - 1, g.w, k * lh + 2, c.CURSOR)
                fg = c.BG
            if k == 1:
                g.text(label, _MX, yy, fg)
                if v:
                    g.right(v, g.w - 2, yy, fg)
                yy += lh
            else:
                for ln in wrap(label, cols):
                    g.text(ln, _MX, yy, fg)
                    yy += lh
                if v:
                    g.right(v, g.w - 2, yy, fg)
                    yy += lh
            yy += 2
            last = i
        if self.top > 0 or last < n - 1:             # more rows above / below: marks by the title
            g.right(("^" if self.top > 0 else " ") + ("v" if last < n - 1 else " "), g.w, 2, c.DIM)
        for i in range(len(foot)):
            g.text(foot[i], _MX, bottom + i * lh, c.DIM)

    def footer(self):  # type: () -> str
        return "A select  B back"


class Message(Screen):
    """A title over a wrapped text that UP/DOWN scroll; A or B goes on (to `then`, or the main menu)."""
    def __init__(self, app, title, text, then=None, col=-1):
        Screen.__init__(self, app)
        self.title = title
        self.text = text
        self.then = then
        self.col = col
        self.top = 0
        self.lines = None            # the text wrapped to the screen, on the first draw
        self.vis = 0                 # lines the screen shows at a time (known once drawn)

    def key(self, k):
        if k == _K_DOWN:
            self.top += 1
        elif k == _K_UP and self.top:
            self.top -= 1
        elif k == _K_A or k == _K_B:
            self.done()
            return
        self.app.redraw()

    def done(self):
        if self.then:
            self.then()
        else:
            self.app.menu()

    def footer(self, more):  # type: (bool) -> str
        return "A: OK"

    def draw(self, g):
        c = g.c
        g.fb.fill(c.BG)
        lh = g.lh
        y = 4 + g.big_center(tr(self.title), 2, c.WARN if self.col < 0 else self.col)
        lines = self.lines
        if lines is None:
            lines = self.lines = wrap(tr(self.text), g.cols - 1)
        foot = foot_lines(g, tr(self.footer(True)))
        vis = (g.h - y - len(foot) * lh) // lh
        if vis < 1:
            vis = 1
        if self.top > len(lines) - vis:
            self.top = max(0, len(lines) - vis)
        self.vis = vis
        for ln in lines[self.top:self.top + vis]:
            g.text(ln, _MX, y, c.FG)
            y += lh
        foot = foot_lines(g, tr(self.footer(self.top + vis < len(lines))))
        for i in range(len(foot)):
            g.text(foot[i], _MX, g.h - (len(foot) - i) * lh, c.DIM)


def foot_lines(g, text):
    """A footer's lines: wrapped, never cut (a column kept for the left margin)."""
    return wrap(text, g.cols - 1) if text else ()


def chosen(rules):
    """The options of a match in words: 'This match: Target 100, Hand size auto, ...'."""
    from domino.rules import option_choices
    out = ""
    for key, _, _ in option_choices(rules.vid):
        v = rules.options.get(key)
        if v is not None:
            out += (", " if out else "") + tr(OPTION_LABELS.get(key, key)) + " " + tr(str(v))
    return tr("This match: {0}.").format(out)


class HelpPage(Message):
    """A section of help.txt (a variant's rules, or the controls); A or B goes back. From a game
    (`rules`): the match's own options first and its target in the text; else the variant's
    default target ({target} in help.txt)."""
    def __init__(self, app, title, vid, back, rules=None):
        from ui.helptext import controls, help_text   # (loaded for the page: App.release drops it)
        if vid == "controls":
            text = controls(app.board, app.g.h < 100)
        else:
            text = help_text(vid)
            if rules is None:
                from domino.rules import Rules, variant
                rules = Rules(vid, variant(vid)[2])
                head = ""
            else:
                head = chosen(rules) + "\n"
            text = head + text.replace("{target}", str(rules.target))
        Message.__init__(self, app, title, text, None, app.g.c.ACCENT)
        self.back_to = back

    def done(self):
        self.app.go(self.back_to)

    def footer(self, more):
        return tr("{0}B back").format(tr("v more  ") if more else "")

