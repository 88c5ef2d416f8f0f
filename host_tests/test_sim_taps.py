"""The terminal simulator counts taps exactly: a key press is one step on the device, whatever the
interval between presses (once four DOWN presses 0.15 s apart used to move two rows, 0.22 s
apart five). tools/sim/term.py's TermKeys turns each press into a tap message; boards/sim.py holds the
tap down for one TAP_MS and up for one, each phase seen by the firmware's debouncer.

Checked with the real firmware on the virtual clock: N taps at any interval, or all at once, leave
the main menu exactly where N scripted DOWN presses do; and TermKeys itself, fed presses at human
intervals (taps) and at a terminal's auto-repeat rate (a held key)."""
import os
import shutil

import pytest

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

from tools import find_micropython  # noqa: E402
from tools.sim import link as sim_link  # noqa: E402
from tools.sim import term as sim_term  # noqa: E402

needs_mp = pytest.mark.skipif(not find_micropython.find(), reason="no micropython binary")


def menu_frame(tmp_path, taps=None, every_ms=0, script=None):
    """Boot the firmware (fresh flash: the main menu), then either send `taps` DOWN taps every_ms
    apart (0: all at once) or play `script` (tools/sim/main.py's words); the frame hash 3 s later."""
    data = str(tmp_path / ("d%s_%s" % (taps, every_ms)))
    shutil.rmtree(data, ignore_errors=True)
    sim = sim_link.Sim("waveshare_lcd13", None, None, virtual=True, data_dir=data)
    start = 1500                                 # the menu is up by then
    timeline, end = sim_link.parse_script(script or "")
    timeline = [(start + t, k) for t, what, k in timeline if what == "keys"]
    tap_at = [] if taps is None else [start + i * every_ms for i in range(taps)]
    stop = start + max(end, (taps or 0) * every_ms) + 3000
    now = 0
    keys = 0
    try:
        while now < stop:
            msg = sim.read_msg()
            assert msg is not None, sim.crash_text()
            kind, payload = msg
            if kind != sim_link.MSG_SLEEP:
                continue
            now += int.from_bytes(payload[:4], "little")
            while tap_at and tap_at[0] <= now:
                sim.send_tap(sim_link.K_DOWN)
                tap_at.pop(0)
            while timeline and timeline[0][0] <= now:
                keys = timeline.pop(0)[1]
                sim.send_keys(keys)
            sim.send_time(now, keys)
    finally:
        sim.stop()
    return sim_link.frame_hash(sim.frame)


@needs_mp
def test_every_tap_is_one_step(tmp_path):
    want = {n: menu_frame(tmp_path, script="down*%d" % n if n else "wait:10") for n in (0, 1, 2, 3)}
    assert len(set(want.values())) == 4          # four different menu rows
    for every in (0, 40, 100, 150, 220, 300):
        for n in (1, 2, 3):
            assert menu_frame(tmp_path, n, every) == want[n], (n, every)


class FakeSim:
    def __init__(self):
        self.sent = []

    def send_tap(self, k):
        self.sent.append(("tap", k))

    def send_keys(self, k):
        self.sent.append(("keys", k))


def test_term_keys_tap_per_press_and_hold_on_repeat():
    down = sim_link.K_DOWN
    for gap in (0.09, 0.15, 0.22, 0.3, 1.0):          # presses a person makes
        s = FakeSim()
        tk = sim_term.TermKeys(s)
        t = 0.0
        for _ in range(4):
            tk.press(down, t)
            tk.tick(t)
            t += gap
        tk.tick(t + 1)
        assert s.sent == [("tap", down)] * 4, gap
    s = FakeSim()                                      # a key held: the terminal repeats it
    tk = sim_term.TermKeys(s)
    t = 0.0
    tk.press(down, t)
    for i in range(20):                                # after its delay (the first repeat comes
        t = 0.5 + i * 0.033                            # as late as a second press: a tap too),
        tk.press(down, t)                              # 30 a second: held down
        tk.tick(t)
    tk.tick(t + sim_term.REPEAT_HOLD + 0.01)
    assert s.sent == [("tap", down), ("tap", down), ("keys", down), ("keys", 0)]
