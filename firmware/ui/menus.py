"""Menu screens: main menu, new game, rules help (the statistics, ui/statistics.py, and the
pass-and-play names, ui/seatnames.py, are loaded when opened: this module is what a match's end loads
next to the AI). Loaded only while no game is on the table (the app drops this module when a game
starts, to give its heap to the AI)."""
from micropython import const
from domino.rules import VARIANTS, Rules, RulesError, option_choices, variant
from domino.match import Match
from .widgets import ListScreen, HelpPage, OPTION_LABELS, save_settings, refused
from .screen import Screen, tr

SEAT_KINDS = ("human", "easy", "medium", "hard")        # as SEAT_KINDS (the save format)

_KIND_LABELS = const(("Human", "Easy AI", "Medium AI", "Hard AI"))
_AI_NAMES = const(("Ann", "Bob", "Cat", "Dan"))
_DONE_NOTES = const(("Game saved", "Game abandoned"))   # menu notes that are not errors
_NAME_MAX = const(5)    # letters in a name (ui/dealcode.py: NameEditor.size)


def saved_game(root):
    """Whether a game is saved (store.Store.has_game without loading the store)."""
    import os
    root = root if root.endswith("/") else root + "/"
    for name in ("game.txt", "game.bak"):
        try:
            os.stat(root + name)
            return True
        except OSError:
            pass
    return False


def seat_names(kinds, typed=None):
    """The players' names: the AI seats' own, "You" for the one person against the AI, else the
    names typed for pass-and-play (`typed`, per seat; P1..P4 where none was)."""
    humans = 0
    for k in kinds:
        if k == "human":
            humans += 1
    out = []
    for s in range(len(kinds)):
        if kinds[s] != "human":
            out.append(_AI_NAMES[s])
        elif humans == 1:
            out.append("You")
        else:                    # checked: capitals and digits, at most _NAME_MAX of them
            n = typed[s] if isinstance(typed, list) and s < len(typed) else None
            ok = isinstance(n, str) and 0 < len(n) <= _NAME_MAX
            if ok:
                for ch in n:
                    if not (ch.isupper() or ch.isdigit()):
                        ok = False
            n = n if ok else "P" + str(s + 1)
            if n in out:             # two seats may not share a name (whose turn would the curtain
                n = "P" + str(s + 1)  # name?): the later one gets its seat's own; ("P2" typed for
                if n in out:         # seat 1 and none for seat 2: seat 2 is "S2")
                    n = "S" + str(s + 1)
            out.append(n)
    return out


class MainMenu(ListScreen):
    def __init__(self, app, note=None):
        ListScreen.__init__(self, app, "Dominoes")
        self.saved = saved_game(app.root)
        self.note = note
        if note in _DONE_NOTES:                     # what the player asked for: not an error
            self.note_col = app.g.c.FG
        if self.saved and not note:
            self.note = "A game is saved: Continue?"
            self.note_col = app.g.c.GOOD
        rows = self.rows()
        for i in range(len(rows)):                  # back on the row chosen last (kept by the app:
            if rows[i][0] == app.menu_at:           # this module is unloaded while a game is on)
                self.sel = i

    def rows(self):
        r = [("Continue", None)] if self.saved else []
        return r + [("New game", None), ("Settings", None), ("Statistics", None), ("Rules help", None),
                    ("Link game", None)]

    def pick(self, i):
        label = self.rows()[i][0]
        app = self.app
        app.menu_at = label
        if label == "Continue":
            app.resume()
        elif label == "New game":
            app.go(NewGame(app))
        elif label == "Link game":              # opened by ui/nav.py (its screens subclass these)
            app.pending = ("link", None)
            app.screen = Screen(app)
        elif label == "Settings":
            app.go(app.need("ui.settings").Settings(app))
        elif label == "Statistics":
            app.go(app.need("ui.statistics").Stats(app))
        else:
            app.go(HelpList(app))

    def back(self):
        pass

    def footer(self):
        return "A select"


class NewGame(ListScreen):
    """Variant, players, seats (human or AI level), teams, pass-and-play names or, for one person
    against the AI, Practice (undo as often as wanted, the match not counted), then the variant's
    options, and the deal: random, or a code a friend read out (its editor is ui/dealcode.py,
    loaded when opened)."""

    def __init__(self, app):
        ListScreen.__init__(self, app, "New game")
        last = app.settings.get("last") or {}
        self.vi = 0
        for i in range(len(VARIANTS)):
            if VARIANTS[i][0] == last.get("variant"):
                self.vi = i
        self.players = last.get("players", 2)
        kinds = last.get("seats")
        self.kinds = ["human", "medium", "medium", "medium"]
        if isinstance(kinds, list):
            for s in range(min(4, len(kinds))):
                if kinds[s] in SEAT_KINDS:
                    self.kinds[s] = kinds[s]
        self.options = {}
        opts = last.get("options")
        self._variant_changed()
        if VARIANTS[self.vi][4] and self.players == 4 and "teams" in last:
            self.teams = bool(last["teams"])         # (as set up last time)
        if isinstance(opts, dict):
            for key, _, choices in option_choices(self.vid()):
                if opts.get(key) in choices:
                    self.options[key] = opts[key]
        self.practice = False        # undo as often as wanted, the match not counted (rows: when;
        #                              turned off with the row hidden)
        self.deal = None             # a deal code "ABC-DEF" to start from, or None: a random deal
        self.last_deal = None        # the code LEFT/RIGHT bring back after "Random"
        self.fields = []

    def vid(self):
        return VARIANTS[self.vi][0]

    def _variant_changed(self):
        row = VARIANTS[self.vi]
        if self.players < row[2]:
            self.players = row[2]
        if self.players > row[3]:
            self.players = row[3]
        self.teams = self.players == 4 and row[0] == "goat"    # pair goat, as four play it (RULES.md)
        self.options = {}
        for key, default, _ in option_choices(row[0]):
            self.options[key] = default

    def rows(self):
        row = VARIANTS[self.vi]
        out = [("Variant", row[1]), ("Players", self.players)]
        f = ["variant", "players"]
        if row[4] and self.players == 4:
            out.append(("Teams", "2 v 2" if self.teams else "off"))
            f.append("teams")
        names = seat_names(self.kinds[:self.players], self.names())
        if self.teams:                              # seats 1 and 3 play together, 2 and 4
            out.append(("Partner", names[2]))
            f.append("partner")
        humans = 0
        for s in range(self.players):
            kind = _KIND_LABELS[SEAT_KINDS.index(self.kinds[s])]
            if self.app.g.cols < 17 and kind[-3:] == " AI":   # one line each (a row of two would
                kind = kind[:-3]             # leave the 128x64 form a row empty): "Medium"; cut,
            out.append((tr("Seat {0}").format(s + 1), kind))   # not a text of its own: the W's
            #                                  name pool at a match's end is ~15 names from its 7th
            f.append("seat" + str(s))
            if self.kinds[s] == "human":
                humans += 1
        if humans > 1:                              # pass-and-play: the players' names
            who = ""
            for s in range(self.players):
                if self.kinds[s] == "human":
                    who += ("," if who else "") + names[s]
            out.append(("Names", self.app.g.fit(who, self.app.g.cols - 7)))
            f.append("names")
        elif humans == 1:                           # one person against the AI: Practice (in
            out.append(("Practice", "on" if self.practice else "off"))   # pass-and-play a move
            f.append("practice")                    # taken back would show the hand that made it
        if humans != 1:                             # to the next player)
            self.practice = False
        for key, _, _ in option_choices(row[0]):
            out.append((OPTION_LABELS.get(key, key), self.options[key]))
            f.append(key)
        out.append(("Deal", self.deal or "Random"))
        f.append("deal")
        out.append(("Start game", None))
        f.append("start")
        self.fields = f
        return out

    def change(self, i, d):
        self.rows()
        f = self.fields[i]
        row = VARIANTS[self.vi]
        if f == "variant":
            self.vi = (self.vi + d) % len(VARIANTS)
            self._variant_changed()
        elif f == "players":
            lo, hi = row[2], row[3]
            self.players = lo + (self.players - lo + d) % (hi - lo + 1)
            self.teams = self.players == 4 and row[0] == "goat"
        elif f == "teams":
            self.teams = not self.teams
        elif f == "practice":
            self.practice = not self.practice
        elif f.startswith("seat"):
            s = int(f[4])
            k = SEAT_KINDS.index(self.kinds[s])
            self.kinds[s] = SEAT_KINDS[(k + d) % 4]
        elif f == "deal":
            self.deal = None if self.deal else self.last_deal
        elif f not in ("start", "partner", "names"):
            for key, _, choices in option_choices(row[0]):
                if key == f:
                    j = choices.index(self.options[key]) if self.options[key] in choices else 0
                    self.options[key] = choices[(j + d) % len(choices)]
        self.note = None

    def pick(self, i):
        self.rows()
        f = self.fields[i]
        if f == "start":
            self.start()
        elif f == "deal":
            self.app.go(self.app.need("ui.dealcode").CodeEditor(self.app, self))
        elif f == "names":
            self.app.go(self.app.need("ui.seatnames").Names(self.app, self))
        elif f != "partner":
            self.change(i, 1)

    def name(self, s):
        """Seat s's name when it plays in pass-and-play (the Names list, ui/seatnames.py)."""
        return seat_names(["human"] * 4, self.names())[s]

    def names(self):
        """The names typed for pass-and-play (kept with the last set-up in the settings)."""
        last = self.app.settings.get("last")
        return last.get("names") if isinstance(last, dict) else None

    def start(self):
        app = self.app
        try:
            rules = Rules(self.vid(), self.players, self.teams, self.options)
        except RulesError as e:
            self.note = refused(e)
            return
        kinds = self.kinds[:self.players]
        typed = self.names()
        app.settings["last"] = {"variant": self.vid(), "players": self.players, "teams": int(self.teams),
                                "seats": kinds, "options": self.options}
        if typed:
            app.settings["last"]["names"] = typed
        note = save_settings(app)
        seed = (app.board.ticks_ms() * 2654435 + self.vi * 7919 + 12345) & 0x3FFFFFFF
        try:
            import os
            r = os.urandom(4)
            seed = (r[0] | r[1] << 8 | r[2] << 16 | (r[3] & 0x3F) << 24)
        except (ImportError, AttributeError, OSError):
            pass
        fixed = app.settings.get("seed")            # tests: a fixed deal
        if fixed is None:
            fixed = getattr(app.board, "seed", None)   # the simulator's PICO_SIM_SEED
        if fixed is not None:
            seed = fixed
        if self.deal:
            from domino.rng import parse_code
            seed = parse_code(self.deal)            # the deal a friend read out
        match = Match(rules, seed)
        match.start_round()
        names = seat_names(kinds, typed)
        app.start(match, kinds, names, "", note, True, self.practice)


class HelpList(ListScreen):
    def __init__(self, app, then=None):
        ListScreen.__init__(self, app, "Rules")
        self.then = then

    def rows(self):
        out = [("Controls", None)]
        for row in VARIANTS:
            out.append((row[1], None))
        return out

    def pick(self, i):
        vid = "controls" if i == 0 else VARIANTS[i - 1][0]
        title = "Controls" if i == 0 else variant(vid)[1]
        self.app.go(HelpPage(self.app, title, vid, self))

    def back(self):
        if self.then:
            self.then()
        else:
            self.app.menu()
