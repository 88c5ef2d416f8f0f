"""The engine's Rng (firmware/domino/rng.py) where small ints hold 32 bits (CPython, the 64-bit unix
port): Rng16's numbers from one 32-bit word x = hi << 16 | lo (next() is x >> 2), in half the
operations. Host only: `install()` makes it the engine's Rng (the same numbers, so the same games);
the device keeps Rng16, whose halves never leave its 31-bit small ints."""
import sys

from domino import rng
from domino.rng import Rng16, SEED_MASK


class Rng32(Rng16):
    def seed(self, s):
        self.x = ((s & SEED_MASK) << 2) | 1
        for _ in range(4):
            self.next()

    def next(self):
        x = self.x
        x ^= (x << 13) & 0xFFFFFFFF
        x ^= x >> 17
        x ^= (x << 5) & 0xFFFFFFFF
        self.x = x
        return x >> 2

    def below(self, n):
        x = self.x
        x ^= (x << 13) & 0xFFFFFFFF
        x ^= x >> 17
        x ^= (x << 5) & 0xFFFFFFFF
        self.x = x
        return (x >> 2) % n

    def shuffle(self, buf, n):
        x = self.x
        i = n - 1
        while i > 0:
            x ^= (x << 13) & 0xFFFFFFFF
            x ^= x >> 17
            x ^= (x << 5) & 0xFFFFFFFF
            j = (x >> 2) % (i + 1)
            t = buf[i]
            buf[i] = buf[j]
            buf[j] = t
            i -= 1
        self.x = x

    def state(self):
        return self.x


def install():
    """Rng32 as the engine's Rng where small ints hold 32 bits (else nothing changes): in domino.rng
    and in every module loaded so far that took Rng16 by name (domino.match, ai.context). Rngs made
    before keep Rng16, which gives the same numbers."""
    if not sys.maxsize >> 32:
        return
    rng.Rng = Rng32
    for m in list(sys.modules.values()):
        if getattr(m, "Rng", None) is Rng16:
            m.Rng = Rng32
