"""The link against a hostile or unlucky other device (docs/LINK.md, "What the link guarantees"): a
scripted device on an in-test cable speaks the protocol frame by frame, or an injector puts forged,
replayed, reordered and out-of-epoch frames between two real sessions. Every case ends with both
devices agreeing (the same moves, the same scores) or both saying the same plain message (the
refusal's code and move number reach the other device); never an exception, never a wait without
an end (each case runs on a clock with a limit), never a seat's hand handed to the wrong device.

Portable: pytest and the unix `micropython` (make mptest). One run of each case in `make test`;
`make soak-link-hostile` runs each case over many seeds (LINK_HOSTILE_RUNS in the environment).

mptest-heap: 160K -- two sessions and their matches, a scripted device and this module's many cases beside
the whole engine; on the 64-bit unix port every object is twice its Pico size.
"""
from domino.match import Match
from domino.rng import Rng
from domino.rules import Rules
from link import frame, lockstep, session as ls, setup as su

try:
    from os import getenv
except ImportError:  # a port without it
    def getenv(name):
        return None

RUNS = int(getenv("LINK_HOSTILE_RUNS") or 1)
STEP = 5                          # ms between two polls, as the device's loop
TRIES = 3                         # = link.session._TRIES (a const: not an attribute on the device)
STUCK_MS = (TRIES + 2) * ls.WAIT_MS + 3000   # the longest a wait may last before its message
TEXTS = {su.R_ILLEGAL: "Move {0} is not legal here: update both",     # = link.setup._TEXTS
         su.R_DIFFER: "The games differ at move {0}: update both",
         su.R_UNKNOWN: "The host's game is unknown here: update both",
         su.R_STUCK: "No answer from the other device: switch both off and on"}


class _End:
    """One end of a clean in-test cable (bytes in order); `tap(data)` may change what is written."""

    def __init__(self):
        self.q = bytearray()
        self.peer = None
        self.tap = None
        self.log = None           # a list: every write kept, as written (a recording to replay)

    def write(self, data):
        data = bytes(data)
        if self.log is not None:
            self.log.append(data)
        if self.tap is not None:
            data = self.tap(data)
        self.peer.q.extend(data)
        return len(data)

    def read(self):
        out, self.q = self.q, bytearray()
        return bytes(out) if out else None


def _wire():
    a = _End()
    b = _End()
    a.peer = b
    b.peer = a
    return a, b


class _Script:
    """The other device, frame by frame: says what the test makes it say, keeps what it hears."""

    def __init__(self, end, nonce):
        self.end = end
        self.fr = frame.Framer()
        self.nonce = nonce
        self.other = 0            # the session's nonce, from its hellos
        self.heard = []           # (kind, flags, count, body, keyed)
        self.answer = None        # called on a hello that does not echo this device (a reply)

    def pump(self):
        data = self.end.read()
        if data:
            self.fr.feed(data, len(data), self._got)

    def _got(self, buf, n, keyed):
        if buf[0] == ls.K_HELLO and not keyed and n >= 22:
            self.other = frame.u32(buf, 8)
            self.fr.set_key(self.nonce, self.other)
            if self.answer is not None and frame.u32(buf, 18) != self.nonce:
                self.answer()
        self.heard.append((buf[0], buf[1], buf[2] | buf[3] << 8, bytes(buf[4:n]), keyed))

    def hello(self, want=ls.WANT_HOST, gid=0, moves=0, echo=None, paired=True, proto=ls.PROTO,
              nonce=None):
        b = bytearray(18)
        b[0] = 0x50
        b[1] = 0x44
        b[2] = proto
        b[3] = (1 if paired else 0) | want << 1
        frame.put32(b, 4, self.nonce if nonce is None else nonce)
        frame.put32(b, 8, gid)
        b[12] = moves & 255
        b[13] = moves >> 8
        frame.put32(b, 14, self.other if echo is None else echo)
        self.end.write(self.fr.build(ls.K_HELLO, 0, 0, b, 18, False))

    def send(self, kind, count, body, flags=0):
        self.end.write(self.fr.build(kind, flags, count, body, len(body)))

    def setup(self, gid, seed, text, count=0, replaces=0):
        b = bytearray(9)
        frame.put32(b, 0, gid)
        frame.put32(b, 4, seed)
        b[8] = replaces
        self.send(ls.K_SETUP, count, bytes(b) + text.encode())

    def move(self, gid, k, mv, count):
        b = bytearray(8)
        frame.put32(b, 0, gid)
        b[4] = k & 255
        b[5] = k >> 8
        b[6] = mv & 255
        b[7] = mv >> 8
        self.send(ls.K_MOVE, count, b)

    def state(self, gid, count, digest, flags=2):     # 2: its digest known
        b = bytearray(6)
        frame.put32(b, 0, gid)
        b[4] = digest & 255
        b[5] = digest >> 8
        self.send(ls.K_STATE, count, b, flags)

    def fails(self):
        return [(b[0], b[1] | b[2] << 8) for k, f, c, b, keyed in self.heard if k == ls.K_FAIL and keyed]


class _Clock:
    def __init__(self):
        self.now = 0


def _guest_meets(seed, text="fives 2 0 - HG", gid=777, deal=5):
    """A real guest session and a scripted host that meet and set up `text`."""
    a, b = _wire()
    r = Rng(seed + 1)
    g = ls.Session(a, ls.WANT_JOIN, r.next)
    sc = _Script(b, (r.next() | 1) & 0x3FFFFFFF)
    c = _Clock()
    _run(c, (g,), sc, lambda: g.paired, 2000, lambda: sc.hello() if sc.other else None)
    sc.setup(gid, deal, text)
    _run(c, (g,), sc, lambda: g.match is not None or g.state == ls.FAILED, 1000)
    return g, sc, c


def _run(c, sessions, sc, until, limit, each=None, movers=None):
    """Poll the sessions (and pump the script) in STEP ms steps until until() or `limit` ms."""
    end = c.now + limit
    while c.now < end:
        for s in sessions:
            s.poll(c.now)
            if movers is not None and s.to_move() >= 0:
                rd = s.match.round
                s.play(rd.buf[movers.below(rd.legal())])
        if sc is not None:
            sc.pump()
        if each is not None:
            each()
        if until():
            return True
        c.now += STEP
    return until()


def _match(text, seed):
    vid, players, teams, _opts, _own = text.split(" ")
    m = Match(Rules(vid, int(players), teams == "1"), seed)
    m.start_round()
    lockstep.run_forced(m)
    return m


def _failed_alike(s, sc, code, k):
    """The session stopped with refusal `code` at move k, and the other device was told."""
    assert s.state == ls.FAILED, s.message
    assert s.message == TEXTS[code].format(k), s.message
    assert (code, k) in sc.fails(), sc.fails()


# --- the cases -----------------------------------------------------------------------------------
def _wrong_seat(seed):
    """The host sends a move for the guest's own seat: refused, both told; the guest's hand stays
    its own seat's."""
    g, sc, c = _guest_meets(seed)
    assert g.state == ls.PLAYING and g.my_seat() == 1
    m = _match("fives 2 0 - HG", 5)
    k = 0
    while m.round.turn != 1:          # the host's moves, until the guest's seat is to move
        rd = m.round
        mv = rd.buf[0] if rd.legal() else 0
        sc.move(777, k, mv, k + 1)
        m.play(mv)
        lockstep.advance(m)
        k += 1
        _run(c, (g,), sc, lambda: g.mine == k, 500)
    rd = m.round
    rd.legal()
    sc.move(777, k, rd.buf[0], k + 1)            # the guest's tile, played by the host
    assert _run(c, (g,), sc, lambda: g.state == ls.FAILED, 1000)
    assert g.mine == k
    _failed_alike(g, sc, su.R_ILLEGAL, k + 1)


def _bad_owners(seed):
    """Seat owners this version cannot seat (a device twice, none, unknown letters, the wrong
    length), and set-ups it cannot play: the plain "update both", the host told."""
    cases = ["fives 2 0 - GG", "fives 2 0 - HH", "fives 2 0 - G", "fives 2 0 - Gx", "fives 2 0 - ",
             "goat 4 1 - HG", "goat 4 1 - HGhx", "goat 4 1 - HGGh", "fives 2 0 - HGe",
             "nosuch 2 0 - HG", "fives 2 0 bad HG", "fives 9 0 - HG", "fives 2 0 - HG extra", "fives"]
    c = cases[seed % len(cases)] if RUNS > 1 else None
    for text in ([c] if c else cases):
        g, sc, _c = _guest_meets(seed, text)
        assert g.match is None
        _failed_alike(g, sc, su.R_UNKNOWN, 0)
    g, sc, _c = _guest_meets(seed, "goat 4 1 - HhGm")   # and one it can: seated at its own seat
    assert g.state == ls.PLAYING and g.my_seat() == 2 and g.is_mine(2) and not g.is_mine(3)


def _versions(seed):
    """Another protocol version's hello: one plain message; the other device hears this one's
    version in answer (v1's hello, 14 bytes, too)."""
    for proto in (ls.PROTO + 1, 1):
        a, b = _wire()
        g = ls.Session(a, ls.WANT_JOIN, Rng(seed + 3).next)
        sc = _Script(b, 99)
        sc.hello(proto=proto, paired=False)
        c = _Clock()
        _run(c, (g,), sc, lambda: g.state == ls.FAILED, 500)
        assert g.message == "Link v%d there, v%d here: update both" % (proto, ls.PROTO)
        assert any(k == ls.K_HELLO and body[2] == ls.PROTO for k, f, n, body, keyed in sc.heard)


class _Pair:
    """Two real sessions on the in-test cable, each moving at random when it may."""

    def __init__(self, seed, text="fives 2 0 HG"):
        vid, players, teams, owners = text.split(" ")
        self.a, self.b = _wire()
        r = Rng(seed * 7 + 1)
        self.r = r
        self.rules = Rules(vid, int(players), teams == "1")
        self.owners = owners
        self.host = ls.Session(self.a, ls.WANT_HOST, r.next)
        self.host.host_game(self.rules, owners, seed + 11)
        self.guest = ls.Session(self.b, ls.WANT_JOIN, r.next)
        self.c = _Clock()
        self.movers = Rng(seed + 5)

    def run(self, until, limit, each=None):
        return _run(self.c, (self.host, self.guest), None, until, limit, each, self.movers)

    def run_until_host_moves(self, k):
        """Play until the host has k moves and its own seat is to move (not played)."""
        h = self.host
        while not (h.mine >= k and h.to_move() >= 0):
            assert self.c.now < 600000
            g = self.guest
            g.poll(self.c.now)
            if g.to_move() >= 0:
                rd = g.match.round
                g.play(rd.buf[self.movers.below(rd.legal())])
            h.poll(self.c.now)
            if h.to_move() >= 0 and h.mine < k:
                rd = h.match.round
                h.play(rd.buf[self.movers.below(rd.legal())])
            self.c.now += STEP

    def ended_alike(self, limit=900000):
        h, g = self.host, self.guest
        assert self.run(lambda: h.match is not None and g.match is not None and h.match.over and
                        g.match.over and h.mine == g.mine or h.state == ls.FAILED or
                        g.state == ls.FAILED, limit), (h.mine, g.mine, h.message, g.message)
        assert h.state != ls.FAILED and g.state != ls.FAILED, (h.message, g.message)
        assert h.match.scores == g.match.scores and h.digest == g.digest
        for k in range(h.mine):
            assert lockstep.move_at(h.match, k) == lockstep.move_at(g.match, k), k

    def forger(self):
        """A device on the guest's line that knows both nonces (it heard both hellos)."""
        sc = _Script(_End(), self.host.nonce)
        sc.end.peer = _End()
        sc.end.peer.q = self.b.q          # what it writes arrives at the guest
        sc.other = self.guest.nonce
        sc.fr.set_key(self.host.nonce, self.guest.nonce)
        return sc


def _forged_ahead(seed):
    """A MOVE one ahead, keyed right, then the match: nothing taken that the host did not send, and
    the host is never made to believe a move arrived (both end alike)."""
    p = _Pair(seed)
    h, g = p.host, p.guest
    p.run(lambda: h.mine >= 4 and g.mine == h.mine, 60000)
    sc = p.forger()
    for k in (g.mine + 1, g.mine + 2, 65535):
        sc.move(h.gid, k, 0x0101, k + 1)
    p.ended_alike()


def _forged_move(seed):
    """A forged move for the host's seat that the host never made, taken by the guest before the
    host moves: the host makes its own; unless it is the same tile, the two states' digests
    differ and both stop with the same message."""
    p = _Pair(seed)
    h, g = p.host, p.guest
    hit = []

    def forge():
        gm = g.match
        if hit or gm is None or h.match is None or g.mine != h.mine + 1 or g.mine < 2 or \
                gm.round_over() or gm.round.turn != 0:
            return
        rd = gm.round
        n = rd.legal()
        if n >= 2:
            hit.append(g.mine)
            p.forger().move(h.gid, g.mine, rd.buf[n - 1], g.mine + 1)
            g.poll(p.c.now)           # taken before the host has the guest's move
            assert g.mine == hit[0] + 1
    p.run(lambda: h.state == ls.FAILED and g.state == ls.FAILED or
          h.match is not None and g.match is not None and h.match.over and g.match.over and
          h.mine == g.mine, 900000, forge)
    assert hit
    if h.state == ls.FAILED or g.state == ls.FAILED:
        assert h.state == g.state == ls.FAILED and h.message == g.message, (h.message, g.message)
        assert "differ" in h.message or "not legal" in h.message, h.message
        return _count("forged: both stopped")
    assert h.match.scores == g.match.scores          # the host chose the forged tile itself
    for k in range(h.mine):
        assert lockstep.move_at(h.match, k) == lockstep.move_at(g.match, k), k
    _count("forged: the host's own choice")


SEEN = {}


def _count(what):
    SEEN[what] = SEEN.get(what, 0) + 1


def _replayed(seed):
    """A recorded host stream replayed to a fresh guest: nothing adopted, the guest keeps waiting for
    a host (and says so), no exception; replayed into the live match: nothing changes."""
    p = _Pair(seed)
    h, g = p.host, p.guest
    p.a.log = []
    p.run(lambda: h.mine >= 6 and g.mine == h.mine, 60000)
    rec = b"".join(p.a.log)
    p.a.log = None
    a, b = _wire()
    fresh = ls.Session(a, ls.WANT_JOIN, Rng(seed + 9).next)
    c = _Clock()
    a.q.extend(rec)
    def replay():
        a.q.extend(rec[:200])
        b.q = bytearray()         # (what the fresh guest says goes nowhere)
    _run(c, (fresh,), None, lambda: False, 3000, replay)
    assert fresh.match is None and fresh.state != ls.PLAYING
    p.b.q.extend(rec)                 # the live guest hears the host's past again
    p.ended_alike()


def _reordered(seed):
    """Frames held back and written after later ones, some twice, on both lines: the match ends
    alike."""
    p = _Pair(seed)
    r = Rng(seed + 21)

    def tap_of(held):
        def tap(data):
            if r.below(6) == 0:
                held.append(data)
                return b""
            if held and r.below(3) == 0:
                data = data + held.pop(0) + (held.pop() if held and r.below(2) else b"")
            return data
        return tap
    p.a.tap = tap_of([])
    p.b.tap = tap_of([])
    p.ended_alike()


def _loopback(seed):
    """Each device's own frames come back to it besides the other's (crosstalk, a loopback): never
    taken for the other's; the match ends alike."""
    p = _Pair(seed)
    for end in (p.a, p.b):
        def tap(data, end=end):
            end.q.extend(data)
            return data
        end.tap = tap
    p.ended_alike()


def _previous_life(seed):
    """Both devices restart one move back while the host's last move is still on the wire: that
    frame (its previous life's) is dropped, the host makes the move again, no fork."""
    p = _Pair(seed)
    h, g = p.host, p.guest
    p.run_until_host_moves(3)
    k = h.mine
    h.play(h.match.round.buf[0] if h.match.round.legal() else 0)   # on the wire now
    old = bytes(p.b.q)
    p.b.q = bytearray()
    hm = _replay(h, k)
    gm = _replay(g, k)
    r = p.r
    p.host = ls.Session(p.a, 0, r.next, None, (hm, ls.link_extra(True, h.gid, h.owners)))
    p.guest = ls.Session(p.b, 0, r.next, None, (gm, ls.link_extra(False, g.gid, g.owners)))
    p.b.q.extend(old)                 # the move of the host's previous life reaches the new guest
    assert _run(p.c, (p.guest,), None, lambda: p.guest.ch.fr.bad > 0, 100)
    assert p.guest.mine == k          # ... and is dropped (keyed with the previous nonce)
    p.ended_alike()


def _replay(s, k):
    """The session's match as its save k moves in holds it (a restart one move back)."""
    m = Match(s.match.rules, s.match.seed)
    m.start_round()
    lockstep.run_forced(m)
    for i in range(k):
        m.play(lockstep.move_at(s.match, i))
        if lockstep.advance(m):
            lockstep.turn_round(m)
    return m


def _hello_flood(seed):
    """Hellos with new nonces, each echoing the guest (as a phantom that heard it would), then
    silence: the guest meets its real host again and the match ends alike."""
    p = _Pair(seed)
    h, g = p.host, p.guest
    p.run(lambda: h.mine >= 3 and g.mine == h.mine, 60000)
    sc = p.forger()
    r = Rng(seed + 31)
    for i in range(60):
        sc.hello(nonce=r.next() | 1, echo=g.nonce, moves=r.below(65536), gid=r.next())
        p.run(lambda: False, 10)
    p.ended_alike()


def _absurd_count(seed):
    """A host that claims 65,535 moves and sends none: the guest says it waits, and in bounded time
    stops with the plain message, which the host hears too. A claim in a hello of the real host's
    nonce is corrected by the host's next state frame: the match goes on."""
    g, sc, c = _guest_meets(seed)
    sc.answer = lambda: sc.hello(gid=777, moves=65535)
    sc.hello(gid=777, moves=65535)
    for _ in range(int(STUCK_MS / 100)):
        sc.state(777, 65535, 0, 0)
        if _run(c, (g,), sc, lambda: g.state == ls.FAILED, 100):
            break
    assert g.state == ls.FAILED and g.to_move() < 0
    _failed_alike(g, sc, su.R_STUCK, 0)
    p = _Pair(seed)
    h, gg = p.host, p.guest
    p.run(lambda: h.mine >= 2 and gg.mine == h.mine, 60000)
    f = p.forger()
    f.hello(nonce=h.nonce, echo=gg.nonce, gid=h.gid, moves=65535)
    p.ended_alike()


def _silent_mid_frame(seed):
    """The other device goes silent half-way through a frame: the cable reads as out (the screens
    say so), nothing fails; it speaks again and the match ends alike."""
    p = _Pair(seed)
    h, g = p.host, p.guest
    p.run(lambda: h.mine >= 3 and g.mine == h.mine, 60000)
    cut = [True]

    def tap(data):
        if cut[0]:
            cut[0] = False
            return data[:len(data) // 2]
        return b"" if p.c.now < until else data
    until = p.c.now + 4000
    p.a.tap = tap
    p.run(lambda: not g.up(), 3000)
    assert not g.up() and g.state == ls.PLAYING
    p.ended_alike()


def _new_game(seed):
    """The host leaves and starts a new game while the guest sits at the old one: the guest's old
    game ends with "The host started a new game" (its match kept: the save is not touched), the
    host says the other device must leave its game; the guest joins and the new match ends alike."""
    p = _Pair(seed)
    h, g = p.host, p.guest
    p.run(lambda: h.mine >= 4 and g.mine == h.mine, 60000)
    old = g.match
    n = g.mine
    r = p.r
    p.host = h = ls.Session(p.a, ls.WANT_HOST, r.next)
    h.host_game(Rules("fives", 2), "HG", seed + 77)
    _run(p.c, (h, g), None, lambda: g.state == ls.FAILED, 3000)
    assert g.message == "The host started a new game" and g.match is old and g.mine == n
    _run(p.c, (h, g), None, lambda: h.message is not None and "leave" in h.message, 2000)
    assert h.message == "The other device must leave its game and join", h.message
    p.guest = ls.Session(p.b, ls.WANT_JOIN, r.next)
    p.ended_alike()


def _new_game_by_the_guest(seed):
    """The guest's person leaves and hosts a new game while the host still sits at the old one (its
    session alive, or resumed from its save): the new game hosts, the old one ends on the old host
    with the same message; it joins and the new match ends alike."""
    for resumed in (False, True):
        p = _Pair(seed)
        h, g = p.host, p.guest
        p.run(lambda: h.mine >= 4 and g.mine == h.mine, 60000)
        old = h.match
        r = p.r
        if resumed:
            h = ls.Session(p.a, 0, r.next, None, (_replay(h, h.mine), ls.link_extra(True, h.gid, h.owners)))
            old = h.match
        g = ls.Session(p.b, ls.WANT_HOST, r.next)
        g.host_game(Rules("fives", 2), "HG", seed + 78)
        _run(p.c, (h, g), None, lambda: h.state == ls.FAILED, 3000)
        assert h.message == "The host started a new game" and h.match is old, h.message
        assert g.hosting and g.message == "The other device must leave its game and join", g.message
        p.host = g                    # (the new host)
        p.guest = ls.Session(p.a, ls.WANT_JOIN, r.next)
        p.ended_alike()


def _illegal_and_digest(seed):
    """An illegal move of the host's own seat, and a state frame whose digest is not this device's:
    each time the guest stops with the plain message and the host is told the same."""
    g, sc, c = _guest_meets(seed)
    sc.move(777, 0, 0x7777, 1)
    _run(c, (g,), sc, lambda: g.state == ls.FAILED, 500)
    _failed_alike(g, sc, su.R_ILLEGAL, 1)
    g, sc, c = _guest_meets(seed)
    m = _match("fives 2 0 - HG", 5)
    rd = m.round
    rd.legal()
    if rd.turn == 1:
        return
    sc.move(777, 0, rd.buf[0], 1)
    _run(c, (g,), sc, lambda: g.mine == 1, 500)
    sc.state(777, 1, g.digest ^ 0x5A5A)
    _run(c, (g,), sc, lambda: g.state == ls.FAILED, 500)
    _failed_alike(g, sc, su.R_DIFFER, 1)


def _another_session(seed):
    """Frames keyed for another pair of devices and a move of another game: dropped, not taken."""
    g, sc, c = _guest_meets(seed)
    other = _Script(_End(), 4242)
    other.end = sc.end
    other.fr.set_key(4242, 999)
    other.move(777, 0, 0x0101, 1)
    sc.move(778, 0, 0x0101, 1)
    _run(c, (g,), sc, lambda: False, 500)
    assert g.mine == 0 and g.state == ls.PLAYING


CASES = (_wrong_seat, _bad_owners, _versions, _forged_ahead, _forged_move, _replayed, _reordered,
         _loopback, _previous_life, _hello_flood, _absurd_count, _silent_mid_frame, _new_game,
         _new_game_by_the_guest, _illegal_and_digest, _another_session)


def _each(case):
    for seed in range(RUNS):
        case(seed)


def test_wrong_seat():
    _each(_wrong_seat)


def test_bad_owners_and_setups():
    _each(_bad_owners)


def test_versions():
    _each(_versions)


def test_forged_ahead():
    _each(_forged_ahead)


def test_forged_move():
    _each(_forged_move)


def test_replayed():
    _each(_replayed)


def test_reordered():
    _each(_reordered)


def test_loopback():
    _each(_loopback)


def test_previous_life():
    _each(_previous_life)


def test_hello_flood():
    _each(_hello_flood)


def test_absurd_count():
    _each(_absurd_count)


def test_silent_mid_frame():
    _each(_silent_mid_frame)


def test_new_game():
    _each(_new_game)


def test_new_game_by_the_guest():
    _each(_new_game_by_the_guest)


def test_illegal_and_digest():
    _each(_illegal_and_digest)


def test_another_session():
    _each(_another_session)
