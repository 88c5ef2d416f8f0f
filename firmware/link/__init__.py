"""Link play: two handhelds joined by a serial cable (docs/LINK.md). Loaded only for a link game."""
import sys


def tr(s):
    """s in the player's language, for the link's messages (ui.lang asked only when loaded: English
    imports nothing, and the link imports nothing from the screens)."""
    lang = sys.modules.get("ui.lang")
    return lang.tr(s) if lang else s


OWNERS = "HGemh"          # the seat owners' letters this version knows: the host's person, the
                          # guest's, an AI seat played by the host (easy, medium, hard)


def owners_ok(owners, players):
    """One known letter a seat, and one seat for each device's person (the host's form's rule)."""
    if len(owners) != players or owners.count("H") != 1 or owners.count("G") != 1:
        return False
    for o in owners:
        if o not in OWNERS:
            return False
    return True
