"""Moving between the menus and the table, loaded only for that moment: boot warm-up, starting or
resuming a match, going back to the menu, the error page. Whatever the previous screen held
(menus, the table, the AI) is unloaded first, so the next screen gets the whole heap."""
import gc
from ui.app import drop_module

WARM = ("store", "domino.record", "ui.widgets", "ui.menus", "ui.dealcode", "ui.table", "ui.pick", "ui.paint",
        "ui.place", "ui.pause", "ui.sheet")


def warm_up():
    """Load every module the app loads on demand once, at boot, and drop it again; load the AI and
    keep it. Loading a module interns its names for good: done now, those permanent bytes sit
    together at the bottom of the heap instead of as islands between later allocations, which would
    split the free heap into pieces too small for the next module or the AI's buffers. The AI stays
    loaded for good: its native code could not be unloaded without leaking."""
    for name in WARM:
        try:
            __import__(name)
        except ImportError:
            pass
        drop_module(name)
        gc.collect()
    from ui import brain
    brain.load()


def unload_game():
    """Leaving the table for the menus: the table's code and the AI's buffers go too."""
    from ui import brain
    brain.release()
    for name in ("ui.table", "ui.brain", "ui.pick", "ui.place", "ui.paint"):
        drop_module(name)
    gc.collect()


def begin(app):
    """Carry out app.pending: ("menu", note), ("error", text), ("resume",), or a match to start
    (match, kinds, names, sheet, note, fresh)."""
    p = app.pending
    app.pending = None
    app.release()
    what = p[0]
    if what == "menu" or what == "error":
        unload_game()
        if what == "error":
            from ui.widgets import Message
            app.go(Message(app, "Oops", p[1] + "\nThe game is saved after its last move: choose "
                           "Continue."))
            return
        from ui.menus import MainMenu
        app.go(MainMenu(app, p[1]))
        return
    if what == "resume":
        st = app.store()
        match, extras, note = st.load_game()
        if match is None:
            if note:
                st.keep_bad_game()
                app.menu(note + " (kept as game.txt.bad)")
            else:
                app.menu("No saved game")
            return
        p = (match, extras["seats"].split(","), extras.get("names", "").split(","),
             extras.get("sheet", ""), note, False)
        match = extras = st = None
        gc.collect()
    from ui.table import Game, Table
    app.table = Table(app, Game(p[0], p[1], p[2], p[3]))
    if p[4]:
        app.table.say(p[4], 3000)
    if p[5]:
        app.store().clear_game()     # a new match replaces any saved one
        app.table.save()
    drop_module("ui.nav")            # done: the table needs the room
    app.go(app.table)
