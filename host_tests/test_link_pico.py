"""Two emulated Picos joined by a link cable (tools/emu/link.py, docs/LINK.md): each boots the
deployed waveshare_lcd13 tree through the real main.py on stock MicroPython, one hosts and the other
joins through the buttons, and the match is played by A presses on each device in turn; on the way
the cable is pulled for 2.5 s (both screens say so, the move made meanwhile goes over when it is
back) and garbage is put on a wire. Both devices' saves must hold the same deal and the same moves,
and up to the pulled cable every still screen on both equals the simulator pair's, pixel for pixel.
Skips where the emulator is not set up (`make pico-emu`)."""
import os
import shutil

import pytest

from tools.emu import harness as emu
from tools.emu import link
from tools.emu import link_frames
from tools.sim import ui_host

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
WORK = os.path.join(ROOT, "build", "test_link_pico")
WHY = emu.missing()
pytestmark = pytest.mark.skipif(WHY is not None, reason="emulated Pico not set up: %s" % WHY)

PRESSES = 18
# device ms: the table is up from ~15 s; a deal where a player must draw half the stock shows the
# draws one at a time for ~2.5 s, and the screens compared before the cut are still three or more
CUT = (22000.0, 2500.0)
GARBAGE = (27000.0, 1, bytes(range(7, 250, 9)) + b"\x00\x01\x02\x00")
WARN_565 = (232 >> 3) << 11 | (40 >> 2) << 5 | (40 >> 3)    # the palette's WARN, as the panel gets it


def message_rows():
    """The rows of the table's message lines on waveshare_lcd13 (240x240), below the open ends' row,
    as the Table lays them out for two seats (the header's height does not move them)."""
    t = ui_host.make_table(240, 240, "draw", 2, "Guest")
    y0 = t.msg_y + t.ends_h
    return y0, y0 + t.msg_lines * t.app.g.lh


def game_lines(save):
    """The record's lines that both devices must share (the link header, names and checksum differ)."""
    assert save, "no game.txt on the device's flash"
    return [ln for ln in save.decode().splitlines() if not ln.startswith(("link ", "names ", "sum "))]


def warn_pixels(img, w=240):
    y0, y1 = message_rows()
    n = 0
    for i in range(y0 * w * 2, y1 * w * 2, 2):
        if img[i] << 8 | img[i + 1] == WARN_565:
            n += 1
    return n


@pytest.fixture(scope="module")
def smoke():
    shutil.rmtree(WORK, ignore_errors=True)
    return link.run(presses=PRESSES, cuts=[CUT], garbage=[GARBAGE], timeout=400, work=WORK)


def test_both_devices_play_the_same_moves(smoke):
    r = smoke
    assert r.rc == 0, r.why()
    for n in (0, 1):
        assert "Traceback" not in r.console(n), r.console(n)
        assert not r.device(n)["display"]["problems"]
    host, guest = game_lines(r.save(0, "game.txt")), game_lines(r.save(1, "game.txt"))
    assert host == guest
    rnd = [ln for ln in host if ln.startswith("round ")]
    assert rnd and len(rnd[-1].split()) >= 2 + 6, host       # round, its seed and >= 6 moves
    fig = link.figures(r)
    print("link smoke:", fig)
    assert fig["moves"] >= 6
    assert fig["latency_ms"] and fig["latency_ms"]["n"] >= 4
    # a move shows on the other device within 100 ms of the A press (device time: the emulator's
    # cycle count, not the host's clock); a move that ends the round draws the whole frame after it
    assert fig["latency_ms"]["median"] <= 100, fig


def test_the_pulled_cable_shows_and_the_game_goes_on(smoke):
    r = smoke
    at, dur = CUT
    # both screens say the cable is out (red in the message area) once 1.5 s have passed unheard
    for n in (0, 1):
        during = [img for label, t, img in r.shots(n) if at + 1600 <= t < at + dur]
        before = [img for label, t, img in r.shots(n) if label.startswith("auto") and t < at]
        assert during, "no picture taken while the cable was out"
        assert all(warn_pixels(img) > 100 for img in during), n
        assert before and warn_pixels(before[-1]) == 0
    assert sum(r.report["wires"][n]["dropped"] for n in (0, 1)) > 0
    # moves went over after the cable was back, the garbage was thrown away
    after = [t0 for n in (0, 1) for t0, _, _ in link.moves_sent(r, n) if t0 >= at + dur]
    assert after, "no move after the cable was back"
    assert any(g for n in (0, 1) for _, _, _, g, _ in r.frames(n))
    assert [t0 for n in (0, 1) for t0, _, _ in link.moves_sent(r, n) if t0 >= GARBAGE[0]]


def test_the_screens_equal_the_simulator_pairs(smoke):
    """Up to the pulled cable, at every point where both screens were still and a press was due,
    each emulated device's frame (as its panel got it over SPI) equals the simulator pair's, dealt
    the same and given the same keys (tools/emu/link_frames.py; a whole match in make soak)."""
    r = smoke
    names = [label for label, t, img in r.shots(0) if label.startswith("auto ") and t < CUT[0]]
    assert names == ["auto %d" % i for i in range(len(names))] and len(names) >= 3, names
    frames, hello = link_frames.sim_pair("waveshare_lcd13", len(names) - 1, link_frames.deal_seed(r))
    bad, seen = link_frames.compare(r, frames, hello, "waveshare_lcd13", names)
    assert not bad and seen == 2 * len(names), bad
    assert len(set(f for pair in frames for f in pair)) >= 4        # the table's moves, not one picture
