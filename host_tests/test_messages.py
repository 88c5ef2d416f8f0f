"""Every message the firmware can show fits its box on every screen size the boards have.

The table's message area (ui/paint.py, two lines beside the stock and count; one line on the 128x64
OLED) wraps a text and shows a longer one in steps; a menu's note (ui/widgets.py ListScreen) takes
two lines a step. Nothing may be cut and nothing may take more than two steps. Checked here under
CPython with the real Table, words and paint code (a recording stand-in for the framebuffer), for:

- every text ui/words.py builds, with its longest values in each variant (the longest names, the
  move naming the most doubles, closed, with the most points, a hint's reason of 40 / 16 characters
  as ai/reason.py promises, and the ones it gives in seeded positions), alone and below what
  happened before it ("Ann: 3-5 on 3" over "Bob thinking");
- the store's and the save's messages (docs/UI.md's table, savegame.failed with a 3-digit errno);
- every string literal the UI hands to say(), a menu note or the menu (found by reading the code);
- every refusal the New game form can get from domino.rules (every variant, player count, team
  choice and option).
"""
import ast
import functools
import itertools
import os
import re
import types

import pytest

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
from domino.match import Match  # noqa: E402
from domino.rules import VARIANTS, Rules, RulesError, option_choices  # noqa: E402

from tools.sim import ui_host  # noqa: E402
from ui import lang, langfile  # noqa: E402

paint = ui_host.paint
words = ui_host.words
wrap = ui_host.gfx.wrap

SIZES = ((240, 240), (320, 240), (240, 135), (128, 64))
NAME = "W" * ui_host.dealcode.NameEditor.size      # the widest name a player can type
MULTI, CLOSE = 0x100, 0x80


def table(w, h, vid="fives", players=4):
    return ui_host.make_table(w, h, vid, players, NAME)


def shown(t, text, status):
    """The lines the message area draws for `text`, step by step: [[(line, x, y)]]."""
    t.status = lambda: status
    t.msg = text
    t.msg_col = 1
    g = t.app.g
    steps = []
    for k in range(t.pages(text)):
        t.page = k
        g.calls = []
        paint.msg(t, g)
        steps.append([c for c in g.calls if c[2] >= t.msg_y + t.ends_h])     # (not the open ends' row)
    return steps


def check_table(t, text, status):
    """None, or why `text` does not fit the message area of table t."""
    g = t.app.g
    n = t.pages(text)
    if n > 2:
        return "%d steps: %r" % (n, wrap(text, *t.msg_cols()))
    got = []
    for lines in shown(t, text, status):
        for s, x, y in lines:
            if x < 0 or x + g.cw * len(s) > g.w:
                return "line %r leaves the screen" % s
            if t.thinking != 255 and y == t.msg_y + t.ends_h + 1 and x + g.cw * len(s) > g.w - 12:
                return "line %r runs into the thinking wheel" % s
            got.append(s)
    if " ".join(" ".join(got).split()) != " ".join(text.split()):
        return "shown %r, not %r" % (got, text)
    return None


def fake_round(ends, lead=0):
    lay = types.SimpleNamespace(end=ends, lead=lead)
    return types.SimpleNamespace(layout=lay)


def longest_moves(rules, short):
    """The longest move texts of a variant: a single tile on an end, a closed double (Donkey), the
    most doubles at once (closed where the variant closes them)."""
    rd = fake_round([6, 5, 4, 3])
    out = [words.describe(rd, 5 + 6 * 7 - 21 | 1 << 5, short)]     # 5-6 (tile 26) on an end
    assert words.placed(26, 5) == out[0] == "5-6 on 5"           # (the move log's words)
    out.append(words.describe(rd, 27 | 1 << 5, short))            # 6-6
    if rules.close:
        out.append(words.describe(rd, 27 | 1 << 5 | CLOSE, short))
    k = min(rules.multi, 4)
    if k > 1:
        arms = (1 << k) - 1
        out.append(words.describe(rd, MULTI | arms | ((arms << 4) if rules.close else 0), short))
    return out


@functools.lru_cache(maxsize=None)
def reasons(short):
    """Hint reasons: as long as ai/reason.py promises, in words, and real ones from seeded games."""
    n = 16 if short else 40
    made = ("Keeps " + "wwww " * 10)[:n].strip()
    out = {made, "Goes out", "Heaviest tile"}
    try:
        from ai import hint
    except ImportError:
        return tuple(sorted(out))
    from domino.record import run_forced
    for vid in ("fives", "goat", "muggins", "draw"):
        m = Match(Rules(vid, 2, False), 7)
        m.start_round()
        for _ in range(6):
            run_forced(m)
            if m.round_over():
                break
            mv, why = hint(m, m.round.turn, 5, clock=iter(range(0, 10 ** 6, 5)).__next__, short=short)
            out.add(why)
            m.play(mv)
    return tuple(sorted(out))


def table_texts(rules, short, terse):
    """(text of the moment, what happened last, what to do now) worst cases of a variant; terse:
    moves and hint reasons in their short words (a one-line message area: ui/table.py), short: hints
    without the move's name (narrow screens)."""
    moves = longest_moves(rules, terse)
    pts = 100 if rules.inplay_mod else 0
    last = [words.played(NAME, mv, pts) for mv in moves]
    last += [words.drew(NAME, 27), words.drew(NAME, 255, 14), words.passes(NAME),
             words.played("You", moves[0], pts)]
    now = [words.thinking(NAME), words.your_turn(NAME), words.your_turn(None),
           words.your_turn(None, True, short)]
    now += [words.where(mv, 12, 12) for mv in moves]
    alone = [words.passes(NAME, True), words.misfit(26, [6, 6, 6, 6]), words.undone(moves[-1])]
    hinted = longest_moves(rules, True)          # a hint names doubles in short (ui/pick.py)
    alone += [words.hint(mv, why, short) for mv in hinted for why in reasons(terse)]
    return alone, last, now


def status_of(rules, players):
    out = ""
    if rules.draw:
        out = "Stock " + str(28 - players * rules.hand)
    if rules.inplay_mod:
        out += (" " if out else "") + "Count 48"
    return out


@pytest.mark.parametrize("w,h", SIZES, ids=["%dx%d" % s for s in SIZES])
def test_every_table_message_fits(w, h):
    bad = []
    for row in VARIANTS:
        rules = Rules(row[0], row[2], False)
        t = table(w, h, row[0], row[2])
        status = "" if t.compact else status_of(rules, row[2])
        alone, last, now = table_texts(rules, t.app.g.cols < 24, t.msg_lines == 1)
        for text in alone + last + now + other_table_messages():
            err = check_table(t, text, status)
            if err:
                bad.append("%s: %r: %s" % (row[0], text, err))
        # what happened over what to do now, as ui/paint.py puts them together
        for lt in last:
            for mode, thinking, nw in ((1, 255, now[1]), (1, 255, now[2]), (1, 255, now[3]), (0, 0, now[0]),
                                       (2, 255, None)):
                t.game.practice = nw == now[3]      # (a practice game: one person against the AI)
                t.mode = mode
                t.thinking = thinking
                t.last_text = lt
                t.msg = ""
                if mode == 2:
                    t.opts[0] = 26 | 1 << 5
                    t.opts[1] = 26 | 2 << 5
                    t.nopts = 2
                    t.opt = 1
                    t.game.match.round.layout.lead = 0
                text, col = paint.now(t)
                err = check_table(t, text, status)
                if err:
                    bad.append("%s: %r: %s" % (row[0], text, err))
            t.mode = 0
            t.thinking = 255
    assert not bad, "\n".join(bad[:20])


def other_table_messages():
    """Messages the table shows that come from elsewhere: the store's notes when a save is resumed
    (docs/UI.md's table, "table" rows), the save's flash errors, the app's own."""
    out = ["Low memory: playing lean", "Thinking of a hint"]
    import savegame
    for n in (5, 28, 122):
        out.append(savegame.failed(OSError(n)))
        out.append(savegame.failed(OSError(n), "settings"))
    out += [m for where, m in doc_messages() if "table" in where]
    out += ui_literals("say")
    return out


def doc_messages():
    text = open(os.path.join(ROOT, "docs", "UI.md"), encoding="utf-8").read()
    out = []
    for line in text.splitlines():
        cells = [c.strip() for c in line.split("|")]
        if len(cells) == 5 and cells[3].startswith("`"):
            for msg in re.findall(r"`([^`]+)`", cells[3]):
                out.append((cells[2], msg))
    assert len(out) > 15, "docs/UI.md's message table is gone?"
    return out


def ui_literals(kind):
    """String literals the UI passes to say() ("say"), or shows as a menu note ("note": menu(...),
    .note = ..., MainMenu(app, ...))."""
    out = []
    d = os.path.join(ROOT, "firmware", "ui")
    for f in sorted(os.listdir(d)):
        if not f.endswith(".py"):
            continue
        tree = ast.parse(open(os.path.join(d, f), encoding="utf-8").read())
        for node in ast.walk(tree):
            val = None
            if isinstance(node, ast.Call) and node.args:
                name = getattr(node.func, "attr", getattr(node.func, "id", ""))
                if (kind == "say" and name == "say") or (kind == "note" and name in ("menu", "MainMenu")):
                    val = node.args[-1] if name == "MainMenu" else node.args[0]
            elif kind == "note" and isinstance(node, ast.Assign):
                if any(getattr(tg, "attr", None) == "note" for tg in node.targets):
                    val = node.value
            if isinstance(val, ast.IfExp):
                vals = [val.body, val.orelse]
            else:
                vals = [val]
            for v in vals:
                if isinstance(v, ast.Constant) and isinstance(v.value, str) and v.value:
                    out.append(v.value)
    return out


def form_refusals():
    """Every message domino.rules can refuse a New game set-up with (the form's choices only)."""
    out = set()
    for row in VARIANTS:
        keys = [k for k, _, _ in option_choices(row[0])]
        combos = itertools.product(*[c for _, _, c in option_choices(row[0])])
        for values in combos:
            for players in range(row[2], row[3] + 1):
                for teams in ((False, True) if row[4] and players == 4 else (False,)):
                    try:
                        Rules(row[0], players, teams, dict(zip(keys, values)))
                    except RulesError as e:
                        out.add(str(e))
    return sorted(out)


def menu_notes():
    import savegame
    notes = [m for where, m in doc_messages() if "menu" in where]
    notes += ui_literals("note")
    notes += form_refusals()
    for n in (5, 28, 122):
        for what in (None, "settings", "stats"):
            notes.append(savegame.failed(OSError(n), what))
    notes.append("Not cleared: [Errno 122] EDQUOT")
    return notes


class MenuG:
    """What a ListScreen draws with (ui/gfx.py Gfx), recording its texts: the board's font (the
    OLED: framebuf's 8x8 in English, the 6x12 font in Russian)."""

    def __init__(self, w, h, code):
        mono = h < 100
        if mono and code == "ru":
            self.cw, self.lh, self.font = 6, 12, True
        else:
            r = ui_host.Recorder(w, h)
            self.cw, self.lh, self.font = r.cw, r.lh, r.font
        self.w, self.h, self.cols = w, h, w // self.cw
        self.c = ui_host.Colours(mono)
        self.calls = []
        self.fb = types.SimpleNamespace(fill=lambda *a: None, fill_rect=lambda *a: None)

    def big_center(self, s, y, col, k=1):
        return self.lh if self.font else 8

    def text(self, s, x, y, col, k=1):
        self.calls.append((s, x, y))

    def right(self, s, x_end, y, col):
        self.calls.append((s, x_end - self.cw * len(s), y))


@pytest.mark.parametrize("code", ["en", "ru"])
@pytest.mark.parametrize("w,h", SIZES, ids=["%dx%d" % s for s in SIZES])
def test_every_menu_note_shows_whole(w, h, code):
    """A menu's note (ui/widgets.py ListScreen): whole at once where the screen has the room for it
    and the chosen row, else in steps of whole lines that together give all of it; in English on
    every screen, the OLED's 8x8 font included, at once; the chosen row stays on the screen."""
    widgets = ui_host.device_module("ui.widgets")
    rows = [("Host a game", None), ("Join a game", None), ("Back", None)]
    langfile.use(code)
    try:
        bad = []
        notes = menu_notes()
        for note in notes:
            g = MenuG(w, h, code)
            text = lang.tr(note)
            lines = wrap(text, g.cols - 1)
            app = types.SimpleNamespace(g=g)

            class Menu(widgets.ListScreen):
                def rows(self):
                    return rows
            sc = Menu(app, "Link game")
            sc.note = note
            shown = []
            for k in range(len(lines) + 1):
                sc.page = k
                g.calls = []
                sc.draw(g)
                got = [s for s, x, y in sorted(g.calls, key=lambda c: c[2]) if s in lines and x == 2]
                shown.append(got)
                if any(s.startswith(lang.tr("Host a game")) for s, _, y in g.calls if y + g.lh > h):
                    bad.append("%r: the chosen row pushed off" % note)
                if k + 1 >= sc.pages:
                    break
            seen = [ln for step in shown for ln in step]
            if seen != lines:
                bad.append("%r: shown %r" % (text, shown))
            if code == "en" and sc.pages > 1:
                bad.append("%r: %d steps %r" % (text, sc.pages, shown))
            if any(len(ln) > g.cols - 1 for ln in lines):
                bad.append("%r: %r" % (text, lines))
        assert not bad, "\n".join(bad)
        assert len(notes) > 30
    finally:
        langfile.use("en")


def test_words_are_all_checked():
    """Every text builder in ui/words.py is used by the checks above (a new one must be added)."""
    tree = ast.parse(open(os.path.join(ROOT, "firmware", "ui", "words.py"), encoding="utf-8").read())
    names = {n.name for n in tree.body if isinstance(n, ast.FunctionDef)}
    src = open(__file__, encoding="utf-8").read()
    missing = [n for n in sorted(names) if "words." + n + "(" not in src]
    assert not missing, "not checked here: %s" % missing


@pytest.mark.parametrize("code", ["en", "ru"])
@pytest.mark.parametrize("w,h", [(240, 240), (320, 240)], ids=["240x240", "320x240"])
def test_a_hint_s_reason_is_whole_on_its_line(w, h, code):
    """On the two-line message areas a hint is the move, then its reason on a line of its own: the
    long reason where it fits that line whole, else its short form ("Sheds 10 pips", never "Sheds
    heavy 4-6 (10" and "pips)" a step later): ai.hint(cols=...) as ui/pick.py asks for it."""
    from ai import hint
    from domino.record import run_forced
    langfile.use(code)
    try:
        bad = []
        shortened = 0
        for vid in ("fives", "goat", "draw", "block", "muggins"):
            t = table(w, h, vid, 2)
            cols = t.msg_cols()[1]
            for seed in range(1, 9):
                m = Match(Rules(vid, 2, False), seed)
                m.start_round()
                for _ in range(8):
                    run_forced(m)
                    if m.round_over():
                        break
                    clock = iter(range(0, 10 ** 6, 5)).__next__
                    mv, why = hint(m, m.round.turn, 5, clock=clock, cols=cols)
                    _, long_why = hint(m, m.round.turn, 5, clock=iter(range(0, 10 ** 6, 5)).__next__)
                    shortened += why != long_why
                    text = words.hint(words.describe(m.round, mv, True), why, t.app.g.cols < 24)
                    lines = wrap(text, cols, cols)
                    if len(lines) != 2 or lines[1] != why:
                        bad.append("%s: %r -> %r" % (vid, text, lines))
                    m.play(mv)
        assert not bad, "\n".join(bad[:20])
        if w == 240:
            assert shortened                     # (the long forms do not all fit 24 columns)
    finally:
        langfile.use("en")


@pytest.mark.parametrize("code", ["en", "ru"])
@pytest.mark.parametrize("w,h", SIZES, ids=["%dx%d" % s for s in SIZES])
def test_the_new_game_form_fills_the_screen(w, h, code):
    """The New game form's seat rows, for every variant, player count and seat kind, and every row
    of the form as it first opens, on one line (label and value) on the 128x64 OLED: a row of two
    lines that does not fit at the bottom would leave the form a row empty. (A few options' rows
    and long variant names still take two lines there when chosen.)"""
    menus = ui_host.device_module("ui.menus")
    langfile.use(code)
    try:
        g = MenuG(w, h, code)
        g.fit = lambda s, n: s[:n]
        app = types.SimpleNamespace(g=g, settings={})
        bad = set()
        for vi, row in enumerate(VARIANTS):
            for players in range(row[2], row[3] + 1):
                for kind in menus.SEAT_KINDS:
                    form = menus.NewGame(app)
                    form.vi = vi
                    form.players = players
                    form._variant_changed()
                    form.kinds = ["human"] + [kind] * 3
                    first = vi == 0 and players == row[2] and kind == "medium"
                    for label, value in form.rows():
                        if not first and not label.startswith(lang.tr("Seat {0}").format("")):
                            continue
                        label = lang.tr(label)
                        v = "" if value is None else lang.tr(str(value))
                        if len(label) + (len(v) + 1 if v else 0) > g.cols - 1:
                            bad.add((label, v))
        if h < 100:
            assert not bad, sorted(bad)
    finally:
        langfile.use("en")
