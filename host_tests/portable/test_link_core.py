"""Link play's core under MicroPython too: frames and CRC, and a whole 2-player match between two
sessions over a lossy in-test cable (portable: runs under pytest and the unix `micropython`).

mptest-heap: 80K -- two whole matches (one per device) and the link beside the whole engine (as
test_records: two matches at once); on the 64-bit unix port every object is twice its Pico size.
"""
from domino.rng import Rng
from domino.rules import Rules
from link import frame
from link import session as ls


def test_crc_check_value():
    assert frame.crc16(b"123456789", 9) == 0x29B1          # CRC-16/CCITT-FALSE's check value
    assert frame.crc_int(0xFFFF, 0x34333231, 4) == frame.crc16(b"1234", 4)


def test_frames_round_trip_through_garbage():
    f = frame.Framer()
    got = []
    rng = Rng(3)
    body = bytearray(frame.BODY_MAX)
    junk = bytearray(12)
    for k in range(200):
        n = rng.below(frame.BODY_MAX + 1)
        for i in range(n):
            body[i] = 0 if rng.below(4) == 0 else rng.below(256)
        wire = bytes(f.build(0x84, 1, k, body, n, False))
        assert 0 not in wire[:-1] and wire[-1] == 0
        for i in range(12):
            junk[i] = rng.below(256)
        f.feed(junk, rng.below(12), lambda b, m, k: None)
        f.feed(b"\x00", 1, lambda b, m, k: None)               # the line idles: garbage ends here
        f.feed(wire, len(wire), lambda b, m, k: got.append(bytes(b[:m])))
        assert len(got) == 1 and got.pop() == bytes([0x84, 1, k & 255, k >> 8]) + bytes(body[:n])


def test_damaged_frames_are_dropped():
    f = frame.Framer()
    wire = bytearray(f.build(0x84, 1, 0, b"\x01\x02\x03", 3, False))
    got = []
    for i in range(len(wire) - 1):
        for bit in range(8):
            w = bytearray(wire)
            w[i] ^= 1 << bit
            f.feed(w, len(w), lambda b, m, k: got.append(bytes(b[:m])))
            f.feed(b"\x00", 1, lambda b, m, k: None)
    assert got == []                  # every single-bit error is caught (CRC-16: all of them)
    big = bytearray(300)
    for i in range(300):
        big[i] = 7
    f.feed(big, 300, lambda b, m, k: got.append(1))
    f.feed(b"\x00", 1, lambda b, m, k: got.append(1))
    assert got == [] and f.rn == 0    # too long for the buffer: dropped at its 0x00


class _End:
    """One end of a lossy cable: a write may be lost, cut short, damaged or doubled."""

    def __init__(self, rng, rate):
        self.rng = rng
        self.rate = rate
        self.peer = None
        self.q = bytearray()
        self.faults = 0

    def write(self, data):
        data = bytearray(data)
        r = self.rng
        if r.below(1000) < self.rate:
            self.faults += 1
            kind = r.below(4)
            if kind == 0:
                return
            if kind == 1:
                data = data[:r.below(len(data))]
            elif kind == 2:
                i = r.below(len(data))
                data[i] ^= 1 << r.below(8)
            else:
                data = data + data
        self.peer.q.extend(data)

    def read(self):
        if not self.q:
            return None
        out = bytes(self.q)
        self.q = bytearray()
        return out


def _pair(rate):
    rng = Rng(11)
    a = _End(rng, rate)
    b = _End(rng, rate)
    a.peer = b
    b.peer = a
    return a, b


def test_match_over_lossy_cable():
    a, b = _pair(100)                # 10 % of frames meet a fault
    nonces = Rng(5)
    host = ls.Session(a, ls.WANT_HOST, nonces.next)
    guest = ls.Session(b, ls.WANT_JOIN, nonces.next)
    host.host_game(Rules("fives", 2), "HG")
    pick = Rng(9)
    now = 0
    while now < 600000:
        host.poll(now)
        guest.poll(now)
        for s in (host, guest):
            assert s.state != ls.FAILED, s.message
            if s.to_move() >= 0:
                rd = s.match.round
                s.play(rd.buf[pick.below(rd.legal())])
        if host.match is not None and guest.match is not None and host.match.over and \
                guest.match.over and host.mine == guest.mine:
            break
        now += 5
    assert host.match.over and guest.match.over
    assert host.match.scores == guest.match.scores and host.digest == guest.digest
    for k in range(host.mine):
        assert lockstep_move(host, k) == lockstep_move(guest, k)
    assert a.faults + b.faults > 10 and host.ch.resends + guest.ch.resends > 5


def lockstep_move(s, k):
    from link.lockstep import move_at
    return move_at(s.match, k)
