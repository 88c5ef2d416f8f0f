"""B held at power-on: the firmware has read no file (no save, no settings, no statistics), so
whatever a file holds cannot stop it here. Keep the files (the menu follows; Continue, Settings and
Statistics read them when chosen) or reset them: each is set aside as <name>.bad (renamed, never
deleted) and the firmware starts as new. Loaded only for this screen."""
from .widgets import ListScreen

FILES = ("game.txt", "game.bak", "game.txt.tmp", "settings.json", "stats.json")


class SafeStart(ListScreen):
    def __init__(self, app):
        ListScreen.__init__(self, app, "Safe start")
        self.note = "B held: no file read"
        self.confirm = False

    def rows(self):
        return [("Keep files", None), ("Reset files", "sure?" if self.confirm else None)]

    def pick(self, i):
        if i == 0:
            self.back()
        elif not self.confirm:
            self.confirm = True
            self.note = "A again to reset"
        else:
            st = self.app.store()
            left = 0
            for name in FILES:
                if st.kind(name) >= 0:
                    st.aside(name)
                    if st.kind(name) >= 0:
                        left += 1
            self.app.menu("Reset failed: flash error" if left else "Files reset (kept as .bad)")

    def back(self):
        self.app.menu("Files kept, not read")

    def footer(self):
        return "A select"
