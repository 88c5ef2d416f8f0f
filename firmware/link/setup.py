"""The part of the link session used while the two devices meet (docs/LINK.md): hellos and the version
check, who hosts, the host's new game and its set-up message, the guest's game built from it.

Loaded by `link.session.Session` when a hello is to be sent or has come, or a set-up is to be sent or
has come, and dropped again once both devices play the same game: during a match its bytes are the
heap's (the Pico W's tightest point is a linked host's save). A restart or a gap brings it back for
the hellos that follow. Each function takes the session `s` and changes it as its own methods would.
"""
from . import lockstep, tr

try:
    from micropython import const
except ImportError:  # CPython
    def const(x):
        return x

_PROTO = const(1)             # = link.session.PROTO
_MAGIC0 = const(0x50)         # "PD" opens every hello
_MAGIC1 = const(0x44)
_K_HELLO = const(0x01)        # = link.session.K_HELLO
_K_SETUP = const(0x03)        # = link.session.K_SETUP
_MASK30 = const(0x3FFFFFFF)
_WANT_HOST = const(1)         # = link.session.WANT_HOST
_WANT_JOIN = const(2)         # = link.session.WANT_JOIN
_WAITING = const(0)           # = link.session.WAITING
_READY = const(1)             # = link.session.READY
_PLAYING = const(2)           # = link.session.PLAYING
_FAILED = const(3)            # = link.session.FAILED


def _u32(buf, i):
    return buf[i] | buf[i + 1] << 8 | buf[i + 2] << 16 | (buf[i + 3] & 0x3F) << 24


def _put32(buf, i, v):
    buf[i] = v & 255
    buf[i + 1] = (v >> 8) & 255
    buf[i + 2] = (v >> 16) & 255
    buf[i + 3] = (v >> 24) & 255


def hello(s, reply):
    b = s.body
    b[0] = _MAGIC0
    b[1] = _MAGIC1
    b[2] = _PROTO
    b[3] = (1 if reply else 0) | s.want << 1
    _put32(b, 4, s.nonce)
    _put32(b, 8, s.gid if s.match is not None else 0)
    b[12] = s.mine & 255
    b[13] = s.mine >> 8
    s.ch.send_raw(_K_HELLO, b, 14)


def on_hello(s, buf, i, n):
    if n < 14 or buf[i] != _MAGIC0 or buf[i + 1] != _MAGIC1:
        return
    reply = buf[i + 3] & 1
    if buf[i + 2] != _PROTO:
        s._fail(tr("Link v{0} there, v{1} here: update both").format(buf[i + 2], _PROTO))
        if not reply:
            hello(s, True)
        return
    nonce = _u32(buf, i + 4)
    s.peer_gid = _u32(buf, i + 8)
    s.peer_has = buf[i + 12] | buf[i + 13] << 8
    s.peer_want = (buf[i + 3] >> 1) & 3
    if nonce != s.peer_nonce:             # a new peer: a first contact or a restart
        s.peer_nonce = nonce
        s.ch.reset(nonce & 255)
        if s.match is not None and s.peer_gid == s.gid:
            s.resyncs += 1
        _elect(s)
    if s.state == _FAILED:
        return
    if not reply:
        hello(s, True)
    if s.state == _WAITING:
        s.state = _PLAYING if s.match is not None else _READY
    if s.match is not None and s.peer_gid == s.gid and s.peer_has > s.mine:
        hello(s, True)                    # it has moves we lack: say how many we have
    s.message = None if s.state == _PLAYING else _idle_message(s)


def _elect(s):
    """Both want to host: the larger nonce hosts (a tie, vanishingly rare, is drawn again)."""
    if s.want == _WANT_HOST and s.peer_want == _WANT_HOST:
        while s.nonce == s.peer_nonce:
            s.nonce = s.rand() & _MASK30
            s.ch.epoch = s.nonce & 255
            hello(s, False)
        s.hosting = s.nonce > s.peer_nonce
        if not s.hosting:
            s.want = _WANT_JOIN
            s.plan = None
            s.demoted = True
    else:
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
    s._adopt(m, gid, owners)
    s._started()


def send_setup(s, match):
    b = s.body
    _put32(b, 0, s.gid)
    _put32(b, 4, match.seed)
    b[8] = s.mine & 255
    b[9] = s.mine >> 8
    t = s.setup_text
    for j in range(len(t)):
        b[10 + j] = ord(t[j])
    s.ch.send(_K_SETUP, b, 10 + len(t))


def on_setup(s, buf, i, n):
    gid = _u32(buf, i)
    if s.hosting or gid == s.gid and s.match is not None:
        return
    seed = _u32(buf, i + 4)
    try:
        vid, players, teams, opts, owners = bytes(buf[i + 10:i + n]).decode().split(" ")
        from domino.rules import Rules
        from domino.match import Match
        options = {}
        if opts != "-":
            for kv in opts.split(","):
                k, v = kv.split("=")
                options[k] = int(v) if v.isdigit() else v
        m = Match(Rules(vid, int(players), teams == "1", options), seed)
    except Exception:     # a set-up this firmware cannot play (an unknown variant, option)
        s._fail(tr("The host's game is unknown here: update both"))
        return
    m.start_round()
    lockstep.run_forced(m)
    s._adopt(m, gid, owners)
    s.peer_gid = gid
    s.peer_has = buf[i + 8] | buf[i + 9] << 8     # the host's moves: sent next, one by one
    s._started()
