"""Game records: every variant's match written as text and replayed to the same sheet (portable).

mptest-heap: 80K -- this module holds three matches at once (played, replayed twin, loaded) besides the
whole engine; on the 64-bit unix port every object is twice its Pico size (the engine's code alone is
~41 KB here, ~24 KB on the device), so 64K here is tighter than a Pico.
"""
from domino.rules import Rules
from domino.round import PLAYING
from domino.match import Match
from domino.rng import Rng
from domino import record

_PATH = "/tmp/pico_domino_record_test.txt"


def _dumps(match, extras=None):
    """The record as one string (was domino.record.dumps; the device streams with record.dump)."""
    import io
    buf = io.StringIO()
    record.dump(match, buf, extras)
    return buf.getvalue()


def _round_trip(vid, p, teams):
    if True:
        m = Match(Rules(vid, p, teams), 99)
        pol = Rng(5)
        while not m.over and m.round_no < 12:
            m.start_round()
            rd = m.round
            while rd.result == PLAYING:
                n = rd.legal()
                if n:
                    m.play(rd.buf[pol.below(n)])
                else:
                    rd.forced()
            m.finish_round()
        with open(_PATH, "w") as f:                # streamed to a file, as the device saves
            record.dump(m, f, {"names": "A,B"})
        with open(_PATH) as f:
            m2, extras = record.load(f)
        assert m2.scores == m.scores and m2.round_no == m.round_no and m2.over == m.over, vid
        assert extras["names"] == "A,B"


def test_record_draw():
    _round_trip("draw", 2, False)


def test_record_fives_3p():
    _round_trip("fives", 3, False)


def test_record_pair_goat():
    _round_trip("goat", 4, True)


def test_record_donkey():
    _round_trip("donkey", 2, False)


def test_record_telephone():
    _round_trip("telephone", 2, False)


def test_record_blitz():
    _round_trip("blitz", 4, False)


def test_record_sea_goat():
    _round_trip("sea_goat", 3, False)


def test_record_rejects_bad_text():
    for text in ("", "DOMINO 1\nvariant nope\nplayers 2\nseed 000-001\n",
                 "DOMINO 1\nvariant draw\nplayers 2\nseed 000-001\nround 99\n",
                 "DOMINO 1\nvariant draw\nplayers 9\nseed 000-001\n", "garbage"):
        try:
            record.load(text)
            raise AssertionError("accepted: " + text)
        except record.RecordError:
            pass


def test_dumps_and_load_text():
    m = Match(Rules("draw", 2), 3)
    m.start_round()
    rd = m.round
    rd.legal()
    m.play(rd.buf[0])
    text = _dumps(m)
    assert text.startswith("DOMINO 1\n") and text.count("round") == 1
    m2, _ = record.load(text)
    record.run_forced(m)                        # loading performs the forced draws that follow
    assert m2.round.layout.size == 1 and m2.round.hands == m.round.hands
