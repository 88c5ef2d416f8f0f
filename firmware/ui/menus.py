"""Menu screens: main menu, new game, settings, statistics, rules help. Loaded only while no game is
on the table (the app drops this module when a game starts, to give its heap to the AI)."""
from micropython import const
from domino.rules import VARIANTS, Rules, RulesError, option_choices, variant
from domino.match import Match
from .widgets import ListScreen, HelpPage

SEAT_KINDS = ("human", "easy", "medium", "hard")        # as SEAT_KINDS (the save format)

_KIND_LABELS = const(("Human", "Easy AI", "Medium AI", "Hard AI"))
_AI_NAMES = const(("Ann", "Bob", "Cat", "Dan"))
OPTION_LABELS = {
    "target": "Target", "hand": "Hand size", "big_tiles": "0-0=25 6-6=50", "lone_00": "Lone 0-0",
    "lone_66": "Lone 6-6", "reserve": "Reserve", "fish": "Fish for", "leader": "Next lead",
    "divide": "Divide by 5", "spinner": "Spinner", "spinner_counts": "Spinner counts",
    "four_doubles": "4 doubles",
}
_ANIM_LABELS = const(("off", "fast", "normal", "slow"))


def save_settings(app):
    """Write the settings; a message when the flash refuses."""
    try:
        app.store().save_settings(app.settings)
    except OSError as e:
        return app.need("store").failed(e, "settings")
    return None


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


def seat_names(kinds):
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
        else:
            out.append("P" + str(s + 1))
    return out


class MainMenu(ListScreen):
    def __init__(self, app, note=None):
        ListScreen.__init__(self, app, "Dominoes")
        self.saved = saved_game(app.root)
        self.note = note
        if self.saved and not note:
            self.note = "A game is saved: Continue?"
            self.note_col = app.g.c.GOOD

    def rows(self):
        r = [("Continue", None)] if self.saved else []
        return r + [("New game", None), ("Settings", None), ("Statistics", None), ("Rules help", None)]

    def pick(self, i):
        label = self.rows()[i][0]
        app = self.app
        if label == "Continue":
            app.resume()
        elif label == "New game":
            app.go(NewGame(app))
        elif label == "Settings":
            app.go(Settings(app))
        elif label == "Statistics":
            app.go(Stats(app))
        else:
            app.go(HelpList(app))

    def back(self):
        pass

    def footer(self):
        return "A select"


class NewGame(ListScreen):
    """Variant, players, seats (human or AI level), teams, then the variant's options, and the deal:
    random, or a code a friend read out (its editor is ui/dealcode.py, loaded when opened)."""

    def __init__(self, app):
        ListScreen.__init__(self, app, "New game")
        last = app.settings.get("last") or {}
        self.vi = 0
        for i in range(len(VARIANTS)):
            if VARIANTS[i][0] == last.get("variant"):
                self.vi = i
        self.players = last.get("players", 2)
        self.teams = bool(last.get("teams", 0))
        kinds = last.get("seats")
        self.kinds = ["human", "medium", "medium", "medium"]
        if isinstance(kinds, list):
            for s in range(min(4, len(kinds))):
                if kinds[s] in SEAT_KINDS:
                    self.kinds[s] = kinds[s]
        self.options = {}
        opts = last.get("options")
        self._variant_changed()
        if isinstance(opts, dict):
            for key, _, choices in option_choices(self.vid()):
                if opts.get(key) in choices:
                    self.options[key] = opts[key]
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
        if not row[4] or self.players != 4:
            self.teams = False
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
        for s in range(self.players):
            out.append(("Seat " + str(s + 1), _KIND_LABELS[SEAT_KINDS.index(self.kinds[s])]))
            f.append("seat" + str(s))
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
            if self.players != 4:
                self.teams = False
        elif f == "teams":
            self.teams = not self.teams
        elif f.startswith("seat"):
            s = int(f[4])
            k = SEAT_KINDS.index(self.kinds[s])
            self.kinds[s] = SEAT_KINDS[(k + d) % 4]
        elif f == "deal":
            self.deal = None if self.deal else self.last_deal
        elif f != "start":
            for key, _, choices in option_choices(row[0]):
                if key == f:
                    j = choices.index(self.options[key]) if self.options[key] in choices else 0
                    self.options[key] = choices[(j + d) % len(choices)]
        self.note = None

    def pick(self, i):
        self.rows()
        if self.fields[i] == "start":
            self.start()
        elif self.fields[i] == "deal":
            self.app.go(self.app.need("ui.dealcode").CodeEditor(self.app, self))
        else:
            self.change(i, 1)

    def start(self):
        app = self.app
        try:
            rules = Rules(self.vid(), self.players, self.teams, self.options)
        except RulesError as e:
            self.note = str(e)
            return
        kinds = self.kinds[:self.players]
        app.settings["last"] = {"variant": self.vid(), "players": self.players, "teams": int(self.teams),
                                "seats": kinds, "options": self.options}
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
        names = seat_names(kinds)
        app.start(match, kinds, names, "", note, True)


class Settings(ListScreen):
    def __init__(self, app):
        ListScreen.__init__(self, app, "Settings")
        self.confirm = False

    def rows(self):
        s = self.app.settings
        t = s["think"]
        return [("Brightness", str(s["bright"]) + "%"), ("Sound", "on" if s["sound"] else "off"),
                ("AI think", str(t // 1000) + "." + str(t % 1000 // 100) + "s"),
                ("Animation", _ANIM_LABELS[s["anim"]]),
                ("Watchdog", "on" if s["wdt"] else "off"),
                ("Reset stats", "sure?" if self.confirm else None), ("Back", None)]

    def change(self, i, d):
        keys = ("bright", "sound", "think", "anim", "wdt")
        if i >= len(keys):
            return
        s = self.app.settings
        from store import SETTING_CHOICES
        allowed = SETTING_CHOICES[keys[i]][1]
        j = allowed.index(s[keys[i]]) if s[keys[i]] in allowed else 0
        s[keys[i]] = allowed[(j + d) % len(allowed)]
        if i == 0:
            self.app.board.set_brightness(s["bright"])
        if i == 1 and s["sound"]:
            self.app.beep(880, 40)
        if i == 4:
            self.note = self.app.arm_watchdog()

    def pick(self, i):
        if i == 5:
            if self.confirm:
                try:
                    self.app.store().save_stats({})
                    self.note = "Statistics cleared"
                except OSError as e:
                    self.note = "Not cleared: " + str(e)
                self.confirm = False
            else:
                self.confirm = True
            return
        if i == 6:
            self.back()
            return
        self.change(i, 1)

    def back(self):
        self.app.menu(save_settings(self.app))


class Stats(ListScreen):
    """Per variant: won-lost, and the current streak (+ wins / - losses in a row)."""

    def __init__(self, app):
        ListScreen.__init__(self, app, "Statistics")
        self.stats, self.note = app.store().load_stats()
        if not self.note:
            self.note = "won-lost streak (best)" if self.stats else "No finished games yet"
            self.note_col = app.g.c.DIM

    def rows(self):
        out = []
        wide = self.app.g.cols >= 24
        for row in VARIANTS:
            st = self.stats.get(row[0])
            if not st:
                continue
            v = str(st[1]) + "-" + str(st[2])
            if st[3]:
                v += (" +" if st[3] > 0 else " ") + str(st[3])
            if wide:
                v += " (" + str(st[4]) + ")"
            out.append((row[1], v))
        out.append(("Back", None))
        return out

    def pick(self, i):
        self.back()

    def footer(self):
        return "B back"


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
