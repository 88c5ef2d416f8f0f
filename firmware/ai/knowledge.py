"""What one seat may know, as a small int array the sampler reads.

Public facts only: the seat's own hand, the tiles on the table, each other seat's hand size, the stock
size, and the round's `void` bits (numbers a seat was seen to lack when it drew or passed). The tiles
nobody has shown (other hands, stock, tiles out of play) form the pool; `rollout.sample` deals it again
for each determinization: each hidden hand gets its size from the tiles its voids allow, the rest is
the stock in random order. The actual hidden hands are never read, except for their sizes.

kn layout: [0] pool size, [1..28] pool tiles, [29] hidden seats, [30..33] those seats (most constrained
first), [34..37] their hand sizes, [38..41] tiles each may hold, [42] stock size, [43] sampler PRNG
state, [44] drawable stock tiles (stock minus the reserve).
"""
from domino.tiles import ALL, SUIT, popcount
from .rollout import zeros

KN_SIZE = 45


def void_tiles(bits):
    """Mask of the tiles showing a number in the 7-bit set `bits`."""
    m = 0
    for e in range(7):
        if (bits >> e) & 1:
            m |= SUIT[e]
    return m


def public_size(rd, s):
    """How many tiles seat s holds: public (everyone sees the backs)."""
    return popcount(rd.hands[s])


class Knowledge:
    def __init__(self):
        self.kn = zeros(KN_SIZE)
        self.slack = [0, 0, 0, 0]
        self.unseen = 0

    def observe(self, rd, seat):
        kn = self.kn
        unseen = ALL & ~rd.hands[seat] & ~rd.layout.played
        self.unseen = unseen
        n = 0
        for t in range(28):
            if (unseen >> t) & 1:
                n += 1
                kn[n] = t
        kn[0] = n
        k = 0
        slack = self.slack
        for s in range(rd.rules.players):
            if s == seat:
                continue
            allow = unseen & ~void_tiles(rd.void[s])
            size = public_size(rd, s)
            sl = popcount(allow) - size
            j = k                                     # insertion by slack: most constrained first
            while j > 0 and slack[j - 1] > sl:
                kn[30 + j] = kn[29 + j]
                kn[34 + j] = kn[33 + j]
                kn[38 + j] = kn[37 + j]
                slack[j] = slack[j - 1]
                j -= 1
            kn[30 + j] = s
            kn[34 + j] = size
            kn[38 + j] = allow
            slack[j] = sl
            k += 1
        kn[29] = k
        kn[42] = rd.stock_left()
        kn[44] = rd.drawable()

    def size_of(self, rd, s):
        return public_size(rd, s)

    def unique_deal(self):
        """Only one deal fits: a single hidden hand holds every unseen tile."""
        kn = self.kn
        return kn[29] == 1 and kn[34] == kn[0]
