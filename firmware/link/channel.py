"""The reliable channel over a byte transport: sequence numbers, acknowledgements, resends.

Stop and wait: at most one sequenced frame is in flight; it is written again every RESEND_MS until
the other side's acknowledgement (`ack` = the next sequence number it expects) covers it. A frame
seen twice (its acknowledgement was lost) is acknowledged again and not delivered again. Every
frame carries its sender's epoch (a byte of the sender's hello nonce), so frames a restarted peer
sent before its restart are not taken for new ones. When nothing was written for KEEPALIVE_MS an
empty acknowledgement goes out: the other side knows the cable is there (`up()`).

The transport is anything with `write(bytes)` and a non-blocking `read()` (None or b"" when nothing
came) or `readinto(buf)`: a `machine.UART` on the device, a virtual cable on the PC.
"""
from .frame import Framer, HEAD, BODY_MAX

try:
    from micropython import const
except ImportError:  # CPython
    def const(x):
        return x

SEQUENCED = const(0x80)       # type bit: the frame is sequenced and acknowledged
K_ACK = const(0x02)           # an empty acknowledgement (also the keep-alive)
RESEND_MS = const(250)
KEEPALIVE_MS = const(400)
SILENT_MS = const(1500)       # nothing heard for this long: the cable is out (or the other is off)
_TICKS_HALF = const(1 << 29)  # ticks_ms wraps at 2**30 on the device
_TICKS_MASK = const((1 << 30) - 1)
_READ = const(64)


def ticks_diff(a, b):
    """a - b in ms on a clock that wraps at 2**30 (time.ticks_diff's arithmetic, without time)."""
    return ((a - b + _TICKS_HALF) & _TICKS_MASK) - _TICKS_HALF


class Channel:
    def __init__(self, port, sink):
        """sink(kind, buf, start, n): a delivered frame's body is buf[start:start + n]."""
        self.port = port
        self.sink = sink
        self.fr = Framer()
        self.rbuf = bytearray(_READ)
        self.into = hasattr(port, "readinto")
        self.epoch = 0            # ours (the session sets it from its nonce)
        self.peer_epoch = -1      # the peer's; -1 until its hello: sequenced frames are dropped
        self.out = bytearray(BODY_MAX)   # the sequenced frame in flight
        self.out_kind = 0
        self.out_n = 0
        self.pending = False
        self.acked_kind = 0       # kind of the last frame acknowledged (read by the session)
        self.sent_at = 0
        self.last_tx = -KEEPALIVE_MS
        self.last_rx = None
        self.now = 0
        self.resends = 0
        self.dups = 0
        self.reset(-1)

    def reset(self, peer_epoch):
        """A new peer (its hello said so): both directions start again at 0, the frame in flight
        is dropped (the session sends again whatever the new peer lacks)."""
        self.peer_epoch = peer_epoch
        self.tx_seq = 0
        self.rx_next = 0
        self.pending = False

    def busy(self):
        return self.pending

    def up(self):
        return self.last_rx is not None and ticks_diff(self.now, self.last_rx) < SILENT_MS

    def send(self, kind, body, n):
        """Queue a sequenced frame (only when not busy()); it is written now and resent until acked."""
        out = self.out
        for i in range(n):
            out[i] = body[i]
        self.out_kind = kind | SEQUENCED
        self.out_n = n
        self.pending = True
        self._write_out()

    def send_raw(self, kind, body, n):
        """Write an unsequenced frame once (a hello, an acknowledgement)."""
        self.port.write(self.fr.build(kind, self.epoch, 0, self.rx_next, body, n))
        self.last_tx = self.now

    def _write_out(self):
        self.port.write(self.fr.build(self.out_kind, self.epoch, self.tx_seq, self.rx_next,
                                      self.out, self.out_n))
        self.sent_at = self.now
        self.last_tx = self.now

    def poll(self, now):
        """Read what came (delivering whole frames to the sink), resend, keep alive."""
        self.now = now
        port = self.port
        for _ in range(8):        # bounded: a babbling line cannot keep the caller here
            if self.into:
                n = port.readinto(self.rbuf)
                data = self.rbuf
            else:
                data = port.read()
                n = len(data) if data else 0
            if not n:
                break
            self.fr.feed(data, n, self._frame)
        if self.pending and ticks_diff(now, self.sent_at) >= RESEND_MS:
            self.resends += 1
            self._write_out()
        elif ticks_diff(now, self.last_tx) >= KEEPALIVE_MS:
            self.send_raw(K_ACK, self.out, 0)

    def _frame(self, buf, n):
        kind = buf[0]
        self.last_rx = self.now
        if buf[1] != self.peer_epoch:
            if kind & SEQUENCED or kind == K_ACK:
                return            # from a peer instance we have not said hello to (or stale)
        else:
            ack = buf[3]
            if self.pending and ack == (self.tx_seq + 1) & 255:
                self.pending = False
                self.tx_seq = ack
                self.acked_kind = self.out_kind & ~SEQUENCED
                self.sink(K_ACK, buf, HEAD, 0)
        if kind & SEQUENCED:
            if buf[2] == self.rx_next:
                self.rx_next = (self.rx_next + 1) & 255
                self.send_raw(K_ACK, self.out, 0)
                self.sink(kind & ~SEQUENCED, buf, HEAD, n - HEAD)
            else:
                self.dups += 1
                self.send_raw(K_ACK, self.out, 0)
        elif kind != K_ACK:
            self.sink(kind, buf, HEAD, n - HEAD)
