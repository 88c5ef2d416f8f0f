"""The letter editors of the New game form, loaded only while one is open. The deal code: six letter
slots "ABC-DEF" (Crockford base 32, as the round-end page shows them). UP/DOWN change the letter,
LEFT/RIGHT move between the slots and a seventh place, "Random"; A goes to the next slot and
confirms on the last one (so four-button boards need only UP/DOWN/A), A on "Random" clears the code,
B cancels. A player's name (pass-and-play): the same with five slots of letters (a blank ends the
name) and "Clear" (back to the seat's default name)."""
from micropython import const
from domino.rng import _ALPHABET, code, parse_code
from .screen import Screen, drop_module, tr
from .gfx import wrap
_K_UP = const(0x001)     # = keys.K_UP
_K_DOWN = const(0x002)   # = keys.K_DOWN
_K_LEFT = const(0x004)   # = keys.K_LEFT
_K_RIGHT = const(0x008)  # = keys.K_RIGHT
_K_A = const(0x010)      # = keys.K_A
_K_B = const(0x020)      # = keys.K_B
_K_X = const(0x040)      # = keys.K_X



def _longer(long, short, cols):
    """A help line in the language in use: the long wording where it fits on a line, else the short."""
    long = tr(long)
    return long if len(long) <= cols else tr(short)


class CodeEditor(Screen):
    """Edits form.deal (a code "ABC-DEF", or None for a random deal); goes back to the form."""

    size = 6                         # slots
    alpha = _ALPHABET
    title = "Deal code"
    label = "Random"                 # the place after the last slot

    def __init__(self, app, form):
        Screen.__init__(self, app)
        self.form = form
        self.v = bytearray(self.size)         # letter index of each slot
        self.pos = 0
        self.four = not (getattr(app.board, "KEYS", _K_X) & _K_X)     # four buttons: X/Y are UP/DOWN
        self.foot = None                      # the keys' help lines, wrapped at the first draw
        if form.deal:
            self.set(parse_code(form.deal))

    def set(self, seed):
        for i in range(6):
            self.v[5 - i] = (seed >> (5 * i)) & 31

    def seed(self):
        s = 0
        for i in range(6):
            s = (s << 5) | self.v[i]
        return s

    def confirm(self):
        self.done(code(self.seed()))

    def key(self, k):
        pos = self.pos
        n = self.size
        if k == _K_UP or k == _K_DOWN:
            if pos < n:
                a = len(self.alpha)
                self.v[pos] = (self.v[pos] + (1 if k == _K_UP else a - 1)) % a
        elif k == _K_LEFT:
            self.pos = (pos + n) % (n + 1)
        elif k == _K_RIGHT:
            self.pos = (pos + 1) % (n + 1)
        elif k == _K_A:
            if pos == n:
                self.done(None)              # "Random" / "Clear"
                return
            if pos == n - 1:
                self.confirm()
                return
            self.pos = pos + 1
        elif k == _K_B:
            self.back()
            return
        self.app.redraw()

    def back(self):
        self.done(self.form.deal)

    def done(self, deal):
        form = self.form
        form.deal = deal
        if deal:
            form.last_deal = deal
        form.note = None
        self.app.go(form)
        drop_module("ui.dealcode")           # gone once this screen is: loaded again when asked

    def draw(self, g):
        """Sizes from the framebuffer and the font: the letters in the board's font (the OLED's
        8x8 font twice as large where seven cells fit across); the keys' help under them."""
        c = g.c
        fb = g.fb
        small = g.h < 100
        n = self.size
        dash = n == 6                        # a deal code: ABC-DEF
        fb.fill(c.BG)
        y = 2 + g.big_center(tr(self.title), 2, c.ACCENT) + (4 if small else 12)
        k8 = g.k8                                    # (framebuf's 8x8 font: as large as
        k = 2 if 7 * 18 * k8 <= g.w else 1           # the screen's text, twice where it fits)
        lh = g.lh
        bh = g.lh if g.font is not None else 8 * k * k8   # a letter's cell
        cw = g.cw + 4 if g.font is not None else 8 * k * k8 + 2
        foot = self.foot
        if foot is None:                             # (once: a redraw allocates nothing)
            if self.four:
                help1 = _longer("X/Y: letter  B+X/B+Y: slot", "X/Y letter B+X/Y slot", g.cols)
            else:
                help1 = _longer("UP/DOWN: letter  < >: slot", "^v letter <>move", g.cols)
            help2 = _longer("A: next (last: OK)  B: back", "A next/OK B back", g.cols)
            foot = self.foot = wrap(help1, g.cols) + wrap(help2, g.cols)
        if g.h >= 200:
            y = (g.h - bh - 2 * lh) // 2 - lh        # tall screens: the code in the middle
        cells = n + 1 if dash else n
        x = (g.w - cells * cw) // 2 + 2
        for i in range(cells):
            if dash and i == 3:
                g.big("-", x, y, c.DIM, k)
            else:
                s = i if not dash or i < 3 else i - 1
                col = c.FG
                if s == self.pos:
                    fb.fill_rect(x - 2, y - 2, cw, bh + 4, c.CURSOR)
                    col = c.BG
                ch = self.alpha[self.v[s]]
                g.big(ch if ch != " " else "_", x, y, col, k)
            x += cw
        y += bh + (6 if small else 14)
        col = c.FG
        if self.pos == n:
            lw = g.width(tr(self.label)) + 8
            fb.fill_rect((g.w - lw) // 2, y - 1, lw, lh + 2, c.CURSOR)
            col = c.BG
        g.center(tr(self.label), y, col)
        a = 0                                        # the first line of the help shown: the
        if y + lh + len(foot) * lh > g.h:            # last alone, or none, where it does not fit
            a = len(foot) - 1 if y + 2 * lh <= g.h else len(foot)
        for i in range(a, len(foot)):
            g.text(foot[i], 0, g.h - (len(foot) - i) * lh, c.DIM)


class NameEditor(CodeEditor):
    """A player's name for pass-and-play (form: the Names list, seat: whose): five slots of letters
    and digits, a blank ends the name; "Clear" gives the seat its default name back."""
    size = 5
    alpha = " ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789"
    title = "Names"
    label = "Clear"

    def __init__(self, app, form, seat):
        Screen.__init__(self, app)
        self.form = form
        self.seat = seat
        self.title = tr("Player {0}'s name").format(seat + 1)   # whose name is typed
        self.v = bytearray(5)
        self.pos = 0
        self.four = not (getattr(app.board, "KEYS", _K_X) & _K_X)
        self.foot = None
        name = form.name(seat)
        for i in range(min(5, len(name))):
            j = self.alpha.find(name[i].upper())
            self.v[i] = j if j > 0 else 0

    def confirm(self):
        out = ""
        for i in range(5):
            out += self.alpha[self.v[i]]
        self.done(out.strip())

    def done(self, name):
        """name: the name typed; None: "Clear" (the seat's default name)."""
        why = self.form.set_name(self.seat, name or "")
        self.form.note = why                 # (a name taken: said, and the name stays as it was)
        self.back()

    def back(self):
        self.app.go(self.form)
        drop_module("ui.dealcode")
