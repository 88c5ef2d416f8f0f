"""New game from a deal code a friend read out: the Deal row of the New game form and its code editor
(firmware/ui/dealcode.py), driven by keys under the real MicroPython (tools/proofs/harness/driver.py,
firmware compiled to .mpy as deployed)."""
import os

import pytest

HERE = os.path.dirname(os.path.abspath(__file__))
from tools.proofs.harness import frames  # noqa: E402

from domino.match import Match  # noqa: E402
from domino.rng import parse_code  # noqa: E402
from domino.rules import VARIANTS, Rules  # noqa: E402

pytestmark = pytest.mark.skipif(frames.find() is None, reason="no micropython binary")

ALPHABET = "0123456789ABCDEFGHJKMNPQRSTVWXYZ"
ROWS = ["Variant", "Players", "Seat 1", "Seat 2", "Practice", "Target", "Hand size", "Deal", "Start game"]
FIXED_SEED = 1234            # the driver's fixed deal for games without a code


def run(mpy, job, tmp_path):
    job.setdefault("root", str(tmp_path / "flash"))
    job.setdefault("seed", FIXED_SEED)
    out = frames.run(job, code=mpy[0], boards=mpy[1])
    assert out["errors"] == 0, out.get("last_error")
    return out


def slot_keys(letter, up="up", down="down"):
    """Presses that turn a slot's "0" into `letter` the short way round the 32 letters."""
    i = ALPHABET.index(letter)
    return [up] * i if i <= 16 else [down] * (32 - i)


def typed(code, up="up", down="down", step="right"):
    """Keys entering `code` in a fresh editor: each slot's letter, `step` to the next slot, and A on
    the last slot to confirm."""
    keys = []
    letters = code.replace("-", "")
    for n, ch in enumerate(letters):
        keys += slot_keys(ch, up, down)
        keys.append("a" if n == len(letters) - 1 else step)
    return " ".join(keys)


def first_deal(vid, players, code):
    m = Match(Rules(vid, players), parse_code(code))
    m.start_round()
    return [m.round.hands[s] for s in range(players)], m.round.leader


def deal_value(state):
    assert state["rows"] == ROWS, state
    return state["values"][ROWS.index("Deal")]


def test_code_by_keys_deals_that_deal_and_round_end_shows_it(mpy, tmp_path):
    code = "7KX-M2Q"
    out = run(mpy, {"size": "240x240", "do": [
        ["menu", "New game"], ["state"],
        ["keys", "up up a"], ["state"],                          # the Deal row (above Start game): A
        ["keys", typed(code)], ["state"],
        ["keys", "up up up up a a"],                        # Seat 2 (past Practice): Medium, Hard, Human
        ["keys", "down down down down down a"],                  # Start game (past Names)
        ["deal"], ["state"],
        ["until", "RoundEnd"], ["texts"], ["keys", "a"],        # round end, page 2: what it gave
        ["state"]]}, tmp_path)
    form, editor, back, table, page = out["states"]
    assert deal_value(form) == "Random"
    assert editor["screen"] == "CodeEditor"
    assert back["screen"] == "NewGame" and deal_value(back) == code
    assert table["screen"] == "Curtain"                          # two humans: nothing played yet
    deal = out["deals"][0]
    assert deal["round_no"] == 1 and deal["moves_played"] == 0
    assert deal["code"] == code and deal["seed"] == parse_code(code) != FIXED_SEED
    hands, leader = first_deal(VARIANTS[0][0], 2, code)
    assert deal["hands"] == hands and deal["leader"] == leader
    assert out["result"] == "at RoundEnd" and page["screen"] == "RoundEnd"
    assert ["text", "Deal " + code] in out["texts"]


def test_four_button_board_enters_a_code_with_up_down_a(mpy, tmp_path):
    code = "Z0N-4HW"
    out = run(mpy, {"profile": "pimoroni_pack", "size": "240x135", "do": [
        ["menu", "New game"],
        ["keys", "x x a"],                                       # X = UP: up twice to Deal, A
        ["keys", typed(code, "x", "y", "a")], ["state"],         # A goes on to the next slot
        ["keys", "y a"], ["deal"]]}, tmp_path)
    assert deal_value(out["states"][0]) == code
    deal = out["deals"][0]
    assert deal["code"] == code and deal["seed"] == parse_code(code)
    # B held + X / Y move between slots (B itself does not cancel then); B + X from the first slot
    # reaches "Random"
    out = run(mpy, {"profile": "pimoroni_pack", "size": "240x135", "do": [
        ["menu", "New game"], ["keys", "x x a"],
        ["keys", "x x b+y x b+y b+y b+y b+y a"], ["state"],
        ["keys", "a b+x a"], ["state"]]}, tmp_path / "chords")
    assert deal_value(out["states"][0]) == "210-000"
    assert deal_value(out["states"][1]) == "Random"


def test_cancel_leaves_random_and_random_clears_a_code(mpy, tmp_path):
    out = run(mpy, {"size": "128x64", "do": [
        ["menu", "New game"], ["keys", "up up a"],
        ["keys", "up up right"], ["draw_alloc", 10], ["texts"], ["keys", "down up b"], ["state"],
        ["keys", "a"], ["keys", typed("1AB-2CD")], ["state"],
        ["keys", "a up b"], ["state"],                           # a change, cancelled: the code stays
        ["keys", "a left a"], ["state"],                         # LEFT from the first slot: Random
        ["keys", "right"], ["state"],                            # on the form: the code again
        ["keys", "left"], ["state"],                             # and Random
        ["keys", "down a"], ["deal"]]}, tmp_path)
    cancelled, entered, kept, cleared, again, random = out["states"]
    assert cancelled["screen"] == "NewGame" and deal_value(cancelled) == "Random"
    assert deal_value(entered) == "1AB-2CD"
    assert deal_value(kept) == "1AB-2CD"
    assert deal_value(cleared) == "Random"
    assert deal_value(again) == "1AB-2CD"
    assert deal_value(random) == "Random"
    assert out["deals"][0]["seed"] == FIXED_SEED                # Random: the usual deal
    # the editor draws without allocating; 2x letters fit across the 128x64 OLED
    assert out["draw_alloc"] == [{"screen": "CodeEditor", "bytes": 0}]
    letters = [t[1] for t in out["texts"] if t[0] == "big" and t[2] == 2]
    assert letters[:14] == list("2Z0-000") + list("200-000")        # after DOWN, after UP
