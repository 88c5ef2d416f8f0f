"""A linked match played through the real firmware's menus in two simulators (docs/LINK.md): the
host picks Link game > Host a game and starts the form's game, the guest Link game > Join a game
and sits down at the host's set-up; then both press A every few hundred ms (a press while the
other device plays is dropped by the table, so A plays this device's playable tile when it is its
turn, and goes through the round-end pages). Faults on the way: the cable pulled, bytes damaged
at a seeded rate, the guest killed mid-round and started again (it resumes from its own save).
Each simulator prints the match's closing line (`link: over moves=N digest=D scores=...`) at its
end; both must print the same.

  python -m tools.link.menu_match --form "right" --cut-at 6 --kill-at 12 --seed 3
"""
import os
import shutil
import sys
import tempfile
import time

from tools.link.wire import Wire
from tools import cli
from tools.sim.link import BOARDS, K_A, K_DOWN, K_LEFT, K_RIGHT, K_UP, Reader, Sim

TAP_MS = 250
KEYS = {"a": K_A, "up": K_UP, "down": K_DOWN, "left": K_LEFT, "right": K_RIGHT}
# From the main menu (no saved game: New game ... Link game, the last row): Link game, then Host /
# Join.
HOST = "up a a"
JOIN = "up a down a"


class Device:
    """One simulator on one end of the cable, its data folder kept across restarts."""

    def __init__(self, wire, side, data, seed, board, heap):
        self.wire = wire
        self.side = side
        self.data = data
        self.seed = seed
        self.board = board
        self.heap = heap
        self.lives = 0
        self.out = []            # stdout lines of every life
        self.sim = None
        self.start()

    def start(self):
        env = dict(self.wire.env(self.side), PICO_SIM_SEED=str(self.seed))
        self.sim = Sim(board=self.board, data_dir=self.data, heap=self.heap, env=env)
        self.reader = Reader(self.sim)
        self.reader.start()
        self.lives += 1

    def kill(self):
        self.out.extend(self.sim.stdout)
        self.sim.proc.kill()
        self.sim.stop(1.0)

    def lines(self):
        return self.out + list(self.sim.stdout)

    def over(self):
        for ln in self.lines():
            if ln.startswith("link: over"):
                return ln
        return None

    def failed(self):
        """The error text when the firmware stopped (a traceback), else None."""
        if self.sim.proc.poll() is not None:
            return self.sim.crash_text() or "exited %s" % self.sim.proc.returncode
        return None

    def keys(self, script):
        for word in script.split():
            name, _, times = word.partition("*")
            for _ in range(int(times or 1)):
                self.sim.send_tap(KEYS[name])
                time.sleep(TAP_MS / 1000.0)

    def stop(self):
        self.out.extend(self.sim.stdout)
        self.sim.stop(1.0)


def play(form="", seed=1, rate=0.0, cut_at=None, cut_for=2.0, kill_at=None, timeout=240.0,
         board="waveshare_lcd13", heap="320K", log=None):
    """Play one match; returns (host's closing line, guest's, figures). `form`: keys on the host's
    form before its last row, Start game (e.g. "right" for the next variant). Times in seconds
    from the first move."""
    wire = Wire(rate=rate, seed=seed)
    root = tempfile.mkdtemp(prefix="pico-link-menus-")
    host = guest = None
    fig = {"kills": 0, "cuts": 0}
    try:
        host = Device(wire, "a", os.path.join(root, "a"), seed, board, heap)
        guest = Device(wire, "b", os.path.join(root, "b"), seed, board, heap)
        time.sleep(1.5)
        host.keys(HOST + " " + form + " up a")      # UP from the form's first row: Start game
        guest.keys(JOIN)
        time.sleep(1.5)
        guest.keys("a")                              # sit down at the host's set-up
        t0 = time.time()
        events = []
        if cut_at is not None:
            events += [(cut_at, "cut"), (cut_at + cut_for, "plug")]
        if kill_at is not None:
            events.append((kill_at, "kill"))
        events.sort()
        while time.time() - t0 < timeout:
            now = time.time() - t0
            while events and events[0][0] <= now:
                what = events.pop(0)[1]
                if log:
                    log("%.1fs: %s" % (now, what))
                if what == "cut":
                    wire.cut(True)
                    fig["cuts"] += 1
                elif what == "plug":
                    wire.cut(False)
                else:
                    guest.kill()
                    guest.start()
                    fig["kills"] += 1
            for d in (host, guest):
                why = d.failed()
                if why:
                    raise RuntimeError("%s stopped: %s" % ("host" if d is host else "guest", why))
            a, b = host.over(), guest.over()
            if a and b:
                break
            for d in (host, guest):
                if not d.over():
                    d.sim.send_tap(K_A)
            time.sleep(0.3)
        fig.update(carried=wire.carried, damaged=wire.damaged, seconds=round(time.time() - t0, 1),
                   resumed=[ln for ln in guest.lines() if ln.startswith("link: resumed")])
        return host.over(), guest.over(), fig
    finally:
        for d in (host, guest):
            if d is not None:
                d.stop()
        wire.close()
        shutil.rmtree(root, ignore_errors=True)


def main(argv=None):
    ap = cli.parser("menu_match", description=__doc__.split("\n")[0])
    ap.add_argument("--form", default="", help="keys on the host's New game form, e.g. 'right'")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--rate", type=float, default=0.0, help="chance a byte is lost or damaged")
    ap.add_argument("--cut-at", type=float)
    ap.add_argument("--cut-for", type=float, default=2.0)
    ap.add_argument("--kill-at", type=float)
    ap.add_argument("--timeout", type=float, default=240.0)
    ap.add_argument("--board", default="waveshare_lcd13", choices=BOARDS)
    a = ap.parse_args(argv)
    host, guest, fig = play(a.form, a.seed, a.rate, a.cut_at, a.cut_for, a.kill_at, a.timeout,
                            a.board, log=print)
    print("host:  %s\nguest: %s\n%s" % (host, guest, fig))
    return 0 if host and host == guest else 1


if __name__ == "__main__":
    sys.exit(main())
