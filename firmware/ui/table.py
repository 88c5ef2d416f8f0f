"""The table: layout, hand, scores; it drives the match. AI seats think here (the screen keeps moving
through `on_tick`), forced draws and passes are shown one at a time, every move is saved at once,
and in a game with several humans a curtain hides the table until the next player presses A.
"""
import gc
from micropython import const
from domino.tiles import LO, HI, NONE, DOUBLE
from domino.round import MULTI, CLOSE, ARM_SHIFT, EV_DRAW
from domino.rules import FAM_GOAT
from ui.input import K_UP, K_DOWN, K_LEFT, K_RIGHT, K_A, K_B, K_X, K_Y, EV_PRESS, EV_KIND, EV_KEY
from ui.app import Screen, ListScreen, ANIM_MS, ticks_diff, drop_module
from ui.gfx import TableView, CHAIN_OF_ARM
from ui import brain

M_RUN = const(0)        # the match advances by itself (AI, forced draws, round end)
M_PICK = const(1)       # a human picks a tile from the hand
M_END = const(2)        # ... and where it goes, when it fits several ends
M_WAIT = const(3)       # showing what just happened for a moment
M_ACK = const(4)        # a message that waits for A

ARM_WORDS = ("left", "right", "up", "down")
THINK_FRAME_MS = const(110)


def tile_name(t):
    return str(LO[t]) + "-" + str(HI[t])


def describe(rd, m):
    """A move in words: '3-5 right', '5-5 left + 6-6 up', '4-4 down closed'."""
    lay = rd.layout
    if m & MULTI:
        out = ""
        for a in range(4):
            if (m >> a) & 1:
                out += (" + " if out else "") + tile_name(DOUBLE[lay.end[a]]) + " " + ARM_WORDS[a]
                if (m >> (4 + a)) & 1:
                    out += " closed"
        return out
    t = m & 31
    if lay.lead == NONE:
        return tile_name(t)
    s = tile_name(t) + " " + ARM_WORDS[(m >> ARM_SHIFT) & 3]
    return s + " closed" if m & CLOSE else s


class Game:
    """A match plus what the save header holds about the seats: kinds, names, the score sheet."""

    def __init__(self, match, kinds, names, sheet=""):
        self.match = match
        self.kinds = kinds
        n = match.rules.players
        if len(names) != n:
            from ui.menus import seat_names
            names = seat_names(kinds)
            drop_module("ui.menus")
        self.names = names
        self.sheet = sheet           # finished rounds: "15,-;+8,20" (per side; +N remembered)
        self.humans = 0
        for k in kinds:
            if k == "human":
                self.humans += 1
        self.counted = False         # statistics written for this match
        self.stats = None            # the variant's statistics row after this match

    def extras(self):
        return {"seats": ",".join(self.kinds), "names": ",".join(self.names), "sheet": self.sheet}

    def side_name(self, side):
        r = self.match.rules
        if r.teams:
            return self.names[side] + "+" + self.names[side + 2]
        return self.names[side]

    def you(self):
        """The seat whose result the statistics count: seat 0 when human."""
        return 0 if self.kinds[0] == "human" else NONE


class Table(Screen):
    def __init__(self, app, game):
        Screen.__init__(self, app)
        self.game = game
        g = app.g
        w = g.w
        h = g.h
        self.compact = h < 100
        hs = 5 if self.compact else max(6, min(14, h // 17))
        self.hs = hs
        self.hand_h = 2 * hs + 7
        self.head_h = 9 if self.compact else 19
        self.msg_h = 0 if self.compact else 10
        self.hand_y = h - self.hand_h
        self.msg_y = self.hand_y - self.msg_h
        top = self.head_h + 1
        self.view = TableView(2, top, w - 4, self.msg_y - top - 1)
        self.hand = bytearray(28)
        self.nh = 0
        self.hfirst = 0
        self.hvis = (w - 4) // (hs + 3)
        self.cursor = 0
        self.cursor_tile = NONE
        self.playable = 0            # mask of tiles with a legal move
        self.opts = [0] * 24         # legal moves of the chosen tile
        self.nopts = 0
        self.opt = 0
        self.hint_move = -1
        self.mode = M_RUN
        self.until = 0
        self.msg = ""
        self.msg_col = g.c.FG
        self.msg_until = 0
        self.last = 0                # tiles of the last move (outlined)
        self.frame = 0
        self.anim_t = 0
        self.pause_req = False
        self.thinking = NONE         # seat whose AI is thinking
        solo = game.humans == 1
        self.shown = NONE            # seat whose hand is face up
        if solo:
            for s in range(game.match.rules.players):
                if game.kinds[s] == "human":
                    self.shown = s
        self.solo = solo

    # --- helpers -------------------------------------------------------------------------------
    def now(self):
        return self.app.board.ticks_ms()

    def say(self, text, ms=0, col=-1):
        """Show a message on the message line (for `ms`, or until the next one)."""
        self.msg = text
        self.msg_col = col if col >= 0 else self.app.g.c.FG
        self.msg_until = self.now() + ms if ms else 0
        self.app.redraw()

    def wait(self, ms):
        if ms > 0:
            self.mode = M_WAIT
            self.until = self.now() + ms
        self.app.redraw()

    def save(self):
        try:
            self.app.store.save_game(self.game.match, self.game.extras())
        except OSError as e:
            self.say("Not saved: " + str(e), 3000, self.app.g.c.WARN)
        gc.collect()

    def enter(self):
        drop_module("ui.menus")
        drop_module("ui.sheet")
        gc.collect()

    def _load_hand(self):
        m = self.game.match
        self.nh = 0
        if self.shown == NONE:
            return
        h = m.round.hands[self.shown]
        for t in range(28):
            if (h >> t) & 1:
                self.hand[self.nh] = t
                self.nh += 1
        if self.cursor_tile != NONE:                 # keep the cursor on the same tile
            for i in range(self.nh):
                if self.hand[i] == self.cursor_tile:
                    self.cursor = i
        if self.cursor >= self.nh:
            self.cursor = self.nh - 1 if self.nh else 0

    def _moves_of(self, t):
        """Fill self.opts with the legal moves that place tile t."""
        rd = self.game.match.round
        n = rd.legal()
        k = 0
        lay = rd.layout
        for i in range(n):
            m = rd.buf[i]
            if m & MULTI:
                hit = False
                for a in range(4):
                    if (m >> a) & 1 and DOUBLE[lay.end[a]] == t:
                        hit = True
                if not hit:
                    continue
            elif m & 31 != t:
                continue
            if k < len(self.opts):
                self.opts[k] = m
                k += 1
        self.nopts = k
        return k

    def _playable_mask(self):
        rd = self.game.match.round
        n = rd.legal()
        lay = rd.layout
        mask = 0
        for i in range(n):
            m = rd.buf[i]
            if m & MULTI:
                for a in range(4):
                    if (m >> a) & 1:
                        mask |= 1 << DOUBLE[lay.end[a]]
            else:
                mask |= 1 << (m & 31)
        return mask

    # --- the match advancing -------------------------------------------------------------------
    def step(self):
        if self.msg_until and ticks_diff(self.now(), self.msg_until) >= 0:
            self.msg_until = 0
            self.msg = ""
            self.app.redraw()
        if self.mode == M_WAIT:
            if ticks_diff(self.now(), self.until) < 0:
                return
            self.mode = M_RUN
            self.app.redraw()
        if self.mode != M_RUN:
            return
        if self.pause_req:
            self.pause_req = False
            self.app.go(Pause(self.app, self))
            return
        self.advance()

    def advance(self):
        game = self.game
        m = game.match
        rd = m.round
        app = self.app
        if m.round_over():
            self.end_round()
            return
        s = rd.turn
        human = game.kinds[s] == "human"
        if human and not self.solo and self.shown != s:
            self.shown = NONE
            app.go(Curtain(app, self, s))
            return
        if rd.legal() == 0:
            ev = m.forced()
            name = game.names[s]
            if ev == EV_DRAW:
                t = rd.stock[rd.sp - 1]
                if human and self.shown == s:
                    self.say("You drew " + tile_name(t) if self.solo else name + " drew " + tile_name(t))
                    self.cursor_tile = t
                else:
                    self.say(name + " draws")
            else:
                self.say(name + " passes" if not (human and self.solo) else "You pass")
                if human and not self.solo:
                    self.mode = M_ACK
                    self.say(name + " cannot play: A to pass on")
                    return
            self.wait(ANIM_MS[app.settings["anim"]] or 1)
            return
        if human:
            self.shown = s
            self.mode = M_PICK
            self.playable = self._playable_mask()
            self._load_hand()
            if self.cursor_tile == NONE or not (self.playable >> self.cursor_tile) & 1:
                self._jump(1, True)
            app.inp.flush()                          # presses made while the AI thought are stale
            if not self.msg_until:
                self.say(("Your turn" if self.solo else game.names[s] + ", your turn"))
            app.board.led(0, 40, 0)
            return
        self.ai_turn(s)

    def ai_turn(self, s):
        game = self.game
        app = self.app
        m = game.match
        self.thinking = s
        self.say(game.names[s] + " thinking")
        self.draw(app.g)
        app.board.show()
        app.board.led(0, 0, 0)
        self.anim_t = self.now()
        level = game.kinds[s]
        mv = brain.choose(m, s, level, app.settings["think"], app.ai_clock, self.on_tick)
        self.thinking = NONE
        text = game.names[s] + ": " + describe(m.round, mv)
        self.play(mv)
        self.say(text)
        self.wait(ANIM_MS[app.settings["anim"]])

    def on_tick(self):
        """Called by the AI every ~30 ms: turn the wheel, keep the keys read. B/Y asks for the menu
        once the move is made; other presses are dropped (they would play a tile by accident)."""
        app = self.app
        inp = app.inp
        inp.poll()
        ev = inp.get()
        while ev:
            if ev & EV_KIND == EV_PRESS and ev & EV_KEY in (K_B, K_Y):
                self.pause_req = True
            ev = inp.get()
        now = self.now()
        if ticks_diff(now, self.anim_t) >= THINK_FRAME_MS:
            self.anim_t = now
            self.frame += 1
            self._draw_wheel(app.g)
            app.board.show()
        return False

    def play(self, mv):
        m = self.game.match
        m.play(mv)
        self.last = m.round.last_tiles
        self.hint_move = -1
        self.save()
        self.app.redraw()

    def end_round(self):
        game = self.game
        m = game.match
        app = self.app
        self.shown = NONE if not self.solo else self.shown
        if len(m.history) < m.round_no:              # not yet scored (a resumed game may be)
            before = [m.remembered[i] for i in range(4)]
            m.finish_round()
            row = ""
            for i in range(m.rules.sides):
                v = m.recorded[i] + m.inplay[i]
                if v:
                    tok = str(v)
                elif m.remembered[i] > before[i]:
                    tok = "+" + str(m.remembered[i] - before[i])
                else:
                    tok = "-"
                row += ("," if row else "") + tok
            game.sheet += (";" if game.sheet else "") + row
            self.save()
        if m.over and not game.counted:
            game.counted = True
            you = game.you()
            if you != NONE:
                side = m.rules.side(you)
                res = 1 if m.winner == side else (-1 if (m.loser == side or m.rules.family != FAM_GOAT) else 0)
                try:
                    game.stats = app.store.record_result(m.rules.vid, res)
                except OSError:
                    pass
            app.store.clear_game()                   # a finished match is not offered to resume
        self.view.key = -1
        self.last = 0
        self.cursor_tile = NONE
        app.beep(660, 80)
        from ui.sheet import RoundEnd
        app.go(RoundEnd(app, self))

    def next_round(self):
        """From the round-end screen: deal the next round (saved at once) and come back."""
        m = self.game.match
        m.start_round()
        self.save()
        self.mode = M_RUN
        self.msg = ""
        self.msg_until = 0
        self.view.key = -1
        self.app.go(self)

    # --- keys ----------------------------------------------------------------------------------
    def key(self, k):
        app = self.app
        mode = self.mode
        if mode == M_WAIT:
            if k == K_A:
                self.until = self.now()              # skip the pause
            elif k in (K_B, K_Y):
                self.pause_req = True
            return
        if mode == M_ACK:
            if k == K_A:
                self.mode = M_RUN
                self.shown = NONE
                self.msg = ""
                app.redraw()
            return
        if mode == M_RUN:
            if k in (K_B, K_Y):
                self.pause_req = True
            return
        if k in (K_B, K_Y) and mode == M_PICK:
            app.go(Pause(app, self))
            return
        if mode == M_END:
            if k in (K_UP, K_LEFT):
                self.opt = (self.opt - 1) % self.nopts
            elif k in (K_DOWN, K_RIGHT):
                self.opt = (self.opt + 1) % self.nopts
            elif k == K_A:
                self.human_play(self.opts[self.opt])
                return
            elif k == K_B:
                self.mode = M_PICK
                self.say("")
                return
            self._say_opt()
            return
        # M_PICK
        if not self.nh:
            return
        if k == K_LEFT:
            self.cursor = (self.cursor - 1) % self.nh
        elif k == K_RIGHT:
            self.cursor = (self.cursor + 1) % self.nh
        elif k == K_UP:
            self._jump(-1, False)
        elif k == K_DOWN:
            self._jump(1, False)
        elif k == K_X:
            self.hint()
            return
        elif k == K_A:
            self.choose_tile()
            return
        self.cursor_tile = self.hand[self.cursor]
        app.redraw()

    def _jump(self, d, from_start):
        """Move the cursor to the next (d=1) / previous playable tile."""
        n = self.nh
        if not n:
            return
        i = -1 if from_start else self.cursor
        for _ in range(n):
            i = (i + d) % n
            if (self.playable >> self.hand[i]) & 1:
                self.cursor = i
                break
        self.cursor_tile = self.hand[self.cursor]

    def choose_tile(self):
        t = self.hand[self.cursor]
        n = self._moves_of(t)
        if n == 0:
            rd = self.game.match.round
            lay = rd.layout
            ends = ""
            for a in range(4):
                if lay.is_open(a):
                    ends += (", " if ends else "") + str(lay.end[a])
            self.say(tile_name(t) + " does not fit: ends " + ends, 2500, self.app.g.c.WARN)
            self.app.beep(220, 90)
            return
        if n == 1:
            self.human_play(self.opts[0])
            return
        self.opt = 0
        for i in range(n):
            if self.opts[i] == self.hint_move:
                self.opt = i
        self.mode = M_END
        self._say_opt()

    def _say_opt(self):
        rd = self.game.match.round
        self.say(describe(rd, self.opts[self.opt]) + " (" + str(self.opt + 1) + "/" + str(self.nopts) + ")",
                 0, self.app.g.c.CURSOR)
        m = self.opts[self.opt]
        if self.view.tall:
            a = (m >> ARM_SHIFT) & 3 if not m & MULTI else (m >> 9) & 3
            ch = CHAIN_OF_ARM[a]
            self.view.follow(self.view.my[ch], self.view.mh[ch])

    def human_play(self, mv):
        self.mode = M_RUN
        self.msg = ""
        self.msg_until = 0
        self.play(mv)
        self.app.beep(1200, 15)
        if not self.solo:
            self.shown = NONE                        # the next player must not see this hand
        else:
            self._load_hand()

    def hint(self):
        game = self.game
        app = self.app
        s = game.match.round.turn
        self.thinking = s
        self.say("Thinking of a hint")
        self.draw(app.g)
        app.board.show()
        self.anim_t = self.now()
        mv, why = brain.hint(game.match, s, app.settings["think"], app.ai_clock, self.on_tick)
        self.thinking = NONE
        self.pause_req = False
        rd = game.match.round
        t = mv & 31
        if mv & MULTI:
            for a in range(4):
                if (mv >> a) & 1:
                    t = DOUBLE[rd.layout.end[a]]
                    break
        self.hint_move = mv
        for i in range(self.nh):
            if self.hand[i] == t:
                self.cursor = i
        self.cursor_tile = t
        self.say("Hint: " + describe(rd, mv) + ". " + why, 6000, app.g.c.ACCENT)
        app.inp.flush()

    # --- drawing -------------------------------------------------------------------------------
    def draw(self, g):
        c = g.c
        fb = g.fb
        game = self.game
        m = game.match
        rd = m.round
        fb.fill(c.BG)
        view = self.view
        if not g.mono:
            fb.fill_rect(0, view.y0 - 1, g.w, view.h + 2, c.TABLE)
        view.place(rd.layout)
        if self.mode == M_WAIT and view.tall and self.last:
            view.follow_tile(_first(self.last))
        view.draw(g, self.last, c.ACCENT)
        if self.mode == M_END:
            for i in range(self.nopts):
                if i != self.opt:
                    self._mark(g, self.opts[i], c.PLAYABLE)
            self._mark(g, self.opts[self.opt], c.CURSOR)
        self._draw_head(g)
        self._draw_hand(g)
        if self.thinking != NONE:
            self._draw_wheel(g)

    def _mark(self, g, m, col):
        if m & MULTI:
            for a in range(4):
                if (m >> a) & 1:
                    self.view.mark(g, CHAIN_OF_ARM[a], col)
        elif self.game.match.round.layout.lead != NONE:
            self.view.mark(g, CHAIN_OF_ARM[(m >> ARM_SHIFT) & 3], col)

    def _status(self):
        rd = self.game.match.round
        out = "S" + str(rd.stock_left())
        if rd.rules.inplay_mod:
            out += " C" + str(rd.layout.count(rd.rules.spinner_keeps))
        return out

    def _score_text(self, side):
        m = self.game.match
        if m.rules.family == FAM_GOAT and not m.opened[side] and m.remembered[side]:
            return "+" + str(m.remembered[side]), True
        return str(m.scores[side]), False

    def _draw_head(self, g):
        c = g.c
        fb = g.fb
        game = self.game
        m = game.match
        rd = m.round
        r = m.rules
        n = r.players
        if self.compact:
            if self.msg:
                g.text(g.fit(self.msg, g.cols - (2 if self.thinking != NONE else 0)), 0, 0, self.msg_col)
                return
            line = self._status()
            for s in range(n):
                if s != self.shown:
                    line += " " + game.names[s][0] + str(rd.hand_size(s))
            g.text(g.fit(line, g.cols), 0, 0, c.FG)
            # the turn: underline the seat's initial
            return
        cw = g.w // n
        for s in range(n):
            x = s * cw
            side = r.side(s)
            name = game.names[s]
            col = c.FG
            if r.teams:
                col = c.TEAM0 if side == 0 else c.TEAM1
            if s == rd.turn and not m.round_over():
                fb.fill_rect(x, 0, cw - 2, 9, c.PANEL if not g.mono else c.FG)
                col = c.CURSOR if not g.mono else c.BG
            txt, rem = self._score_text(side)
            room = cw // 8 - len(txt) - 1
            g.text(g.fit(name, room), x + 1, 1, col)
            g.right(txt, x + cw - 2, 1, c.REMEMBERED if rem else col if g.mono else c.FG)
            # second line: tiles in hand (+ in-play points)
            fb.fill_rect(x + 1, 11, 4, 7, c.TILE)
            fb.hline(x + 1, 14, 4, g.divider)
            info = str(rd.hand_size(s))
            if r.inplay_mod:
                info += " " + str(rd.inplay[s]) + "pt"
            g.text(info, x + 7, 11, c.FG)
        # message line
        y = self.msg_y + 1
        st = self._status()
        room = g.cols - len(st) - 1
        if self.thinking != NONE:
            room = g.cols - 2
        else:
            g.right(st, g.w, y, c.DIM)
        g.text(g.fit(self.msg, room), 0, y, self.msg_col)

    def _draw_wheel(self, g):
        if self.compact:
            g.spinner(g.w - 5, 4, 3, self.frame, g.c.ACCENT, g.c.BG)
        else:
            g.spinner(g.w - 6, self.msg_y + 5, 4, self.frame, g.c.ACCENT, g.c.BG)

    def hand_rect(self, i):
        """(x, y, w, h) of hand tile i (tests use this to find a tile's pixels)."""
        hs = self.hs
        x = 2 + (i - self.hfirst) * (hs + 3)
        y = self.hand_y + 3
        if i == self.cursor and self.mode in (M_PICK, M_END):
            y -= 2
        return x, y, hs, 2 * hs

    def _draw_hand(self, g):
        c = g.c
        fb = g.fb
        self._load_hand()
        n = self.nh
        if self.shown == NONE:
            if not self.compact:
                txt = "(hands hidden)" if not self.solo else ""
                g.center(txt, self.hand_y + self.hs, c.DIM)
            return
        if self.cursor < self.hfirst:
            self.hfirst = self.cursor
        if self.cursor >= self.hfirst + self.hvis:
            self.hfirst = self.cursor - self.hvis + 1
        if self.hfirst > max(0, n - self.hvis):
            self.hfirst = max(0, n - self.hvis)
        picking = self.mode in (M_PICK, M_END) and self.shown == self.game.match.round.turn
        hs = self.hs
        for i in range(self.hfirst, min(n, self.hfirst + self.hvis)):
            t = self.hand[i]
            x, y, w, h = self.hand_rect(i)
            mark = -1
            if picking and i == self.cursor:
                mark = c.CURSOR
            g.tile(x, y, LO[t], HI[t], False, hs, 0, mark)
            if picking and (self.playable >> t) & 1:
                fb.fill_rect(x, self.hand_y + 2 * hs + 5, w, 2, c.PLAYABLE)
        if self.hfirst > 0:
            fb.text("<", 0, self.hand_y + hs, c.ACCENT)
        if self.hfirst + self.hvis < n:
            fb.text(">", g.w - 8, self.hand_y + hs, c.ACCENT)


def _first(m):
    t = 0
    while not (m >> t) & 1:
        t += 1
    return t


class Curtain(Screen):
    """Pass-and-play: names the next player and shows no tiles until that player presses A."""

    def __init__(self, app, table, seat):
        Screen.__init__(self, app)
        self.table = table
        self.seat = seat

    def key(self, k):
        if k == K_A:
            self.table.shown = self.seat
            self.table.mode = M_RUN
            self.app.go(self.table)
        elif k == K_B:
            self.app.go(Pause(self.app, self.table, self))

    def draw(self, g):
        c = g.c
        g.fb.fill(c.BG)
        name = self.table.game.names[self.seat]
        y = g.h // 2 - 24 if g.h > 100 else 4
        y += g.big_center("Pass to", y, c.DIM) + 6
        y += g.big_center(name, y, c.ACCENT) + 8
        g.center("Press A when ready", y, c.FG)
        g.center("B: menu", y + 12, c.DIM)


class Pause(ListScreen):
    """The in-game menu (B or Y on the table): everything X/Y do on boards that lack them."""

    def __init__(self, app, table, back_to=None):
        ListScreen.__init__(self, app, "Paused")
        self.table = table
        self.back_to = back_to or table

    def rows(self):
        out = [("Resume", None)]
        if self.back_to is self.table and self.table.mode == M_PICK:
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
            t.hint()
        elif label == "Score sheet":
            from ui.sheet import SheetView
            app.go(SheetView(app, t, self))
        elif label == "Rules help":
            from ui.menus import HelpPage
            app.go(HelpPage(app, t.game.match.rules.title, t.game.match.rules.vid, self))
        elif label == "Save and quit":
            app.menu("Game saved")
        elif label == "Abandon game":
            if self.note == "A again to abandon":
                app.store.clear_game()
                app.menu("Game abandoned")
            else:
                self.note = "A again to abandon"

    def back(self):
        self.app.go(self.back_to)
