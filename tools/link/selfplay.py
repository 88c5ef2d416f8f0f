"""Two linked devices in one process: a seeded match played to its end through `link.session` over
the virtual cable, with faults, cuts and restarts from each device's own save (docs/LINK.md).

    python -m tools.link.selfplay --variant goat --players 4 --teams --owners HhGh --rate 0.05 \
        --kills 0.002 --seed 7
    python -m tools.link.selfplay --variant fives --kills 0.2 --seeds 1000   # seeds 1..1000: any fail?

Each device saves after every move exactly as the firmware does (`savegame.Files.save_game`, one
folder per device) and a "killed" device is rebuilt from that save (`store.Store.load_game`),
sometimes one move back (its last save cut off by the power: game.bak). The two matches must end
alike: the same record, move for move, the same score sheet. Returns the figures the report needs.
"""
import io
import os
import random
import shutil
import sys
import tempfile

from domino import record
from domino.rules import Rules
from link import session as ls
from savegame import last_token
from store import Store
from tools import cli
from tools.link.cable import Cable

STEP_MS = 5                      # the devices' loop period in the simulation
KINDS = {"H": "human", "G": "human", "e": "easy", "m": "medium", "h": "hard"}


class Device:
    """One handheld: its session, its save folder, its player (a seeded random legal mover)."""

    def __init__(self, name, port, root, seed, want):
        self.name = name
        self.port = port
        self.files = Store(root)
        self.rnd = random.Random(seed)
        self.want = want
        self.session = None
        self.think_until = 0
        self.restarts = 0
        self.resends = 0
        self.bad = 0
        self.resyncs = 0

    def rand(self):
        return self.rnd.getrandbits(30)

    def extras(self, s):
        return {"seats": ",".join(KINDS[o] for o in s.owners),
                "link": ls.link_extra(s.hosting, s.gid, s.owners)}

    # listener
    def started(self, s):
        self.files.clear_game()
        self.files.save_game(s.match, self.extras(s))

    def moved(self, s, seat, move, local):
        self.files.save_game(s.match, self.extras(s), last_token(s.match.round))

    def turned(self, s):
        self.files.save_game(s.match, self.extras(s))

    def boot(self, plan=None):
        """Start (or start again): resume the saved link game if there is one."""
        self.port.flush()
        match, extras, _msg = self.files.load_game()
        if self.session is not None:           # the figures of the life that ends here
            self.resends += self.session.ch.resends
            self.bad += self.session.ch.fr.bad
            self.resyncs += self.session.resyncs
        if match is not None:                     # (over too: the other may lack its last moves)
            self.session = ls.Session(self.port, 0, self.rand, self, (match, extras["link"]))
        else:
            self.session = ls.Session(self.port, self.want, self.rand, self)
            if plan is not None:
                self.session.host_game(*plan)

    def step(self, now):
        s = self.session
        s.poll(now)
        seat = s.to_move()
        if seat < 0:
            self.think_until = now + self.rnd.choice((0, 5, 20, 150))
            return
        if now < self.think_until:
            return
        rd = s.match.round
        n = rd.legal()
        s.play(rd.buf[self.rnd.randrange(n)])


def _record(match):
    out = io.StringIO()
    record.dump(match, out)
    return out.getvalue()


def play(variant="fives", players=2, teams=False, owners="HG", seed=1, rate=0.0, kills=0.0,
         cuts=0.0, cut_ms=3000, max_ms=3_600_000, options=None, workdir=None, kill_at=()):
    """Play one linked match; returns a dict of figures (raises AssertionError when they differ).
    kill_at: move counts (the host's) at which a device restarts, the guest and the host in turn,
    every third one from its save one move back."""
    cable = Cable(seed=seed, rate=rate)
    a_port, b_port = cable.ends()
    tmp = workdir or tempfile.mkdtemp(prefix="link-")
    rnd = random.Random(seed * 7919 + 1)
    plan = (Rules(variant, players, teams, options), owners, None)
    host = Device("host", a_port, os.path.join(tmp, "host"), seed * 2 + 1, ls.WANT_HOST)
    guest = Device("guest", b_port, os.path.join(tmp, "guest"), seed * 2 + 2, ls.WANT_JOIN)
    host.boot(plan)
    guest.boot()
    devs = (host, guest)
    kills_done = back_moves = 0
    pending = sorted(kill_at)
    now = 0
    try:
        while now < max_ms:
            cable.now = now
            for d in devs:
                d.step(now)
            hs, gs = host.session, guest.session
            if hs.match is not None and gs.match is not None and hs.match.over and gs.match.over \
                    and hs.mine == gs.mine and hs.gid == gs.gid:
                break
            for s in (hs, gs):
                assert s.state != ls.FAILED, s.message
            if cuts and rnd.random() < cuts and cable.plugged():
                cable.cut(rnd.uniform(0, cut_ms))
            due = pending and hs.mine >= pending[0]
            if due or kills and rnd.random() < kills:
                if due:
                    pending.pop(0)
                    d = devs[1 - kills_done % 2]
                    back = kills_done % 3 == 2
                else:
                    d = rnd.choice(devs)
                    back = rnd.random() < 0.25
                if d.session.match is not None and back and d.files.exists("game.bak"):
                    d.files.remove("game.txt")        # the last save cut off: one move back
                    back_moves += 1
                d.boot(plan if d is host else None)
                d.restarts += 1
                kills_done += 1
            now += STEP_MS
        hs, gs = host.session, guest.session
        assert hs.match is not None and hs.match.over, "the match did not end in %d ms" % max_ms
        assert gs.match is not None and gs.match.over, "the guest's match did not end"
        ra, rb = _record(hs.match), _record(gs.match)
        assert ra == rb, "the two records differ"
        assert hs.match.scores == gs.match.scores
    finally:
        if workdir is None:
            shutil.rmtree(tmp, ignore_errors=True)
    moves = hs.mine
    return {"moves": moves, "rounds": len(hs.match.history), "ms": now, "kills": kills_done,
            "back": back_moves, "faults": sum(cable.faults.values()), "fault_kinds": dict(cable.faults),
            "resends": host.resends + guest.resends + hs.ch.resends + gs.ch.resends,
            "bad_frames": host.bad + guest.bad + hs.ch.fr.bad + gs.ch.fr.bad,
            "resyncs": host.resyncs + guest.resyncs + hs.resyncs + gs.resyncs,
            "bytes": a_port.written + b_port.written}


def runs(seeds, first=1, **kw):
    """play() for seeds first..first+seeds-1: (figures summed, {seed: why it failed})."""
    total = {}
    failed = {}
    for seed in range(first, first + seeds):
        try:
            r = play(seed=seed, **kw)
        except (AssertionError, ValueError) as e:
            failed[seed] = str(e)
            continue
        for k, v in r.items():
            if isinstance(v, int):
                total[k] = total.get(k, 0) + v
    return total, failed


def main(argv=None):
    p = cli.parser("link_selfplay", description=__doc__.split("\n")[0])
    p.add_argument("--variant", default="fives")
    p.add_argument("--players", type=int, default=2)
    p.add_argument("--teams", action="store_true")
    p.add_argument("--owners", default=None, help="a letter a seat: H host, G guest, e/m/h AI")
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--seeds", type=int, default=0,
                   help="play this many seeds from --seed on; count those that fail (forks, stops)")
    p.add_argument("--rate", type=float, default=0.0, help="chance a frame meets a fault")
    p.add_argument("--kills", type=float, default=0.0, help="chance per 5 ms step a device restarts")
    p.add_argument("--cuts", type=float, default=0.0, help="chance per step the cable is pulled")
    a = p.parse_args(argv)
    owners = a.owners or ("HG" + "h" * (a.players - 2))
    kw = {"variant": a.variant, "players": a.players, "teams": a.teams, "owners": owners,
          "rate": a.rate, "kills": a.kills, "cuts": a.cuts}
    if a.seeds > 0:
        total, failed = runs(a.seeds, a.seed, **kw)
        for seed in sorted(failed):
            print("selfplay: seed %d: %s" % (seed, failed[seed]))
        print("runs=%d failed=%d " % (a.seeds, len(failed)) +
              " ".join("%s=%s" % kv for kv in sorted(total.items())))
        return 1 if failed else 0
    try:
        r = play(seed=a.seed, **kw)
    except (AssertionError, ValueError) as e:
        print("selfplay: " + str(e))
        return 1
    print(" ".join("%s=%s" % kv for kv in sorted(r.items())))
    return 0


if __name__ == "__main__":
    sys.exit(main())
