"""Rng (rng.py) where small ints hold 32 bits (CPython, 64-bit MicroPython): Rng16's numbers from one
32-bit word x = hi << 16 | lo (next() is x >> 2), in half the operations. Host only: rng.py imports it
when sys.maxsize says so, and tools/deploy.py leaves it out of a board's tree (HOST_ONLY)."""
from .rng import Rng16, SEED_MASK


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
