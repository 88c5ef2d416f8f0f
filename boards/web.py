# The browser board (docs/WEB.md): the simulator's board (boards/sim.py) linked to a web page instead
# of a PC viewer. MicroPython's WebAssembly port runs in the page's Web Worker (tools/web/worker.js),
# which gives it two devices that speak the simulator's link protocol (docs/SIM.md): the board
# writes frames, events and sleep requests to LINK_OUT and reads keys and the clock from LINK_IN.
# The link's clock is virtual: the worker answers each sleep at once with the page's real time (the
# worker waits between two App steps instead, so the page never freezes), or, in the browser test,
# with the times of a key script, as the simulator's headless runs do.
#
# start() does for the browser what main.py does on a device: it builds the board and the App, and
# opens the deal a shared link names; the worker then calls app.step() once a frame.
import gc
import os

from boards import sim

LINK_OUT = "/dev/pico_out"
LINK_IN = "/dev/pico_in"
DATA = "/data"       # saves and settings; the worker keeps a copy in the page's localStorage
note = None          # why start() could not open the link's deal, else None
_MSG_SYNC = 0x59     # 'Y': the data folder to storage now; the worker answers with a 'Y' (its errno)
_ENOSPC = 28
_DEAL_MAX = 16       # characters of a deal code a link may give (the code is 6, with a dash 7)


class StoredFS:
    """The data folder's file system (savegame.Files' `fs`): the runtime's own, but a save is through
    only once the page has stored it in localStorage and read it back, as on a device a save is
    through once it is on flash. After each file is renamed into place (the end of every atomic
    write) the board asks the worker to store the folder and waits for its answer: a refusal (the
    quota: ENOSPC, as a full flash; anything else: EIO) fails the save, so the table and Save and
    quit say "not saved" exactly as on a full flash. A read of game.txt (Save and quit's read-back,
    a resume) asks too: what it reads is what storage holds. So a move is in storage before the AI
    starts thinking, and a reload (a power cut) resumes from the last move said to be saved."""

    def __init__(self, board):
        self.board = board

    def sync(self):
        """Store the folder now: 0, or the errno of the refusal."""
        b = self.board
        b._send(_MSG_SYNC, b"")
        while b._read_msg(True) != _MSG_SYNC:
            pass
        m = b._msg
        return m[4] | (m[5] << 8) | (m[6] << 16) | (m[7] << 24)

    def _stored(self):
        err = self.sync()
        if err:
            raise OSError(err)

    def stat(self, p):
        return os.stat(p)

    def mkdir(self, p):
        os.mkdir(p)

    def rmdir(self, p):
        os.rmdir(p)

    def remove(self, p):
        os.remove(p)

    def rename(self, a, b):
        os.rename(a, b)
        if b.endswith("/game.txt") or b.endswith(".json"):      # a save's last step
            self._stored()

    def open(self, p, mode="r"):
        if "r" in mode and "+" not in mode and p.endswith("/game.txt"):
            self._stored()
        return open(p, mode)


def build(profile=None, size=None, seed=None, ai_step=0):
    """The sim board on the page's link. seed: every new game's deal (tests), None: random.
    ai_step: the AI counts work (sim.WorkClock) instead of real milliseconds (tests)."""
    b = sim.build(profile, size, open(LINK_OUT, "wb"), open(LINK_IN, "rb"), True)
    b.data_dir = DATA
    b.seed = seed
    b.ai_clock = sim.WorkClock(ai_step) if ai_step else None
    b.fs = StoredFS(b)
    return b


def start(profile=None, size=None, seed=None, ai_step=0, deal=None, variant=None, players=0,
          teams=-1, level=None, lang=None):
    """Boot the app on the web board and return it; with `deal` (a shared link's code) go straight
    into a new game on that deal (`note` says why not, when it cannot). `lang`: the browser's
    language (navigator.language): a first visit plays in Russian for "ru...", else in English,
    without asking; Settings changes it, and the choice is kept with the saves."""
    global note
    board = build(profile, size, seed, ai_step)
    board.lang = "ru" if isinstance(lang, str) and lang.lower().startswith("ru") else "en"
    from ui.app import App
    try:
        app = App(board, DATA)
    except MemoryError:              # a heap split at boot: once more, from a clean slate (ui.app.run)
        gc.collect()
        app = App(board, DATA)
    note = open_deal(app, deal, variant, players, teams, level) if deal else None
    return app


def open_deal(app, deal, variant=None, players=0, teams=-1, level=None):
    """A new game on `deal`, set up as the New game form would be with the link's rows changed (the
    rest as this browser last played); the form's own start() deals it. None, or why not."""
    from domino.rng import parse_code
    from domino.rules import VARIANTS
    if not isinstance(deal, str) or len(deal) > _DEAL_MAX:
        return "Not a deal code"
    try:
        parse_code(deal)
    except ValueError:
        return "Not a deal code: " + deal
    if players and (not isinstance(players, int) or isinstance(players, bool) or
                    not 2 <= players <= 4):
        return "A game has 2, 3 or 4 players"
    if teams not in (-1, 0, 1):
        return "Teams: 0 or 1"
    last = app.settings.get("last")
    last = dict(last) if isinstance(last, dict) else {}
    if variant:
        if variant not in [v[0] for v in VARIANTS]:
            return "Unknown variant: " + variant
        if variant != last.get("variant"):
            last.pop("options", None)    # another variant's options do not apply
        last["variant"] = variant
    if players:
        last["players"] = players
    if teams >= 0:
        last["teams"] = teams
    if level:
        if level not in ("easy", "medium", "hard"):
            return "Unknown AI level: " + level
        last["seats"] = ["human", level, level, level]
    app.settings["last"] = last
    form = app.need("ui.menus").NewGame(app)
    form.deal = deal
    form.start()
    if app.pending is None:
        return form.note or "This deal could not be opened"
    return None


def round_end(app):
    """'variant players teams code' of the round just ended (for the page's share link), else ''.
    Only once the round is over: a deal code tells every hand."""
    t = app.table
    if t is None:
        return ""
    m = t.game.match
    if not m.round_over():
        return ""
    r = m.rules
    return "%s %d %d %s" % (r.vid, r.players, int(r.teams), m.deal_code())


def status(app):
    """'screen round moves unsaved', then a line of what the screen says (a page's title and text, a
    menu's note, the table's message): the page's pico.status and pico.said, for the tests. round
    and moves: the match's, 0 0 with no game on the table; unsaved: 1 while the last save has not
    gone through."""
    t = app.table
    sc = app.screen
    said = getattr(sc, "note", None) or ""
    if hasattr(sc, "title") and isinstance(getattr(sc, "text", None), str):
        said = sc.title + ": " + sc.text
    elif t is not None and sc is t:
        said = t.msg or t.last_text
    head = "%s 0 0 %d" % (type(sc).__name__, int(app.unsaved))
    if t is not None:
        m = t.game.match
        head = "%s %d %d %d" % (type(sc).__name__, m.round_no, m.nmoves, int(app.unsaved))
    return head + "\n" + said.split("\n")[0]


def ai_stats():
    """'samples rollouts exact' of the last Hard search (the page's figures), '' before one."""
    import sys
    a = sys.modules.get("ai")
    if a is None:
        return ""
    samples, rollouts, exact = a.stats()
    return "%d %d %d" % (samples, rollouts, int(exact))
