# A colour board: an ST7789 panel showing a 4-bit framebuffer, GPIO keys, optional LED and piezo.
import framebuf

from boards._base import Board, palette565


class LcdBoard(Board):
    def __init__(self, name, display, keys, led=None, buzzer=None):
        self.name = name
        self.width = display.width
        self.height = display.height
        Board.__init__(self)
        self.display = display
        self.keys = keys
        self._led = led
        self._buzzer = buzzer
        from boards._hw import Watchdog
        self.watchdog = Watchdog()
        self.buf = bytearray(self.width * self.height // 2)
        self.fb_format = framebuf.GS4_HMSB
        self.fb = framebuf.FrameBuffer(self.buf, self.width, self.height, framebuf.GS4_HMSB)
        display.set_palette(palette565(self.palette))

    def show(self):
        self.display.show(self.buf)

    def read_keys(self):
        return self.keys.read()

    def set_brightness(self, pct):
        self.brightness = pct
        self.display.set_backlight(pct)

    def beep(self, freq, ms):
        if self._buzzer is not None:
            self._buzzer.beep(freq, ms)

    def led(self, r, g, b):
        if self._led is not None:
            self._led.set(r, g, b)


def start(board):
    """Clear the panel before the backlight comes on (no flash of old RAM contents)."""
    board.fb.fill(0)
    board.show()
    board.set_brightness(80)
    return board
