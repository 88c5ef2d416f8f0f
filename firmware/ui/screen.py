"""What every screen shares, at the bottom of the UI's imports: the Screen base class and the helpers
the screens and the app both use. The UI's modules import one way (docs/UI.md, "Modules"): screens
import this module, drawing (gfx) and the engine, never the app or the navigation; one screen
reaches another through the app (`app.go`, `app.need`), which owns the loop and the heap."""
import sys

ANIM_MS = (0, 150, 450, 1000)          # pause after each AI move: settings "anim" off/fast/normal/slow


def ticks_diff(a, b):
    return ((a - b + 0x20000000) & 0x3FFFFFFF) - 0x20000000


def tr(s):
    """`s` in the language in use: ui/lang.py is loaded only for another language than English, so
    in English this is `s` itself and nothing is loaded."""
    lang = sys.modules.get("ui.lang")
    return lang.tr(s) if lang else s


def lang_problem(e):
    """The one line to show for ui/lang.py use()'s OSError `e` (English stays in place)."""
    return "Language file missing" if e.args and e.args[0] == 2 else "Language file damaged"


def drop_module(name):
    """Forget a module so its code can be collected: the heap holds all bytecode, and what a screen
    or a save needs is dead weight while the AI searches."""
    if name not in sys.modules:
        return
    del sys.modules[name]
    dot = name.rfind(".")
    if dot > 0:
        pkg = sys.modules.get(name[:dot])
        short = name[dot + 1:]
        if pkg is not None and short in pkg.__dict__:
            try:
                delattr(pkg, short)
            except (AttributeError, TypeError):
                pass


class Screen:
    def __init__(self, app):
        self.app = app

    def enter(self):
        pass

    def key(self, k):
        pass

    def step(self):
        pass

    def draw(self, g):
        pass
