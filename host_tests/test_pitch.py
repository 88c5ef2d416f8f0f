"""Every board states its panel's pixel pitch, the simulator takes the pitch of the board whose
screen it shows, and the Board's mm <-> px helpers round so that a size is never short."""
import importlib
import os
import subprocess

import pytest

import boards
from boards._base import Board

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
SIZES = ("240x240", "240x135", "320x240", "128x64")   # boards/sim.py's, read from the board files

PANELS = [n for n in boards.NAMES if n != "sim"]


@pytest.mark.parametrize("name", PANELS)
def test_every_panel_states_its_pitch(name):
    mod = importlib.import_module("boards." + name)
    assert isinstance(mod.PITCH_UM, int)
    # A pitch that makes the panel's diagonal 0.9" .. 2.1" (the boards are 0.96" .. 2.0"): a pitch
    # written in the wrong unit (mm, nm) or for another panel's resolution fails here.
    w = mod.WIDTH * mod.PITCH_UM
    h = mod.HEIGHT * mod.PITCH_UM
    assert 0.9 * 25400 < (w * w + h * h) ** 0.5 < 2.1 * 25400


def sim_pitches(micropython, calls):
    """board.pitch_um of boards.sim.build(*args) for each args in calls, under MicroPython (the
    simulator's board needs framebuf)."""
    code = "from boards import sim\nfor a in %r:\n print(sim.build(*a).pitch_um)\n" % (calls,)
    env = dict(os.environ, MICROPYPATH=os.pathsep.join((os.path.join(ROOT, "firmware"), ROOT)))
    for k in ("PICO_SIM_PROFILE", "PICO_SIM_SIZE", "PICO_SIM_OUT", "PICO_SIM_IN"):
        env.pop(k, None)
    r = subprocess.run([micropython, "-c", code], env=env, cwd=ROOT, capture_output=True,
                       text=True, timeout=60)
    assert r.returncode == 0, r.stderr
    return [int(v) for v in r.stdout.split()]


def test_sim_takes_the_pitch_of_what_it_mimics(micropython):
    panels = {n: importlib.import_module("boards." + n) for n in PANELS}
    by_size = {"%dx%d" % (m.WIDTH, m.HEIGHT): m.PITCH_UM for m in panels.values()}
    assert sorted(by_size) == sorted(SIZES)
    calls = [(p,) for p in ["sim"] + PANELS] + [("waveshare_lcd13", s) for s in SIZES]
    want = [panels["waveshare_lcd13"].PITCH_UM] + [panels[p].PITCH_UM for p in PANELS] + \
        [by_size[s] for s in SIZES]
    assert sim_pitches(micropython, calls) == want


def test_px_for_um_is_never_short_and_um_of_px_inverts_it():
    b = Board()
    for pitch in (97, 103, 127, 169):
        b.pitch_um = pitch
        for um in range(1, 5000, 7):
            px = b.px_for_um(um)
            assert b.um_of_px(px) >= um > b.um_of_px(px - 1)
