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

from boards import sim

LINK_OUT = "/dev/pico_out"
LINK_IN = "/dev/pico_in"
DATA = "/data"       # saves and settings; the worker keeps a copy in the page's localStorage
note = None          # why start() could not open the link's deal, else None


def build(profile=None, size=None, seed=None, ai_step=0):
    """The sim board on the page's link. seed: every new game's deal (tests), None: random.
    ai_step: the AI counts work (sim.WorkClock) instead of real milliseconds (tests)."""
    b = sim.build(profile, size, open(LINK_OUT, "wb"), open(LINK_IN, "rb"), True)
    b.data_dir = DATA
    b.seed = seed
    b.ai_clock = sim.WorkClock(ai_step) if ai_step else None
    return b


def start(profile=None, size=None, seed=None, ai_step=0, deal=None, variant=None, players=0,
          teams=-1, level=None):
    """Boot the app on the web board and return it; with `deal` (a shared link's code) go straight
    into a new game on that deal (`note` says why not, when it cannot)."""
    global note
    board = build(profile, size, seed, ai_step)
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
    try:
        parse_code(deal)
    except ValueError:
        return "Not a deal code: " + deal
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


def ai_stats():
    """'samples rollouts exact' of the last Hard search (the page's figures), '' before one."""
    import sys
    a = sys.modules.get("ai")
    if a is None:
        return ""
    samples, rollouts, exact = a.stats()
    return "%d %d %d" % (samples, rollouts, int(exact))
