"""Round end (every hand revealed, counts, what was recorded), the score sheet, and the match end
(the winner, or the goat). Pages: A goes on, B / UP go back a page."""
from domino.tiles import LO, HI
from domino.scoring import hand_value, wrote_off
from .screen import Screen, drop_module, tr
from micropython import const

_NONE = const(255)      # = domino.tiles.NONE
_OUT = const(1)         # = domino.round.OUT
_FAM_GOAT = const(1)   # = domino.rules._FAM_GOAT
_FAM_SEA = const(2)    # = domino.rules._FAM_SEA
_K_A = const(0x010)     # = keys.K_A
_K_B = const(0x020)     # = keys.K_B
_K_UP = const(0x001)    # = keys.K_UP
_K_DOWN = const(0x002)  # = keys.K_DOWN


def side_name(game, side):
    """A score-sheet column's name: the player, or both partners."""
    if game.match.rules.teams:
        return game.names[side] + "+" + game.names[side + 2]
    return game.names[side]


def next_round(t):
    """Deal the next round (saved at once) and go back to the table."""
    t.game.match.start_round()
    t.save()
    t.new_round()
    t.app.go(t)


def end_round(t):
    """The round on table t has ended: score it (unless a resumed save already did), add the score
    sheet row, save; at the match's end write the statistics (none for a practice game) and retire
    the save; show the result."""
    game = t.game
    m = game.match
    app = t.app
    if not t.solo:
        t.show_hand(_NONE)
    if len(m.history) < m.round_no:
        before = m.remembered[:]
        m.finish_round()
        row = ""
        wiped = wrote_off(m)
        for i in range(m.rules.sides):
            v = m.recorded[i] + m.inplay[i]
            if wiped:
                tok = "x"                     # Sea Goat: every side's points written off
            elif v:
                tok = str(v)
            elif m.remembered[i] > before[i]:
                tok = "+" + str(m.remembered[i] - before[i])
            else:
                tok = "-"
            row += ("," if row else "") + tok
        game.sheet += (";" if game.sheet else "") + row
        t.save()
        you = t.own_seat()                    # whose rounds and result the statistics count
        if you != _NONE:
            try:
                app.stats().record_round(m.rules.vid, m.round_winner == m.rules.side(you))
            except OSError as e:
                game.note = app.need("stats").failed(e, "stats")
    if m.over and not game.counted:
        game.counted = True
        you = t.own_seat()
        if you != _NONE:
            side = m.rules.side(you)
            # points games: not winning is losing; Goat: only the goat loses
            res = 1 if m.winner == side else (-1 if (m.loser == side or m.rules.family != _FAM_GOAT) else 0)
            st = app.stats()
            try:                              # counted once, even if the save outlives a power cut
                game.stats = st.record_result(m.rules.vid, res, st.game_sum())
            except OSError as e:
                game.note = app.need("stats").failed(e, "stats")   # shown on the menu after
            st = None
        try:
            link = app.link                   # a link match the other device has not all of yet
            if link is not None:              # keeps its save: a restart hands the moves over
                link.poll(app.board.ticks_ms())   # (the other's acknowledgement of the last move,
            if link is None or not link.owes():  # sent before this screen drew and saved it, is in)
                app.saves().clear_game()      # a finished match is not offered to resume
        except OSError:
            pass
    t.round_scored()
    drop_module("stats")                      # statistics written: its code goes before the
                                              # result screens (docs/ENGINE.md, "Memory tricks")
    app.beep(660, 80)
    app.go(RoundEnd(app, t))


def draw_sheet(g, game, y):
    """Score sheet from y down: a row per finished round (newest last, its number at the left),
    then the totals, then what the numbers are: the target, the eggs pot, and in the Goat family
    the legend of the remembered points "+N" (in their own colour; opened accounts plain)."""
    c = g.c
    m = game.match
    r = m.rules
    n = r.sides
    goat = r.family == _FAM_GOAT
    lh = g.lh
    total = tr("Total" if g.cols >= 24 else "Tot")
    x0 = g.cw * len(total) + 4                       # the label column: round numbers, the total
    cw = (g.w - x0) // n
    for i in range(n):
        name = side_name(game, i)
        g.right(g.fit(name, cw // g.cw - 1), x0 + (i + 1) * cw - 2, y, c.ACCENT)
    y += lh
    rows = game.sheet.split(";") if game.sheet else []
    room = (g.h - y - 3 - (3 if g.h >= 100 else 2) * lh - (lh if goat else 0)) // lh
    if room < 1:
        room = 1
    first = len(rows) - room if len(rows) > room else 0
    for k in range(first, len(rows)):
        g.text(str(k + 1), 2, y, c.DIM)
        toks = rows[k].split(",")
        for i in range(min(n, len(toks))):
            tok = toks[i]
            g.right(tok, x0 + (i + 1) * cw - 2, y,
                    c.REMEMBERED if tok[:1] == "+" else (c.WARN if tok == "x" else c.FG))
        y += lh
    g.fb.hline(0, y, g.w, c.EDGE if not g.mono else c.FG)
    y += 3
    g.text(total, 2, y, c.FG)
    for i in range(n):
        if r.family == _FAM_GOAT and not m.opened[i]:
            v = "+" + str(m.remembered[i]) if m.remembered[i] else "0"
            col = c.REMEMBERED if m.remembered[i] else c.FG
        else:
            v = str(m.scores[i])
            col = c.FG
        g.right(v, x0 + (i + 1) * cw - 2, y, col)
    y += lh
    extra = tr("Goat at " if goat else "Target ") + str(r.target)
    if m.pot:
        extra += tr(", eggs {0}").format(m.pot)
    g.text(g.fit(extra, g.cols - 1), 2, y, c.DIM)
    y += lh
    if goat and y + lh <= g.h:
        g.text(g.fit(tr("+N remembered" if g.cols < 24 else "+N: points remembered"), g.cols - 1), 2, y,
               c.REMEMBERED)
        y += lh
    return y


class RoundEnd(Screen):
    """Page 0: the hands; 1: what this round gave; 2: the score sheet; 3 (match over): the result."""

    def __init__(self, app, table):
        Screen.__init__(self, app)
        self.table = table
        self.game = table.game
        self.page = 0
        self.pages = 4 if self.game.match.over else 3

    def key(self, k):
        if k == _K_A or k == _K_DOWN:
            if self.page + 1 < self.pages:
                self.page += 1
            elif self.game.match.over:
                self.app.menu(self.game.note)
                return
            else:
                next_round(self.table)
                return
        elif (k == _K_B or k == _K_UP) and self.page:
            self.page -= 1
        self.app.redraw()

    def draw(self, g):
        c = g.c
        g.fb.fill(c.BG)
        m = self.game.match
        small = g.h < 100                            # 128x64: no footer, one-line title
        title = tr("Round {0}").format(m.round_no) if self.page == 0 else \
            tr(("Result", "Score sheet", "Match over")[self.page - 1])
        if self.page == 0 and (small or self._short(g)):   # one line: how the round ended
            title = tr("Round {0}: {1}").format(m.round_no, self._why(False))   # over the hands, the
            if len(title) > g.cols - 6:                                        # counts' column named
                title = tr("R{0}: {1}").format(m.round_no, self._why(True))
            if len(title) > g.cols - 6:
                title = self._why(True)
            y = 0 if small else 2
            g.text(g.fit(title, g.cols - 6), 2, y, c.ACCENT)
            g.right(tr("count"), g.w - 2, y, c.DIM)
            y += g.lh + (1 if small else 4)
        elif small:
            if self.page == 1:                       # the column heads or the deal code may
                g.text(g.fit(title, g.cols - 12), 2, 0, c.ACCENT)   # share the title's line
            else:
                g.center(g.fit(title, g.cols), 0, c.ACCENT)
            y = g.lh + 1
        else:
            y = 2 + g.big_center(title, 2, c.ACCENT) + 4
        if self.page == 0:
            self._hands(g, y)
        elif self.page == 1:
            self._result(g, y)
        elif self.page == 2:
            draw_sheet(g, self.game, y)
        else:
            self._match(g, y)
        if small:
            return
        foot = tr("A next" if self.page + 1 < self.pages else ("A menu" if m.over else "A next round"))
        pages = "  (" + str(self.page + 1) + "/" + str(self.pages) + ")"
        if len(foot) + len(pages) <= g.cols - 1:
            foot += pages
        g.text(foot, 2, g.h - g.lh, c.DIM)

    def _tight(self, g):
        """Whether the result's table (128x64) lacks a line for its column heads under the title:
        four sides in a 12-pixel font."""
        return (self.game.match.rules.sides + 2) * g.lh + 1 > g.h

    def _short(self, g):
        """Whether the hands' page is too short for a line of its own saying how the round ended
        (then the title says it)."""
        room = g.h - 3 * g.lh - 8
        return room // self.game.match.rules.players - 3 < g.legible

    def _why(self, short):
        rd = self.game.match.round
        names = self.game.names
        if rd.result == _OUT:
            if self.game.saved_names[rd.winner] == "You":      # (the verb's form for the person)
                return tr("You out" if short else "You went out")
            return names[rd.winner] + tr(" out" if short else " went out")
        if short:
            return tr("blocked")
        fished = tr(": {0} fished").format(names[rd.fisher]) if rd.fisher != _NONE else ""
        return tr("Blocked{0}").format(fished)

    def _hands(self, g, y):
        c = g.c
        m = self.game.match
        rd = m.round
        names = self.game.names
        small = g.h < 100
        if not small and not self._short(g):   # how the round ended; the hands' counts' column named
            g.right(tr("count"), g.w - 2, y, c.DIM)
            for ln in _wrap2(self._why(False), g.cols - 7):
                g.text(ln, 2, y, c.FG)
                y += g.lh
        n = m.rules.players
        room = g.h - y - (0 if small else g.lh)
        # upright tiles when a row of them fits at a size whose pips count (ui/gfx.py), else lying
        s = g.legible
        up = (room // n - 3) // 2 >= s
        if not up and room // n - 3 < s:             # short of room: the gaps between rows close
            s = max(5, min(s, room // n - 1))        # up first (to a pixel), then the tiles shrink
        th = 2 * s if up else s                      # a tile's height and width
        tw = s if up else 2 * s
        longest = 0
        for nm in names:
            longest = max(longest, len(nm))
        x0 = 2 + g.cw * longest + 4
        pitch = max(th, g.lh)                        # a hand's row, and 3 pixels between rows
        pitch += min(3, max(0, room // n - pitch))   # where they fit (4 hands on the OLED in a
        for seat in range(n):                        # 12-pixel font: none)
            hand = rd.hands[seat]
            ty = y + (th - g.lh) // 2 if th > g.lh else y
            g.text(names[seat], 2, ty, c.FG)
            cnt = str(hand_value(m.rules, hand))
            x = x0
            xmax = g.w - g.cw * (len(cnt) + 1) - 4
            for t in range(28):
                if (hand >> t) & 1:
                    if x + tw > xmax:
                        g.text("+", x, ty, c.DIM)
                        break
                    g.tile(x, y, LO[t], HI[t], not up, s)
                    x += tw + 2
            g.right(cnt, g.w - 2, ty, c.ACCENT)
            y += pitch

    def _result(self, g, y):
        """Each side's count and what the round gave it: in words on wide screens ("Ann: count 8,
        scores 25 (+5 in play)"), as a table under column heads on narrow ones."""
        c = g.c
        game = self.game
        m = game.match
        r = m.rules
        goat = r.family == _FAM_GOAT
        small = g.cols < 24 or (2 * r.sides + 2) * g.lh > g.h - y - g.lh
        lh = g.lh
        xc = g.w - 2 - 6 * g.cw                      # narrow: the counts' column ends here
        if small:
            hy = 0 if g.h < 100 and self._tight(g) else y      # (on the title's line: see draw)
            g.right(tr("count"), xc, hy, c.DIM)
            g.right(tr("adds" if goat else "score"), g.w - 2, hy, c.DIM)
            if hy == y:
                y += lh
        kept = False                                 # a "+N" shown: its legend goes under
        for i in range(r.sides):
            name = side_name(game, i)
            col = c.FG
            rec = m.recorded[i]
            if small:
                if goat:
                    v = str(rec) if rec else "-"
                    if not rec and not m.opened[i] and m.remembered[i]:
                        v = "+" + str(m.remembered[i])
                        col = c.REMEMBERED
                        kept = True
                else:
                    v = str(rec + m.inplay[i])
                g.text(g.fit(name, (xc - 2) // g.cw - 4), 2, y, c.FG)
                g.right(str(m.counts[i]), xc, y, c.FG)
                g.right(v, g.w - 2, y, col)
                y += lh
                continue
            line = tr("{0}: count {1}").format(name, m.counts[i])
            if goat:
                if rec:
                    line += tr(", records {0}").format(rec)
                elif not m.opened[i] and m.remembered[i]:
                    line += tr(", remembers +{0}").format(m.remembered[i])
                    col = c.REMEMBERED
            else:
                if rec:
                    line += tr(", scores {0}").format(rec)
                if m.inplay[i]:
                    line += tr(" (+{0} in play)").format(m.inplay[i])
            for ln in _wrap2(line, g.cols - 1):
                g.text(ln, 2, y, col)
                y += lh
            y += 2
        bottom = g.h - (0 if g.h < 100 else lh)      # (the footer)
        if kept and y + lh <= bottom:
            g.text(tr("+N remembered"), 2, y, c.REMEMBERED)
            y += lh
        if m.pot:
            g.text(g.fit(tr("Eggs carried: {0}").format(m.pot), g.cols - 1), 2, y, c.WARN)
            y += lh
        if wrote_off(m) and y + lh <= bottom:
            g.text(tr("All written off" if small else "All points written off"), 2, y, c.WARN)
            y += lh
        if m.round_winner != _NONE and not (r.family == _FAM_SEA and not m.recorded[m.round_winner]):
            if y + lh <= bottom:
                g.text(g.fit(tr("Round to {0}").format(side_name(game, m.round_winner)), g.cols - 1), 2, y,
                       c.GOOD)
            y += lh
        deal = tr("Deal {0}").format(m.deal_code())
        if y + lh <= bottom:
            g.text(g.fit(deal, g.cols - 1), 2, y, c.DIM)
        elif g.h < 100 and not self._tight(g):       # 128x64 in a 12-pixel font: at the right
            title = tr("Result")                     # of the title's line (ui/sheet.py draw)
            if len(title) + 2 + len(deal) > g.cols - 1:
                deal = m.deal_code()
            if len(title) + 2 + len(deal) <= g.cols - 1:
                g.right(deal, g.w - 2, 0, c.DIM)

    def _match(self, g, y):
        c = g.c
        game = self.game
        m = game.match
        y += 4
        if m.winner != _NONE:
            y += g.big_center(tr("Winner"), y, c.DIM) + 2
            y += g.big_center(side_name(game, m.winner), y, c.GOOD) + 8
        if m.loser != _NONE and m.rules.family == _FAM_GOAT:
            y += g.big_center(tr("Goat"), y, c.DIM) + 2
            y += g.big_center(side_name(game, m.loser), y, c.WARN) + 8
        st = game.stats
        if st:
            g.center(g.fit(tr(m.rules.title) + ": " + str(st[1]) + "-" + str(st[2]), g.cols), y, c.FG)


def _wrap2(text, cols):
    if len(text) <= cols:
        return (text,)
    cut = text.rfind(" ", 0, cols)
    if cut <= 0:
        cut = cols
    return (text[:cut], text[cut:].strip()[:cols])


class SheetView(Screen):
    """The score sheet on its own (from the in-game menu)."""

    def __init__(self, app, table, back):
        Screen.__init__(self, app)
        self.game = table.game
        self.back = back

    def key(self, k):
        if k == _K_A or k == _K_B:
            self.app.go(self.back)

    def draw(self, g):
        c = g.c
        g.fb.fill(c.BG)
        if g.h < 100:                                # 128x64: a one-line title, as RoundEnd's
            g.center(g.fit(tr("Score sheet"), g.cols), 0, c.ACCENT)
            y = g.lh + 1
        else:
            y = 2 + g.big_center(tr("Score sheet"), 2, c.ACCENT) + 4
        draw_sheet(g, self.game, y)
        if g.h >= 100:                               # (128x64: the sheet takes every line)
            g.text(tr("A/B back"), 2, g.h - g.lh, c.DIM)


def ends(rd, cols):
    """The open ends in words, left to right as the table shows them, a double at an end as 5:5
    ("Open ends 2 5:5 0 3"), and in the Fives family their count ("=18"), in `cols` characters (the
    label goes first, then the ends: "2 5:5 0 3 =18", "Count 18"): the 128x64 OLED's summary of
    what the colour boards' row of half-tiles shows."""
    lay = rd.layout
    r = rd.rules
    if lay.lead == _NONE:
        return ""
    lone = not (lay.n[0] or lay.n[1])            # the lead alone: its number once on each side
    out = ""
    for a in (0, 2, 3, 1):
        if lay.is_open(a):
            v = str(lay.end[a])
            out += " " + (v + ":" + v if lay.dbl[a] and not lone else v)
    n = " =" + str(lay.count(r.spinner_keeps)) if r.inplay_mod else ""
    for s in (tr("Open ends {0}").format(out[1:]) + n, out[1:] + n):
        if len(s) <= cols:
            return s
    return tr("Count {0}").format(n[2:]) if n else ""


class ScoresView(Screen):
    """Where the match stands, on one page (the 128x64 OLED's table has no header: Y shows this):
    each player's name, tiles in hand (written on a tile) and score (with this round's points made
    in play; Goat family: "+N" remembered), the stock, the open ends and their count, the target.
    Where the lines outnumber the screen's, the stock and the ends share one, then the title goes
    (the target is on the score sheet too). Any key goes back."""

    def __init__(self, app, table, back):
        Screen.__init__(self, app)
        self.table = table
        self.back = back

    def key(self, k):
        self.app.go(self.back)

    def draw(self, g):
        c = g.c
        t = self.table
        m = t.game.match
        r = m.rules
        rd = m.round
        paint = self.app.need("ui.paint")
        g.fb.fill(c.BG)
        small = g.h < 100
        y = 0 if small else 2
        title = tr("Scores, to {0}").format(r.target)
        extra = [tr("Stock {0}").format(rd.stock_left())] if r.draw and rd.sn else []
        e = ends(rd, g.cols)
        if e:
            extra.append(e)
        lines = g.h // g.lh
        if small and 1 + r.players + len(extra) > lines and len(extra) > 1 and \
                len(extra[0]) + 2 + len(extra[1]) <= g.cols:
            extra = [extra[0] + "  " + extra[1]]
        if small and 1 + r.players + len(extra) <= lines:
            g.text(g.fit(title, g.cols), 0, y, c.ACCENT)
            y += g.lh
        elif not small:
            y += g.big_center(title, y, c.ACCENT) + 6
        lh = g.lh + (0 if small else 2)
        for s in range(r.players):
            side = r.side(s)
            txt, rem = paint._score_text(t, side)
            g.text(t.game.names[s], 0, y, (c.TEAM0 if side == 0 else c.TEAM1) if r.teams else c.FG)
            if r.teams and side == 0:            # partners told apart by more than colour (1-bit:
                g.fb.hline(0, y + g.lh - 1, len(t.game.names[s]) * g.cw, c.TEAM0)   # none)
            cnt = str(rd.hand_size(s))
            x = g.cw * 6 + 2
            if small:                            # 1-bit: the count on a lit tile, as a domino
                bw = len(cnt) * g.cw + 3
                g.fb.fill_rect(x, y, bw, g.lh - 1, c.TILE)
                g.text(cnt, x + 2, y, c.PIP)
            else:
                th = g.caps // 2
                g.fb.fill_rect(x, y + g.lh - g.caps - 1, th, 2 * th, c.TILE)
                g.fb.hline(x, y + g.lh - g.caps - 1 + th, th, g.divider)
                g.text(cnt, x + th + 2, y, c.FG)
            g.right(txt, g.w, y, c.REMEMBERED if rem else c.FG)
            y += lh
        for ln in extra:                     # the stock, the ends and their count
            if ln and y + g.lh <= g.h:
                g.text(ln, 0, y, c.FG)
                y += lh
        if not small:
            g.text(tr("Any key: back"), 0, g.h - g.lh, c.DIM)
