"""The part of the link session used while the two devices meet (docs/LINK.md): hellos and the version
check, who hosts, the host's new game and its set-up message, the guest's game built from it.

Loaded by `link.session.Session` when a hello is to be sent or has come, or a set-up is to be sent or
has come, and dropped again once both devices play the same game: during a match its bytes are the
heap's (the Pico W's tightest point is a linked host's save). A restart or a gap brings it back for
the hellos that follow. Each function takes the session `s` and changes it as its own methods would.
"""
from . import lockstep, tr
from .frame import u32 as _u32, put32 as _put32

try:
    from micropython import const
except ImportError:  # CPython
    def const(x):
        return x

_PROTO = const(2)             # = link.session.PROTO
_MAGIC0 = const(0x50)         # "PD" opens every hello
_MAGIC1 = const(0x44)
_K_HELLO = const(0x01)        # = link.session.K_HELLO
_K_SETUP = const(0x83)        # = link.session.K_SETUP
_MASK30 = const(0x3FFFFFFF)
_WANT_HOST = const(1)         # = link.session.WANT_HOST
_WANT_JOIN = const(2)         # = link.session.WANT_JOIN
_WAITING = const(0)           # = link.session.WAITING
_READY = const(1)             # = link.session.READY
_PLAYING = const(2)           # = link.session.PLAYING
_FAILED = const(3)            # = link.session.FAILED
_K_FAIL = const(0x05)         # = link.session.K_FAIL
_HELLO_MS = const(300)        # = link.session._HELLO_MS

# refusals (a FAIL's code): the message both devices show, with a move number
R_ILLEGAL = const(1)
R_DIFFER = const(2)
R_UNKNOWN = const(3)
R_STUCK = const(4)
_TEXTS = const(("", "Move {0} is not legal here: update both", "The games differ at move {0}: update both",
              "The host's game is unknown here: update both",
              "No answer from the other device: switch both off and on"))
OWNERS = "HGemh"          # the seat owners' letters this version knows: the host's person, the
                          # guest's, an AI seat played by the host (easy, medium, hard)


def owners_ok(owners, players):
    """One known letter a seat, and one seat for each device's person (the host's form's rule)."""
    if len(owners) != players or owners.count("H") != 1 or owners.count("G") != 1:
        return False
    for o in owners:
        if o not in OWNERS:
            return False
    return True


def renew(s):
    """Meet the other device again as a restarted one would: a new nonce (the frames of this
    device's past no longer count on either side), hellos, the counts heard again."""
    s.nonce = s.rand() & _MASK30 or 1
    s.paired = False
    s.fresh = False
    if s.peer_nonce > 0:              # its frames keyed with our new nonce: it heard our hello
        s.ch.fr.set_key(s.nonce, s.peer_nonce)
    s.ch.drop()
    s.flying = -1
    s.hello_at = s.ch.now - _HELLO_MS


def fail(s, code, k, text=None):
    """Stop with the message of refusal `code` at move k (sent to the other device: both say the
    same; a code this version does not know is its games differing), or with `text` (code 0:
    this device's own, the other hears what this device has)."""
    if not text and not 0 < code < len(_TEXTS):
        code = R_DIFFER
    s.state = _FAILED
    s.why = code << 16 | (k & 0xFFFF)
    s.message = text or tr(_TEXTS[code]).format(k)
    s.ch.drop()
    refuse(s)


def refuse(s):
    """A stopped session's keep-alive and answer: its refusal, or (code 0) its state frame."""
    if not s.why:
        s._state()
        return
    b = s.body
    b[0] = s.why >> 16
    b[1] = s.why & 255
    b[2] = (s.why >> 8) & 255
    s.ch.write(_K_FAIL, b, 3)


def hello(s, paired):
    """`P D version flags nonce game moves echo`: flags bit 0 "I have heard you echo me", bits 1-2
    the wish; echo: the nonce this device last heard from the other (0: none)."""
    b = s.body
    b[0] = _MAGIC0
    b[1] = _MAGIC1
    b[2] = _PROTO
    b[3] = (1 if paired else 0) | s.want << 1
    _put32(b, 4, s.nonce)
    _put32(b, 8, s.gid if s.match is not None else 0)
    b[12] = s.mine & 255
    b[13] = s.mine >> 8
    _put32(b, 14, s.peer_nonce if s.peer_nonce > 0 else 0)
    s.ch.write(_K_HELLO, b, 18, False)


def on_hello(s, buf, i, n):
    """A hello. One that does not echo this device's nonce is from a device that does not know it
    (yet, or any more: its previous life, a recording): answered, and what it says of its game is
    not taken (it may be from before this device's start). One that echoes it completes the meeting."""
    if n < 14 or buf[i] != _MAGIC0 or buf[i + 1] != _MAGIC1:
        return
    flags = buf[i + 3]
    if buf[i + 2] != _PROTO:
        if s.state != _FAILED:
            fail(s, 0, 0, tr("Link v{0} there, v{1} here: update both").format(buf[i + 2], _PROTO))
        if not flags & 1:
            hello(s, True)        # (bit 0 means an answer in every version: no ping-pong)
        return
    if n < 18:
        return
    nonce = _u32(buf, i + 4)
    if nonce == s.nonce:
        return            # this device's own hello back (a loopback; a tie, 1 in 2**30: renew)
    s.peer_want = (flags >> 1) & 3
    if nonce != s.peer_nonce:             # a new peer: a first contact or a restart
        s.peer_nonce = nonce
        s.paired = False
        s.ch.fr.set_key(s.nonce, nonce)
        if s.state != _FAILED:
            _elect(s, _u32(buf, i + 8))
    if _u32(buf, i + 14) != s.nonce:
        s.paired = False
        hello(s, False)                   # it does not know this device: tell it
        return
    gid = _u32(buf, i + 8)
    if s.match is not None and gid == s.gid != s.peer_gid:
        s.resyncs += 1
    s.peer_gid = gid
    s.peer_has = buf[i + 12] | buf[i + 13] << 8
    s.fresh = True
    if not s.paired or not flags & 1:
        s.paired = True
        hello(s, True)                    # so that the other completes the meeting too
    if s.state == _FAILED:
        return
    if s.state == _WAITING:
        s.state = _PLAYING if s.match is not None else _READY
    s.message = None if s.state == _PLAYING else _idle_message(s)


def _elect(s, peer_game):
    """Both want to host: a new game hosts over one resumed from a save (it ends there, see
    on_setup), else the larger nonce hosts."""
    if s.want == _WANT_HOST and s.peer_want == _WANT_HOST and s.match is None:
        s.hosting = peer_game != 0 or s.nonce > s.peer_nonce
        if not s.hosting:
            s.want = _WANT_JOIN
            s.plan = None
            s.demoted = True
    elif s.match is None:
        s.hosting = s.want == _WANT_HOST


def _idle_message(s):
    if s.demoted:
        return tr("Both hosted: the other device hosts")
    if s.hosting:
        return tr("Setting up")
    if s.peer_want == _WANT_JOIN:
        return tr("Both joined: one must host")
    return tr("Waiting for the host's game")


def new_game(s, plan):
    """The host's game, once the guest is there: the deal from both devices' nonces unless the
    plan names one."""
    rules, owners, seed = plan
    s.plan = None
    if seed is None:
        from domino.rng import next_seed
        seed = next_seed(s.nonce ^ s.peer_nonce)
    gid = (s.rand() ^ s.peer_nonce) & _MASK30 or 1
    from domino.match import Match
    m = Match(rules, seed)
    m.start_round()
    lockstep.run_forced(m)
    s.replaces = s.peer_gid > 0           # the other device still holds another game: it ends there
    s._adopt(m, gid, owners)
    s.lost = 0
    s._started()


def send_setup(s, match):
    """`game seed replaces variant players teams options owners` (the host's count in the frame's
    head; replaces: 1 when the game was set up while the other device held another)."""
    b = s.body
    _put32(b, 0, s.gid)
    _put32(b, 4, match.seed)
    b[8] = 1 if s.replaces else 0
    t = s.setup_text
    for j in range(len(t)):
        b[9 + j] = ord(t[j])
    s.ch.send(_K_SETUP, b, 9 + len(t))


def on_setup(s, buf, n):
    """The host's set-up (buf: the frame, its head first). A device still at another game (a guest,
    or a host resumed from its save while the other started a new one) ends it there (its save
    stays: Continue brings it back); one this firmware cannot play is refused."""
    gid = _u32(buf, 4)
    if gid == s.gid and s.match is not None or n < 13:
        return
    if s.hosting and (s.match is None or not buf[12]):
        return                # (a host takes a set-up only to end its game for one meant to replace it)
    if s.match is not None:
        fail(s, 0, 0, tr("The host started a new game"))
        return
    seed = _u32(buf, 8)
    try:
        vid, players, teams, opts, owners = bytes(buf[13:n]).decode().split(" ")
        from domino.rules import Rules
        from domino.match import Match
        options = {}
        if opts != "-":
            for kv in opts.split(","):
                k, v = kv.split("=")
                options[k] = int(v) if v.isdigit() else v
        players = int(players)
        if not owners_ok(owners, players) or teams not in ("0", "1"):
            raise ValueError(owners)
        m = Match(Rules(vid, players, teams == "1", options), seed)
    except Exception:     # a set-up this firmware cannot play (an unknown variant, option, seat)
        fail(s, R_UNKNOWN, 0)
        return
    m.start_round()
    lockstep.run_forced(m)
    s._adopt(m, gid, owners)
    s.peer_gid = gid
    s.lost = s.peer_has           # the host's moves before this device came: its word for them
    s._started()
