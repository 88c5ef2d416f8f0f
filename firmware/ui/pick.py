"""A human's turn on the table: move along the hand, pick a tile, choose its end, ask for a hint.
Plain functions on the Table object, in their own module so that it can be unloaded while the AI
searches (the heap holds all bytecode)."""
import gc
from micropython import const
from domino.round import first_arm, first_tile, move_tiles
from ui.screen import ticks_diff, ANIM_MS
from ui import brain, words
_NONE = const(255)       # = domino.tiles.NONE
_K_UP = const(0x001)     # = keys.K_UP
_K_DOWN = const(0x002)   # = keys.K_DOWN
_K_LEFT = const(0x004)   # = keys.K_LEFT
_K_RIGHT = const(0x008)  # = keys.K_RIGHT
_K_A = const(0x010)      # = keys.K_A
_K_B = const(0x020)      # = keys.K_B
_K_X = const(0x040)      # = keys.K_X
_K_Y = const(0x080)      # = keys.K_Y
_M_RUN = const(0)       # = ui.table._M_RUN
_M_PICK = const(1)      # = ui.table._M_PICK
_M_END = const(2)       # = ui.table._M_END
_CHAIN_OF_ARM = const((1, 0, 2, 3))  # = ui.gfx.CHAIN_OF_ARM
_P_TABLE = const(2)     # = ui.table._P_TABLE
_P_MSG = const(4)       # = ui.table._P_MSG
_P_HAND = const(8)      # = ui.table._P_HAND
_P_CURSOR = const(16)   # = ui.table._P_CURSOR

_HUMAN_ROOM = const(24576)  # free heap wanted for a human's turn (this code, drawing, the save) beside the AI
_CALM_MS = const(300)  # after another player's move, A is ignored this long (a press meant to hurry the AI)


def begin(t, seat):
    """The human at `seat` is to move: show the hand, put the cursor on a playable tile, drop stale
    presses (made while the AI was thinking)."""
    app = t.app
    gc.collect()
    if gc.mem_free() < _HUMAN_ROOM:
        brain.release()                # short of heap: the AI's buffers go while a person thinks
    t.start_pick(seat, playable_mask(t))
    t.load_hand()
    if t.cursor_tile == _NONE or not (t.playable >> t.cursor_tile) & 1:
        jump(t, 1, True)
    app.inp.flush()
    rd = t.game.match.round
    if rd.last != seat and rd.last != _NONE:     # someone else just moved: A is not taken at once
        t.calm(t.now() + _CALM_MS)
    app.board.led(0, 40, 0)
    app.redraw()


def playable_mask(t):
    rd = t.game.match.round
    n = rd.legal()
    lay = rd.layout
    mask = 0
    for i in range(n):
        mask |= move_tiles(lay, rd.buf[i])
    return mask


def moves_of(t, tile):
    """Fill t.opts (a buffer the table lends) with the legal moves that place `tile` (single or in a
    multi-double move); returns how many."""
    rd = t.game.match.round
    n = rd.legal()
    k = 0
    lay = rd.layout
    for i in range(n):
        m = rd.buf[i]
        if not (move_tiles(lay, m) >> tile) & 1:
            continue
        if k < len(t.opts):
            t.opts[k] = m
            k += 1
    return k


def key(t, k):
    app = t.app
    if k == _K_A and t.calm_until and ticks_diff(t.now(), t.calm_until) < 0:
        return                         # still mashing from the AI's turn: not a choice
    t.calm(0)
    if t.mode == _M_END:
        if k in (_K_UP, _K_LEFT):
            t.set_opt((t.opt - 1) % t.nopts)
        elif k in (_K_DOWN, _K_RIGHT):
            t.set_opt((t.opt + 1) % t.nopts)
        elif k == _K_A:
            play(t, t.opts[t.opt])
            return
        elif k == _K_B:
            t.set_mode(_M_PICK)
            t.app.redraw()
            return
        say_opt(t)
        return
    if k == _K_Y and t.compact:        # the OLED's table has no header: its scores a key away
        from ui.sheet import ScoresView
        t.app.go(ScoresView(t.app, t, t))
        return
    if k in (_K_B, _K_Y):
        t.pause()
        return
    if not t.nh:
        return
    was = t.cursor
    if k == _K_LEFT:
        t.move_cursor((t.cursor - 1) % t.nh)
    elif k == _K_RIGHT:
        t.move_cursor((t.cursor + 1) % t.nh)
    elif k == _K_UP:
        jump(t, -1, False)
    elif k == _K_DOWN:
        jump(t, 1, False)
    elif k == _K_X:
        hint(t)
        return
    elif k == _K_A:
        choose(t)
        return
    t.move_cursor(t.cursor)
    # the two tiles when both are among those shown (else the row scrolls); the table and the open
    # ends' row too while a hint's end is outlined (it shows with the hinted tile)
    f = t.hfirst
    vis = t.hand_span()[1]
    part = _P_HAND
    if f <= was < f + vis and f <= t.cursor < f + vis:
        t.set_cursor_was(was)
        if hasattr(app.board, "show_rect") and not app.parts and not app.dirty and \
                app.need("ui.paint").cursor_rects(t, app.g):
            part = 0                    # the two tiles drawn and sent, as rectangles, now
        elif t.hand_at == app.board.moved:
            part = _P_CURSOR
    part |= _P_TABLE | _P_MSG if t.hint_move >= 0 else 0
    if part:
        t.changed(part)


def jump(t, d, from_start):
    """Move the cursor to the next (d=1) / previous playable tile."""
    n = t.nh
    if not n:
        return
    c = t.cursor
    i = -1 if from_start else c
    for _ in range(n):
        i = (i + d) % n
        if (t.playable >> t.hand[i]) & 1:
            c = i
            break
    t.move_cursor(c)


def choose(t):
    """A on a tile: play it, or ask where when it fits several ends, or say why it does not fit."""
    tile = t.hand[t.cursor]
    n = moves_of(t, tile)
    if n == 0:
        lay = t.game.match.round.layout
        ends = []
        for a in range(4):
            if lay.is_open(a):
                ends.append(lay.end[a])
        t.say(words.misfit(tile, ends), 2500, t.app.g.c.WARN)
        t.app.beep(220, 90)
        return
    if n == 1:
        play(t, t.opts[0])
        return
    opt = 0
    for i in range(n):
        if t.opts[i] == t.hint_move:
            opt = i
    t.offer_ends(n, opt)
    say_opt(t)


def say_opt(t):
    """The end being chosen: outlined on the table, named in the message area (ui/paint.py); a tall
    table scrolls to it."""
    m = t.opts[t.opt]
    t.restart_msg()
    t.changed(_P_TABLE | _P_MSG)       # the ends outlined, the end named (the hand is as it was)
    if t.view.tall:
        ch = _CHAIN_OF_ARM[first_arm(m)]
        t.view.follow(t.view.my[ch], t.view.mh[ch])


def play(t, mv):
    t.allow_undo(t.game.match.nmoves, words.describe(t.game.match.round, mv, True))
    t.app.beep(1200, 15)
    t.play(mv, not t.solo)              # pass-and-play: the next player must not see this hand
    if t.solo:
        t.load_hand()
        ms = ANIM_MS[t.app.settings["anim"]]
        if ms and t.undo_to >= 0 and t.mode == _M_RUN and not t.game.match.round_over():
            t.wait(ms)                  # the AI answers after the same beat as its own moves get:
                                        # until its move is played, B offers Undo (ui/pause.py;
                                        # not in a link game: no undo; _M_RUN: no save's warning)


def hint(t):
    """The AI's suggestion: the cursor goes to its tile, its end is outlined on the table and the
    reason shown, the move named in words."""
    game = t.game
    app = t.app
    s = game.match.round.turn
    t.say("Thinking of a hint")
    t.think(s)
    app.flush()
    app.release()
    short = app.g.cols < 24
    mv, why = brain.hint(game.match, s, app.settings["think"], app.ai_clock, t.on_tick,
                         t.msg_lines == 1, t.msg_cols()[1])    # (the reason's line, whole)
    rd = game.match.round
    t.hinted(mv, first_tile(rd.layout, mv))
    t.say(words.hint(words.describe(rd, mv, True), why, short), 6000, app.g.c.ACCENT)
    app.inp.flush()
