# DIY: SSD1306 128x64 OLED on I2C0 (SDA 4, SCL 5, address 0x3C), buttons wired like the
# Waveshare Pico-LCD-1.3 (A 15, B 17, X 19, Y 21; joystick up 2, down 18, left 16, right 20,
# press 3; active low, pull-ups), optional piezo on GP28 (PWM beep).
# Needs micropython-lib's ssd1306 on the device: `mpremote mip install ssd1306`.
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

MIP_DEPS = ("ssd1306",)
WIDTH = 128
HEIGHT = 64
MONO = True
# Pixel pitch in micrometres: a 0.96" SSD1306 128x64 panel's active area is 21.744 x 10.864 mm
# (DisplayModule DM-OLED096-624 datasheet; 0.17 mm pitch, 0.154 mm dots in other makers' sheets):
# 169.9 x 169.75 um, rounded down.
PITCH_UM = 169
KEYS = _K_ALL
SHIFT = 0
SHIFT_MAP = ()
KEY_HELP = "Joystick move, A play, B back/menu, X hint, Y scores"
I2C_ADDR = 0x3C
PIEZO = 28
# The link cable (docs/LINK.md): UART id, TX GPIO, RX GPIO. GP0/GP1 are free (UART1's GP4/GP5 are
# the OLED's I2C).
LINK = (0, 0, 1)
# as on the Waveshare Pico-LCD-1.3 (boards/waveshare_lcd13.py: that module, its driver and the LCD
# board code are not shipped to this board)
PINS = ((15, _K_A), (17, _K_B), (19, _K_X), (21, _K_Y),
        (2, _K_UP), (18, _K_DOWN), (16, _K_LEFT), (20, _K_RIGHT), (3, _K_PRESS))


class Piezo:
    """PWM beep that does not block: a one-shot timer ends it (or it blocks if there is no Timer)."""

    def __init__(self, gpio):
        from boards._hw import pwm
        try:
            from machine import Timer
        except ImportError:
            Timer = None
        self.Timer = Timer
        self.p = pwm(gpio, 1000, 0)
        self._timer = None
        self._off = self.off

    def off(self, _t=None):
        self.p.duty_u16(0)

    def beep(self, freq, ms):
        if freq <= 0 or ms <= 0:
            self.off()
            return
        self.p.freq(freq)
        self.p.duty_u16(32768)
        timer = self.Timer
        if timer is not None:
            try:
                if self._timer is None:
                    self._timer = timer(-1)
                self._timer.init(mode=timer.ONE_SHOT, period=ms, callback=self._off)
                return
            except (TypeError, ValueError, OSError):
                self._timer = None
        import time
        time.sleep_ms(ms)
        self.off()


def build(piezo=PIEZO):
    from machine import I2C, Pin

    try:
        import ssd1306
    except ImportError:
        raise ImportError("oled_diy needs the ssd1306 driver: mpremote mip install ssd1306")
    import framebuf

    from boards._base import MONO_PALETTE, Board
    from boards._hw import GpioKeys, watchdog

    i2c = I2C(0, sda=Pin(4), scl=Pin(5), freq=400000)
    if I2C_ADDR not in i2c.scan():
        raise OSError("no SSD1306 answers at I2C 0x3C (SDA 4, SCL 5): check the wiring")
    oled = ssd1306.SSD1306_I2C(WIDTH, HEIGHT, i2c, addr=I2C_ADDR)

    class OledBoard(Board):
        name = "oled_diy"
        mono = True
        palette = MONO_PALETTE
        pitch_um = PITCH_UM
        link = LINK

        def __init__(self):
            self.width = WIDTH
            self.height = HEIGHT
            Board.__init__(self)
            self.fb = oled  # the driver is a framebuf.FrameBuffer (MONO_VLSB)
            self.buf = oled.buffer
            self.fb_format = framebuf.MONO_VLSB
            self.keys = GpioKeys(PINS)
            self._buzzer = Piezo(piezo) if piezo is not None else None
            self.watchdog = watchdog()
            self.KEYS = KEYS
            self.KEY_HELP = KEY_HELP

        def show(self, y0=0, y1=0x7FFF, more=False):   # never banded: the driver's 1 KB frame
            oled.show()

        def read_keys(self):
            return self.keys.read()

        def set_brightness(self, pct):
            self.brightness = pct
            oled.contrast(255 * pct // 100)

        def beep(self, freq, ms):
            if self._buzzer is not None:
                self._buzzer.beep(freq, ms)

    b = OledBoard()
    b.fb.fill(0)
    b.show()
    return b
