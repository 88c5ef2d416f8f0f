"""Own seeded PRNG, identical on the PC and the Pico.

xorshift32 (Marsaglia 13/17/5). `Rng16` computes it on two 16-bit halves so no intermediate value
leaves the 31-bit small-int range of a 32-bit MicroPython port: drawing a number never allocates.
Where small ints hold 32 bits (CPython, 64-bit MicroPython) `Rng` is `Rng32` (rng32.py): the same
numbers from one 32-bit word, in half the operations (the engine's deal and the random players draw a
lot). tools/deploy.py leaves rng32.py out of a board's tree: a 32-bit port never imports it.
"""
import sys

_ALPHABET = "0123456789ABCDEFGHJKMNPQRSTVWXYZ"   # Crockford base32: no I, L, O, U
_LETTERS = b"0123456789ABCDEFGHJKMNPQRSTVWXYZ"    # as bytes: a code built without a string per letter
SEED_MASK = 0x3FFFFFFF                            # a seed / deal code is 30 bits


class Rng16:
    def __init__(self, seed=1):
        self.seed(seed)

    def seed(self, s):
        s &= SEED_MASK
        self.hi = (s >> 14) & 0xFFFF
        self.lo = ((s << 2) & 0xFFFF) | 1   # odd: never the all-zero state
        for _ in range(4):
            self.next()

    def next(self):
        """Next 30-bit value."""
        hi = self.hi
        lo = self.lo
        # x ^= x << 13
        hi ^= ((hi << 13) | (lo >> 3)) & 0xFFFF
        lo ^= (lo << 13) & 0xFFFF
        # x ^= x >> 17
        lo ^= hi >> 1
        # x ^= x << 5
        hi ^= ((hi << 5) | (lo >> 11)) & 0xFFFF
        lo ^= (lo << 5) & 0xFFFF
        self.hi = hi
        self.lo = lo
        return (hi << 14) | (lo >> 2)

    def below(self, n):
        """Uniform-enough int in [0, n): bias is n / 2**30, far below anything a game can notice."""
        return self.next() % n

    def shuffle(self, buf, n):
        """Fisher-Yates over buf[0:n] in place."""
        i = n - 1
        while i > 0:
            j = self.next() % (i + 1)
            x = buf[i]
            buf[i] = buf[j]
            buf[j] = x
            i -= 1

    def state(self):
        return (self.hi << 16) | self.lo


Rng = Rng16
if sys.maxsize >> 32:           # 64-bit small ints (CPython, the unix port): one word, half the work
    try:
        from .rng32 import Rng32 as Rng
    except ImportError:         # (a board's tree has none: Rng16 gives the same numbers)
        pass


def next_seed(s):
    """Seed of the following round's deal: one PRNG step from this one (a match replays from one code)."""
    r = Rng(s ^ 0x2545F49)
    return r.next() & SEED_MASK


def code(seed):
    """30-bit seed -> 'ABC-DEF', six base32 letters a player can read out."""
    seed &= SEED_MASK
    out = bytearray(b"000-000")
    for i in (6, 5, 4, 2, 1, 0):       # last letter first
        out[i] = _LETTERS[seed & 31]
        seed >>= 5
    return out.decode()


def parse_code(text):
    """'abc-def' / 'ABCDEF' / with O, I, L typos -> seed. ValueError when it is not a deal code."""
    s = 0
    n = 0
    for ch in text:                  # (not text.upper(): a copy of a long text could not fit)
        ch = ch.upper()
        if ch in "- ":
            continue
        if ch == "O":
            ch = "0"
        elif ch in "IL":
            ch = "1"
        i = _ALPHABET.find(ch)
        if i < 0 or n == 6:          # (a seventh letter: refused before the number outgrows a word)
            raise ValueError("bad deal code: " + text[:16])
        s = (s << 5) | i
        n += 1
    if n != 6:
        raise ValueError("a deal code has 6 letters: " + text[:16])
    return s
