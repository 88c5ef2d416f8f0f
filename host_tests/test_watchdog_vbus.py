"""boards/_hw.py's watchdog(): VBUS on GPIO24 on a Pico; none on a Pico W or Pico 2 W, where VBUS is
sensed only through the wireless chip and reading it starts that chip (its firmware loaded, ~0.35 s,
and its current), for a game that never uses the radio."""
import importlib.util
import os
import sys

import pytest

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


@pytest.fixture
def hw(monkeypatch):
    """boards/_hw.py loaded against host_tests/fakes/machine.py, every Pin taken recorded."""
    spec = importlib.util.spec_from_file_location("fake_machine", os.path.join(ROOT, "host_tests", "fakes",
                                                                               "machine.py"))
    machine = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(machine)
    taken = []

    class Pin(machine.Pin):
        def __init__(self, id, *args, **kw):
            taken.append(id)
            super().__init__(id, *args, **kw)

    machine.Pin = Pin
    monkeypatch.setitem(sys.modules, "machine", machine)
    spec = importlib.util.spec_from_file_location("_hw_under_test", os.path.join(ROOT, "boards", "_hw.py"))
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod, machine, taken


@pytest.mark.parametrize("name", ["Raspberry Pi Pico W with RP2040", "Raspberry Pi Pico 2 W with RP2350"])
def test_no_watchdog_and_no_wireless_pin_on_a_w(hw, name):
    mod, _, taken = hw
    assert mod.watchdog(name) is None
    assert taken == []


@pytest.mark.parametrize("name", ["Raspberry Pi Pico with RP2040", "Raspberry Pi Pico 2 with RP2350"])
def test_a_pico_senses_vbus_on_gpio24(hw, name):
    mod, machine, taken = hw
    wd = mod.watchdog(name)
    assert taken == [24]
    machine.Pin.levels[24] = 0
    assert wd.usb_power() is False            # on battery: the watchdog may start
    machine.Pin.levels[24] = 1
    assert wd.usb_power() is True
