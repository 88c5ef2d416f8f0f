# A colour board: an ST7789 panel showing a 4-bit framebuffer, GPIO keys, optional LED and piezo.
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
        self.gs4()                   # the frame buffer: one band of the frame (boards/_base.py)
        display.set_palette(palette565(self.palette))

    def show(self, y0=0, y1=0x7FFF, more=False):
        top = self.y0
        end = top + self.band - 1
        if end >= self.height:
            end = self.height - 1
        if y0 < top:
            y0 = top
        if y1 > end:
            y1 = end
        if y0 <= y1:
            self.display.show(self.buf, y0, y1, top)

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
    board.paint(board.fb.fill, 0)
    board.set_brightness(80)
    return board
