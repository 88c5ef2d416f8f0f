"""firmware/heapplug.py off the device: it does nothing, with or without module heappins (CPython,
the simulator; the 64-bit unix port). On the emulated Pico it plugs every pinned address:
test_pico_emu.py, test_boot_plugs_the_pinned_addresses."""
import os
import sys
import types

import heapplug

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def test_without_heappins_nothing_is_plugged():
    sys.modules.pop("heappins", None)
    assert heapplug.plug() == []


def test_off_a_32_bit_micropython_nothing_is_plugged(monkeypatch):
    monkeypatch.setitem(sys.modules, "heappins", types.SimpleNamespace(PINS=(0x2000BC10,)))
    assert heapplug.plug() == []


def test_main_plugs_before_anything_else_is_imported():
    """The plugs go in while the heap is nearly empty: the first import of main.py."""
    with open(os.path.join(ROOT, "firmware", "main.py")) as f:
        imports = [ln.split()[1] for ln in f if ln.startswith("import ")]
    assert imports[:3] == ["sys", "heapplug", "boards"]
