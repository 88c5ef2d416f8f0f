"""A virtual link cable in one process: two ends a `link.session.Session` uses as its UART, on a
clock the caller moves, with seeded faults (docs/LINK.md, "Testing without two Picos").

Bytes take the wire's time (10 bits a byte at `baud`) and arrive in order, as on a UART. Faults act
on each write (the link writes one frame at a time): dropped whole or cut short, a bit flipped,
written twice, garbage bytes before it, held back (a late frame delays the ones after it too: a UART
never reorders). `cut(ms)` pulls the cable: everything written meanwhile is lost. Every fault is
counted in `faults`.
"""
import random

FAULTS = ("drop", "cut_short", "corrupt", "duplicate", "garbage", "delay")


class End:
    """One end of the cable: write() sends towards the other end, read() takes what has arrived."""

    def __init__(self, cable, name):
        self.cable = cable
        self.name = name
        self.inbox = []           # (arrival time in ms, byte)
        self.peer = None
        self.free_at = 0.0        # when this end's transmitter is idle again
        self.written = 0          # bytes written (both kinds of count feed the report)

    def write(self, data):
        self.cable._carry(self, bytes(data))
        return len(data)

    def read(self):
        now = self.cable.now
        inbox = self.inbox
        k = 0
        while k < len(inbox) and inbox[k][0] <= now:
            k += 1
        if not k:
            return None
        out = bytes(b for _, b in inbox[:k])
        del inbox[:k]
        return out

    def flush(self):
        """What a restart does to a UART: whatever was waiting in its receive buffer is gone."""
        self.inbox.clear()


class Cable:
    def __init__(self, seed=0, baud=115200, rate=0.0, kinds=FAULTS, delay_ms=40):
        """rate: the chance that a write meets a fault (one of `kinds`, picked evenly)."""
        self.rnd = random.Random(seed)
        self.byte_ms = 10000.0 / baud
        self.rate = rate
        self.kinds = kinds
        self.delay_ms = delay_ms
        self.now = 0.0
        self.cut_until = -1.0
        self.faults = dict((k, 0) for k in FAULTS)
        self.faults["cut"] = 0
        self.a = End(self, "a")
        self.b = End(self, "b")
        self.a.peer = self.b
        self.b.peer = self.a

    def ends(self):
        return self.a, self.b

    def cut(self, ms):
        """Pull the cable for `ms` from now."""
        self.cut_until = self.now + ms
        self.faults["cut"] += 1

    def plugged(self):
        return self.now >= self.cut_until

    def _carry(self, src, data):
        src.written += len(data)
        t = max(self.now, src.free_at)
        src.free_at = t + len(data) * self.byte_ms
        if not self.plugged():
            return
        rnd = self.rnd
        if self.rate and rnd.random() < self.rate:
            kind = rnd.choice(self.kinds)
            self.faults[kind] += 1
            if kind == "drop":
                return
            if kind == "cut_short":
                data = data[:rnd.randrange(len(data))]
            elif kind == "corrupt":
                i = rnd.randrange(len(data))
                data = data[:i] + bytes([data[i] ^ (1 << rnd.randrange(8))]) + data[i + 1:]
            elif kind == "duplicate":
                data = data + data
            elif kind == "garbage":
                data = bytes(rnd.randrange(256) for _ in range(rnd.randrange(1, 24))) + data
            elif kind == "delay":
                t += rnd.uniform(0, self.delay_ms)
        inbox = src.peer.inbox
        if inbox:
            t = max(t, inbox[-1][0])
        for b in data:
            t += self.byte_ms
            inbox.append((t, b))
