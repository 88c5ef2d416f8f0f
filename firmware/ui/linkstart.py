"""A link game's table set up (docs/LINK.md): for a new game once the session has one, or from this
device's save. Loaded for that moment by ui/nav.py, which is then dropped: the table itself is
ui/linktable.py."""
from micropython import const
from ui.linktable import LinkGame, LinkTable
from ui.screen import tr

_AI_NAMES = const(("Ann", "Bob", "Cat", "Dan"))   # = ui.menus._AI_NAMES
_KIND_OF = {"H": "human", "G": "human", "e": "easy", "m": "medium", "h": "hard"}


def seat_names(owners, hosting):
    """You for this device's person, Host or Guest for the other's, the AI seats' own names."""
    me = "H" if hosting else "G"
    out = []
    for s in range(len(owners)):
        o = owners[s]
        if o == me:
            out.append("You")
        elif o in "HG":
            out.append("Host" if o == "H" else "Guest")
        else:
            out.append(_AI_NAMES[s])
    return out


def _kinds(owners):
    return [_KIND_OF[o] for o in owners]


def start(app, session):
    """The session has a game (the host's new one, or the host's set-up arrived): its table, saved
    at once (the caller shows it)."""
    from link.session import link_extra
    owners = session.owners
    game = LinkGame(session.match, _kinds(owners), seat_names(owners, session.hosting), "",
                    link_extra(session.hosting, session.gid, owners))
    app.release()
    t = app.table = LinkTable(app, game, session)
    saves = app.saves()
    saves.clear_game()                  # a new match replaces any saved one
    t.save()
    return t


def resume(app, match, extras, note):
    """Continue a link game from this device's save: the session is built from it and tells the
    other device how far it got; whichever is ahead sends the moves the other lacks."""
    from link.session import LinkError, Session, rand30
    port = app.board.link_port()
    if port is None:
        app.menu("No link cable on this board")
        return
    try:
        s = Session(port, 0, rand30, None, (match, extras["link"]), hold=True)
    except LinkError as e:
        app.menu(tr("Link save: {0}").format(tr(str(e))))
        return
    app.link = s
    print("link: resumed at move %d" % s.mine)
    game = LinkGame(match, extras["seats"].split(","), extras.get("names", "").split(","),
                    extras.get("sheet", ""), extras["link"])
    app.release()
    t = app.table = LinkTable(app, game, s)
    t.say(note or "Link game resumed", 2000)
    app.go(t)
