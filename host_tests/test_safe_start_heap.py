"""Safe start (B held at power-on) -> Keep files -> Continue resumes the game at the whole-UI stress
heap (frames.STRESS_HEAP; at 180K a plain boot's resume, which now loads the AI after the save's
loading code, fell back to the menu in some heap layouts) as a plain boot does: the safe start's
own module goes once its screen is left (it stayed
loaded, about 6 KB at the main menu, so Continue loaded the save and the table into less room than
a plain boot had, and at the stress heap ran out twice and fell back to the menu). The real app
under the MicroPython unix port, the firmware compiled as deployed, the boot warm-up of the stress
runs on."""
import os
import subprocess

import pytest

HERE = os.path.dirname(os.path.abspath(__file__))
from tools.proofs.harness import frames  # noqa: E402

pytestmark = pytest.mark.skipif(frames.find() is None, reason="no micropython binary")

SCRIPT = r"""
import sys, gc, os
import boards.sim as sim
from ui.app import App
from keys import K_A, K_B
hold = os.getenv("HOLD") == "1"
b = sim.build(profile="sim", size=os.getenv("SIZE"), virtual=True)
if hold:
    b.host_keys(K_B)
app = App(b, os.getenv("UI_ROOT"), None, True)
b.host_keys(0)
def step(n):
    for _ in range(n):
        app.step()
def press(k):
    b.host_keys(k); step(1); b.host_keys(0); step(1)
step(5)
if hold:
    press(K_A)                   # Keep files
    step(5)
    gc.collect()
    print("menu", type(app.screen).__name__, int("ui.safestart" in sys.modules), gc.mem_free())
    press(K_A)                   # Continue
step(30)
print("end", type(app.screen).__name__, app.mem_errors, int(app.lean))
"""


def saved_game(d, kinds):
    from tools.proofs import faults
    import store
    from domino.match import Match
    from domino.rng import Rng
    from domino.rules import Rules
    st = store.Store(str(d))
    m = Match(Rules("fives", 2), 4242)
    m.start_round()
    ex = {"seats": kinds, "names": "You,Bob", "sheet": ""}
    st.save_game(m, ex)
    faults.play(st, m, Rng(3), 9, ex)


@pytest.mark.parametrize("size", ["240x240", "128x64"])
def test_safe_start_keep_files_continue_resumes_as_a_plain_boot(mpy, tmp_path, size):
    script = tmp_path / "safe.py"
    script.write_text(SCRIPT)
    out = {}
    for hold in ("1", "0"):
        d = tmp_path / ("flash" + hold)
        saved_game(d, "human,hard")
        env = frames.mp_env(mpy[0], mpy[1], UI_ROOT=str(d), HOLD=hold, SIZE=size)
        r = subprocess.run([frames.find(), "-X", "heapsize=" + frames.STRESS_HEAP, str(script)], env=env,
                           capture_output=True, text=True, timeout=300)
        assert r.returncode == 0, r.stderr
        out[hold] = dict((ln.split()[0], ln.split()[1:]) for ln in r.stdout.splitlines())
    menu = out["1"]["menu"]
    assert menu[0] == "MainMenu" and menu[1] == "0", menu      # its module gone with its screen
    assert out["1"]["end"] == ["Table", "0", "0"] == out["0"]["end"], out
