"""Tile tables and the PRNG: same values on both runtimes (portable: plain asserts)."""
from domino import tiles
from domino.rng import Rng, code, parse_code, next_seed


def test_tile_tables():
    assert tiles.N_TILES == 28
    assert tiles.tile(0, 0) == 0 and tiles.tile(6, 6) == 27 and tiles.tile(5, 3) == tiles.tile(3, 5)
    assert tiles.pips(tiles.ALL) == 168
    assert tiles.popcount(tiles.ALL) == 28
    for n in range(7):
        assert tiles.popcount(tiles.SUIT[n]) == 7
        assert (tiles.SUIT[n] >> tiles.DOUBLE[n]) & 1


def test_heavy_order_breaks_ties_by_higher_end():
    order = [tiles.name(t) for t in tiles.HEAVY[:4]]
    assert order == ["6-6", "5-6", "4-6", "5-5"], order
    i36 = list(tiles.HEAVY).index(tiles.tile(3, 6))
    i45 = list(tiles.HEAVY).index(tiles.tile(4, 5))
    assert i36 < i45


def test_parse():
    assert tiles.parse("3-5") == tiles.parse("5-3") == tiles.parse("35")
    for bad in ("7-1", "x", "3-", "123"):
        try:
            tiles.parse(bad)
            raise AssertionError("accepted " + bad)
        except ValueError:
            pass


def test_rng_known_values():
    r = Rng(12345)
    assert [r.next() for _ in range(3)] == [196433668, 200221286, 467422023]


def test_rng_is_xorshift32():
    r = Rng(99)
    x = r.state()
    for _ in range(50):
        x ^= (x << 13) & 0xFFFFFFFF
        x ^= x >> 17
        x ^= (x << 5) & 0xFFFFFFFF
        assert r.next() == x >> 2


def test_shuffle_is_permutation():
    r = Rng(7)
    b = bytearray(range(28))
    r.shuffle(b, 28)
    assert sorted(b) == list(range(28))
    assert list(b) != list(range(28))


def test_deal_codes_round_trip():
    for s in (0, 1, 12345, 0x3FFFFFFF, next_seed(77)):
        c = code(s)
        assert len(c) == 7 and c[3] == "-"
        assert parse_code(c) == s
        assert parse_code(c.lower().replace("-", "")) == s
    assert parse_code("0O0-1IL") == parse_code("000-111")
    for bad in ("ABC", "ABC-DEFG", "UUU-UUU"):
        try:
            parse_code(bad)
            raise AssertionError("accepted " + bad)
        except ValueError:
            pass
