"""The settings screen, loaded when opened (from the main menu or the game menu)."""
from micropython import const
from .widgets import ListScreen, save_settings
from .screen import tr

_ANIM_LABELS = const(("off", "fast", "normal", "slow"))


_LANGS = const(("en", "ru"))               # = ui.lang.LANGS (not imported: English loads no ui.lang)
_NAMES = const(("English", "Русский"))  # = ui.lang.NAMES: each language's name for itself
_ASCII = const(("English", "Russian"))  # ... where the font in use has no Cyrillic (the OLED's 8x8)


def _lang_name(code, g):
    if code not in _LANGS:
        return code
    i = _LANGS.index(code)
    return _NAMES[i] if g.font is not None else _ASCII[i]


class AskLang(ListScreen):
    """The first boot's question, before anything else (no language chosen yet: settings.json
    without "lang"): each language named in itself, in a font that has both alphabets (the OLED's
    8x8 font has no Cyrillic). A takes the one under the cursor, B keeps English; saved at once,
    then the boot goes on as it would have (the saved game resumed, else the main menu, with
    `note`). Asked once: Settings changes it later. The browser page is not asked: it follows the
    browser's language (boards/web.py)."""

    def __init__(self, app, note):
        both = app.g.for_lang("ru")      # (no font with Cyrillic: the names in Latin letters)
        ListScreen.__init__(self, app, "Language / Язык" if both else "Language")
        self.after = note

    def rows(self):
        g = self.app.g
        return [(_lang_name(_LANGS[0], g), None), (_lang_name(_LANGS[1], g), None)]

    def pick(self, i):
        self.choose(_LANGS[i])

    def back(self):
        self.choose("en")

    def footer(self):
        return "A OK"                   # (before a language is chosen: words of neither)

    def choose(self, code):
        app = self.app
        app.settings["lang"] = code
        from .langfile import use_lang  # (loaded only to switch: English then loads no ui.lang)
        note = use_lang(code, app.g)
        app.asked = True
        app.pending = ("resume", save_settings(app) or note or self.after)


class Settings(ListScreen):
    """Brightness, sound, AI think time, animation, restarting by itself when stuck (the watchdog),
    the language (each named in itself: English, Русский; switched at once, its row's label in the
    language in use), statistics reset. From the main menu, or from the game menu (`game`: the
    game is resumed from its save on the way back); the settings are saved when left."""

    def __init__(self, app, game=False):
        ListScreen.__init__(self, app, "Settings")
        self.confirm = False
        self.game = game             # opened from the game menu: B goes back to the game

    def rows(self):
        s = self.app.settings
        t = s["think"]
        return [("Brightness", str(s["bright"]) + "%"), ("Sound", "on" if s["sound"] else "off"),
                ("AI think", tr("{0}.{1}s").format(t // 1000, t % 1000 // 100)),
                ("Animation", _ANIM_LABELS[s["anim"]]),
                ("Restart if stuck", "on" if s["wdt"] else "off"),
                (tr("Language"), _lang_name(s["lang"], self.app.g)),
                ("Reset stats", "sure?" if self.confirm else None), ("Back", None)]

    def change(self, i, d):
        keys = ("bright", "sound", "think", "anim", "wdt", "lang")
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
        if i == 5:
            from .langfile import use_lang
            self.note = use_lang(s["lang"], self.app.g)

    def pick(self, i):
        if i == 6:
            if self.confirm:
                try:
                    self.app.store().save_stats({})
                    self.note = "Statistics cleared"
                    self.note_col = self.app.g.c.FG
                except OSError as e:
                    self.note = tr("Not cleared: {0}").format(e)
                    self.note_col = -1
                self.confirm = False
            else:
                self.confirm = True
            return
        if i == 7:
            self.back()
            return
        self.change(i, 1)

    def back(self):
        note = save_settings(self.app)
        if self.game:
            self.app.resume(note)
        else:
            self.app.menu(note)
