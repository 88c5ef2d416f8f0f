# DIY: SSD1306 128x64 OLED on I2C0 (SDA 4, SCL 5, address 0x3C), buttons wired like the
# Waveshare Pico-LCD-1.3 (A 15, B 17, X 19, Y 21; joystick up 2, down 18, left 16, right 20,
# press 3; active low, pull-ups), optional piezo on GP28 (PWM beep).
# Needs micropython-lib's ssd1306 on the device: `mpremote mip install ssd1306`.
from ui.input import K_A, K_ALL, K_B, K_DOWN, K_LEFT, K_PRESS, K_RIGHT, K_UP, K_X, K_Y

MIP_DEPS = ("ssd1306",)
WIDTH = 128
HEIGHT = 64
MONO = True
KEYS = K_ALL
SHIFT = 0
SHIFT_MAP = ()
KEY_HELP = "Joystick move, A play, B back, X hint, Y menu"
I2C_ADDR = 0x3C
PIEZO = 28
# as on the Waveshare Pico-LCD-1.3 (boards/waveshare_lcd13.py: that module, its driver and the LCD
# board code are not shipped to this board)
PINS = ((15, K_A), (17, K_B), (19, K_X), (21, K_Y),
        (2, K_UP), (18, K_DOWN), (16, K_LEFT), (20, K_RIGHT), (3, K_PRESS))


def build(piezo=PIEZO):
    from machine import I2C, Pin

    try:
        import ssd1306
    except ImportError:
        raise ImportError("oled_diy needs the ssd1306 driver: mpremote mip install ssd1306")
    import framebuf

    from boards._base import Board
    from boards._hw import GpioKeys, Piezo, Watchdog

    i2c = I2C(0, sda=Pin(4), scl=Pin(5), freq=400000)
    if I2C_ADDR not in i2c.scan():
        raise OSError("no SSD1306 answers at I2C 0x3C (SDA 4, SCL 5): check the wiring")
    oled = ssd1306.SSD1306_I2C(WIDTH, HEIGHT, i2c, addr=I2C_ADDR)

    class OledBoard(Board):
        name = "oled_diy"
        mono = True
        palette = ((0, 0, 0), (255, 255, 255))

        def __init__(self):
            self.width = WIDTH
            self.height = HEIGHT
            Board.__init__(self)
            self.fb = oled  # the driver is a framebuf.FrameBuffer (MONO_VLSB)
            self.buf = oled.buffer
            self.fb_format = framebuf.MONO_VLSB
            self.keys = GpioKeys(PINS)
            self._buzzer = Piezo(piezo) if piezo is not None else None
            self.watchdog = Watchdog()
            self.KEYS = KEYS
            self.KEY_HELP = KEY_HELP

        def show(self):
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
