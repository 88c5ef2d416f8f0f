# Pimoroni Pico Display Pack 2.0: 320x240 ST7789 (IPS, 2.0"), same pins and buttons as the
# Display Pack (see pimoroni_pack.py for the four-button mapping).
from boards.pimoroni_pack import KEY_HELP, KEYS, LINK, SHIFT, SHIFT_MAP  # noqa: F401

MIP_DEPS = ()
WIDTH = 320
HEIGHT = 240
MONO = False
# Pixel pitch in micrometres: the 2.0" 320x240 IPS panel's display area is 40.8 x 30.6 mm
# (Waveshare wiki, Pico-LCD-2 specification: the same panel): 127.5 um, rounded down.
PITCH_UM = 127
EXTRA_INIT = ((0xB2, b"\x0c\x0c\x00\x33\x33"), (0xC0, b"\x2c"), (0xC2, b"\x01"), (0xC3, b"\x12"),
              (0xC4, b"\x20"), (0xD0, b"\xa4\xa1"), (0xC6, b"\x0f"), (0xB7, b"\x35"),
              (0xBB, b"\x1f"), (0xD6, b"\xa1"))


def build():
    from boards import pimoroni_pack
    return pimoroni_pack.build(WIDTH, HEIGHT, 0, 0, "pimoroni_pack2", EXTRA_INIT, PITCH_UM)
