"""Two simulators joined by the virtual cable (`make sim-link`; docs/LINK.md).

With a display: two simulator windows (tools/sim.py) running the firmware, each on its end of the
cable: pick Link game in both, Host in one, Join in the other, and play.
Without a display (or --headless): a match played through the two firmwares' menus by keys
(tools/link/menu_match.py), the closing lines printed; --demo: the two MicroPython processes run
tools/link/demo_app.py instead (seeded random movers on the session alone, --game).
--cut-at S pulls the cable S seconds in for --cut-for seconds; --kill-at S kills the guest then and
starts it again, to resume from its save; --rate damages bytes at that rate.
"""
import os
import subprocess
import sys
import tempfile
import time

from tools import cli
from tools.find_micropython import find
from tools.link.wire import Wire

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

APP = os.path.join(ROOT, "tools", "link", "demo_app.py")


def _env(wire, side, game, seed, think, data):
    env = dict(os.environ)
    env.update(wire.env(side))
    env.update(PICO_SIM_LINK_WANT="host" if side == "a" else "join", PICO_SIM_LINK_GAME=game,
               PICO_SIM_LINK_SEED=str(seed), PICO_SIM_LINK_THINK=str(think),
               PICO_SIM_DATA=os.path.join(data, side))
    return env


def headless(game="fives 2 0 HG", seed=1, rate=0.0, think=20, cut_at=None, cut_for=2.0,
             kill_at=None, timeout=120.0, micropython=None):
    """Run the pair without views; returns (host's output, guest's (the last life's), wire figures).
    The closing line of each is the match's: `link: over moves=N digest=D scores=...`."""
    mp = micropython or find()
    wire = Wire(rate=rate, seed=seed)
    data = tempfile.mkdtemp(prefix="pico-link-data-")
    path = os.pathsep.join((os.path.join(ROOT, "firmware"), ROOT, os.path.dirname(APP)))

    def start(side):
        env = _env(wire, side, game, seed, think, data)
        env["MICROPYPATH"] = path
        return subprocess.Popen([mp, "-X", "heapsize=320K", "-c", "import demo_app; demo_app.run()"],
                                env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                                universal_newlines=True)
    procs = {"a": start("a"), "b": start("b")}
    events = []
    if cut_at is not None:
        events.append((cut_at, lambda: wire.cut(True)))
        events.append((cut_at + cut_for, lambda: wire.cut(False)))
    if kill_at is not None:
        def restart():
            procs["b"].kill()
            procs["b"].wait()
            procs["b"] = start("b")
        events.append((kill_at, restart))
    events.sort(key=lambda e: e[0])
    t0 = time.time()
    for at, act in events:
        time.sleep(max(0.0, t0 + at - time.time()))
        act()
    out = []
    try:
        for side in ("a", "b"):
            text = procs[side].communicate(timeout=max(1.0, timeout - (time.time() - t0)))[0]
            out.append(text.strip())
    finally:
        for p in procs.values():
            if p.poll() is None:
                p.kill()
        wire.close()
    return out[0], out[1], {"carried": wire.carried, "damaged": wire.damaged}


def windows(seed, board, rate):
    """Two simulator views of the firmware, each with its end of the cable."""
    from tools.sim.link import compile_tree
    compile_tree()       # once, before the two simulators would both compile it at once
    wire = Wire(rate=rate, seed=seed)
    data = tempfile.mkdtemp(prefix="pico-link-data-")
    procs = []
    for side in ("a", "b"):
        cmd = [sys.executable, "-m", "tools.sim", "--board", board, "--data", os.path.join(data, side),
               "--view", "window"] + (["--seed", str(seed)] if seed is not None else [])
        env = dict(os.environ, **wire.env(side))
        procs.append(subprocess.Popen(cmd, env=env, cwd=ROOT))
    try:
        for p in procs:
            p.wait()
    except KeyboardInterrupt:
        pass
    finally:
        for p in procs:
            if p.poll() is None:
                p.terminate()
        wire.close()


# The make settings behind the options (mk/link.mk), named in the messages under make.
SETTINGS = {"--board": "BOARD", "--seed": "SEED", "--game": "LINK_GAME"}
MAX_RATE = 0.1        # beyond one byte in ten lost or damaged, hardly a frame gets through
MAX_SECONDS = 3600.0
SEATS = "HGemh"       # the host's person, the guest's, then the host's AI seats (easy, medium, hard)


def game_words(_name, text):
    """--game: `variant players teams seats`, as the host sets it up (fives 2 0 HG, goat 4 1 HhGh)."""
    from domino.rules import Rules, RulesError, VARIANTS
    words = str(text).split()
    if len(words) != 4:
        raise cli.BadArg("wants four words, variant players teams seats (e.g. 'goat 4 1 HhGh'), not %r"
                         % (text,))
    vid, players, teams, seats = words
    ids = [row[0] for row in VARIANTS]
    if vid not in ids:
        raise cli.BadArg("%s is not a variant: %s" % (vid, ", ".join(ids)))
    n = cli.whole("players", players, 2, 4)
    if teams not in ("0", "1"):
        raise cli.BadArg("teams is 0 or 1, not %r" % teams)
    if len(seats) != n or seats.count("H") != 1 or seats.count("G") != 1 or seats.strip(SEATS):
        raise cli.BadArg("seats: one letter a seat (%d here), H the host's person and G the guest's once "
                         "each, e for easy, m medium, h hard AI (e.g. HGmh), not %r" % (n, seats))
    try:
        Rules(vid, n, teams == "1")
    except RulesError as e:
        raise cli.BadArg(str(e))
    return " ".join(words)


def form_keys(_name, text):
    """--form: keys on the host's New game form (right, down*2, a)."""
    from tools.link.menu_match import KEYS
    for word in str(text).split():
        name, _, times = word.partition("*")
        if name not in KEYS:
            raise cli.BadArg("%r: the keys are %s (right*2: twice)" % (word, ", ".join(sorted(KEYS))))
        if times:
            cli.whole(word, times, 1, 50)
    return text


def main(argv=None):
    from tools.sim.link import BOARDS
    ap = cli.parser("sim-link", settings=SETTINGS, description=__doc__.split("\n")[0],
                    epilog="make sim-link runs python -m tools.link.sim_pair")
    ap.add_argument("--game", default="fives 2 0 HG", type=cli.typed(game_words),
                    help="--demo: variant players teams seats (H, G: each device's person; e m h: AI)")
    ap.add_argument("--form", default="left", type=cli.typed(form_keys), help="headless: keys on the "
                    "host's form (default: the variant before the first, Blitz, four seats with two AI)")
    ap.add_argument("--demo", action="store_true", help="headless: the session-only demo app")
    ap.add_argument("--seed", type=cli.typed(cli.whole, 0, cli.MAX_SEED),
                    help="the deal (default: headless 1, windows random)")
    ap.add_argument("--think", type=cli.typed(cli.whole, 0, 10000), default=300,
                    help="ms each seat waits before moving")
    ap.add_argument("--rate", type=cli.typed(cli.number, 0.0, MAX_RATE), default=0.0,
                    help="chance a byte is lost or damaged (0-%g)" % MAX_RATE)
    ap.add_argument("--board", default="waveshare_lcd13", choices=BOARDS)
    ap.add_argument("--headless", action="store_true")
    ap.add_argument("--cut-at", type=cli.typed(cli.number, 0.0, MAX_SECONDS), metavar="S")
    ap.add_argument("--cut-for", type=cli.typed(cli.number, 0.0, MAX_SECONDS), default=2.0, metavar="S")
    ap.add_argument("--kill-at", type=cli.typed(cli.number, 0.0, MAX_SECONDS), metavar="S")
    ap.add_argument("--timeout", type=cli.typed(cli.number, 1.0, MAX_SECONDS), default=None, metavar="S",
                    help="headless: give up when the match has not ended after S seconds "
                    "(default 120 with --demo, else 240)")
    a = ap.parse_args(argv)
    display = os.environ.get("DISPLAY") or os.environ.get("WAYLAND_DISPLAY")
    if not find():
        return cli.say("sim-link", "no `micropython` binary: run `make venv` or set MICROPYTHON")
    try:
        if (a.headless or not display) and not a.demo:
            from tools.link.menu_match import play
            timeout = a.timeout or 240.0
            host, guest, fig = play(a.form, a.seed or 1, a.rate, a.cut_at, a.cut_for, a.kill_at, timeout,
                                    board=a.board, log=print)
            if not (host and guest):
                print("sim-link: the match did not end within %g s%s" % (
                    timeout, " (the cable's --rate %g loses too much?)" % a.rate if a.rate else ""),
                    file=sys.stderr)
                return 1
            print("host:  %s\nguest: %s\n%s" % (host, guest, fig))
            return 0 if host == guest else 1
        if a.headless or a.demo or not display:
            timeout = a.timeout or 120.0
            try:
                host, guest, fig = headless(a.game, a.seed or 1, a.rate, min(a.think, 50), a.cut_at,
                                            a.cut_for, a.kill_at, timeout)
            except subprocess.TimeoutExpired:
                print("sim-link: the match did not end within %g s%s" % (
                    timeout, " (the cable's --rate %g loses too much?)" % a.rate if a.rate else ""),
                    file=sys.stderr)
                return 1
            print("\n".join("host:  " + ln for ln in host.split("\n")))
            print("\n".join("guest: " + ln for ln in guest.split("\n")))
            print("wire: %(carried)d bytes carried, %(damaged)d damaged" % fig)
            last = host.split("\n")[-1]
            return 0 if last == guest.split("\n")[-1] and last.startswith("link: over") else 1
    except RuntimeError as e:            # a simulator stopped (its firmware's error, no micropython)
        print("sim-link: %s" % " ".join(str(e).split())[:300], file=sys.stderr)
        return 1
    windows(a.seed, a.board, a.rate)          # (two terminal views would share one tty)
    return 0


if __name__ == "__main__":
    sys.exit(main())
