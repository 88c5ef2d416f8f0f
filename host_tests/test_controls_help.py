"""The Controls page (Rules help -> Controls) and the docs' key tables say, for every board, only what
that board's keys do: the text is made from the board's key map (boards/<name>.py KEYS, KEY_HELP;
firmware/ui/help.txt's key sections), and the keys it names are pressed on that board, through the
real app under MicroPython, to see that they do it."""
import importlib
import os
import re
import types

import pytest

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
from tools.proofs.harness import frames  # noqa: E402
from tools.sim.ui_host import device_module  # noqa: E402

K_X, K_Y, K_PRESS = 0x040, 0x080, 0x100
BOARDS = {"waveshare_lcd13": "240x240", "pimoroni_pack": "240x135", "pimoroni_pack2": "320x240",
          "oled_diy": "128x64"}


def widgets():
    """firmware/ui/helptext.py (the help page's text) under CPython."""
    return device_module("ui.helptext")


def controls_of(name):
    mod = importlib.import_module("boards." + name)
    board = types.SimpleNamespace(KEYS=mod.KEYS, KEY_HELP=mod.KEY_HELP)
    return mod, widgets().controls(board, mod.HEIGHT < 100)


def claims(text):
    """What the text says the X and Y buttons do on the table: {"X": "hint"|"up", "Y": ...}."""
    out = {}
    for key in ("X", "Y"):
        said = set()
        if re.search(r"\b%s asks for a hint|\b%s hint\b" % (key, key), text):
            said.add("hint")
        if re.search(r"\b(B or )?%s opens the game menu|\b%s menu\b" % (key, key), text):
            said.add("menu")
        if re.search(r"\b%s shows the scores|\b%s scores\b" % (key, key), text):
            said.add("scores")
        if re.search(r"X/Y up/down", text):
            said.add("up" if key == "X" else "down")
        out[key] = said
    return out


@pytest.mark.parametrize("name", sorted(BOARDS))
def test_controls_page_names_only_the_keys_the_board_has(name):
    mod, text = controls_of(name)
    said = claims(text)
    has_x, has_y = mod.KEYS & K_X, mod.KEYS & K_Y
    compact = mod.HEIGHT < 100
    assert said["X"] == ({"hint"} if has_x else {"up"}), (name, said, text)
    want_y = ({"scores"} if compact else {"menu"}) if has_y else {"down"}
    assert said["Y"] == want_y, (name, said, text)
    assert ("joystick" in text.lower()) == bool(mod.KEYS & K_PRESS), text
    assert "B opens the game menu" in text or "B or Y opens the game menu" in text
    assert "hint" in text.lower()                    # every board says where the hint is


def docs_table(path):
    """HARDWARE.md's controls table: {column heading: {action: cell}}."""
    lines = open(os.path.join(ROOT, path), encoding="utf-8").read().splitlines()
    i = [k for k, ln in enumerate(lines) if ln.startswith("| action | Waveshare")][0]
    heads = [c.strip() for c in lines[i].strip("|").split("|")]
    out = {h: {} for h in heads[1:]}
    for ln in lines[i + 2:]:
        if not ln.startswith("|"):
            break
        cells = [c.strip() for c in ln.strip("|").split("|")]
        for h, cell in zip(heads[1:], cells[1:]):
            out[h][cells[0]] = cell
    return out


def test_hardware_docs_key_table_matches_the_boards():
    table = docs_table("docs/HARDWARE.md")
    cols = {"waveshare_lcd13": "Waveshare Pico-LCD-1.3", "oled_diy": "DIY OLED",
            "pimoroni_pack": "Pimoroni Display Pack / Pack 2.0",
            "pimoroni_pack2": "Pimoroni Display Pack / Pack 2.0"}
    for name, col in cols.items():
        said = claims(controls_of(name)[1])
        cells = table[col]
        assert ("**X**" in cells["hint"]) == ("hint" in said["X"]), (name, cells["hint"])
        assert ("**Y**" in cells["game menu"]) == ("menu" in said["Y"]), (name, cells["game menu"])
        assert ("**Y**" in cells["scores"]) == ("scores" in said["Y"]), (name, cells["scores"])
        assert "**B**" in cells["game menu"]


@pytest.mark.skipif(frames.find() is None, reason="no micropython binary")
@pytest.mark.parametrize("name", sorted(BOARDS))
def test_the_named_keys_do_what_the_page_says(name, tmp_path):
    """On the table, your turn: X and Y pressed on the board's own key lines."""
    said = claims(controls_of(name)[1])
    got = {}
    for key in ("x", "y"):
        out = frames.run({"profile": name, "size": BOARDS[name], "seed": 3,
                          "root": str(tmp_path / key), "do": [
                              ["new", "fives", 2, ["human", "easy"]], ["settle"], ["state"],
                              ["keys", key], ["settle"], ["state"]]})
        assert out["errors"] == 0, out.get("last_error")
        before, after = out["states"]
        assert before["screen"] == "Table" and before["mode"] == 1, before
        if after["screen"] == "Pause":
            got[key.upper()] = "menu"
        elif after["screen"] == "ScoresView":
            got[key.upper()] = "scores"
        elif after["msg"].startswith("Hint") or after["msg"].startswith("Thinking of a hint"):
            got[key.upper()] = "hint"
        elif after["cursor"] != before["cursor"] or after["screen"] == "Table":
            got[key.upper()] = "up" if key == "x" else "down"   # (a jump: may stay on one tile)
    assert {k: {v} for k, v in got.items()} == said, (name, got, said)
