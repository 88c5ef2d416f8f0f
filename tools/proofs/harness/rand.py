"""The test harnesses' own key-press randomness (xorshift32): independent of the engine's Rng, so
changing the engine never changes which keys a seeded UI test presses. Runs under both runtimes."""


class Rand:
    def __init__(self, seed):
        self.x = seed or 1

    def below(self, n):
        x = self.x
        x ^= (x << 13) & 0xFFFFFFFF
        x ^= x >> 17
        x ^= (x << 5) & 0xFFFFFFFF
        self.x = x
        return x % n
