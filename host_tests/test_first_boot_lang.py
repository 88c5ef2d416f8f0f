"""A device's first boot asks the language before anything else (ui/settings.py AskLang), once: the
answer is saved and the boot goes on as it would have (a saved game resumed, else the main menu);
B keeps English. The browser is not asked: it follows the browser's language (boards/web.py, the
board's `lang`). On the 128x64 OLED, whose 8x8 font has ASCII only, Russian (and the question
itself) is drawn in the board's Terminus font (Gfx.for_lang). The real app under the MicroPython
unix port, the firmware compiled as deployed."""
import json
import os
import subprocess

import pytest

from tools.proofs.harness import frames

pytestmark = pytest.mark.skipif(frames.find() is None, reason="no micropython binary")

SCRIPT = r"""
import os, sys, json
import boards.sim as sim
from ui.app import App
from keys import K_A, K_B, K_DOWN
b = sim.build(profile=os.getenv("PROFILE"), virtual=True)
b.lang = os.getenv("HOST_LANG") or None
app = App(b, os.getenv("UI_ROOT"))
def step(n):
    for _ in range(n):
        app.step()
def press(k):
    b.host_keys(k); step(2); b.host_keys(0); step(2)
def state():
    g = app.g
    lang = sys.modules.get("ui.lang")
    return {"screen": type(app.screen).__name__, "lang": app.settings["lang"],
            "font": g.font is not None, "cw": g.cw, "cols": g.cols,
            "menu": lang.tr("New game") if lang else "New game"}
step(10)
out = {"boot": state()}
for k in os.getenv("KEYS", "").split():
    press({"a": K_A, "b": K_B, "down": K_DOWN}[k])
step(10)
out["after"] = state()
print(json.dumps(out))
"""


def run(mpy, tmp_path, root, profile, keys="", host_lang=""):
    script = tmp_path / "first.py"
    script.write_text(SCRIPT)
    env = frames.mp_env(mpy[0], mpy[1], UI_ROOT=str(root), PROFILE=profile, KEYS=keys,
                        HOST_LANG=host_lang)
    r = subprocess.run([frames.find(), "-X", "heapsize=2M", str(script)], env=env,
                       capture_output=True, text=True, timeout=120, cwd=frames.mp_cwd(mpy[0]))
    assert r.returncode == 0, r.stderr[-2000:]
    return json.loads(r.stdout.strip().splitlines()[-1])


def settings(root):
    with open(os.path.join(str(root), "settings.json")) as f:
        return json.loads(f.readline())


@pytest.mark.parametrize("profile", ["waveshare_lcd13", "oled_diy"])
def test_first_boot_asks_then_remembers(mpy, tmp_path, profile):
    root = tmp_path / "flash"
    root.mkdir()
    out = run(mpy, tmp_path, root, profile, "down a")
    assert out["boot"]["screen"] == "AskLang" and out["boot"]["font"]   # both alphabets drawable
    after = out["after"]
    assert after["screen"] == "MainMenu" and after["lang"] == "ru" and after["menu"] != "New game"
    assert after["font"]                          # the OLED too: Cyrillic needs the board font
    assert settings(root)["lang"] == "ru"
    again = run(mpy, tmp_path, root, profile)     # the next boot: not asked again, still Russian
    assert again["boot"]["screen"] == "MainMenu" and again["boot"]["lang"] == "ru"


@pytest.mark.parametrize("profile", ["waveshare_lcd13", "oled_diy"])
def test_b_keeps_english(mpy, tmp_path, profile):
    root = tmp_path / "flash"
    root.mkdir()
    out = run(mpy, tmp_path, root, profile, "b")
    after = out["after"]
    assert after["screen"] == "MainMenu" and after["lang"] == "en" and after["menu"] == "New game"
    if profile == "oled_diy":                     # English: framebuf's 8x8 font again, 16 columns
        assert not after["font"] and after["cw"] == 8 and after["cols"] == 16
    assert settings(root)["lang"] == "en"
    assert run(mpy, tmp_path, root, profile)["boot"]["screen"] == "MainMenu"


def test_a_saved_game_resumes_after_the_question(mpy, tmp_path):
    from tools.proofs import faults
    import store
    from domino.match import Match
    from domino.rng import Rng
    from domino.rules import Rules
    root = tmp_path / "flash"
    root.mkdir()
    st = store.Store(str(root))
    m = Match(Rules("fives", 2), 4242)
    m.start_round()
    ex = {"seats": "human,medium", "names": "You,Bob", "sheet": ""}
    st.save_game(m, ex)
    faults.play(st, m, Rng(3), 5, ex)
    out = run(mpy, tmp_path, root, "waveshare_lcd13", "a")
    assert out["boot"]["screen"] == "AskLang"
    assert out["after"]["screen"] == "Table" and out["after"]["lang"] == "en"


@pytest.mark.parametrize("host, want", [("ru", "ru"), ("en", "en")])
def test_the_browser_is_not_asked(mpy, tmp_path, host, want):
    """boards/web.py gives the browser's language as the board's: followed, not asked, and not
    written until the settings are saved for another reason."""
    root = tmp_path / "flash"
    root.mkdir()
    out = run(mpy, tmp_path, root, "oled_diy", "", host)
    assert out["boot"]["screen"] == "MainMenu" and out["boot"]["lang"] == want
    assert out["boot"]["font"] == (want == "ru")
    assert not (root / "settings.json").exists()
