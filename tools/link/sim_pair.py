"""Two simulators joined by the virtual cable (`make sim-link`; docs/LINK.md).

With a display: two simulator windows (tools/sim.py), each running tools/link/demo_app.py on its
end of the cable: a linked match played by seeded random movers, its status on each screen.
Without a display (or --headless): the two MicroPython processes alone, their closing lines printed.
--cut-at S pulls the cable S seconds in for --cut-for seconds; --kill-at S kills the guest then and
starts it again, to resume from its save; --rate damages bytes at that rate.
"""
import argparse
import os
import subprocess
import sys
import tempfile
import time

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


def windows(game, seed, think, board, rate):
    """Two simulator views, each with its end of the cable."""
    from tools import sim_link
    sim_link.compile_tree()       # once, before the two simulators would both compile it at once
    wire = Wire(rate=rate, seed=seed)
    data = tempfile.mkdtemp(prefix="pico-link-data-")
    procs = []
    for side in ("a", "b"):
        cmd = [sys.executable, os.path.join(ROOT, "tools", "sim.py"), "--app", APP, "--board", board,
               "--data", os.path.join(data, side), "--view", "window"]
        procs.append(subprocess.Popen(cmd, env=_env(wire, side, game, seed, think, data)))
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


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--game", default="fives 2 0 HG", help="variant players teams owners")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--think", type=int, default=300, help="ms each seat waits before moving")
    ap.add_argument("--rate", type=float, default=0.0, help="chance a byte is lost or damaged")
    ap.add_argument("--board", default="waveshare_lcd13")
    ap.add_argument("--headless", action="store_true")
    ap.add_argument("--cut-at", type=float)
    ap.add_argument("--cut-for", type=float, default=2.0)
    ap.add_argument("--kill-at", type=float)
    a = ap.parse_args(argv)
    if len(a.game.split()) != 4:
        ap.error("--game: four words, e.g. 'goat 4 1 HhGh'")
    if a.headless or not (os.environ.get("DISPLAY") or os.environ.get("WAYLAND_DISPLAY")):
        host, guest, fig = headless(a.game, a.seed, a.rate, min(a.think, 50), a.cut_at, a.cut_for,
                                    a.kill_at)
        print("\n".join("host:  " + ln for ln in host.split("\n")))
        print("\n".join("guest: " + ln for ln in guest.split("\n")))
        print("wire: %(carried)d bytes carried, %(damaged)d damaged" % fig)
        last = host.split("\n")[-1]
        return 0 if last == guest.split("\n")[-1] and last.startswith("link: over") else 1
    windows(a.game, a.seed, a.think, a.board, a.rate)   # (two terminal views would share one tty)
    return 0


if __name__ == "__main__":
    sys.exit(main())
