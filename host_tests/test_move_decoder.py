"""One reading of a move (domino/round.py: first_arm, first_tile, move_tiles) for every module: what
Round.play lays is what the decoder says, and the record, the move's words, the AI's policy and the
table's choice of tiles read the same. Of several doubles at once the first arm's double comes first
everywhere (it may become the spinner): the table's hint points at it, the record writes it first,
the words name it first."""
import os
import random
import re

import pytest

from tools.sim import ui_host  # noqa: F401  (the device's micropython module, for ui/)

from ai import policy
from domino import record
from domino.match import Match
from domino.record import run_forced
from domino.round import MULTI, first_arm, first_tile, move_tiles
from domino.rules import Rules
from domino.tiles import name, short
from ui import brain, words

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
# (variant, players, options): the forms where a move may lay several doubles at once, and two where
# it may not
FORMS = [("donkey", 4, None), ("sea_goat", 4, None), ("telephone", 2, {"four_doubles": "on"}),
         ("telephone", 4, {"four_doubles": "on"}), ("goat", 4, None), ("muggins", 3, None)]
ROUNDS = 60
_EV_PLAY = 1                      # = domino.round._EV_PLAY


def laid(rd, since):
    """(tile, arm) of each tile the events from `since` on say was laid, in order."""
    out = []
    for i in range(since, rd.nev):
        if rd.events[2 * i] >> 4 == _EV_PLAY:
            d = rd.events[2 * i + 1]
            out.append((d & 0x1F, d >> 5))
    return out


def test_form_known():
    """The forms above are the ones with several doubles at once (and two without, as controls)."""
    assert [Rules(v, n, False, o).multi for v, n, o in FORMS] == [4, 2, 4, 4, 1, 1]


@pytest.mark.parametrize("vid,players,opts", FORMS)
def test_the_decoder_says_what_the_round_lays(vid, players, opts):
    """Every move of seeded whole rounds (multi moves chosen where there are some): the decoder's
    first tile, first arm and tiles are what the round then lays; the record writes that tile first,
    the words name it first, the AI's policy reads the move the same way, the stand-in move (the
    heaviest tile, ui/brain.py) is legal."""
    multis = 0
    for r in range(ROUNDS):
        rng = random.Random(r)
        m = Match(Rules(vid, players, False, opts), 900 + r)
        m.start_round()
        rd = m.round
        while True:
            run_forced(m)
            if m.round_over():
                break
            moves = [rd.buf[i] for i in range(rd.legal())]
            multi = [mv for mv in moves if mv & MULTI]
            mv = rng.choice(multi or moves)
            lay = rd.layout
            ft, fa, mt = first_tile(lay, mv), first_arm(mv), move_tiles(lay, mv)
            text = record.move_text(rd, mv)
            said = words.describe(rd, mv)
            assert policy.move_tiles(lay, mv) == mt
            assert brain.stand_in(m) in moves
            n0 = rd.nev
            m.play(mv)
            got = laid(rd, n0)
            assert got and got[0] == (ft, fa), (vid, r, mv, got)
            assert sum(1 << t for t, _ in got) == mt, (vid, r, mv, got)
            assert text.startswith(short(ft)), (text, ft)
            assert said.startswith(name(ft)), (said, ft)
            if mv & MULTI:
                multis += 1
                assert len(got) == bin(mt).count("1") >= 2, got
                assert text.count("+") == said.count("+") == len(got) - 1, (text, said)
    if Rules(vid, players, False, opts).multi > 1:
        assert multis >= 10, multis


def test_one_decoder():
    """Outside the engine's round (which defines the encoding), the record (which writes and parses
    it) and the AI's rollouts (whose inner loop decodes inline, in the same order), no module reads
    a multi move's first arm by its bits."""
    allowed = {"firmware/domino/round.py", "firmware/domino/record.py", "firmware/ai/rollout.py"}
    bad = []
    for top in ("firmware", "boards", "tools"):
        for d, _, files in os.walk(os.path.join(ROOT, top)):
            for f in files:
                if f.endswith(".py"):
                    rel = os.path.relpath(os.path.join(d, f), ROOT)
                    src = open(os.path.join(d, f), encoding="utf-8").read()
                    if rel not in allowed and re.search(r">>\s*_FIRST_SHIFT", src):
                        bad.append(rel)
    assert not bad, bad
