"""Screens the table needs now and then, loaded only then: the pass-and-play curtain and the in-game
menu (everything X and Y do, for boards that lack them)."""
from .app import Screen, ticks_diff
from .widgets import ListScreen, HelpPage, Message, help_text
from micropython import const

_K_A = const(0x010)  # = ui.input.K_A
_K_B = const(0x020)  # = ui.input.K_B
_SETTLE_MS = const(600)  # quiet wanted before the curtain lifts (passing a device takes longer)


class Curtain(Screen):
    """Pass-and-play: names the next player and shows no tiles until that player presses A. Only a
    deliberate press lifts it: one that starts SETTLE_MS after the curtain appeared and after every
    earlier key activity (a press, a key still held), so the tail of the last player's taps (A
    pressed twice quickly: the move, then the curtain) never shows the next hand to the wrong
    person; a press too early only restarts the wait."""

    def __init__(self, app, table, seat):
        Screen.__init__(self, app)
        self.table = table
        self.seat = seat
        self.calm = 0                # the last key activity (or the curtain's appearance)

    def enter(self):
        self.calm = self.app.board.ticks_ms()
        self.app.inp.flush()         # keys held now (the last player's) do nothing until let go

    def step(self):
        if self.app.inp.raw:         # a key still down: not settled
            self.calm = self.app.board.ticks_ms()

    def key(self, k):
        now = self.app.board.ticks_ms()
        if ticks_diff(now, self.calm) < _SETTLE_MS:
            self.calm = now          # still the last player's taps
            return
        if k == _K_A:
            self.table.shown = self.seat
            self.table.mode = 0
            self.app.go(self.table)
        elif k == _K_B:
            self.table.pause(self)

    def draw(self, g):
        """Only text, and none of it where the hand would be: nothing here can show a tile."""
        c = g.c
        g.fb.fill(c.BG)
        name = self.table.game.names[self.seat]
        small = g.h < 100
        y = 2 if small else g.h // 2 - 40
        y += g.big_center("Pass to", y, c.DIM) + (2 if small else 6)
        y += g.big_center(name, y, c.ACCENT) + (4 if small else 10)
        g.center("Press A when ready", y, c.FG)
        g.center("B: menu", y + 10, c.DIM)


class Pause(ListScreen):
    """The in-game menu (B or Y on the table): everything X/Y do on boards that lack them."""

    def __init__(self, app, table, back_to=None):
        ListScreen.__init__(self, app, "Paused")
        self.table = table
        self.back_to = back_to or table

    def rows(self):
        out = [("Resume", None)]
        if self.back_to is self.table and self.table.mode == 1:
            out.append(("Hint", None))
        return out + [("Score sheet", None), ("Rules help", None), ("Save and quit", None),
                      ("Abandon game", None)]

    def pick(self, i):
        label = self.rows()[i][0]
        app = self.app
        t = self.table
        if label == "Resume":
            app.go(self.back_to)
        elif label == "Hint":
            app.go(t)
            app.need("ui.pick").hint(t)
        elif label == "Score sheet":
            from .sheet import SheetView
            app.go(SheetView(app, t, self))
        elif label == "Rules help":
            app.go(HelpPage(app, t.game.match.rules.title, t.game.match.rules.vid, self))
        elif label == "Save and quit":
            why = save_checked(app, t)
            if why is None:
                app.menu("Game saved")
            else:                                    # said, and the game plays on
                self.note = "Not saved"
                app.go(Message(app, "Not saved", why + "\n" + help_text("notsaved"), self.back_here))
        elif label == "Abandon game":
            if self.note == "A again to abandon":
                app.saves().clear_game()
                app.menu("Game abandoned")
            else:
                self.note = "A again to abandon"

    def back(self):
        self.app.go(self.back_to)

    def back_here(self):
        self.app.go(self)


def save_checked(app, t):
    """Make sure game.txt holds the match on the table (saved again when the last save failed, or
    none was made since a resume) and read it back against the checksum its save wrote: None when
    it does, else the line to tell the player (the page adds help.txt's [notsaved]: how to free
    space). Only then may "saved" be said."""
    g = t.game
    f = app.saves()
    try:
        if app.unsaved or not app.saved:             # (a resumed game has not been saved here yet)
            app.unsaved = True
            app.saved = f.save_game(g.match, g.extras())
            app.unsaved = False
        if not f.verify(app.saved):
            raise OSError(5)
    except OSError as e:
        app.unsaved = True
        return app.need("savegame").failed(e)
    app.unsaved = False
    return None
