"""The link session: the two devices meet (hellos, the version, who hosts, the set-up: those in
link/setup.py, loaded only while the devices meet), then the moves, the resync, the refusals.

Both devices hold the whole match and play it in lockstep from one deal seed (docs/LINK.md says
why). Each move has one author: the device that owns the seat to move (its person, or for an AI
seat the host). The other device plays a move only if it is the next one, legal, and for a seat it
does not own (its own seat only for a move it may have made and lost to a power cut: `lost`).
What each side must send is worked out from what the other says it has (`peer_gid`, `peer_has`:
every frame carries its sender's move count, and a state frame answers every move), never from
a queue, and a frame delivered twice changes nothing.

No fork: a device moves only once it has heard the other's count from after the other knew this
device's nonce (`fresh`: a frame keyed with both nonces, or a hello echoing this device's). Frames
from before either device's restart are keyed with another nonce and fail their CRC. So a move a
device made and lost in its previous life is either with the other device (which sends it back)
or nowhere; it is never in the match twice, once each way.

No wait without an end: while the cable is in and the session waits on the other device (to meet,
for moves it announced, for its set-up, for it to take ours) with nothing changing for WAIT_MS,
the session meets it again as a restarted device would (link/setup.py `renew`); after _TRIES of those it stops
with a message. A refusal (an illegal move, digests that differ, a set-up this firmware cannot
play) is sent to the other device (FAIL), which stops with the same words.

Seats are owned by a string, one letter a seat: `H` the host's person, `G` the guest's, `e`/`m`/`h`
an AI seat (easy, medium, hard) played by the host; exactly one H and one G (link/setup.py
`owners_ok`). A save
keeps it (`link_extra`) and a restarted device builds its session again from its own save
(`Session(..., resume=...)`).

The listener (duck-typed, any method may be missing) hears: `started(session)` a game set up (new
or adopted from the host), `moving(session, seat, move, local)` just before a move is played (the
screen describes it on the table as it stands), `moved(session, seat, move, local)` after the move
and the draws and passes it forced (the round may have ended: then `turned(session)` follows once
the next one is dealt).

`hold`: the screens, not the session, make what follows a move (as on a table of one device): the
draws and passes it forces, one at a time with the table's pause, and a round's end (the
round-end pages wait for the person's A). A move of the other device that comes before this
device's screens have shown what comes before it waits (the other side sends it again until it is
taken; this device's state frames say it holds, so that wait is not a stall). Both devices must
agree on it (the digest of a move is then the state right after it, before what it forces): the
firmware's link game holds, the PC's self-play makes the draws and turns rounds itself.
"""
import sys
from .channel import Channel, ticks_diff
from .frame import BODY_MAX, u32 as _u32, put32 as _put32
from . import lockstep, tr

try:
    from micropython import const
except ImportError:  # CPython
    def const(x):
        return x

PROTO = const(2)              # the protocol's version: both sides must have the same
K_HELLO = const(0x01)         # the one frame with the plain CRC: anyone can read it
K_STATE = const(0x02)         # what this device has: its game, its digest (keep-alive, answer)
K_SETUP = const(0x83)
K_MOVE = const(0x84)
K_FAIL = const(0x05)          # a refusal: both devices stop with the same message
_F_HELD = const(1)            # state flags: this device holds a round's end (see hold)
_F_DOK = const(2)             # ... its digest is known
_HELLO_MS = const(300)
WAIT_MS = const(5000)         # a wait on the other device that long without progress: meet again
_TRIES = const(3)             # meetings again without progress before the session says so
_MASK30 = const(0x3FFFFFFF)

WANT_HOST = const(1)
WANT_JOIN = const(2)

# states
WAITING = const(0)            # no hello from the other device yet
READY = const(1)              # talking; no game yet (the guest waits for the host's set-up)
PLAYING = const(2)
FAILED = const(3)             # stopped with a message (versions, a refusal, a new game)

_R_ILLEGAL = const(1)         # = link.setup.R_ILLEGAL (the refusals: link/setup.py fail)
_R_DIFFER = const(2)          # = link.setup.R_DIFFER
_R_STUCK = const(4)           # = link.setup.R_STUCK


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
        self.nonce = 1
        self.want = want
        self.state = WAITING
        self.message = tr("Waiting for the other device")
        self.peer_nonce = -1
        self.paired = False       # the other's hello echoed this device's nonce (and still speaks)
        self.fresh = False        # its count heard from after it knew this device's nonce
        self.peer_gid = -1        # the game the peer has (0: none; -1: not known yet)
        self.peer_has = 0         # moves of our game the peer is known to have
        self.peer_want = 0
        self.peer_held = 0
        self.hosting = want == WANT_HOST
        self.demoted = False      # both wanted to host and the other does
        self.replaces = False     # the host's game was set up while the other held another one
        self.match = None
        self.gid = 0
        self.owners = ""
        self.mine = 0             # moves in our match
        self.digest = 0           # of the state after them
        self.digest_ok = False    # ... known: false for a save's state (a held round may be dealt)
        self.lost = 0             # moves below this number of our own seats may come from the other
        self.flying = -1          # what the frame in flight carries: move k, -2 the set-up, -1 none
        self.why = 0              # a refusal: its code << 16 | the move number (link/setup.py fail)
        self.setup_text = ""
        self.plan = None          # the host's game before the guest is there: (rules, owners, seed)
        self.hello_at = -_HELLO_MS
        self.calm = 0             # since when the session waits on the other device
        self.stalls = 0           # meetings again (renew) since the last progress
        self.resyncs = 0          # peers met again with a game in common (a restart, a cut, a stall)
        self._setup().renew(self)
        if resume is not None:
            match, extra = resume
            try:
                role, gid, owners = extra.split("-")
                gid = int(gid)
            except ValueError:
                raise LinkError("not a link game's save")
            if role not in ("H", "G") or not self._setup().owners_ok(owners, match.rules.players):
                raise LinkError("not a link game's save")
            self.hosting = role == "H"
            self.want = WANT_HOST if self.hosting else WANT_JOIN
            if not hold:
                lockstep.resume(match)
            self._adopt(match, gid, owners)
            self.lost = self.mine + 2     # the save may lack this device's last two moves

    # --- what the screens ask ------------------------------------------------------------------
    def up(self):
        return self.ch.up()

    def host_game(self, rules, owners, seed=None):
        """The host's set-up: `owners` one letter a seat (H, G, e, m, h); seed None: drawn from both
        devices' nonces when the guest is there (neither device picks the deal alone)."""
        if not self._setup().owners_ok(owners, rules.players):
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
        """The seat to move when this device must play it, else -1 (the other's turn, no game, or
        the other may hold moves this device lacks: not heard since this device's start, ahead)."""
        m = self.match
        if self.state != PLAYING or m is None or m.over or m.round_over() or not self.fresh:
            return -1
        if self.peer_gid == self.gid:
            if self.peer_has > self.mine:
                return -1         # the other has moves we lack (we restarted): take them first
        elif not self.hosting:
            return -1             # the host holds another game
        s = m.round.turn
        return s if self.is_mine(s) else -1

    def play(self, move):
        """A move of this device's seat to move (legal: the caller took it from round.legal())."""
        s = self.to_move()
        m = self.match
        if s < 0 or m is None or not m.round.is_legal(move):
            raise LinkError("not this device's move")
        self.lost = 0             # in step: every later move of our seats is ours to make
        self._apply(m, s, move, True)

    # --- driving -------------------------------------------------------------------------------
    def poll(self, now):
        """Call often (every frame, every AI tick): reads the cable, sends, resends."""
        ch = self.ch
        due = ch.poll(now)
        if self.state == FAILED:
            if due:
                self._setup().refuse(self)
            return
        if self.paired and not ch.up():
            self.paired = False   # silent: the two meet again when it speaks
        if not self.paired:
            if self.state == WAITING and ch.up():
                self.message = tr("Waiting for the other device's answer")
            if ticks_diff(now, self.hello_at) >= _HELLO_MS:
                self._setup().hello(self, False)
                self.hello_at = now
        else:
            plan = self.plan
            if self.hosting and self.match is None and plan is not None:
                self._setup().new_game(self, plan)
            self._send_next()
            if due:
                self._state()
            if self.state == PLAYING and self.peer_gid == self.gid:
                _drop_setup()     # both play the same game: the meeting's code goes
        self._watch(now)

    def _watch(self, now):
        """The end of every wait on the other device (the module's docstring)."""
        if not self.ch.up() or not self._waits():
            self.calm = now
        elif ticks_diff(now, self.calm) >= WAIT_MS:
            self.calm = now
            self.stalls += 1
            if self.stalls > _TRIES:
                self._fail(_R_STUCK, self.mine)
            else:
                self.resyncs += 1
                self._setup().renew(self)

    def _waits(self):
        """The session waits on the other device (not on a person: its turn, its round-end pages,
        a new game on the host while the guest still sits at its old one)."""
        if not self.paired:
            return True
        m = self.match
        if m is None:
            return self.peer_gid > 0 and not self.hosting     # the host's game is not coming
        if self.peer_gid != self.gid:
            return not self.hosting
        if self.peer_has > self.mine:
            return not self._held()
        return self.peer_has < self.mine and not self.peer_held

    def _held(self):
        """This device's screens have to show a round's end, or forced draws and passes, before
        the next move can be played here (hold)."""
        m = self.match
        return self.hold and m is not None and not m.over and (m.round_over() or m.round.legal() == 0)

    def _progress(self):
        self.stalls = 0
        self.calm = self.ch.now

    def _send_next(self):
        """What the other device lacks goes in flight (resent until its state says it has it): our
        game's set-up (the host), else the next move it does not have."""
        m = self.match
        if m is None:
            return
        want = -1
        if self.peer_gid != self.gid:
            if self.hosting:
                want = -2
        elif self.peer_has < self.mine:
            want = self.peer_has
        if want == self.flying:
            return
        self.flying = want
        if want == -1:
            self.ch.drop()
        elif want == -2:
            self._setup().send_setup(self, m)
        else:
            self._send_move(want)

    # --- frames --------------------------------------------------------------------------------
    def _setup(self):
        """link/setup.py: hellos and the game's set-up, loaded while the devices meet (see poll)."""
        from . import setup
        return setup

    def _frame(self, buf, n, keyed):
        """A frame (its head at buf[0]). Keyed: it is from the other device of this session, which
        knows this device's nonce: what it says it has is news."""
        kind = buf[0]
        if not keyed:
            if kind == K_HELLO:
                self._setup().on_hello(self, buf, 4, n - 4)
            return
        if kind == K_FAIL:
            if n >= 7 and self.state != FAILED:
                code = buf[4]
                self._fail(code, buf[5] | buf[6] << 8)
            return
        if self.state == FAILED:
            self._setup().refuse(self)
            return
        if n < 8:
            return
        gid = _u32(buf, 4)
        has = buf[2] | buf[3] << 8
        if gid == self.gid and self.peer_gid == gid and has > self.peer_has or gid != self.peer_gid:
            self._progress()
        self.peer_gid = gid
        self.peer_has = has
        self.fresh = True
        if kind == K_STATE:
            self.peer_held = buf[1] & _F_HELD
            if self.hosting and self.match is not None:
                self.message = tr("The other device must leave its game and join") \
                    if gid and gid != self.gid else None
            if n >= 10 and buf[1] & _F_DOK and self.digest_ok and self.match is not None and \
                    gid == self.gid and has == self.mine and buf[8] | buf[9] << 8 != self.digest:
                self._fail(_R_DIFFER, self.mine)
            return
        if kind == K_MOVE:
            if n >= 12:
                self._on_move(buf)
        elif kind == K_SETUP:
            self._setup().on_setup(self, buf, n)
        if self.state != FAILED:
            self._state()         # what this device has now: the other stops resending

    def _state(self):
        """The state frame: this device's game, count and digest (the other's acknowledgement)."""
        ch = self.ch
        m = self.match
        b = self.body
        f = _F_DOK if self.digest_ok else 0
        if self._held():
            f |= _F_HELD
        ch.flags = f
        ch.count = self.mine
        _put32(b, 0, self.gid if m is not None else 0)
        b[4] = self.digest & 255
        b[5] = self.digest >> 8
        ch.write(K_STATE, b, 6)

    def _fail(self, code, k, text=None):
        self._setup().fail(self, code, k, text)

    # --- the game ------------------------------------------------------------------------------
    def _adopt(self, match, gid, owners):
        self.match = match
        self.gid = gid
        self.owners = owners
        self.mine = self.ch.count = lockstep.count(match)
        self.digest = lockstep.digest(match)
        self.digest_ok = not self.hold
        self.flying = -1
        r = match.rules
        self.setup_text = r.vid + " " + str(r.players) + " " + str(int(r.teams)) + " " + \
            (r.options_text() or "-") + " " + owners
        if self.state == READY:
            self.state = PLAYING
        self._progress()

    def _started(self):
        self.message = None
        if self.state != WAITING:
            self.state = PLAYING
        lst = self.listener
        if lst is not None and hasattr(lst, "started"):
            lst.started(self)

    def _send_move(self, k):
        b = self.body
        _put32(b, 0, self.gid)
        mv = lockstep.move_at(self.match, k)
        b[4] = k & 255
        b[5] = k >> 8
        b[6] = mv & 255
        b[7] = mv >> 8
        self.ch.send(K_MOVE, b, 8)

    def _on_move(self, buf):
        m = self.match
        if m is None or _u32(buf, 4) != self.gid:
            return
        k = buf[8] | buf[9] << 8
        if k != self.mine:
            return                # one we have (sent again), or past a gap: our state says so
        if self._held():
            return                # taken once this device's screens showed what came before it
        mv = buf[10] | buf[11] << 8
        lockstep.run_forced(m)    # (without hold: a round dealt here whose draws are to be made)
        s = m.round.turn
        if m.over or m.round_over() or not m.round.is_legal(mv) or self.is_mine(s) and k >= self.lost:
            self._fail(_R_ILLEGAL, k + 1)     # (our own seat: only a move we may have lost)
            return
        self._apply(m, s, mv, False)

    def _apply(self, m, seat, mv, local):
        lst = self.listener
        if lst is not None and hasattr(lst, "moving"):
            lst.moving(self, seat, mv, local)
        m.play(mv)
        self.mine += 1
        self.ch.count = self.mine
        self._progress()
        ended = m.round_over() if self.hold else lockstep.advance(m)
        self.digest = lockstep.digest(m)      # (with hold: before the draws and passes it forces)
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

    def _push(self):
        """This device's move just played goes out at once when the other device has every move
        before it: it then shows on the other screen while this one is still drawing and saving it.
        Safe against a power cut before the save: the other device keeps the move and sends it back
        when this one, restarted from its save a move behind, says how far it got (docs/LINK.md)."""
        if self.paired and self.peer_gid == self.gid and self.peer_has == self.mine - 1:
            self._send_next()
