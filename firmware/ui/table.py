"""The table: layout, hand, scores; it drives the match. AI seats think here (the screen keeps moving
through `on_tick`), forced draws and passes are shown one at a time, every move is saved at once,
and in a game with several humans a curtain hides the table until the next player presses A.
"""
import gc
from micropython import const
from ui.screen import Screen, ANIM_MS, ticks_diff, drop_module, tr
from ui.gfx import TableView, wrap
from ui import brain
_NONE = const(255)         # = domino.tiles.NONE
_EV_DRAW = const(2)        # = domino.round.EV_DRAW
_K_A = const(0x010)        # = keys.K_A
_K_B = const(0x020)        # = keys.K_B
_K_Y = const(0x080)        # = keys.K_Y
_EV_PRESS = const(0x1000)  # = keys.EV_PRESS
_EV_KIND = const(0xF000)   # = keys.EV_KIND
_EV_KEY = const(0x0FFF)    # = keys.EV_KEY

_M_RUN = const(0)       # the match advances by itself (AI, forced draws, round end)
_M_PICK = const(1)      # a human picks a tile from the hand
_M_END = const(2)       # ... and where it goes, when it fits several ends
_M_WAIT = const(3)      # showing what just happened for a moment
_M_ACK = const(4)        # a message that waits for A

# the screen's regions (ui/paint.py), in drawing order: what a redraw may be limited to (App.redraw)
_P_HEAD = const(1)      # names, tiles in hand, scores
_P_TABLE = const(2)     # the layout and the marks on it
_P_MSG = const(4)       # the message area (and the thinking wheel)
_P_HAND = const(8)      # the hand row
_P_ALL = const(15)
_P_CURSOR = const(16)   # the hand row's tiles the cursor left and moved to (ui/pick.py: cursor_was)
_P_TROWS = const(32)    # rows t.trows of the table area (a move that left the other tiles in place)
_P_TROWS2 = const(64)   # ... and t.trows2, a second span of them far from the first (ui/paint.py)

_STEP_MS = const(1500)     # a message longer than its area shows a step (page) this long
_THINK_TICKS = const(4)    # AI ticks per step of the thinking wheel


class Game:
    """A match plus what the save header holds about the seats: kinds, names, the score sheet."""

    def __init__(self, match, kinds, names, sheet="", practice=False):
        self.match = match
        self.kinds = kinds
        n = match.rules.players
        if len(names) != n:                          # a save without names: make them up
            names = [("P" if kinds[s] == "human" else "AI") + str(s + 1) for s in range(n)]
        self.saved_names = names     # as saved: a save holds no language
        self.names = [tr(x) for x in names]   # as shown ("You", "Host", "Guest" in the language)
        self.sheet = sheet           # finished rounds: "15,-;+8,20" (per side; +N remembered)
        self.humans = 0
        for k in kinds:
            if k == "human":
                self.humans += 1
        self.counted = False         # statistics written for this match
        self.stats = None            # the variant's statistics row after this match
        self.note = None             # for the menu after the match (statistics not saved)
        self.practice = practice     # undo as often as you like, nothing counted (ui/pause.py)

    def extras(self):
        ex = {"seats": ",".join(self.kinds), "names": ",".join(self.saved_names), "sheet": self.sheet}
        if self.practice:
            ex["practice"] = "1"
        return ex


class Table(Screen):
    """The table screen. Its regions can be drawn on their own (ui/paint.py): the header (a column
    per seat: name, tiles in hand, score), the table area (the layout), the message area (two lines;
    the stock and the open-end count at the right of the second) and the hand row. The 128x64 OLED
    has no header: one message line on top, the scores a key away (ui/pause.py's Scores)."""

    def __init__(self, app, game):
        Screen.__init__(self, app)
        self.game = game
        g = app.g
        w = g.w
        h = g.h
        self.compact = h < 100
        lh = g.lh
        # the hand row: upright tiles on tall screens, sized to the width (seven tiles fill it, up to
        # a tenth of the height), tiles lying down on short ones, whose rows are wide and low; never
        # smaller than the pips' legible size (ui/gfx.py)
        self.hand_horiz = h < 160
        hs = g.legible
        if not self.hand_horiz:
            hs = max(hs, min((w - 2) // 7 - 3, h // 10))
        self.hs = hs
        self.hand_h = (hs if self.hand_horiz else 2 * hs) + 7
        # the header: a row per seat's column "name  tiles  score" when it fits; else two rows on
        # tall screens when two play, and otherwise one row with the names cut to head_name letters
        # and the tiles in hand counted on a tile (ui/paint.py head): the table keeps its room
        n = game.match.rules.players
        longest = 0
        for nm in game.names:
            longest = max(longest, len(nm))
        cols = (w // n) // g.cw
        self.head_name = 0                       # 0: whole names
        rows = 1
        if cols < longest + 8:
            if h >= 160 and n < 3:
                rows = 2
            else:                                # a tile of 1 digit, a score of 3, the gaps
                k = 1                            # ... or the letters that tell the names apart
                while k < longest and len({nm[:k] for nm in game.names}) < n:    # (P1..P4)
                    k += 1
                self.head_name = max(k, ((w // n) - 10 - 4 * g.cw) // g.cw)
        self.head_h = 0 if self.compact else rows * lh + 1
        self.hand_y = h - self.hand_h
        # the message area: one line on short screens, two on tall ones; above it on colour
        # screens, the open ends' numbers in legible half-tiles with the stock and count beside them
        self.msg_lines = 1 if h < 160 else 2     # (one: moves and hint reasons in short words)
        self.ends_h = 0 if self.compact else g.legible + 6
        self.msg_y = 0 if self.compact else self.hand_y - self.msg_lines * lh - 1 - self.ends_h
        top = lh + 1 if self.compact else self.head_h + 1
        # (1-bit: two dark rows between the table's tiles and the raised cursor tile's outline,
        # which reaches hand_y - 1: lit on lit, the hand and the line would run together)
        bottom = self.hand_y - 3 if self.compact else self.msg_y - 1
        self.view = TableView(0 if self.compact else 2, top, w if self.compact else w - 4, bottom - top,
                              g.mono, g.legible if g.mono else 0)
        self.hand = bytearray(28)
        self.nh = 0
        self.hfirst = 0
        self.cursor = 0
        self.cursor_tile = _NONE
        self.cursor_was = 0          # where the cursor was drawn before a move (_P_CURSOR)
        self.hand_at = -1            # board.moved when the hand row was last drawn whole in the buffer
        self.trows = (0, 0)          # _P_TROWS's rows
        self.trows2 = (0, 0)         # _P_TROWS2's (t.trows again when the move changed one span)
        self.playable = 0            # mask of tiles with a legal move
        self.opts = [0] * 24         # legal moves of the chosen tile
        self.nopts = 0
        self.opt = 0
        self.hint_move = -1
        self.hint_tile = _NONE
        self.calm_until = 0          # A ignored until then (see ui/pick.py)
        self.mode = _M_RUN
        self.until = 0
        self.msg = ""                # a message of the moment ("": the message area says what
        self.msg_col = g.c.FG        # happened last and what to do now, ui/paint.py)
        self.msg_until = 0
        self.msg_at = 0              # when it came: its steps (pages) follow each other from then
        self.page = 0
        self.last_text = ""          # what happened last ("Ann: 3-5 on 3", "Bob draws")
        self.held_text = ""          # ... and the event before it, while the player has not acted
        self.last_held = False       # since (the AI's move, then "You drew 0-2": both shown)
        self.draws = 0               # (seat + 1) << 8 | tiles it drew in a row, while it draws
        self.undo_to = -1            # moves before the human's last one, until the next seat acts
        self.undo_text = ""          # that move in words
        self.last = 0                # tiles of the last move (outlined)
        self.frame = 0
        self.anim_t = 0
        self.pause_req = False
        self.thinking = _NONE         # seat whose AI is thinking
        solo = game.humans == 1
        self.shown = _NONE            # seat whose hand is face up
        if solo:
            for s in range(game.match.rules.players):
                if game.kinds[s] == "human":
                    self.shown = s
        self.solo = solo
        brain.make_room = app.release    # the AI may ask for the screens' code to go

    # --- what the turn's modules change (ui/pick.py, ui/paint.py, ui/sheet.py, ui/pause.py) -------
    # Others read the table's attributes; they change them only through these methods.
    def set_mode(self, mode):
        self.mode = mode

    def show_hand(self, seat):
        """Seat's hand face up (_NONE: every hand face down)."""
        self.shown = seat

    def start_pick(self, seat, playable):
        """The human at seat picks a tile; playable: the mask of tiles with a legal move."""
        self.shown = seat
        self.mode = _M_PICK
        self.playable = playable

    def calm(self, until):
        """A is ignored until then (0: taken at once)."""
        self.calm_until = until

    def move_cursor(self, i):
        self.cursor = i
        self.cursor_tile = self.hand[i]

    def set_cursor_was(self, i):
        """The cursor was drawn on hand tile i before it moved (_P_CURSOR redraws both)."""
        self.cursor_was = i

    def offer_ends(self, n, opt):
        """The tile fits n ends: the first n of self.opts (ui/pick.py fills them); opt is chosen."""
        self.nopts = n
        self.opt = opt
        self.mode = _M_END
        self.msg = ""

    def set_opt(self, opt):
        self.opt = opt

    def restart_msg(self):
        """The message area shows its text from the first step (page) again."""
        self.msg_at = self.now()
        self.page = 0

    def allow_undo(self, to, text):
        """The move about to be played (in words) can be taken back to `to` moves (ui/pause.py)."""
        self.undo_to = to
        self.undo_text = text

    def think(self, seat):
        """Seat's AI thinks (the wheel turns from its first step); _NONE: nobody."""
        self.thinking = seat
        self.anim_t = 0

    def hinted(self, mv, tile):
        """The hint came: the move, its tile (the cursor goes there); presses made meanwhile go."""
        self.thinking = _NONE
        self.pause_req = False
        self.hint_move = mv
        self.hint_tile = tile
        for i in range(self.nh):
            if self.hand[i] == tile:
                self.cursor = i
        self.cursor_tile = tile

    def set_trows(self, rows, rows2):
        """The table area's rows a move changed (_P_TROWS, _P_TROWS2)."""
        self.trows = rows
        self.trows2 = rows2

    def hand_drawn(self, moved):
        """The hand row was drawn whole into the buffer at board.moved `moved` (-1: it was not)."""
        self.hand_at = moved

    def scroll_hand(self, first):
        """The hand row shows tiles from `first` on."""
        self.hfirst = first

    def new_round(self):
        """The next round is dealt: no message, nothing to take back, the layout drawn anew."""
        self.mode = _M_RUN
        self.msg = ""
        self.msg_until = 0
        self.last_text = ""
        self.held_text = ""
        self.last_held = False
        self.undo_to = -1
        self.view.key = -1

    def round_scored(self):
        """The round is scored: nothing outlined, no cursor tile, the layout drawn anew."""
        self.view.key = -1
        self.last = 0
        self.cursor_tile = _NONE

    def hand_span(self):
        """(x of the first hand tile, tiles shown, pitch): room is kept for the scroll marks when the
        hand does not fit the row."""
        p = (2 * self.hs if self.hand_horiz else self.hs) + 3
        g = self.app.g
        w = g.w
        if self.nh * p <= w - 2:
            return 2 + (w - 2 - self.nh * p) // 2, self.nh, p      # the row centred
        m = g.cw + 1                                                # room for "<" and ">"
        vis = (w - 2 * m) // p
        return m + (w - 2 * m - vis * p) // 2, vis, p

    # --- helpers -------------------------------------------------------------------------------
    def now(self):
        return self.app.board.ticks_ms()

    def say(self, text, ms=0, col=-1):
        """Show a message of the moment in the message area (for `ms`, or until the next one). A
        text longer than the area is shown in steps: the time is stretched to show each for
        _STEP_MS at least."""
        now = self.now()
        text = tr(text)              # a text of its own: a built one comes translated (ui/words.py)
        self.msg = text
        self.msg_col = col if col >= 0 else self.app.g.c.FG
        self.msg_at = now
        self.page = 0
        if ms:
            n = self.pages(text)
            if ms < n * _STEP_MS:
                ms = n * _STEP_MS
        self.msg_until = now + ms if ms else 0
        self.app.redraw()

    def tell(self, text, parts=0, held=False):
        """What just happened: it stays in the message area, over what to do now, until the next
        thing happens (a message of the moment goes). parts: only these regions changed (else the
        whole screen is drawn again). held: it happened to the person looking, without a press of
        theirs (their forced draw or pass): the event before it (the AI's move they had not yet
        seen) is kept over it until they act."""
        if not held:
            self.held_text = ""
        elif not self.last_held:
            self.held_text = self.last_text
        self.last_held = held
        self.last_text = text
        self.draws = 0
        self.msg = ""
        self.msg_until = 0
        self.msg_at = self.now()
        self.page = 0
        if parts:
            self.changed(parts)
        else:
            self.app.redraw()

    def changed(self, parts):
        """Only the regions in `parts` changed: they are drawn again alone (the 128x64 OLED's table,
        whose regions overlap and whose whole 1 KB frame is sent anyway, is drawn whole)."""
        app = self.app
        if self.compact:
            parts = 0
        elif parts & _P_CURSOR and app.parts & (_P_CURSOR | _P_HAND):
            parts = parts & ~_P_CURSOR | _P_HAND       # a second move before the first was drawn
        elif parts & _P_TROWS and app.parts & (_P_TROWS | _P_TABLE):
            parts = parts & ~(_P_TROWS | _P_TROWS2) | _P_TABLE     # (its rows are one move's)
        if parts & _P_HAND:
            app.parts &= ~_P_CURSOR
        if parts & _P_TABLE:
            app.parts &= ~(_P_TROWS | _P_TROWS2)
        app.redraw(parts)

    def wait(self, ms):
        if ms > 0:
            self.mode = _M_WAIT
            self.until = self.now() + ms
        self.app.redraw()

    def save(self, token=None):
        app = self.app
        try:
            app.unsaved = True                       # until the save is through
            app.saved = app.saves().save_game(self.game.match, self.game.extras(), token)
            app.unsaved = False
        except OSError as e:                         # flash full or failing: say so, play on (the
            self.app.save_failures += 1              # previous save stays; the next move tries again)
            self.say(self.app.need("savegame").failed(e), 3000, self.app.g.c.WARN)
            self.wait(1500)                          # seen before the next move's message
        gc.collect()

    def enter(self):
        self.app.release()

    def pause(self, back_to=None):
        self.app.go(self.app.need("ui.pause").Pause(self.app, self, back_to))

    def load_hand(self):
        m = self.game.match
        self.nh = 0
        if self.shown == _NONE:
            return
        h = m.round.hands[self.shown]
        for t in range(28):
            if (h >> t) & 1:
                self.hand[self.nh] = t
                self.nh += 1
        if self.cursor_tile != _NONE:                 # keep the cursor on the same tile
            for i in range(self.nh):
                if self.hand[i] == self.cursor_tile:
                    self.cursor = i
        if self.cursor >= self.nh:
            self.cursor = self.nh - 1 if self.nh else 0

    # --- the match advancing -------------------------------------------------------------------
    def step(self):
        now = self.now()
        if self.msg_until and ticks_diff(now, self.msg_until) >= 0:
            self.msg_until = 0
            self.msg = ""
            self.msg_at = now
            self.page = 0
            self.changed(_P_MSG)
        p = ticks_diff(now, self.msg_at) // _STEP_MS
        if p != self.page:                           # a long message's next step
            self.page = p
            self.changed(_P_MSG)
        if self.mode == _M_WAIT:
            if ticks_diff(now, self.until) < 0:
                return
            self.mode = _M_RUN
            self.app.redraw()
        if self.mode != _M_RUN:
            if self.mode == _M_PICK and not self.app.lean:   # the A that plays a tile places it:
                self.app.need("ui.place")    # its code loaded while the person looks, not after the
            return                           # press (33 ms from flash; play() drops it for the save)
        if self.pause_req:
            self.pause_req = False
            self.pause()
            return
        self.advance()

    def own_seat(self):
        """The seat whose rounds and results the statistics count (ui/sheet.py): seat 1 when a person
        plays it, none in a practice game (its moves could be taken back at will)."""
        game = self.game
        return 0 if game.kinds[0] == "human" and not game.practice else _NONE

    def name(self, s):
        """How the message area names seat s: None for "you" (the one person playing the AI)."""
        game = self.game
        return None if self.solo and game.kinds[s] == "human" else game.names[s]

    def advance(self):
        game = self.game
        m = game.match
        rd = m.round
        app = self.app
        if m.round_over():
            app.release()                            # the round-end screens get the room
            app.need("ui.sheet").end_round(self)
            return
        s = rd.turn
        human = game.kinds[s] == "human"
        if human and not self.solo and self.shown != s:
            self.shown = _NONE
            app.go(app.need("ui.pause").Curtain(app, self, s))
            return
        if rd.legal() == 0:
            self.undo_to = -1                        # a pass or a draw shows something: no undo
            ev = m.forced()
            name = self.name(s)
            words = app.need("ui.words")             # (unloaded while the AI searches: app.release)
            if ev == _EV_DRAW:
                t = rd.stock[rd.sp - 1]
                if human and self.shown == s:
                    self.tell(words.drew(name, t), 0, True)
                    self.cursor_tile = t
                else:
                    d = self.draws                   # (seat + 1) << 8 | tiles drawn in a row
                    d = d + 1 if d >> 8 == s + 1 else (s + 1) << 8 | 1
                    self.tell(words.drew(name, _NONE, d & 255))
                    self.draws = d
            else:
                self.tell(words.passes(name), 0, human and self.shown == s)
                if human and not self.solo:
                    self.mode = _M_ACK
                    self.say(words.passes(name, True))
                    return
            self.wait(ANIM_MS[app.settings["anim"]] or 1)
            return
        if human:
            app.need("ui.pick").begin(self, s)
            return
        self.ai_turn(s)

    def ai_turn(self, s):
        app = self.app
        m = self.game.match
        self.thinking = s                            # (undo_to kept: nothing of its hand is shown
        self.msg = ""                                # until its move is played)
        self.msg_until = 0
        self.changed(_P_MSG)                          # (after a whole redraw if one is due)
        app.flush()
        app.board.led(0, 0, 0)
        self.anim_t = 0
        level = self.game.kinds[s]
        if app.lean and level == "hard":             # short of memory: the lighter search
            level = "medium"
        y = self.wheel_y()                           # the band buffer holds the wheel's rows from
        app.paint_rows(self._draw_wheel, y - 5, y + 5)   # now on: its turns need no ui.paint (the
        app.release()                                # screen under it drawn again) while the AI thinks
        mv = brain.choose(m, s, level, app.settings["think"], app.ai_clock, self.on_tick)
        self.thinking = _NONE
        brain.release()                              # its buffers back before the move is drawn:
        if self.pause_req and self.undo_to >= 0 and self.solo:   # the menu asked for before the answer:
            self.pause_req = False                   # it is not played (the AI thinks again on
            self.pause()                             # Resume), the person's move can be taken back
            return
        self.undo_to = -1                            # its answer shows its tiles: no undo now
        self.play(mv)                                # the drawing code loads into their room
        if not self.msg_until:                       # (a save's warning waits a moment itself)
            self.wait(ANIM_MS[app.settings["anim"]])

    def on_tick(self):
        """Called by the AI every ~30 ms: turn the wheel, keep the keys read. B/Y asks for the menu:
        at once while the person's last move can still be taken back (True stops the search, and
        its move is not played: ai_turn), else once the move is made; other presses are dropped
        (they would play a tile by accident)."""
        app = self.app
        app.feed()
        if app.probe:
            app.probe("tick")
        inp = app.inp
        inp.poll()
        ev = inp.get()
        while ev:
            if ev & _EV_KIND == _EV_PRESS and ev & _EV_KEY in (_K_B, _K_Y):
                self.pause_req = True
            ev = inp.get()
        self.anim_t += 1                             # ticks come ~30 ms of search apart: the
        if self.anim_t >= _THINK_TICKS and not app.lean:  # wheel moves every ~120 ms of thinking, on
            self.anim_t = 0                          # any clock (the simulator's may stand still)
            self.frame += 1
            y = self.wheel_y()
            app.paint_rows(self._draw_wheel, y - 5, y + 5)   # its box, redrawn whole: no table
        return self.pause_req and self.undo_to >= 0 and self.solo

    def play(self, mv, hide=False):
        """Play a move, show it, and save it at once (hide: the hand goes face down first, the next
        player must not see it). Shown before the save: the save's flash writes take tens of ms,
        and nothing on the table says "saved" (a failed save says so after, app.unsaved holds
        until one is through). The AI's scratch memory is given back before every save, so the
        save's code loads into the room the search held (the save after an AI move was the lowest
        free heap of a whole UI match; the AI builds its buffers again at its next move)."""
        seen = self.before_move(mv)
        self.game.match.play(mv)
        self.after_move(seen, hide)

    def before_move(self, mv):
        """What showing move mv takes from the table before it is played: (the seat, the move in
        words, the seat's points in play, the table area as drawn: ui/paint.py snap)."""
        rd = self.game.match.round
        s = rd.turn
        words = self.app.need("ui.words")
        return (s, words.describe(rd, mv, self.msg_lines == 1), rd.inplay[s],
                self.app.need("ui.paint").snap(self))

    def after_move(self, seen, hide=False):
        """The move is played (and what it forced): show it, save it (see play)."""
        s, text, pts, before = seen
        m = self.game.match
        rd = m.round
        self.last = rd.last_tiles
        self.hint_move = -1
        self.mode = _M_RUN                           # (a person's move: no more cursor, no ends)
        paint = self.app.need("ui.paint")
        rows = paint.changed_rows(self, before)     # the other tiles where they were: only the
        paint = None                                # table area's rows that changed
        parts = rows | _P_HEAD | _P_MSG
        words = self.app.need("ui.words")
        if s == self.shown or hide:                 # the hand shown lost a tile, or goes face down
            parts |= _P_HAND                         # (another seat's move leaves it as drawn)
        self.tell(words.played(self.name(s) or tr("You"), text, rd.inplay[s] - pts),
                  parts if rows and not m.round_over() else 0)
        if hide:
            self.shown = _NONE
        self.app.flush()
        drop_module("ui.paint")                      # loaded again to draw: the save comes first
        drop_module("ui.place")
        brain.release()                              # the save (and round end) get the room
        self.save(self.app.need("savegame").last_token(rd))
        if self.app.probe:
            self.app.probe("save")

    # --- keys ----------------------------------------------------------------------------------
    def key(self, k):
        mode = self.mode
        if mode == _M_PICK or mode == _M_END:
            self.app.need("ui.pick").key(self, k)
            return
        if k in (_K_B, _K_Y):
            self.pause_req = True                    # after the move being shown / thought about
            if mode == _M_WAIT:
                self.until = self.now()              # (the move was shown: the menu at once)
        elif k == _K_A:
            if mode == _M_WAIT:
                self.until = self.now()              # skip the pause
            elif mode == _M_ACK:
                self.mode = _M_RUN
                self.shown = _NONE
                self.msg = ""
                self.app.redraw()

    # --- drawing -------------------------------------------------------------------------------
    def draw(self, g):
        self.app.need("ui.paint").draw(self, g)     # loaded to draw, unloaded while the AI thinks

    def draw_parts(self, g, parts):
        self.app.need("ui.paint").draw(self, g, parts)

    def part_rows(self, part):
        """(first, last) screen row of a region (P_*), the rectangle it clears: they tile the screen."""
        if part == _P_HEAD:
            return 0, self.head_h - 1
        if part == _P_TABLE:
            return self.view.y0 - 1, self.msg_y - 1 if not self.compact else self.hand_y - 1
        if part == _P_MSG:                          # (colour screens: the row above the hand's
            return self.msg_y, self.msg_y + self.ends_h + self.msg_lines * self.app.g.lh - (
                0 if self.compact else 1)               # is the hand's, for the cursor's outline)
        if part == _P_TROWS:
            return self.trows
        if part == _P_TROWS2:
            return self.trows2
        # the hand row (_P_HAND, _P_CURSOR)
        return self.hand_y - (0 if self.compact else 1), self.app.g.h - 1   # (the raised cursor tile's
                                                                              # outline: hand_y - 1)

    def wheel_y(self):
        """Centre row of the thinking wheel (its box: 5 rows either side at most)."""
        return self.msg_y + self.ends_h + self.app.g.lh // 2

    def _draw_wheel(self, g):
        if self.compact:
            g.spinner(g.w - 5, self.wheel_y(), 3, self.frame, g.c.ACCENT, g.c.BG)
        else:
            g.spinner(g.w - 6, self.wheel_y(), 4, self.frame, g.c.ACCENT, g.c.BG)

    def hand_rect(self, i):
        """(x, y, w, h) of hand tile i (tests use this to find a tile's pixels)."""
        hs = self.hs
        x0, _, p = self.hand_span()
        x = x0 + (i - self.hfirst) * p
        y = self.hand_y + 3
        if i == self.cursor and self.mode in (_M_PICK, _M_END):
            y -= 2
        if self.hand_horiz:
            return x, y, 2 * hs, hs
        return x, y, hs, 2 * hs

    # --- the message area ----------------------------------------------------------------------
    def status(self):
        """The lines of the stock left (in variants that draw) and, in the Fives family, the
        open-end count."""
        rd = self.game.match.round
        r = rd.rules
        out = []
        if r.draw and rd.sn:                         # (4-player Goat deals every tile)
            out.append(tr("Stock {0}").format(rd.stock_left()))
        if r.inplay_mod:
            out.append(tr("Count {0}").format(rd.layout.count(r.spinner_keeps)))
        return out

    def msg_cols(self):
        """Characters on the message area's first and second line (short screens: one line); the
        thinking wheel takes the end of the first."""
        g = self.app.g
        c = g.cols - (12 + g.cw - 1) // g.cw if self.thinking != _NONE else g.cols
        if self.msg_lines == 1:
            return c, 0
        return c, g.cols

    def pages(self, text):
        """Steps a text takes in the message area."""
        c1, c2 = self.msg_cols()
        n = self.msg_lines
        return (len(wrap(text, c1, c2)) + n - 1) // n
