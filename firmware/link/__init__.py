"""Link play: two handhelds joined by a serial cable (docs/LINK.md). Loaded only for a link game."""
import sys


def tr(s):
    """s in the player's language, for the link's messages (ui.lang asked only when loaded: English
    imports nothing, and the link imports nothing from the screens)."""
    lang = sys.modules.get("ui.lang")
    return lang.tr(s) if lang else s
