"""Screens the table needs now and then, loaded only then: the pass-and-play curtain and the in-game
menu (everything X and Y do, for boards that lack them)."""
from .screen import Screen, drop_module
from .widgets import ListScreen, HelpPage
from . import brain, words
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
    """The in-game menu (B or Y on the table): everything X/Y do on boards that lack them, the move
    log, taking back your last move (one person against the AI), the scores on one page (the
    128x64 OLED), settings."""

    def __init__(self, app, table, back_to=None):
        ListScreen.__init__(self, app, "Paused")
        self.table = table
        self.back_to = back_to or table

    def enter(self):
        """The table's drawing and turn code and the AI's buffers go while the menu is open (each
        is loaded or built again when next needed): the menu's pages get the room."""
        for name in ("ui.pick", "ui.paint", "ui.place", "ui.sheet", "ui.movelog"):
            drop_module(name)
        brain.release()

    def rows(self):
        t = self.table
        out = [("Resume", None)]
        at_table = self.back_to is t and t.mode == 1
        if at_table:
            out.append(("Hint", None))
        if at_table and t.solo and t.undo_to >= 0:
            u = "Undo " + t.undo_text
            out.append((u if len(u) <= self.app.g.cols - 2 else "Undo last move", None))
        out.append(("Moves", None))
        if t.compact:
            out.append(("Scores", None))
        return out + [("Score sheet", None), ("Settings", None), ("Rules help", None),
                      ("Save and quit", None), ("Abandon game", None)]

    def pick(self, i):
        label = self.rows()[i][0]
        app = self.app
        t = self.table
        if label == "Resume":
            app.go(self.back_to)
        elif label == "Hint":
            app.go(t)
            app.need("ui.pick").hint(t)
        elif label.startswith("Undo "):
            self.undo()
        elif label == "Moves":
            app.go(app.need("ui.movelog").MoveLog(app, t.game, self))
        elif label == "Scores":
            from .sheet import ScoresView
            app.go(ScoresView(app, t, self))
        elif label == "Score sheet":
            from .sheet import SheetView
            app.go(SheetView(app, t, self))
        elif label == "Settings":
            self.settings()
        elif label == "Rules help":
            r = t.game.match.rules
            app.go(HelpPage(app, r.title, r.vid, self, r))
        elif label == "Save and quit":
            app.menu("Game saved")
        elif label == "Abandon game":
            if self.note == "A again to abandon":
                app.store().clear_game()
                app.menu("Game abandoned")
            else:
                self.note = "A again to abandon"

    def undo(self):
        """Take back your last move (and the AI's moves after it; never past a tile drawn from the
        stock, ui/table.py): the save is written again without them and the game resumed from it."""
        app = self.app
        t = self.table
        m = t.game.match
        keep = m.nmoves
        m.nmoves = t.undo_to
        try:
            app.saves().save_game(m, t.game.extras())   # no move token: the whole record again
        except OSError as e:
            m.nmoves = keep
            self.note = app.need("savegame").failed(e)
            return
        app.table = None
        app.pending = ("resume", words.undone(t.undo_text))
        app.screen = Screen(app)

    def settings(self):
        """The settings, with the table out of memory (as from the main menu: the game is saved
        after every move); leaving them resumes the game from its save."""
        t = self.table
        if t.unsaved:
            t.save()                             # the flash must hold the game before it goes
            if t.unsaved:
                self.note = t.msg
                return
        app = self.app
        app.table = None
        app.pending = ("settings", None)
        app.screen = Screen(app)

    def back(self):
        self.app.go(self.back_to)
