"""Frames on the wire: CRC-16/CCITT, COBS byte stuffing, a 0x00 byte after every frame.

A frame before stuffing is `type, flags, count_lo, count_hi, body..., crc_hi, crc_lo` (docs/LINK.md).
COBS leaves no 0x00 inside a frame, so a 0x00 always ends one: after garbage, a cut or a lost byte the
receiver is back in step at the next 0x00, and the CRC throws away whatever was damaged.
Every frame but a hello is keyed: its CRC starts from the session's key (both devices' hello nonces)
instead of 0xFFFF, so a frame of another session (a previous life of either device, a recording
played back, another pair of devices) fails its CRC here and is dropped like a damaged one.
The receive path writes into one preallocated buffer and allocates nothing per byte.
"""
try:
    from micropython import const
except ImportError:  # CPython
    def const(x):
        return x

BODY_MAX = const(96)          # bytes of a frame's body (the setup is the longest message: ~60)
HEAD = const(4)               # type, flags, the sender's move count (2)
RAW_MAX = const(HEAD + BODY_MAX + 2)          # a frame before stuffing, with its CRC
WIRE_MAX = const(RAW_MAX + RAW_MAX // 254 + 2)  # stuffed, with the closing 0x00

# CRC-16/CCITT-FALSE (poly 0x1021, init 0xFFFF) a nibble at a time: 16 entries instead of 256.
_T = (0x0000, 0x1021, 0x2042, 0x3063, 0x4084, 0x50A5, 0x60C6, 0x70E7,
      0x8108, 0x9129, 0xA14A, 0xB16B, 0xC18C, 0xD1AD, 0xE1CE, 0xF1EF)


def crc16(buf, n, crc=0xFFFF):
    """CRC-16/CCITT-FALSE of buf[0:n] (continuing from `crc`)."""
    t = _T
    for i in range(n):
        b = buf[i]
        crc = ((crc << 4) & 0xFFFF) ^ t[(crc >> 12) ^ (b >> 4)]
        crc = ((crc << 4) & 0xFFFF) ^ t[(crc >> 12) ^ (b & 15)]
    return crc


def crc_int(crc, v, nbytes):
    """Continue a CRC-16 over the low `nbytes` of int v, low byte first (no bytes object made)."""
    t = _T
    for _ in range(nbytes):
        b = v & 255
        v >>= 8
        crc = ((crc << 4) & 0xFFFF) ^ t[(crc >> 12) ^ (b >> 4)]
        crc = ((crc << 4) & 0xFFFF) ^ t[(crc >> 12) ^ (b & 15)]
    return crc


def u32(buf, i):
    """The 30-bit int at buf[i:i + 4], low byte first (nonces, game ids, seeds: small ints)."""
    return buf[i] | buf[i + 1] << 8 | buf[i + 2] << 16 | (buf[i + 3] & 0x3F) << 24


def put32(buf, i, v):
    buf[i] = v & 255
    buf[i + 1] = (v >> 8) & 255
    buf[i + 2] = (v >> 16) & 255
    buf[i + 3] = (v >> 24) & 255


def _start(a, b):
    k = crc_int(crc_int(0xFFFF, a, 4), b, 4)
    return k if k != 0xFFFF else 0xFFFE        # never the plain CRC's start


def encode(raw, n, out):
    """COBS-stuff raw[0:n] into `out` (a bytearray of WIRE_MAX) and close it with 0x00: the length."""
    o = 1                     # out[code_at] is the current block's code byte
    code_at = 0
    c = 1
    for i in range(n):
        b = raw[i]
        if b:
            out[o] = b
            o += 1
            c += 1
        if not b or c == 255:
            out[code_at] = c
            code_at = o
            o += 1
            c = 1
    out[code_at] = c
    out[o] = 0
    return o + 1


def decode(buf, n):
    """Un-stuff buf[0:n] (a frame without its 0x00) in place: the length, or -1 when it is not COBS."""
    i = 0
    o = 0
    while i < n:
        c = buf[i]
        if not c or i + c > n:
            return -1
        i += 1
        for _ in range(c - 1):    # (no 0x00 inside: the receiver split the stream at them)
            buf[o] = buf[i]
            o += 1
            i += 1
        if c < 255 and i < n:
            buf[o] = 0
            o += 1
    return o


class Framer:
    """Builds outgoing frames (with their CRC, stuffed) and assembles incoming ones from bytes."""

    def __init__(self):
        self.raw = bytearray(RAW_MAX)       # the frame being built
        self.wire = bytearray(WIRE_MAX)     # ... stuffed
        self.rx = bytearray(WIRE_MAX)       # bytes of the incoming frame so far (un-stuffed in place)
        self.rn = 0
        self.over = False                   # the incoming frame outgrew rx: dropped at its 0x00
        self.bad = 0                        # frames thrown away (CRC, stuffing, size)
        self.key = 0xFFFF                   # the CRC start of the keyed frames this device reads
        self.tx = 0xFFFF                    # ... and of those it writes (0xFFFF: no session yet)

    def set_key(self, mine, theirs):
        """The session's keys from both devices' nonces: a frame's CRC starts from its sender's
        nonce and then its receiver's, so neither device takes its own frames back (a loopback)."""
        self.key = _start(theirs, mine)
        self.tx = _start(mine, theirs)

    def build(self, kind, flags, count, body, n, keyed=True):
        """Frame of `kind` with body[0:n]: a memoryview of the stuffed bytes, ready to write."""
        raw = self.raw
        raw[0] = kind
        raw[1] = flags
        raw[2] = count & 255
        raw[3] = (count >> 8) & 255
        for i in range(n):
            raw[HEAD + i] = body[i]
        k = HEAD + n
        c = crc16(raw, k, self.tx if keyed else 0xFFFF)
        raw[k] = c >> 8
        raw[k + 1] = c & 255
        return memoryview(self.wire)[:encode(raw, k + 2, self.wire)]

    def feed(self, data, n, sink):
        """Pass bytes data[0:n]; every whole frame with a good CRC goes to sink(buf, length, keyed),
        the buffer holding `type, flags, count, body` (valid until the next feed); keyed: its CRC is
        the session key's (else the plain CRC: only a hello may be so)."""
        rx = self.rx
        rn = self.rn
        for i in range(n):
            b = data[i]
            if b:
                if rn < WIRE_MAX:
                    rx[rn] = b
                    rn += 1
                else:
                    self.over = True
                continue
            if rn:
                if self.over:
                    self.bad += 1
                else:
                    k = decode(rx, rn)
                    c = rx[k - 2] << 8 | rx[k - 1] if k >= HEAD + 2 else -1
                    if c >= 0 and self.key != 0xFFFF and crc16(rx, k - 2, self.key) == c:
                        self.rn = 0
                        sink(rx, k - 2, True)
                    elif c >= 0 and crc16(rx, k - 2) == c:
                        self.rn = 0
                        sink(rx, k - 2, False)
                    else:
                        self.bad += 1
            rn = 0
            self.over = False
        self.rn = rn
