"""What the host tools put into the engine (tools/arena): the 64-bit PRNG twin gives the device's
numbers, and once installed every engine module that draws uses it; the arena's baseline levels."""
import ai
from ai import context
from domino import match, rng
from domino.rng import Rng16, SEED_MASK
from domino.rules import Rules
from tools.arena import baselines, rng32
from tools.arena.rng32 import Rng32


def test_rng32_gives_the_device_numbers():
    for seed in (0, 1, 2, 12345, 0x2545F49, SEED_MASK, SEED_MASK + 7, -3):
        a, b = Rng16(seed), Rng32(seed)
        assert [a.next() for _ in range(50)] == [b.next() for _ in range(50)], seed
        assert [a.below(n) for n in range(1, 60)] == [b.below(n) for n in range(1, 60)], seed
        xs, ys = list(range(28)), list(range(28))
        a.shuffle(xs, 28)
        b.shuffle(ys, 28)
        assert xs == ys and a.state() == b.state(), seed


def test_installed_everywhere_the_engine_draws():
    rng32.install()                      # (conftest did already: idempotent)
    assert rng.Rng is Rng32 and match.Rng is Rng32 and context.Rng is Rng32
    assert rng.next_seed(99) == Rng16(99 ^ 0x2545F49).next() & SEED_MASK


def test_baselines_are_levels_of_choose():
    baselines.install()
    assert set(baselines.NAMES) <= set(ai.BASELINES)
    m = match.Match(Rules("draw", 2), 5)
    m.start_round()
    rd = m.round
    while rd.legal() < 2:              # a position with a choice
        if rd.legal() == 0:
            rd.forced()
        else:
            m.play(ai.choose(m, rd.turn, "easy"))
    for level in baselines.NAMES:
        assert rd.is_legal(ai.choose(m, rd.turn, level)), level
