"""Link play: two devices' sessions over the virtual cable play seeded whole matches to the end,
with faults (dropped, cut-short, corrupted, duplicated, delayed frames, garbage), pulled cables and
restarts from each device's own save; both must end with the same record, move for move."""
import random

from domino.rules import Rules
from link import frame, session as ls
from link.channel import Channel
from tools.link.cable import Cable
from tools.link.selfplay import _record, play, runs

# (variant, players, teams, seat owners): H the host's person, G the guest's, e/m/h AI on the host
GAMES = [
    ("fives", 2, False, "HG"),
    ("goat", 4, True, "HhGh"),        # 2v2: the two people partners across the devices
    ("goat", 4, True, "HGmh"),        # 2v2: the two people opponents, AI partners
    ("blitz", 4, True, "HeGe"),       # Blitz chains: a seat moving again and again
    ("sea_goat", 3, False, "GHh"),
    ("donkey", 2, False, "GH"),       # several doubles in one move, closed doubles
]


def test_faulty_cable_matches_end_alike():
    """Every game of GAMES, two seeds each, played to its end through faults, cuts and restarts
    (play() raises at the first disagreement: a refused move, a digest that differs, records that
    differ at the end). The totals show the faults were really met."""
    total = {"cases": 0, "moves": 0, "faults": 0, "kills": 0, "back": 0, "resends": 0, "resyncs": 0,
             "bad_frames": 0}
    for vid, players, teams, owners in GAMES:
        for seed in (1, 2):
            r = play(vid, players, teams, owners, seed=seed, rate=0.12, kills=0.004, cuts=0.0015)
            assert r["rounds"] >= 1
            total["cases"] += 1
            for k in total:
                if k != "cases":
                    total[k] += r[k]
    print("link faults:", " ".join("%s=%d" % kv for kv in sorted(total.items())))
    assert total["faults"] > total["moves"] // 10
    assert total["kills"] > 20 and total["back"] > 3 and total["resyncs"] > 10
    assert total["resends"] > 50 and total["bad_frames"] > 20


def test_clean_cable_bytes_per_move():
    """Without faults a move costs its frame and the other's state frame in answer (plus the
    keep-alives: a state frame each way every 400 ms)."""
    r = play("fives", 2, False, "HG", seed=3)
    assert r["resends"] == 0 and r["bad_frames"] == 0 and r["kills"] == 0
    fr = frame.Framer()
    state = len(fr.build(ls.K_STATE, 0, 0, bytes(6), 6))       # 14 bytes on the wire
    move = len(fr.build(ls.K_MOVE, 0, 0, bytes(8), 8))         # 16
    keepalive = r["ms"] / 400 * 2 * state
    per_move = (r["bytes"] - keepalive) / r["moves"]
    assert move + state - 4 < per_move < move + state + 4, per_move


def test_restart_at_every_step_of_a_round():
    """A device restarts after every move of the first rounds (the guest and the host in turn,
    every third time its last save lost: one move back); the match still ends alike."""
    r = play("fives", 2, False, "HG", seed=5, kill_at=range(1, 50))
    assert r["kills"] >= 49 and r["back"] >= 15 and r["resyncs"] >= 40


def test_restarts_alone_never_fork():
    """The smoke of `make soak-link-kills`: a device restarts at every 5 ms step with chance 0.2
    (from its own save, a quarter of them one move back) and no match forks or stops (3 of the
    first 15 seeds forked before each move had one author and frames of a previous life were
    keyed out)."""
    total, failed = runs(6, variant="fives", players=2, owners="HG", kills=0.2)
    assert not failed, failed
    assert total["kills"] > 500 and total["back"] > 100 and total["moves"] > 300


def test_long_cut_then_plugged_back():
    r = play("goat", 4, True, "HhGh", seed=6, cuts=0.01, cut_ms=8000)
    assert r["fault_kinds"]["cut"] > 3


class _Pair:
    """Two sessions on a clean cable, polled in 5 ms steps."""

    def __init__(self, want_a, want_b, seed=1):
        self.cable = Cable(seed=seed)
        a, b = self.cable.ends()
        rnd = random.Random(seed)
        self.a = ls.Session(a, want_a, lambda: rnd.getrandbits(30))
        self.b = ls.Session(b, want_b, lambda: rnd.getrandbits(30))
        self.now = 0

    def run(self, ms):
        for _ in range(ms // 5):
            self.cable.now = self.now
            self.a.poll(self.now)
            self.b.poll(self.now)
            self.now += 5


def test_both_host_one_wins():
    p = _Pair(ls.WANT_HOST, ls.WANT_HOST)
    p.a.host_game(Rules("fives", 2), "HG")
    p.b.host_game(Rules("draw", 2), "HG")
    seen = set()
    for _ in range(200):
        p.run(5)
        seen.add(p.a.message)
        seen.add(p.b.message)
    assert "Both hosted: the other device hosts" in seen     # until the host's game arrives
    hosts = [s for s in (p.a, p.b) if s.hosting]
    assert len(hosts) == 1
    other = p.b if hosts[0] is p.a else p.a
    assert other.demoted and not hosts[0].demoted
    assert other.match is not None and other.match.rules.vid == hosts[0].match.rules.vid
    assert other.gid == hosts[0].gid and other.state == ls.PLAYING


def test_both_join_says_so():
    p = _Pair(ls.WANT_JOIN, ls.WANT_JOIN)
    p.run(1000)
    assert p.a.message == p.b.message == "Both joined: one must host"
    assert p.a.match is None and p.b.match is None


def test_other_version_one_clear_message():
    cable = Cable()
    a, b = cable.ends()
    s = ls.Session(a, ls.WANT_JOIN, lambda: 12345)
    fr = frame.Framer()
    body = bytes([0x50, 0x44, ls.PROTO + 1, 2 << 1]) + bytes(10)
    b.write(fr.build(ls.K_HELLO, 7, 0, body, len(body), False))
    cable.now = 10
    s.poll(10)
    assert s.state == ls.FAILED
    assert s.message == "Link v%d there, v%d here: update both" % (ls.PROTO + 1, ls.PROTO)
    cable.now = 20
    got = []
    Channel(b, lambda buf, n, keyed: got.append((buf[0], bytes(buf[4:n])))).poll(20)
    assert any(k == ls.K_HELLO and body[2] == ls.PROTO for k, body in got)   # the other learns too


def test_cable_out_both_say_so_then_continue():
    p = _Pair(ls.WANT_HOST, ls.WANT_JOIN)
    p.a.host_game(Rules("fives", 2), "HG")
    p.run(500)
    assert p.a.up() and p.b.up() and p.b.state == ls.PLAYING
    p.cable.cut(3000)
    p.run(2000)
    assert not p.a.up() and not p.b.up()
    p.run(1500)
    assert p.a.up() and p.b.up()


def test_garbage_is_ignored():
    """Random bytes on the line (a loose wire) neither stop the session nor reach it as frames."""
    p = _Pair(ls.WANT_HOST, ls.WANT_JOIN, seed=9)
    p.a.host_game(Rules("fives", 2), "HG")
    rnd = random.Random(4)
    for _ in range(50):
        p.cable.a.write(bytes(rnd.randrange(256) for _ in range(rnd.randrange(1, 200))))
        p.run(20)
    assert p.b.state == ls.PLAYING and p.b.gid == p.a.gid
    assert p.b.ch.fr.bad > 10



class _Stats:
    """The statistics calls ui/sheet.py makes (store.Store's), recorded."""

    def __init__(self):
        self.rounds = []
        self.results = []

    def record_round(self, vid, won):
        self.rounds.append(won)

    def record_result(self, vid, res, match_id=None):
        self.results.append(res)

    def game_sum(self):
        return "s"

    def clear_game(self):
        pass


def _played(seed, options=None, whole=False):
    """A 2-player Fives match played by seeded random legal moves to its first round's end, or
    (whole) to the match's end."""
    from link import lockstep
    from domino.match import Match
    m = Match(Rules("fives", 2, False, options), seed)
    m.start_round()
    rnd = random.Random(seed)
    lockstep.run_forced(m)
    while not (m.over if whole else m.round_over()):
        rd = m.round
        m.play(rd.buf[rnd.randrange(rd.legal())])
        if lockstep.advance(m) and whole:
            lockstep.turn_round(m)
    return m


def test_statistics_count_each_devices_own_person():
    """The rounds a device writes to its statistics are its own person's (ui/sheet.py end_round asks
    the table's own_seat): seat 1 on an ordinary table, none in a practice game, the device's own
    seat on a link table, which on the guest is not seat 1 (the host's person's). Both devices of
    one linked round count it, one as won and the other as lost."""
    import types
    from tools.sim.ui_host import device_module
    sheet = device_module("ui.sheet")
    table = device_module("ui.table")
    linktable = device_module("ui.linktable")
    for seed in (1, 2, 3, 4):
        counted = {}
        for who, own in (("table", table.Table.own_seat), ("practice", table.Table.own_seat),
                         ("host", lambda t: 0), ("guest", lambda t: 1)):
            m = _played(seed)
            stats = _Stats()
            app = types.SimpleNamespace(stats=lambda: stats, beep=lambda f, ms: None,
                                        go=lambda screen: None, need=lambda name: None)
            game = types.SimpleNamespace(match=m, kinds=["human", "human"], practice=who == "practice",
                                         sheet="", counted=False, note=None)
            t = types.SimpleNamespace(game=game, app=app, solo=True, save=lambda *a: None,
                                      round_scored=lambda: None)
            t.own_seat = (lambda own=own, t=t: own(t))
            sheet.end_round(t)
            counted[who] = stats.rounds
        won = m.round_winner
        assert counted["table"] == [won == 0] and counted["practice"] == []
        assert counted["host"] == [won == 0] and counted["guest"] == [won == 1]
    assert linktable.LinkTable.own_seat(types.SimpleNamespace(me=3)) == 3


def _pair(seed, tmp):
    from tools.link.selfplay import Device
    cable = Cable(seed=seed)
    a, b = cable.ends()
    host = Device("host", a, str(tmp / "host"), seed * 2 + 1, ls.WANT_HOST)
    guest = Device("guest", b, str(tmp / "guest"), seed * 2 + 2, ls.WANT_JOIN)
    plan = (Rules("fives", 2, False, {"target": 61}), "HG", None)
    host.boot(plan)
    guest.boot()
    return cable, host, guest, plan


def _run(cable, devs, now, until, limit=600000):
    from tools.link.selfplay import STEP_MS
    while now < limit and not until():
        cable.now = now
        for d in devs:
            d.step(now)
        now += STEP_MS
    assert until(), "not reached in %d ms" % limit
    return now


def test_a_match_ended_while_the_cable_is_out_is_handed_over(tmp_path):
    """The match's last move is made with the cable out: the mover's match is over, the other's not;
    the mover owes it (Session.owes), keeps its save (ui/sheet.py) and, switched off and on
    meanwhile, resumes the finished match from that save; once the cable is back the other device
    gets the move, both records are the same and nothing is owed."""
    seed = 5
    cable, host, guest, plan = _pair(seed, tmp_path / "first")       # the match once, to count it
    def over(d):
        return d.session.match is not None and d.session.match.over

    _run(cable, (host, guest), 0, lambda: over(host) and over(guest))
    total = host.session.mine
    cable, host, guest, plan = _pair(seed, tmp_path / "again")       # again, the same way, but
    carry = cable._carry                                             # the cable is pulled as the
                                                                     # last move goes on the wire

    def pull_at_the_last(src, data):
        if not cable.faults["cut"] and max(host.session.mine, guest.session.mine) == total:
            cable.cut(60000)                                         # (once)
        return carry(src, data)
    cable._carry = pull_at_the_last
    now = _run(cable, (host, guest), 0, lambda: over(host) or over(guest))
    mover = host if host.session.match.over else guest
    other = guest if mover is host else host
    assert mover.session.owes() and not other.session.match.over
    now = _run(cable, (host, guest), now + 5000, lambda: True)
    mover.boot(plan if mover is host else None)                    # switched off and on, cable out
    assert mover.session.match.over and mover.session.owes()
    now = _run(cable, (host, guest), now, lambda: cable.plugged())
    now = _run(cable, (host, guest), now, lambda: other.session.match.over and not mover.session.owes()
               and not other.session.owes())
    assert _record(host.session.match) == _record(guest.session.match)
    assert host.session.match.scores == guest.session.match.scores


def test_the_screens_keep_a_finished_link_match_until_it_is_handed_over():
    """ui/sheet.py keeps the save of a match over while the session still owes the other device
    moves (a restart then resumes it to hand them over), and retires it otherwise; ui/nav.py handed
    serves the session from the menus until nothing is owed, then drops it and the save, and gives
    up the wait when another game has started."""
    import types
    from tools.sim.ui_host import device_module
    sheet = device_module("ui.sheet")
    nav = device_module("ui.nav")
    for owes in (True, False):
        m = _played(3, {"target": 61}, whole=True)
        stats = _Stats()
        cleared = []
        stats.clear_game = lambda: cleared.append(1)
        link = types.SimpleNamespace(owes=lambda owes=owes: owes, poll=lambda now: None)
        board = types.SimpleNamespace(ticks_ms=lambda: 0)
        app = types.SimpleNamespace(stats=lambda: stats, saves=lambda: stats, beep=lambda f, ms: None,
                                    go=lambda screen: None,
                                    need=lambda name: None, link=link, board=board)
        game = types.SimpleNamespace(match=m, kinds=["human", "human"], practice=False, sheet="",
                                     counted=False, note=None, stats=None)
        t = types.SimpleNamespace(game=game, app=app, solo=True, save=lambda *a: None,
                                  round_scored=lambda: None, own_seat=lambda: 0)
        sheet.end_round(t)
        assert stats.results and cleared == ([] if owes else [1])
    # the menus' side: served while owed, then the session and the save go
    owed = [True]
    link = types.SimpleNamespace(owes=lambda: owed[0])
    cleared = []
    files = types.SimpleNamespace(clear_game=lambda: cleared.append(1))
    menu = types.SimpleNamespace(note=nav.HANDOVER)
    redrawn = []
    app = types.SimpleNamespace(link=link, handover=link, table=None, saves=lambda: files, screen=menu,
                                redraw=lambda: redrawn.append(1))
    nav.handed(app)
    assert app.link is link and app.handover is link and not cleared and menu.note == nav.HANDOVER
    owed[0] = False
    nav.handed(app)
    assert app.link is None and app.handover is None and cleared == [1]
    assert menu.note is None and redrawn                  # the menu's warning goes with it
    app = types.SimpleNamespace(link=link, handover=link, table=object(), saves=lambda: files)
    owed[0] = True
    nav.handed(app)                      # another game's table: the wait ends, its save stays
    assert app.link is None and app.handover is None and cleared == [1]


def test_held_sessions_leave_draws_passes_and_round_ends_to_the_screens():
    """With hold (the firmware's link game), what follows a move is the screens' to show, as on a
    table of one device: the forced draws and passes one at a time with a pause, then the round's
    end and the next deal when the person has read it. Here each device's "screen" makes them,
    one forced step every 40 ms and the next deal 300 ms after a round's end; the other device's
    moves wait meanwhile (its state says it holds: never a stall), and both end alike."""
    for vid, players, teams, owners, seed in (("draw", 2, False, "HG", 3), ("fives", 2, False, "GH", 4),
                                              ("goat", 4, True, "HhGh", 5)):
        cable = Cable(seed=seed, rate=0.05)
        a, b = cable.ends()
        rnd = random.Random(seed)
        host = ls.Session(a, ls.WANT_HOST, lambda: rnd.getrandbits(30), hold=True)
        guest = ls.Session(b, ls.WANT_JOIN, lambda: rnd.getrandbits(30), hold=True)
        host.host_game(Rules(vid, players, teams), owners)
        busy = {id(host): 0, id(guest): 0}
        seen = {"forced": 0, "held": 0, "rounds": 0}
        now = 0
        while now < 3_000_000:
            cable.now = now
            for s in (host, guest):
                s.poll(now)
                m = s.match
                if m is None or m.over or now < busy[id(s)]:
                    continue
                if m.round_over():
                    m.finish_round()
                    if not m.over:
                        m.start_round()
                    busy[id(s)] = now + 300
                    seen["rounds"] += 1
                elif m.round.legal() == 0:
                    m.forced()
                    busy[id(s)] = now + 40
                    seen["forced"] += 1
                elif s.to_move() >= 0:
                    rd = s.match.round
                    s.play(rd.buf[rnd.randrange(rd.legal())])
                if s.peer_held:
                    seen["held"] += 1
                assert s.state != ls.FAILED, s.message
                assert s.stalls == 0
            if host.match is not None and guest.match is not None and host.match.over and \
                    guest.match.over and host.mine == guest.mine:
                break
            now += 5
        assert host.match.over and guest.match.over, (host.mine, guest.mine)
        assert _record(host.match) == _record(guest.match)
        assert host.match.scores == guest.match.scores
        assert seen["forced"] > 10 and seen["held"] > 10 and seen["rounds"] >= 2, seen
