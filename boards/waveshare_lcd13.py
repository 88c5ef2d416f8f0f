# Waveshare Pico-LCD-1.3: 240x240 ST7789 (IPS) on SPI1, joystick + four keys, PWM backlight.
#   SPI1: SCK 10, MOSI 11, CS 9, DC 8, RST 12, BL 13
#   keys (active low, pull-ups): A 15, B 17, X 19, Y 21; joystick up 2, down 18, left 16,
#   right 20, press 3
try:
    from micropython import const
except ImportError:  # CPython (tools read the board's size)
    def const(x):
        return x

_K_A = const(0x010)      # = keys.K_A
_K_ALL = const(0x1FF)    # = keys.K_ALL
_K_B = const(0x020)      # = keys.K_B
_K_DOWN = const(0x002)   # = keys.K_DOWN
_K_LEFT = const(0x004)   # = keys.K_LEFT
_K_PRESS = const(0x100)  # = keys.K_PRESS
_K_RIGHT = const(0x008)  # = keys.K_RIGHT
_K_UP = const(0x001)     # = keys.K_UP
_K_X = const(0x040)      # = keys.K_X
_K_Y = const(0x080)      # = keys.K_Y

MIP_DEPS = ()
WIDTH = 240
HEIGHT = 240
MONO = False
# Pixel pitch in micrometres: the panel's display area is 23.4 x 23.4 mm for 240 x 240 pixels
# (Waveshare wiki, Pico-LCD-1.3 specification): 97.5 um, rounded down so sizes in mm are never
# overstated. The UI chooses sizes by it (boards/_base.py px_of_um).
PITCH_UM = 97
KEYS = _K_ALL
SHIFT = 0
SHIFT_MAP = ()
# The link cable (docs/LINK.md): UART id, TX GPIO, RX GPIO. GP0/GP1 are free here.
LINK = (0, 0, 1)
KEY_HELP = "Joystick move, A play, B back, X hint, Y menu"
PINS = ((15, _K_A), (17, _K_B), (19, _K_X), (21, _K_Y),
        (2, _K_UP), (18, _K_DOWN), (16, _K_LEFT), (20, _K_RIGHT), (3, _K_PRESS))
# Porch, power and VCOM values as in the vendor's demo for this panel.
EXTRA_INIT = ((0xB2, b"\x0c\x0c\x00\x33\x33"), (0xB7, b"\x35"), (0xBB, b"\x19"), (0xC0, b"\x2c"),
              (0xC2, b"\x01"), (0xC3, b"\x12"), (0xC4, b"\x20"), (0xC6, b"\x0f"),
              (0xD0, b"\xa4\xa1"))


def build():
    from machine import SPI, Pin, freq

    from boards._hw import GpioKeys, pwm
    from boards._lcd import LcdBoard, start
    from boards._st7789 import ST7789

    f = freq()
    freq(f, f)  # pyright: ignore[reportCallIssue]  (rp2: the CPU's and the peripherals' clocks)
    #             the peripheral clock from clk_sys: the SPI at 62.5 MHz, not 24
    spi = SPI(1, baudrate=62500000, polarity=0, phase=0, sck=Pin(10), mosi=Pin(11))   # (BOARDS.md)
    disp = ST7789(spi, Pin(9, Pin.OUT), Pin(8, Pin.OUT), WIDTH, HEIGHT, rst=Pin(12, Pin.OUT),
                  backlight=pwm(13, 1000, 0), xoff=0, yoff=0, madctl=0x70,
                  extra_init=EXTRA_INIT)
    disp.init()
    b = LcdBoard("waveshare_lcd13", disp, GpioKeys(PINS))
    b.KEYS = KEYS
    b.KEY_HELP = KEY_HELP
    b.pitch_um = PITCH_UM
    b.link = LINK
    return start(b)
