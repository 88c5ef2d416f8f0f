"""The pass-and-play players' names (from the New game form, ui/menus.py): loaded when opened."""
from .widgets import ListScreen, save_settings
from .screen import tr


class Names(ListScreen):
    """The pass-and-play players' names, a row per human seat; A types one (ui/dealcode.py's
    NameEditor). Remembered with the last set-up in the settings, saved on the way back."""

    def __init__(self, app, form):
        ListScreen.__init__(self, app, "Names")
        self.form = form
        self.seats = []

    def rows(self):
        self.seats = []
        out = []
        kinds = self.form.kinds
        for s in range(self.form.players):
            if kinds[s] == "human":
                self.seats.append(s)
                out.append((tr("Seat {0}").format(s + 1), self.name(s)))
        return out + [("Back", None)]

    def name(self, s):
        return self.form.name(s)

    def set_name(self, s, name):
        """Give seat s the name typed ("": its default); None, or why not (the name another
        player of this game has: both curtains would say "Pass to" the same name)."""
        self.rows()
        for o in self.seats:
            if o != s and name and self.name(o) == name:
                return tr("{0} is Seat {1}'s name").format(name, o + 1)
        last = self.app.settings.get("last")
        if not isinstance(last, dict):
            last = self.app.settings["last"] = {}
        typed = last.get("names")
        if not isinstance(typed, list) or len(typed) != 4:
            typed = last["names"] = ["", "", "", ""]
        typed[s] = name

    def pick(self, i):
        self.rows()
        if i < len(self.seats):
            self.app.go(self.app.need("ui.dealcode").NameEditor(self.app, self, self.seats[i]))
        else:
            self.back()

    def change(self, i, d):
        pass

    def back(self):
        self.form.note = save_settings(self.app)
        self.app.go(self.form)
