"""The guest's look at the host's set-up before sitting down at a link game's table (docs/LINK.md):
loaded on the guest only, when the game starts, without the set-up screens' menus."""
from domino.rules import variant
from .widgets import ListScreen, OPTION_LABELS
from .screen import tr


class SetupView(ListScreen):
    """The guest's look at the host's set-up before sitting down (the host may already be playing:
    its moves wait on this device's table)."""

    def __init__(self, app, table):
        ListScreen.__init__(self, app, "Host's game")
        self.table = table
        self.note = "A: sit down"
        self.note_col = app.g.c.GOOD

    def rows(self):
        s = self.app.link
        r = s.match.rules
        out = [("Variant", variant(r.vid)[1]), ("Players", r.players)]
        if r.teams:
            out.append(("Teams", "2 v 2"))
        names = self.table.game.names
        for i in range(r.players):
            out.append((tr("Seat {0}").format(i + 1), names[i]))
        opts = r.options_text()
        if opts:
            for kv in opts.split(","):
                kv = kv.split("=")
                out.append((OPTION_LABELS.get(kv[0], kv[0]), kv[-1]))
        return out

    def pick(self, i):
        self.app.go(self.table)

    def back(self):
        self.app.go(self.table)

    def footer(self):
        return "A sit down"
