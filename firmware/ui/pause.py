"""Screens the table needs now and then, loaded only then: the pass-and-play curtain and the in-game
menu (everything X and Y do, for boards that lack them)."""
from .screen import Screen
from .widgets import ListScreen, HelpPage
from micropython import const

_K_A = const(0x010)  # = ui.input.K_A
_K_B = const(0x020)  # = ui.input.K_B


class Curtain(Screen):
    """Pass-and-play: names the next player and shows no tiles until that player presses A."""

    def __init__(self, app, table, seat):
        Screen.__init__(self, app)
        self.table = table
        self.seat = seat

    def key(self, k):
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
            app.menu("Game saved")
        elif label == "Abandon game":
            if self.note == "A again to abandon":
                app.store().clear_game()
                app.menu("Game abandoned")
            else:
                self.note = "A again to abandon"

    def back(self):
        self.app.go(self.back_to)
