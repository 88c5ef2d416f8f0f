"""The line at a readable size (game menu > The line, ui/lineview.py), on every screen size and in
both languages, through the real firmware on the MicroPython unix port: the pips at the panel's
legible size (>= 0.4 mm), every tile of the table there and none overlapping, the window opened on
the last move and that move outlined, the arrows panning within the line, A back to the last move,
B back to the menu; its texts whole."""

import pytest

from test_ui import pip_px, run
from tools.proofs.harness import frames

pytestmark = pytest.mark.skipif(frames.find() is None, reason="no micropython binary")

SIZES = [("240x240", None), ("320x240", None), ("240x135", None), ("240x135", "pimoroni_pack"),
         ("128x64", None)]
ACCENT = 9                                   # boards/_base.py PALETTE: the last move's outline


def _rect(t, s):
    """(x0, y0, x1, y1) of a placed tile [id, x, y, horizontal] at half-size s."""
    _, x, y, hor = t
    return x, y, x + (2 * s if hor else s), y + (s if hor else 2 * s)


def _job(size, profile, lang):
    job = {"size": size, "seed": 23, "lang": lang,
           "do": [["new", "draw", 2, ["human", "easy"]], ["match", 7], ["state"], ["keys", "b"],
                  ["menu", "The line"], ["texts"], ["state"], ["png", "line"],
                  ["keys", "right right right down"], ["state"],
                  ["keys", "left left left left left left up up up up"], ["state"],
                  ["keys", "a"], ["state"], ["keys", "b"], ["state"]]}
    if profile:
        job["profile"] = profile
    return job


@pytest.mark.parametrize("size,profile", SIZES, ids=[s + ("-" + p if p else "") for s, p in SIZES])
def test_the_line_at_a_readable_size(mpy, tmp_path, size, profile):
    out = run(mpy, _job(size, profile, "en"), tmp_path)
    table, opened, panned, back, home, menu = out["states"]
    assert table["screen"] == "Table" and table["moves_played"] >= 8, table
    ln = opened["line"]
    assert opened["screen"] == "LineView", opened
    s = ln["s"]
    mono = size == "128x64"
    assert s >= ln["legible"] and pip_px(s, ln["pip"], mono) == ln["pip"], ln   # 0.4 mm pips
    assert ln["n"] == ln["played"] == len(ln["tiles"]) and ln["n"] >= 8, ln    # every tile there
    rects = [_rect(t, s) for t in ln["tiles"]]
    for i, a in enumerate(rects):                 # laid as on a table: none over another
        for b in rects[:i]:
            assert a[2] <= b[0] or b[2] <= a[0] or a[3] <= b[1] or b[3] <= a[1], (a, b)
    # opened on the last move, which is outlined
    last = [t for t in ln["tiles"] if (ln["last"] >> t[0]) & 1]
    assert last, ln["last"]
    x0, y0, x1, y1 = _rect(last[0], s)
    assert ln["ox"] <= x0 and x1 <= ln["ox"] + ln["vw"], ln
    assert ln["oy"] <= y0 and y1 <= ln["oy"] + ln["vh"], ln
    if not mono:
        w, h, px = frames.pixels(out["frames"]["line"])
        sx, sy = x0 - ln["ox"], y0 - ln["oy"] + ln["top"]
        ring = [px[sy - 1][x] for x in range(max(sx, 0), min(sx + 4, w))]
        assert ACCENT in ring, ring
    # the arrows pan, never off the line's extent; A goes back to where it opened, B to the menu
    ex = ln["ext"]
    for st in (panned, back):
        p = st["line"]
        assert ex[0] <= p["ox"] or ex[2] - ex[0] < p["vw"], p
        assert p["ox"] + p["vw"] <= ex[2] or ex[2] - ex[0] < p["vw"], p
        assert ex[1] <= p["oy"] or ex[3] - ex[1] < p["vh"], p
    if ex[2] - ex[0] > ln["vw"]:
        assert (panned["line"]["ox"], back["line"]["ox"]) != (ln["ox"], ln["ox"]), (ln, panned, back)
    assert (home["line"]["ox"], home["line"]["oy"]) == (ln["ox"], ln["oy"])
    assert menu["screen"] == "Pause", menu
    texts = [t[1] for t in out["texts"]]
    assert "The line" in texts and "B back" in texts, texts


@pytest.mark.parametrize("size", ["240x240", "240x135", "128x64"])
def test_the_line_in_russian_says_it_whole(mpy, tmp_path, size):
    out = run(mpy, _job(size, None, "ru"), tmp_path)
    opened = out["states"][1]
    assert opened["screen"] == "LineView", opened
    texts = [t[1] for t in out["texts"]]
    assert "Цепочка" in texts and "B назад" in texts, texts
