"""Moving between the menus and the table, loaded only for that moment: boot (straight
back into a saved game), starting or resuming a match, going back to the menu, the error page.
Whatever the previous screen held (menus, the table, the AI) is unloaded first, so the next screen
gets the whole heap."""
import gc
from ui.screen import drop_module, tr

WARM = ("store", "stats", "savegame", "domino.record", "ui.widgets", "ui.menus", "ui.seatnames",
        "ui.statistics", "ui.dealcode", "ui.table", "ui.pick", "ui.paint", "ui.place", "ui.pause", "ui.sheet",
        "ui.settings", "ui.movelog", "ui.linkgame", "ui.linksetup", "ui.linkstart", "ui.linktable",
        "ui.words")


def warm_up():
    """Only where the heap is tight (App(..., warm=True): the 180K stress runs on the 64-bit unix
    port; the Pico boots without it, docs/ENGINE.md). Load every module the app loads on demand
    once, at boot, and drop it again; load the AI and keep it. Loading a module interns its names
    for good: done now, those permanent bytes sit together at the bottom of the heap instead of as
    islands between later allocations, which would split the free heap into pieces too small for
    the next module or the AI's buffers. The AI stays loaded for good: its native code could not be
    unloaded without leaking."""
    for name in WARM:
        try:
            __import__(name)
        except ImportError:
            pass
        drop_module(name)
        gc.collect()
    for i in range(32, 127):     # one-letter strings (str indexing: deal codes, tile names) are
        chr(i)                   # interned for good when first made; made now, they share an early
    gc.collect()                 # qstr pool instead of needing a new 1280-byte one mid-game
    from ui import brain
    brain.load()


def unload_game():
    """Leaving the table for the menus: the table's code and words and the AI's buffers go too, and
    a link game's session and code (loaded only for a link game)."""
    from ui import brain
    brain.release()
    for name in ("ui.table", "ui.brain", "ui.words", "ui.pick", "ui.place", "ui.paint", "ui.linktable",
                 "ui.linkgame", "ui.linksetup", "ui.linkstart", "link.session", "link.setup", "link.lockstep",
                 "link.channel", "link.frame", "link"):
        drop_module(name)
    gc.collect()


def boot(app, note):
    """Power-on: straight back into the saved game, so a reset (or the watchdog) puts the player back
    at the table; else the main menu. A first boot (no language chosen yet) asks the language first
    (ui/settings.py AskLang), then goes on so. B held at power-on (app.safe): no file is read, settings
    included, and the safe start offers to reset them (ui/safestart.py) — the way out should a file
    ever stop the firmware. `note`: the settings' message; the statistics are checked here too (set
    aside when damaged). Whatever goes wrong is the error page."""
    app.inp.flush()                  # B, still held, does nothing on the next screen
    if app.safe:
        app.pending = ("safe",)
    else:
        note = note or app.store().load_stats()[1]
        app.pending = ("resume", note) if app.asked else ("lang", note)   # a first boot: its language
    try:
        begin(app)
    except MemoryError:
        raise
    except Exception as e:
        app.fail(e)


def _menu(app, what, text):
    link = app.link                  # a link game ends here (its save resumes it), but a match
    app.link = None                  # over here that the other device has not all of yet is
    if link is not None and link.match is not None and link.match.over and link.owes():
        app.link = app.handover = link   # still served from the menus (see handed)
        text = text or HANDOVER
    unload_game()
    drop_module("store")             # the menus load them when they need them (Settings, Statistics)
    drop_module("stats")
    if what == "safe":
        from ui.safestart import SafeStart
        app.go(SafeStart(app))
        return
    if what == "error":
        from ui.widgets import Message
        if app.unsaved:
            text += tr("\nIts last moves could not be saved.")
        elif app.saves().has_game():
            text += tr("\nThe game is saved after its last move: choose Continue.")
        app.go(Message(app, "Oops", text))
        return
    if what == "link" and app.board.link_port() is not None:   # the main menu's Link game
        from ui.linkgame import LinkMenu                          # (ui/linkgame.py)
        app.go(LinkMenu(app))
        return
    if what == "link":                      # (a board without the cable's pins, the browser)
        text = "No link cable on this board"
    if what == "lang":                      # a first boot: the language, then the boot goes on
        from ui.settings import AskLang
        app.go(AskLang(app, text))
        return
    if what == "settings":                  # from the game menu: the game resumes after
        from ui.settings import Settings
        app.go(Settings(app, True))
        return
    from ui.menus import MainMenu
    app.go(MainMenu(app, text))


HANDOVER = "Keep the link cable in: the other device lacks the last move"


def handed(app):
    """A finished link match waits in the menus for the other device to take its last moves (a
    cable out when the match ended): once it has them, the session and the save go. Another game
    started meanwhile ends the wait (its own save replaces this one)."""
    link = app.handover
    if app.link is not link or app.table is not None:
        app.handover = None
        if app.link is link:
            app.link = None
        return
    if link.owes():
        return
    app.handover = None
    app.link = None
    try:
        app.saves().clear_game()
    except OSError:
        pass
    sc = app.screen
    if getattr(sc, "note", None) == HANDOVER:  # the menu's warning is done with
        sc.note = None
        app.redraw()


def _linked(app, session):
    """A link game set up (ui/linkgame.py Waiting.started), the set-up screens gone: the AI first on
    the host when it plays AI seats (as begin does for one device), then the table; the host sits
    down at once, the guest sees the host's set-up first."""
    if session.hosting:
        for o in session.owners:
            if o in "emh":               # ui/linkgame.py OWNERS: the AI levels
                from ui import brain
                brain.load("h" in session.owners)
                break
    t = app.need("ui.linkstart").start(app, session)
    drop_module("ui.linkstart")
    drop_module("ui.nav")
    app.go(t if session.hosting else app.need("ui.linksetup").SetupView(app, t))


def begin(app):
    """Carry out app.pending: ("menu", note), ("error", text), ("settings", None) from the game menu,
    ("link", None) the main menu's Link game, ("linked", session) a link game set up, ("lang", note)
    a first boot's language question, ("resume",) from Continue, ("resume", note) at boot, or a match
    to start (match, kinds, names, sheet, note, fresh, practice)."""
    p = app.pending
    app.pending = None
    app.release()
    what = p[0]
    if what == "resume":
        match, extras, note = app.store().load_game()   # damaged saves set aside, with a message
        if match is None:
            _menu(app, "menu", note or (p[1] if len(p) > 1 else "No saved game"))
            return
        if extras.get("link"):       # a link game: its table and session (ui/linkstart.py)
            app.release()
            app.need("ui.linkstart").resume(app, match, extras, note or (p[1] if len(p) > 1 else None))
            drop_module("ui.linkstart")
            return
        p = (match, extras["seats"].split(","), extras.get("names", "").split(","),
             extras.get("sheet", ""), note or (p[1] if len(p) > 1 else None), False,
             "practice" in extras)       # (store.py lets only "practice 1" through)
        match = extras = None
        app.release()                # the loading code (store, domino.record) goes before the table
    elif what == "menu" or what == "error" or what == "safe" or what == "settings" or what == "link" \
            or what == "lang":
        _menu(app, what, p[1] if len(p) > 1 else None)
        return
    elif what == "linked":
        _linked(app, p[1])
        return
    for kind in p[1]:
        if kind != "human":          # an AI seat: the AI loaded now, for good (its native code is
            from ui import brain     # never freed), before the table, with the menus gone: low in
            brain.load("hard" in p[1])   # the heap, and no pause at its first move; its hard search
            break                    # only for a hard seat. A game of people alone loads it only
                                     # for a hint (20 KB of heap kept free)
    from ui.table import Game, Table
    t = app.table = Table(app, Game(p[0], p[1], p[2], p[3], p[6]))
    if p[4]:
        t.say(p[4], 3000)
        t.wait(1500)                 # read before an AI's move takes the message line
    if p[5]:
        app.saves().clear_game()     # a new match replaces any saved one
        t.save()
    t = None
    drop_module("ui.nav")            # done: the table needs the room
    app.go(app.table)
