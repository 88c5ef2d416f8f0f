"""The table of a link game (docs/LINK.md): the ordinary table, with the moves of the seats this
device does not play coming over the cable.

- Only this device's person's hand is shown (no curtain: the other person holds the other screen).
- Input only on this device's turn; while the other device plays, the message area says whose turn
  it is ("Bob thinking" with the wheel for the host's AI, "Host's turn"), and the keys pressed
  meanwhile are dropped, as during an AI's think on the ordinary table (B / Y open the game menu).
- A move from the other device is shown as an AI's is (the table's rows that changed, the words
  in the message area) and saved at once, as this device's own are.
- The cable out: the message area says so (in any mode); the game waits, and goes on by itself when
  the cable is back (the session resends).
- Round ends are turned here, as on the ordinary table (the round-end pages wait for A): the
  session holds the other device's next-round moves until this one has dealt (Session hold).
- No undo: the other device has seen the move.
"""
from micropython import const
from ui.table import Table, Game
from ui.screen import ticks_diff, tr

_NONE = const(255)         # = domino.tiles.NONE
_M_RUN = const(0)          # = ui.table._M_RUN
_M_WAIT = const(3)         # = ui.table._M_WAIT
_P_MSG = const(4)          # = ui.table._P_MSG
_FAILED = const(3)         # = link.session.FAILED
_PLAYING = const(2)        # = link.session.PLAYING
_K_A = const(0x010)        # = keys.K_A
_WHEEL_MS = const(120)     # a step of the thinking wheel while the other device's AI thinks
_OUT_MS = const(10000)     # the cable out this long: the message says what to do
CABLE_OUT = "Link cable out: waiting"
CABLE_LONG = "Link cable out: check both ends (the game is saved)"


def cable_text(s, now):
    """What the message area says while the cable is out: at first that the game waits, then
    what to do."""
    t = s.ch.last_rx
    return CABLE_LONG if t is None or ticks_diff(now, t) >= _OUT_MS else CABLE_OUT


class LinkGame(Game):
    """A Game whose save says it is linked (the `link` header: role, game id, seat owners)."""

    def __init__(self, match, kinds, names, sheet, link):
        Game.__init__(self, match, kinds, names, sheet)
        self.link = link

    def extras(self):
        e = Game.extras(self)
        e["link"] = self.link
        return e


class LinkTable(Table):
    def __init__(self, app, game, session):
        Table.__init__(self, app, game)
        self.link = session
        self.me = session.my_seat()
        self.solo = True                 # one person at this screen: its hand face up, no curtain
        self.shown = self.me
        self.waiting = None              # what the message area says while the other device plays
        self.wheel_at = 0
        self.was_up = True
        self.seen = None                 # before_move's picture of the move coming (moving/moved)
        session.listener = self

    def name(self, s):
        return None if s == self.me else self.game.names[s]

    def own_seat(self):
        """This device's person's seat: on the guest not seat 1, which is the host's person."""
        return self.me

    def allow_undo(self, to, text):
        pass                             # the other device has seen the move: no taking it back

    # --- the match advancing -------------------------------------------------------------------
    def step(self):
        s = self.link
        if s.state == _FAILED and self.mode != _M_RUN and self.mode != _M_WAIT:
            self.mode = _M_RUN           # a person's turn ends there: the message says why
        up = s.up()
        out = cable_text(s, self.now()) if not up else None
        if s.state == _PLAYING and (up != self.was_up or out == CABLE_LONG and self.msg == tr(CABLE_OUT)):
            if not up:
                self.say(out, 0, self.app.g.c.WARN)
            elif self.msg == tr(CABLE_OUT) or self.msg == tr(CABLE_LONG):
                self.say("Link cable back", 1500, self.app.g.c.GOOD)
            self.was_up = up
            self.waiting = None
        Table.step(self)
        if self.thinking != _NONE and self.waiting is not None:     # the other device's AI
            now = self.now()
            if ticks_diff(now, self.wheel_at) >= _WHEEL_MS and not self.app.lean:
                self.wheel_at = now
                self.frame += 1
                y = self.wheel_y()
                self.app.paint_rows(self._draw_wheel, y - 5, y + 5)

    def advance(self):
        s = self.link
        if s.state == _FAILED:
            if self.waiting != s.message:
                self.waiting = s.message
                self.thinking = _NONE
                self.say(tr("{0}\nA: menu").format(s.message), 0, self.app.g.c.WARN)
            return
        m = self.game.match
        rd = m.round
        if m.round_over() or rd.legal() == 0 or s.to_move() >= 0:
            self.waiting = None
            over = m.over
            Table.advance(self)          # the round's end, forced draws and passes, our own seats
            if m.over and not over:      # the closing line both devices print alike (on the
                print("link: over moves=%d digest=%d scores=%s" % (   # USB REPL, the tests')
                    s.mine, s.digest, ",".join([str(x) for x in m.scores])))
            return
        seat = rd.turn
        ai = False                       # the other device's AI thinks: the wheel turns
        if not s.up():
            text = cable_text(s, self.now())
        elif s.message:                  # the other device is at another game
            text = s.message
        elif s.owners[seat] in "HG" and not s.is_mine(seat):
            text = tr("{0}'s turn").format(self.game.names[seat])
        elif s.is_mine(seat):            # ours, but the other device has moves we lack: its turn
            text = tr("Catching up with the other device")
        else:
            text = self.app.need("ui.words").thinking(self.game.names[seat])
            ai = True
        if text != self.waiting:
            self.waiting = text
            self.thinking = seat if ai else _NONE
            self.say(text, 0, self.app.g.c.WARN if not s.up() else -1)
            app = self.app
            app.need("ui.paint")         # the other device's move is drawn as soon as it comes:
            app.need("ui.place")         # the code it draws with loaded while waiting for it

    def on_tick(self):
        """The AI's search tick: the cable is served too (acknowledgements, keep-alives)."""
        self.link.poll(self.app.board.ticks_ms())
        return Table.on_tick(self)

    def play(self, mv, hide=False):
        """This device's move (its person's or, on the host, an AI seat's): through the session,
        which plays it, sends it and calls moving / moved. News from the other device may have come
        while the move was chosen (it stopped, it has moves this one lacks): the move is not made
        then, and the message area says why (advance)."""
        s = self.link
        if s.to_move() < 0 or not s.match.round.is_legal(mv):
            self.mode = _M_RUN
            self.waiting = None
            self.app.redraw()
            return
        s.play(mv)

    def key(self, k):
        if self.link.state == _FAILED and k == _K_A:
            self.app.menu(self.link.message)
            return
        Table.key(self, k)

    # --- the session's listener ----------------------------------------------------------------
    def moving(self, session, seat, mv, local):
        self.seen = self.before_move(mv)

    def moved(self, session, seat, mv, local):
        seen = self.seen
        self.seen = None
        self.waiting = None
        self.thinking = _NONE
        self.after_move(seen)
        if not local:
            self.load_hand()
            self.wait(self.anim_ms())

    def anim_ms(self):
        from ui.screen import ANIM_MS
        return ANIM_MS[self.app.settings["anim"]]
