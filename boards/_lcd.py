# A colour board: an ST7789 panel showing a 4-bit framebuffer, GPIO keys, optional LED and piezo.
import time

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
        from boards._hw import watchdog
        self.watchdog = watchdog()
        self.gs4()                   # the frame buffer: one band of the frame (boards/_base.py)
        display.set_palette(palette565(self.palette))
        self.lit = False             # the backlight waits for the first whole frame

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
        if not more and not self.lit:
            self.lit = True
            self.display.set_backlight(self.brightness)

    def show_rect(self, x, y, w, h):
        """Send the w x h rectangle (w even) whose GS4 rows of w pixels fill the buffer's first
        bytes to screen (x, y): a cursor move's tile (ui/paint.py). The band the buffer held is
        spent: the next drawing sets one again."""
        self.moved += 1
        self.y0 = -0x4000
        self.display.show_rect(self.buf, x, y, w, h)

    def read_keys(self):
        return self.keys.read()

    def idle_ms(self, ms):
        """Sleep, but wake within a millisecond of a press (the pin interrupt latches it, boards/_hw.py)
        or of bytes on the link cable in a link game: a press, or the other device's move, waited up
        to a whole pass of the loop, half of it on average, before it was read."""
        keys = self.keys
        port = self._link_port
        t0 = time.ticks_ms()
        while not keys.latched and time.ticks_diff(time.ticks_ms(), t0) < ms:
            if port is not None and port.any():
                return
            time.sleep_ms(1)

    def set_brightness(self, pct):
        self.brightness = pct
        if self.lit:
            self.display.set_backlight(pct)

    def beep(self, freq, ms):
        if self._buzzer is not None:
            self._buzzer.beep(freq, ms)

    def led(self, r, g, b):
        if self._led is not None:
            self._led.set(r, g, b)


def start(board):
    """The panel is reset, not yet woken: it wakes with the app's first frame and the backlight
    comes on once that frame is whole (no flash of old RAM contents), so the reset's recovery time
    and the panel's clearing cost the boot nothing (boards/_st7789.py)."""
    board.brightness = 80
    return board
