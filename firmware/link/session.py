"""The link session: hello and version check, who hosts, the set-up (those in link/setup.py, loaded
only while the devices meet), the moves, the resync.

Both devices hold the whole match and play it in lockstep from one deal seed (docs/LINK.md says
why). A move is sent by the device that owns the seat to move (its human, or for an AI seat the
host) with a digest of the state after it; the other checks it is legal, plays it and compares.
What each side must send is worked out from what the other is known to have (`peer_gid`,
`peer_has`), never from a queue: after a cut, a restart or a lost save, whoever has more moves
sends the ones the other lacks, one frame in flight, so no buffer grows with the match.

Seats are owned by a string, one letter a seat: `H` the host's person, `G` the guest's, `e`/`m`/`h`
an AI seat (easy, medium, hard) played by the host. A save keeps it (`link_extra`) and a restarted
device builds its session again from its own save (`Session(..., resume=...)`).

The listener (duck-typed, any method may be missing) hears: `started(session)` a game set up (new
or adopted from the host), `moving(session, seat, move, local)` just before a move is played (the
screen describes it on the table as it stands), `moved(session, seat, move, local)` after the move
and the draws and passes it forced (the round may have ended: then `turned(session)` follows once
the next one is dealt).

`hold`: the screens, not the session, turn a round (the round-end pages wait for the person's A):
a round's end is left as it is, and a move of the next round that comes before this device has
dealt it is refused for the moment (not acknowledged: the other side sends it again until it is
taken). Both devices must agree on it (the digest of a round's last move is then the state before
the next deal): the firmware's link game holds, the PC's self-play turns rounds itself.
"""
import sys
from .channel import Channel, K_ACK, ticks_diff
from .frame import BODY_MAX
from . import lockstep, tr

try:
    from micropython import const
except ImportError:  # CPython
    def const(x):
        return x

PROTO = const(1)              # the protocol's version: both sides must have the same
K_HELLO = const(0x01)         # unsequenced
K_SETUP = const(0x03)         # sequenced (the channel adds its bit)
K_MOVE = const(0x04)
_HELLO_MS = const(300)
_MASK30 = const(0x3FFFFFFF)

WANT_HOST = const(1)
WANT_JOIN = const(2)

# states
WAITING = const(0)            # no hello from the other device yet
READY = const(1)              # talking; no game yet (the guest waits for the host's set-up)
PLAYING = const(2)
FAILED = const(3)             # stopped with a message (versions, a disagreement)


def rand30():
    """A random 30-bit int from the device's random source (nonces, game ids)."""
    import os
    r = os.urandom(4)
    return r[0] | r[1] << 8 | r[2] << 16 | (r[3] & 0x3F) << 24


def link_extra(host, gid, owners):
    """The save's `link` header value: `H` or `G`, the game id, the seat owners: `H-12345-HhGh`."""
    return ("H" if host else "G") + "-" + str(gid) + "-" + owners


def _drop_setup():
    """Forget link/setup.py (its bytes back to the heap during a match; a hello loads it again)."""
    if "link.setup" in sys.modules:
        del sys.modules["link.setup"]
        pkg = sys.modules.get("link")
        if pkg is not None and "setup" in pkg.__dict__:
            delattr(pkg, "setup")


class LinkError(ValueError):
    pass


class Session:
    def __init__(self, port, want, rand, listener=None, resume=None, hold=False):
        """want: WANT_HOST or WANT_JOIN; rand(): a random 30-bit int (os.urandom on the device);
        resume: (match, link extra) of a game resumed from this device's save; hold: see above."""
        self.ch = Channel(port, self._frame)
        self.hold = hold
        self.rand = rand
        self.listener = listener
        self.body = bytearray(BODY_MAX)
        self.nonce = rand() & _MASK30
        self.ch.epoch = self.nonce & 255
        self.want = want
        self.state = WAITING
        self.message = tr("Waiting for the other device")
        self.peer_nonce = -1
        self.peer_gid = -1        # the game the peer has (0: none; -1: not known yet)
        self.peer_has = 0         # moves of our game the peer is known to have
        self.peer_want = 0
        self.hosting = want == WANT_HOST
        self.demoted = False      # both wanted to host and the other does
        self.match = None
        self.gid = 0
        self.owners = ""
        self.mine = 0             # moves in our match
        self.digest = 0           # of the state after them
        self.digest_ok = False    # ... known: false for a save's state (a held round may be dealt)
        self.setup_text = ""
        self.plan = None          # the host's game before the guest is there: (rules, owners, seed)
        self.hello_at = -_HELLO_MS
        self.resyncs = 0          # peers met again with a game in common (a restart, a cut)
        if resume is not None:
            match, extra = resume
            try:
                role, gid, owners = extra.split("-")
                gid = int(gid)
            except ValueError:
                raise LinkError("not a link game's save")
            if role not in ("H", "G") or len(owners) != match.rules.players:
                raise LinkError("not a link game's save")
            self.hosting = role == "H"
            self.want = WANT_HOST if self.hosting else WANT_JOIN
            if not hold:
                lockstep.resume(match)
            self._adopt(match, gid, owners)

    # --- what the screens ask ------------------------------------------------------------------
    def up(self):
        return self.ch.up()

    def host_game(self, rules, owners, seed=None):
        """The host's set-up: `owners` one letter a seat (H, G, e, m, h); seed None: drawn from both
        devices' nonces when the guest is there (neither device picks the deal alone)."""
        if len(owners) != rules.players or owners.count("H") != 1 or owners.count("G") != 1:
            raise LinkError("one seat for each device's player")
        self.plan = (rules, owners, seed)
        self.hosting = True
        self.want = WANT_HOST

    def is_mine(self, seat):
        """The seat is played on this device (its person, or an AI seat on the host)."""
        o = self.owners[seat]
        return o == "G" if not self.hosting else o != "G"

    def owes(self):
        """The other device lacks moves of this device's game (or the game itself): a match over here
        is handed over before its save goes (ui/nav.py handed)."""
        return (self.match is not None and self.state != FAILED and
                (self.peer_gid != self.gid or self.peer_has < self.mine))

    def my_seat(self):
        return self.owners.index("H" if self.hosting else "G")

    def to_move(self):
        """The seat to move when this device must play it, else -1 (the other's turn, no game)."""
        m = self.match
        if self.state != PLAYING or m is None or m.over or m.round_over():
            return -1
        if self.peer_gid == self.gid and self.peer_has > self.mine:
            return -1             # the other has moves we lack (we restarted): take them first
        s = m.round.turn
        return s if self.is_mine(s) else -1

    def play(self, move):
        """A move of this device's seat to move (legal: the caller took it from round.legal())."""
        s = self.to_move()
        m = self.match
        if s < 0 or m is None or not m.round.is_legal(move):
            raise LinkError("not this device's move")
        self._apply(m, s, move, True)

    # --- driving -------------------------------------------------------------------------------
    def poll(self, now):
        """Call often (every frame, every AI tick): reads the cable, sends, resends."""
        ch = self.ch
        ch.poll(now)
        if self.state == FAILED:
            return
        if self.state == WAITING:
            if ch.up():
                self.message = tr("Waiting for the other device's answer")
            if ticks_diff(now, self.hello_at) >= _HELLO_MS:
                self._setup().hello(self, False)
                self.hello_at = now
            return
        plan = self.plan
        if self.hosting and self.match is None and plan is not None:
            self._setup().new_game(self, plan)
        self._send_next()
        if self.state == PLAYING and self.peer_gid == self.gid:
            _drop_setup()             # both play the same game: the meeting's code goes

    def _send_next(self):
        """What the other device lacks, once the cable is free: our game's set-up (the host), else
        the next move it does not have."""
        if self.ch.busy() or self.match is None:
            return
        if self.peer_gid != self.gid:
            if self.hosting:
                self._setup().send_setup(self, self.match)
        elif self.peer_has < self.mine:
            self._send_move(self.peer_has)

    # --- frames --------------------------------------------------------------------------------
    def _setup(self):
        """link/setup.py: hellos and the game's set-up, loaded while the devices meet (see poll)."""
        from . import setup
        return setup

    def _frame(self, kind, buf, i, n):
        """A frame's body; False refuses a sequenced one for now (see hold)."""
        if kind == K_HELLO:
            self._setup().on_hello(self, buf, i, n)
        elif kind == K_ACK:
            k = self.ch.acked_kind
            if k == K_MOVE:
                if self.peer_has < self.mine:
                    self.peer_has += 1
            elif k == K_SETUP:
                self.peer_gid = self.gid
                self.peer_has = 0
        elif self.state == FAILED:
            return
        elif kind == K_MOVE:
            return self._on_move(buf, i, n)
        elif kind == K_SETUP:
            self._setup().on_setup(self, buf, i, n)

    def _fail(self, text):
        self.state = FAILED
        self.message = text

    # --- the game ------------------------------------------------------------------------------
    def _adopt(self, match, gid, owners):
        self.match = match
        self.gid = gid
        self.owners = owners
        self.mine = lockstep.count(match)
        self.digest = lockstep.digest(match)
        self.digest_ok = not self.hold
        r = match.rules
        self.setup_text = r.vid + " " + str(r.players) + " " + str(int(r.teams)) + " " + \
            (r.options_text() or "-") + " " + owners
        if self.state == READY:
            self.state = PLAYING

    def _started(self):
        self.message = None
        if self.state != WAITING:
            self.state = PLAYING
        lst = self.listener
        if lst is not None and hasattr(lst, "started"):
            lst.started(self)

    def _push(self):
        """This device's move just played goes out at once when the cable is free and the other
        device has every move before it: it then shows on the other screen while this one is still
        drawing and saving it (what poll would send after them). Safe against a power cut before
        the save: the other device keeps the move and sends it back when this one, restarted from
        its save a move behind, says how far it got (docs/LINK.md, "A restart")."""
        if self.peer_gid == self.gid and self.peer_has == self.mine - 1:
            self._send_next()

    def _send_move(self, k):
        b = self.body
        mv = lockstep.move_at(self.match, k)
        b[0] = k & 255
        b[1] = k >> 8
        b[2] = mv & 255
        b[3] = mv >> 8
        if k == self.mine - 1 and self.digest_ok:   # the latest move: the state after it is ours
            d = self.digest
            b[4] = 1
        else:                                 # an older one (a resync): its digest is gone
            d = 0
            b[4] = 0
        b[5] = d & 255
        b[6] = d >> 8
        self.ch.send(K_MOVE, b, 7)

    def _on_move(self, buf, i, n):
        m = self.match
        if m is None or n < 7:
            return
        k = buf[i] | buf[i + 1] << 8
        if k != self.mine:
            if k > self.mine:
                self._setup().hello(self, True)   # a gap: tell the peer how many we have
            return                            # (k < mine: one we have, resent after a restart)
        mv = buf[i + 2] | buf[i + 3] << 8
        if self.hold and m.round_over() and not m.over:
            return False                      # the next round's: taken once this device dealt it
        lockstep.run_forced(m)                # (a round dealt here whose forced draws wait to be shown)
        s = m.round.turn          # (our own seat too: our move the other kept when we lost it)
        if m.over or m.round_over() or not m.round.is_legal(mv):
            self._fail(tr("Move {0} is not legal here: update both").format(k + 1))
            return
        self._apply(m, s, mv, False)
        if buf[i + 4] and self.digest != buf[i + 5] | buf[i + 6] << 8:
            self._fail(tr("The games differ at move {0}: update both").format(k + 1))
            return
        if self.peer_has < self.mine:
            self.peer_has = self.mine

    def _apply(self, m, seat, mv, local):
        lst = self.listener
        if lst is not None and hasattr(lst, "moving"):
            lst.moving(self, seat, mv, local)
        m.play(mv)
        self.mine += 1
        ended = lockstep.advance(m)
        self.digest = lockstep.digest(m)
        self.digest_ok = True
        if local and (self.hold or not ended):
            self._push()                      # on the wire before this screen draws and saves it
        if lst is not None and hasattr(lst, "moved"):
            lst.moved(self, seat, mv, local)
        if ended and not self.hold:
            lockstep.turn_round(m)
            self.digest = lockstep.digest(m)
            if lst is not None and hasattr(lst, "turned"):
                lst.turned(self)
