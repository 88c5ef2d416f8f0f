# Pimoroni Pico Display Pack: 240x135 ST7789 (IPS, 1.14") on SPI0, four buttons, RGB LED.
#   SPI0: SCK 18, MOSI 19, CS 17, DC 16, BL 20 (no reset line)
#   buttons (active low, pull-ups): A 12, B 13, X 14, Y 15; RGB LED 6/7/8 (active low PWM)
#
# Four buttons, mapped for a game that wants up/down/left/right/A/B:
#   X (top right)    = UP        Y (bottom right) = DOWN
#   A (top left)     = A, confirm / play
#   B (bottom left)  = B, back; and a modifier: hold B + X = LEFT, hold B + Y = RIGHT.
#   B alone acts when released (or as a long press). keys.Input does this when built with
#   board.make_input() (SHIFT/SHIFT_MAP below). There is no X, Y or PRESS key on this board:
#   screens must offer those functions through menus (KEYS tells which keys exist).
try:
    from micropython import const
except ImportError:  # CPython (tools read the board's size)
    def const(x):
        return x

_K_A = const(0x010)      # = keys.K_A
_K_B = const(0x020)      # = keys.K_B
_K_DOWN = const(0x002)   # = keys.K_DOWN
_K_LEFT = const(0x004)   # = keys.K_LEFT
_K_RIGHT = const(0x008)  # = keys.K_RIGHT
_K_UP = const(0x001)     # = keys.K_UP

MIP_DEPS = ()
WIDTH = 240
HEIGHT = 135
MONO = False
# Pixel pitch in micrometres: the 1.14" 240x135 IPS panel's display area is 24.912 x 14.864 mm,
# pixels 0.1035 x 0.1101 mm (Waveshare wiki, Pico-LCD-1.14 specification: the same panel). The
# pixels are not square; the smaller pitch, rounded down, stands for both, so a size in mm is never
# overstated.
PITCH_UM = 103
KEYS = _K_UP | _K_DOWN | _K_LEFT | _K_RIGHT | _K_A | _K_B
SHIFT = _K_B
SHIFT_MAP = (_K_UP, _K_LEFT, _K_DOWN, _K_RIGHT)
KEY_HELP = "X/Y up/down, B+X/B+Y left/right, A play, B back/menu"
# The link cable (docs/LINK.md): UART id, TX GPIO, RX GPIO. GP0/GP1 are free here.
LINK = (0, 0, 1)
PINS = ((12, _K_A), (13, _K_B), (14, _K_UP), (15, _K_DOWN))
# Voltage/VCOM values as in the vendor's driver for the 240x135 panel.
EXTRA_INIT = ((0xB2, b"\x0c\x0c\x00\x33\x33"), (0xC0, b"\x2c"), (0xC2, b"\x01"), (0xC3, b"\x00"),
              (0xC4, b"\x20"), (0xD0, b"\xa4\xa1"), (0xC6, b"\x0f"), (0xB7, b"\x75"),
              (0xBB, b"\x3d"))


class RgbLed:
    """The pack's RGB LED: three PWM channels, active low (common anode)."""

    def __init__(self, r, g, b):
        from boards._hw import pwm
        self.ch = (pwm(r), pwm(g), pwm(b))
        self.set(0, 0, 0)

    def set(self, r, g, b):
        for ch, v in zip(self.ch, (r, g, b)):
            v = 0 if v < 0 else 255 if v > 255 else v
            ch.duty_u16(65535 - (v * v * 65535) // 65025)  # gamma-ish


def build(width=WIDTH, height=HEIGHT, xoff=40, yoff=53, name="pimoroni_pack", extra=EXTRA_INIT,
          pitch=PITCH_UM):
    from machine import SPI, Pin, freq

    from boards._hw import GpioKeys, pwm
    from boards._lcd import LcdBoard, start
    from boards._st7789 import ST7789

    f = freq()
    freq(f, f)  # pyright: ignore[reportCallIssue]  (rp2: the CPU's and the peripherals' clocks)
    #             the peripheral clock from clk_sys: the SPI at 62.5 MHz, not 24
    spi = SPI(0, baudrate=62500000, polarity=0, phase=0, sck=Pin(18), mosi=Pin(19))   # (BOARDS.md)
    disp = ST7789(spi, Pin(17, Pin.OUT), Pin(16, Pin.OUT), width, height, rst=None,
                  backlight=pwm(20, 1000, 0), xoff=xoff, yoff=yoff, madctl=0x70,
                  extra_init=extra)
    disp.init()
    b = LcdBoard(name, disp, GpioKeys(PINS), led=RgbLed(6, 7, 8))
    b.KEYS = KEYS
    b.SHIFT = SHIFT
    b.SHIFT_MAP = SHIFT_MAP
    b.KEY_HELP = KEY_HELP
    b.pitch_um = pitch
    b.link = LINK
    return start(b)
