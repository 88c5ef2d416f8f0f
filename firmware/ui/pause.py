"""Screens the table needs now and then, loaded only then: the pass-and-play curtain and the in-game
menu (everything X and Y do, for boards that lack them)."""
from .screen import Screen, drop_module, ticks_diff, tr
from .widgets import ListScreen, HelpPage, Message
from . import brain, words
from micropython import const
from domino.tiles import name as tile_name

_K_A = const(0x010)  # = keys.K_A
_K_B = const(0x020)  # = keys.K_B
_EV_PLAY = const(1)       # = domino.round._EV_PLAY
_TILE_MASK = const(0x1F)  # = domino.round._TILE_MASK
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
            self.table.show_hand(self.seat)
            self.table.set_mode(0)
            self.app.go(self.table)
        elif k == _K_B:
            self.table.pause(self)

    def draw(self, g):
        """Only text, over the whole screen filled: nothing here can show a tile."""
        c = g.c
        g.fb.fill(c.BG)
        name = self.table.game.names[self.seat]
        small = g.h < 100
        lh = g.lh
        y = 2 if small else g.h // 2 - 2 * lh
        y += g.big_center(tr("Pass to"), y, c.DIM) + (2 if small else 6)
        y += g.big_center(name, y, c.ACCENT) + (4 if small else 10)
        ready = tr("Press A when ready")
        if len(ready) > g.cols:
            ready = tr("A when ready")
        g.center(ready, y, c.FG)
        g.center(tr("B: menu"), y + lh + 1, c.DIM)


def last_move_of(match, seat):
    """(moves of this round before seat's last move in it, that move's tiles in words: "3-5",
    "5-5+6-6"), or (-1, "") when seat has not moved this round. The round's events say who played
    each tile; its moves, how many tiles each placed (a multi-double move: one per arm it names)."""
    rd = match.round
    ev = rd.events
    mv = match.moves
    j = 0                        # moves walked so far
    left = 0                     # tiles of move j - 1 still to come among the events
    at = -1
    text = ""
    for i in range(rd.nev):
        s = ev[2 * i]
        if s >> 4 != _EV_PLAY:
            continue
        s &= 15
        if not left:                 # (a round's events and moves agree: both hold every move)
            left = 1
            if mv[2 * j + 1]:        # a multi-double move (MULTI, 0x100: the only moves with a
                # high byte): a tile per arm it names
                left = 0
                x = mv[2 * j] & 15
                while x:
                    left += x & 1
                    x >>= 1
            j += 1
            if s == seat:
                at = j - 1
                text = ""
        if at == j - 1:
            text += ("+" if text else "") + tile_name(ev[2 * i + 1] & _TILE_MASK)
        left -= 1
    return at, text


class Pause(ListScreen):
    """The in-game menu (B or Y on the table): everything X/Y do on boards that lack them, the move
    log, the line at a readable size, taking back your last move (one person against the AI:
    before it answers, or in a practice game with its answers, as often as wanted), the scores on
    one page (the 128x64 OLED), settings."""

    def __init__(self, app, table, back_to=None):
        ListScreen.__init__(self, app, "Paused")
        self.table = table
        self.back_to = back_to or table

    def enter(self):
        """The table's drawing and turn code and the AI's buffers go while the menu is open (each
        is loaded or built again when next needed): the menu's pages get the room."""
        for name in ("ui.pick", "ui.paint", "ui.place", "ui.sheet", "ui.movelog", "ui.lineview"):
            drop_module(name)
        brain.release()

    def rows(self):
        """The same rows in the same places every time (what cannot be done now is shown dim and
        says why when chosen): a player's fingers learn where each one is."""
        out = [("Resume", None), ("Hint", None)]
        if self.why_not("Undo") is None:
            u = tr("Undo {0}").format(self.undo_point()[1])
            out.append((u if len(u) <= self.app.g.cols - 2 else "Undo last move", None))
        else:
            out.append(("Undo", None))
        out.append(("Moves", None))
        out.append(("The line", None))
        if self.table.compact:
            out.append(("Scores", None))
        return out + [("Score sheet", None), ("Settings", None), ("Rules help", None),
                      ("Save and quit", None), ("Abandon game", None)]

    def why_not(self, label):
        """Why the row `label` cannot be chosen now (None: it can): the hint and undo only on your
        turn at the table, undo only against the AI; in a game that counts only until the next
        player acts (an answer seen is never taken back), in a practice game back to your first
        move of the round."""
        t = self.table
        if label == "Hint" and (self.back_to is not t or t.mode != 1):
            return "Hint: on your turn"
        if label == "Undo":
            if self.back_to is not t:
                return "Undo: on your turn"
            if not t.solo:
                return "Undo: only against the AI"
            if self.undo_point()[0] < 0:
                return "Undo: no move of yours this round" if t.game.practice else \
                    "Undo: only before the next player moves"
        return None

    def undo_point(self):
        """(moves to keep, the move taken back in words): in a practice game your last move of the
        round and everything after it, else the move just played (ui/table.py allow_undo)."""
        t = self.table
        if t.game.practice:
            return last_move_of(t.game.match, t.shown)
        return t.undo_to, t.undo_text

    def dim(self, i):
        label = self.rows()[i][0]
        return (label == "Hint" or label == "Undo") and self.why_not(label) is not None

    def pick(self, i):
        label = self.rows()[i][0]
        app = self.app
        t = self.table
        if self.dim(i):
            self.note = self.why_not(label)
            self.note_col = -1
            return
        if label == "Resume":
            app.go(self.back_to)
        elif label == "Hint":
            app.go(t)
            app.need("ui.pick").hint(t)
        elif i == 2:                                 # Undo, and what it takes back
            self.undo()
        elif label == "Moves":
            app.go(app.need("ui.movelog").MoveLog(app, t.game, self))
        elif label == "The line":
            from .lineview import LineView
            app.go(LineView(app, t, self))
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
            why = save_checked(app, t)
            if why is None:
                app.menu("Game saved")
            else:                                    # said, and the game plays on
                self.note = "Not saved"
                from .helptext import help_text
                app.go(Message(app, "Not saved", why + "\n" + help_text("notsaved"), self.back_here))
        elif label == "Abandon game":
            if self.note == "A again to abandon":
                app.saves().clear_game()
                app.menu("Game abandoned")
            else:
                self.note = "A again to abandon"

    def undo(self):
        """Take back your last move. In a game that counts, offered only until the next player acts
        (ui/table.py: a play, pass or draw after it would show something of a hidden hand, and
        taking it back would let the move be chosen again knowing it); in a practice game, which is
        not counted, with everything after it, as often as wanted. The save is written again
        without those moves and the game resumed from it."""
        app = self.app
        t = self.table
        m = t.game.match
        keep = m.nmoves
        to, text = self.undo_point()
        m.nmoves = to
        try:
            app.unsaved = True
            app.saved = app.saves().save_game(m, t.game.extras())   # no token: the whole record
            app.unsaved = False
        except OSError as e:
            m.nmoves = keep
            self.note = app.need("savegame").failed(e)
            return
        except MemoryError:          # the app saves the table's match again and plays on: the
            m.nmoves = keep          # whole of it, as the round on the table stands
            raise
        app.table = None
        app.pending = ("resume", words.undone(text))
        app.screen = Screen(app)

    def settings(self):
        """The settings, with the table out of memory (as from the main menu); leaving them resumes
        the game from its save, so the save is made sure of first (as Save and quit does)."""
        app = self.app
        why = save_checked(app, self.table)
        if why is not None:                          # said, and the game plays on
            self.note = "Not saved"
            app.go(Message(app, "Not saved", why, self.back_here))
            return
        app.table = None
        app.pending = ("settings", None)
        app.screen = Screen(app)

    def back(self):
        self.app.go(self.back_to)

    def back_here(self):
        self.app.go(self)


def verify(f, want):
    """True when game.txt holds, byte for byte, the save whose checksum save_game returned: read
    back a piece at a time and its checksum worked out again (what "saved" is said on). Here, not in
    savegame.py, which every move loads."""
    from savegame import SumWriter, hexsum, GAME
    w = SumWriter(None)
    last = b""
    at = None
    start = True
    try:
        with f.open(GAME, "rb") as src:
            while True:
                p = src.readline(128)
                if not p:
                    break
                if start:
                    at = hexsum(w.a, w.b)
                last = p if start else b""
                w.add(p)
                start = p[-1:] == b"\n"
    except OSError as e:
        if e.args and e.args[0] == 28:       # the storage is full (the browser's quota): said so
            raise
        return False
    return bool(want) and start and at == want and last == ("sum " + want + "\n").encode()


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
        if not verify(f, app.saved):
            raise OSError(5)
    except OSError as e:
        app.unsaved = True
        return app.need("savegame").failed(e)
    app.unsaved = False
    return None
