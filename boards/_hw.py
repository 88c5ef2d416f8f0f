# Hardware helpers shared by the real boards: GPIO keys, PWM, watchdog. (A part only one board has
# lives in that board's file: the Display Pack's RGB LED, the DIY build's piezo.)
# Imports `machine`: only board build() functions import this module.
import sys
import time

from machine import PWM, Pin

try:
    from micropython import const
except ImportError:
    def const(x):
        return x

_BOUNCE_MS = const(30)


class GpioKeys:
    """Active-low buttons with pull-ups -> bitmask of logical keys.

    pins: tuple of (gpio, key bit). read() returns the keys down now OR pressed since the last
    read (a pin interrupt latches each press), so a tap shorter than the UI's polling period, e.g.
    while the AI thinks, is still seen once. The interrupt ignores edges within 30 ms of the
    previous edge of the same pin (contact bounce, including the bounce of a release)."""

    def __init__(self, pins, irq=True):
        self.pins = []
        self.bits = []
        self.latched = 0
        self._last = []
        for gpio, bit in pins:
            p = Pin(gpio, Pin.IN, Pin.PULL_UP)
            self.pins.append(p)
            self.bits.append(bit)
            self._last.append(0)
            if irq:
                try:
                    p.irq(handler=self._make_handler(len(self.pins) - 1),
                          trigger=Pin.IRQ_FALLING | Pin.IRQ_RISING)
                except (AttributeError, TypeError, ValueError, OSError):
                    pass  # no pin interrupts: plain polling still works

    def _make_handler(self, i):
        def handler(pin):
            now = time.ticks_ms()
            if time.ticks_diff(now, self._last[i]) > _BOUNCE_MS and not pin.value():
                self.latched |= self.bits[i]
            self._last[i] = now
        return handler

    def read(self):
        k = self.latched
        self.latched = 0
        pins = self.pins
        bits = self.bits
        for i in range(len(pins)):
            if not pins[i].value():
                k |= bits[i]
        return k


def pwm(gpio, freq=1000, duty=0):
    p = PWM(Pin(gpio))
    p.freq(freq)
    p.duty_u16(duty)
    return p


LINK_BAUD = const(115200)   # docs/LINK.md, "The wire"


def link_uart(uid, tx, rx):
    """The link cable's UART: 8N1, reads never wait (the app polls it every pass of its loop), a
    receive buffer for what comes while a frame is drawn or a save writes the flash."""
    from machine import UART
    return UART(uid, LINK_BAUD, tx=Pin(tx), rx=Pin(rx), timeout=0, rxbuf=256)


def watchdog(machine=getattr(sys.implementation, "_machine", "")):
    """The board's Watchdog; None on a Pico W or Pico 2 W ("Raspberry Pi Pico W with RP2040"), where
    VBUS is sensed only through the wireless chip (its GPIO2): reading it starts that chip, its
    firmware loaded over SPI (~0.35 s) and its current drawn from then on, for a game that never uses
    the radio. Without a way to tell USB power, the watchdog could reset the W under mpremote, so the
    app has none there (the settings screen says so)."""
    if " W with " in machine:
        return None
    return Watchdog()


class Watchdog:
    """machine.WDT for the app, which feeds it from its loop and from the AI's search ticks.

    It is only started when USB has no power: on a PC's USB port mpremote stops the program to
    reach the REPL, and the RP2040's watchdog cannot be stopped once started, so it would reset the
    Pico under mpremote. VBUS is sensed on GPIO24 (Pico, Pico 2; a W has it on its wireless chip:
    watchdog()). When VBUS cannot be read, USB counts as powered: the watchdog stays off."""

    def __init__(self):
        self.wdt = None
        try:
            self.vbus = Pin(24, Pin.IN)
        except (ValueError, TypeError, OSError):
            self.vbus = None

    def usb_power(self):
        try:
            return self.vbus is None or self.vbus.value() == 1
        except OSError:
            return True

    def start(self, ms):
        """True when the watchdog runs (now or already); it bites after `ms` without a feed."""
        if self.wdt is None:
            from machine import WDT
            self.wdt = WDT(timeout=ms)
        return True

    def feed(self):
        if self.wdt is not None:
            self.wdt.feed()

    def reset(self):
        import machine
        machine.reset()
