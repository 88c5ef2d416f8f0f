"""Layout counts, legal moves, forced draws, block detection and records (portable)."""
from domino import tiles
from domino.rules import Rules
from domino.round import Round, PLAYING, OUT, BLOCKED, EV_DRAW, EV_PASS
from domino.layout import L, R, U, D

T = tiles.parse


def _tile_count(rd):
    """Tiles in hands + stock + table + out of play (28 when none is lost or doubled)."""
    m = rd.layout.played | rd.out_of_play
    c = tiles.popcount(rd.layout.played) + tiles.popcount(rd.out_of_play) + rd.sn - rd.sp
    for i in range(rd.sp, rd.sn):
        m |= 1 << rd.stock[i]
    for s in range(rd.rules.players):
        m |= rd.hands[s]
        c += tiles.popcount(rd.hands[s])
    return c if m == tiles.ALL else -c


def _mask(names):
    m = 0
    for n in names.split():
        m |= 1 << T(n)
    return m


def test_spinner_count_and_long_sides():
    rd = Round(Rules("fives", 2))
    rd.setup([_mask("55 56 00 11 12 13 14"), _mask("05 66 22 23 24 34 33")], bytearray(0), 0, 0)
    lay = rd.layout
    rd.play(T("55"))
    assert lay.count() == 10 and rd.inplay[0] == 10          # lone 5-5 counts both halves once
    assert not lay.is_open(U)
    rd.set_leader(1)
    rd.play(T("05") | (L << 5))                               # spinner still an end on the right
    assert lay.count() == 0 + 10 and rd.inplay[1] == 10
    assert not lay.is_open(U)
    rd.turn = 0
    rd.play(T("56") | (R << 5))                               # both directions built: only ends count
    assert lay.is_open(U) and lay.is_open(D)
    assert lay.count() == 0 + 6
    assert lay.count(True) == 16                              # the "keeps counting" option


def test_legal_dedupes_mirror_ends_and_forced_draw():
    rd = Round(Rules("draw", 2))
    rd.setup([_mask("66 01"), _mask("26 36 11")], bytearray([T("04"), T("16"), T("22")]), 3)
    assert rd.turn == 0 and rd.legal() == 1 and rd.buf[0] == T("66")   # highest double must lead
    rd.play(T("66"))
    assert rd.legal() == 2                                     # 2-6 and 3-6, each once (L == R)
    rd.play(rd.buf[0])
    assert rd.turn == 0 and rd.legal() == 0
    assert rd.forced() == EV_DRAW and rd.legal() == 0          # 0-4 does not fit
    assert rd.forced() == EV_DRAW and rd.legal() >= 1          # 1-6 fits: must be played
    assert _tile_count(rd) == 28


def test_block_detected_at_once():
    rd = Round(Rules("block", 2))
    rd.setup([_mask("01 12 66"), _mask("23 45")], bytearray(0), 0, 0)
    rd.play(T("01"))
    assert rd.result == PLAYING and rd.turn == 1 and rd.legal() == 0
    assert rd.forced() == EV_PASS and rd.turn == 0
    rd.play(T("12") | (R << 5))                                # ends 0 and 2: 2-3 fits
    assert rd.result == PLAYING
    rd.play(T("23") | (R << 5))                                # ends 0 and 3: nothing left fits
    assert rd.result == BLOCKED and rd.fisher == 1


def test_going_out():
    rd = Round(Rules("block", 2))
    rd.setup([_mask("01"), _mask("23 45")], bytearray(0), 0, 0)
    rd.play(T("01"))
    assert rd.result == OUT and rd.winner == 0
