"""Link game's set-up screens (docs/LINK.md): host or join, the host's form, the wait for the other
device. Loaded from the main menu only; the table of a link game is ui/linktable.py, which the
set-up hands the session to (the guest's look at the host's set-up is ui/linksetup.py)."""
from micropython import const
from domino.rules import Rules, RulesError
from .widgets import ListScreen, refused
from .screen import Screen
from .menus import NewGame

OWNERS = "HGemh"          # = link.setup.OWNERS: the host's person, the guest's, the AI levels
_OWN_LABELS = const(("This device", "Other device", "Easy AI", "Medium AI", "Hard AI"))
_KINDS = const(("human", "human", "easy", "medium", "hard"))
_WANT_HOST = const(1)     # = link.session.WANT_HOST
_WANT_JOIN = const(2)     # = link.session.WANT_JOIN
_FAILED = const(3)        # = link.session.FAILED


def open_session(app, want, listener):
    """The session on the board's link cable (kept in app.link, polled by the app's loop), or None
    when this board has no cable."""
    port = app.board.link_port()
    if port is None:
        return None
    from link.session import Session, rand30
    app.link = Session(port, want, rand30, listener, hold=True)
    return app.link


class LinkMenu(ListScreen):
    def __init__(self, app):
        ListScreen.__init__(self, app, "Link game")
        self.note = "Two handhelds, one cable: one hosts, the other joins"
        self.note_col = app.g.c.DIM

    def rows(self):
        return [("Host a game", None), ("Join a game", None), ("Back", None)]

    def pick(self, i):
        app = self.app
        if i == 0:
            app.go(HostForm(app))
        elif i == 1:
            Waiting.open(app, _WANT_JOIN, None)
        else:
            app.menu()

    def footer(self):
        return "A select  B back"


class HostForm(NewGame):
    """The New game form with seats for a link game: one is this device's person, one the other
    device's, the rest AI played here (2v2: the two people partners, or opponents each with an AI
    partner)."""

    def __init__(self, app):
        NewGame.__init__(self, app)
        self.title = "Host a game"
        self.own = ["H", "G", "m", "m"]

    def rows(self):
        for s in range(4):
            self.kinds[s] = _KINDS[OWNERS.index(self.own[s])]
        out = NewGame.rows(self)
        rows = []
        fields = []
        for i in range(len(out)):
            f = self.fields[i]
            if f == "names" or f == "partner":   # names are the devices': You, Host, Guest
                continue
            if f.startswith("seat"):
                rows.append((out[i][0], _OWN_LABELS[OWNERS.index(self.own[int(f[4])])]))
            else:
                rows.append(out[i])
            fields.append(f)
        self.fields = fields
        return rows

    def change(self, i, d):
        self.rows()
        f = self.fields[i]
        if f.startswith("seat"):
            s = int(f[4])
            self.own[s] = OWNERS[(OWNERS.index(self.own[s]) + d) % len(OWNERS)]
            self.note = None
        else:
            NewGame.change(self, i, d)

    def pick(self, i):
        self.rows()
        if self.fields[i] == "start":
            self.start()
        else:
            NewGame.pick(self, i)

    def back(self):
        self.app.go(LinkMenu(self.app))

    def start(self):
        owners = "".join(self.own[:self.players])
        if owners.count("H") != 1 or owners.count("G") != 1:
            self.note = "One seat This device, one Other device"
            return
        try:
            rules = Rules(self.vid(), self.players, self.teams, self.options)
        except RulesError as e:
            self.note = refused(e)
            return
        seed = None                                 # drawn from both devices' hellos
        if self.deal:
            from domino.rng import parse_code
            seed = parse_code(self.deal)            # the deal a friend read out (both see it)
        elif getattr(self.app.board, "seed", None) is not None:
            seed = self.app.board.seed              # the simulator's fixed deal (tests)
        Waiting.open(self.app, _WANT_HOST, (rules, owners, seed))


class Waiting(ListScreen):
    """Until the other device answers and the game is set up: what the session says, whether the
    cable is in. The game starting (the host's, or the host's set-up arriving) opens its table."""

    @staticmethod
    def open(app, want, plan):
        w = Waiting(app, want == _WANT_HOST)
        s = open_session(app, want, w)
        if s is None:
            w.note = "No link cable on this board"
        elif plan is not None:
            s.host_game(plan[0], plan[1], plan[2])
        app.go(w)

    def __init__(self, app, host):
        ListScreen.__init__(self, app, "Hosting" if host else "Joining")
        self.shown = None

    def status(self):
        s = self.app.link
        if s is None:
            return self.note
        if s.state == _FAILED:
            return s.message
        return s.message if s.up() else "Cable out: check the wires"

    def rows(self):
        s = self.app.link
        return [("Cable", ("in" if s.up() else "out") if s is not None else "none"), ("Cancel", None)]

    def step(self):
        text = self.status()
        if text != self.shown:
            self.shown = text
            self.note = text
            self.note_col = self.app.g.c.WARN if self.app.link is None or not self.app.link.up() \
                else self.app.g.c.FG
            self.app.redraw()
        ListScreen.step(self)

    def pick(self, i):
        if i == 1:
            self.back()

    def back(self):
        self.app.menu()

    def started(self, session):
        """The game is set up: its table is built on the next pass of the loop (nav.begin), once this
        screen and the set-up's modules have let go of the heap, as a match on one device is. The
        session holds the moves that come meanwhile."""
        session.listener = None
        app = self.app
        app.pending = ("linked", session)
        app.screen = Screen(app)

    def footer(self):
        return "B cancel"
