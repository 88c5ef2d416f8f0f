"""The link's frames over a byte transport: one frame in flight, resent until the session has
what it was for, keep-alives, and whether the other device is heard (`up()`).

There are no sequence numbers: every frame carries its sender's move count in its head, and the
other device's state frames say what it has, so the session knows from them alone what to send
next and a frame delivered twice is harmless (docs/LINK.md). A frame whose acknowledgement was lost
is just written again RESEND_MS later, until the session sees it taken and drops it. Every frame
but a hello is keyed with the session's key (link/frame.py): what a previous life of either
device, or another session, left on the wire is dropped here as a damaged frame is.

The transport is anything with `write(bytes)` and a non-blocking `read()` (None or b"" when nothing
came) or `readinto(buf)`: a `machine.UART` on the device, a virtual cable on the PC.
"""
from .frame import Framer, BODY_MAX

try:
    from micropython import const
except ImportError:  # CPython
    def const(x):
        return x

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
        """sink(buf, n, keyed): a whole frame with a good CRC, `type, flags, count, body` in
        buf[0:n]; keyed: its CRC is this session's (else the plain CRC: a hello)."""
        self.port = port
        self.sink = sink
        self.fr = Framer()
        self.rbuf = bytearray(_READ)
        self.into = hasattr(port, "readinto")
        self.out = bytearray(BODY_MAX)   # the frame in flight
        self.out_kind = 0                # 0: none
        self.out_n = 0
        self.flags = 0                   # head of every frame written: the session's flags, count
        self.count = 0
        self.sent_at = 0
        self.last_tx = -KEEPALIVE_MS
        self.last_rx = None              # the last frame heard (a good CRC)
        self.now = 0
        self.resends = 0

    def up(self):
        return self.last_rx is not None and ticks_diff(self.now, self.last_rx) < SILENT_MS

    def send(self, kind, body, n):
        """The frame in flight from now on (replacing any): written now and every RESEND_MS until
        drop()."""
        out = self.out
        for i in range(n):
            out[i] = body[i]
        self.out_kind = kind
        self.out_n = n
        self._write_out()

    def drop(self):
        self.out_kind = 0

    def write(self, kind, body, n, keyed=True):
        """Write a frame once (a hello, a state frame, a refusal)."""
        self.port.write(self.fr.build(kind, self.flags, self.count, body, n, keyed))
        self.last_tx = self.now

    def _write_out(self):
        self.write(self.out_kind, self.out, self.out_n)
        self.sent_at = self.now

    def poll(self, now):
        """Read what came (whole frames to the sink) and resend; True when a keep-alive is due (the
        session writes its state frame)."""
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
        if self.out_kind and ticks_diff(now, self.sent_at) >= RESEND_MS:
            self.resends += 1
            self._write_out()
        return ticks_diff(now, self.last_tx) >= KEEPALIVE_MS

    def _frame(self, buf, n, keyed):
        self.last_rx = self.now
        self.sink(buf, n, keyed)
