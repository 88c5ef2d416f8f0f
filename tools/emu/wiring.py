"""How each board is wired, for the emulated Pico: the display on its bus and the buttons' GPIOs.

The buttons come from the board file itself (its PINS, read under CPython); the display's bus and
pins are the ones its build() passes to the driver (boards/*.py), repeated here because build()
only runs on a Pico: a wrong entry shows at once, as no frame is decoded.
"""
import importlib

# st7789: {spi, dc, cs, w, h, x, y} as run.mjs --st7789 takes it; ssd1306: {i2c, addr, w, h, sda, scl}
WIRING = {
    "waveshare_lcd13": {"st7789": {"spi": 1, "dc": 8, "cs": 9, "w": 240, "h": 240, "x": 0, "y": 0}},
    "pimoroni_pack": {"st7789": {"spi": 0, "dc": 16, "cs": 17, "w": 240, "h": 135, "x": 40, "y": 53}},
    "pimoroni_pack2": {"st7789": {"spi": 0, "dc": 16, "cs": 17, "w": 320, "h": 240, "x": 0, "y": 0},
                       "pins_from": "pimoroni_pack"},
    "oled_diy": {"ssd1306": {"i2c": 0, "addr": 0x3C, "w": 128, "h": 64, "sda": 4, "scl": 5}},
}
COLOUR = ("waveshare_lcd13", "pimoroni_pack", "pimoroni_pack2")
VBUS = 24   # the Pico's VBUS sense: high = USB powered (the app's watchdog stays off)


def module(board):
    return importlib.import_module("boards." + board)


def buttons(board):
    """[(gpio, key bit)] of the board's buttons (active low)."""
    return list(module(WIRING[board].get("pins_from", board)).PINS)


def released(board):
    """GPIOs driven high from reset: every button up, and USB power on VBUS."""
    return sorted(set([g for g, _ in buttons(board)] + [VBUS]))


def display(board):
    """(kind, wiring dict)."""
    w = WIRING[board]
    kind = "st7789" if "st7789" in w else "ssd1306"
    return kind, w[kind]


def rgb565_palette(board):
    """The 16 RGB565 values of the colour board's palette index (what the panel gets per index)."""
    from boards._base import PALETTE, palette565
    return palette565(PALETTE)
