# Minimal ST7789 driver for a 4-bit framebuffer (written for this project).
#
# The board draws into framebuf.GS4_HMSB; show() sends it as RGB565, expanding one line at a time
# through a 16-colour lookup table (boards/_gs4.py) into a preallocated line buffer. RAM: the line
# buffer (2 * width bytes) and the 1 KB pair table; never a full RGB565 frame. The buffer may hold
# a band of the frame (rows top..): show() then sends a range of those rows to the same rows of
# the panel.
#
# Panel geometry is passed in by the board: width/height as drawn, the controller's column/row
# offset of the visible area, and MADCTL (rotation/mirroring). Values used by the boards here:
#   Waveshare Pico-LCD-1.3  240x240  MADCTL 0x70, offsets 0, 0
#   Pimoroni Display Pack   240x135  MADCTL 0x70, offsets 40, 53 (landscape on a 135x240 panel)
#   Pimoroni Display Pack 2 320x240  MADCTL 0x70, offsets 0, 0
import time

from boards._gs4 import make_lut

try:
    from boards._gs4_asm import expand          # the Pico's inline assembler: 3-4 times the viper's pace
except (ImportError, SyntaxError):              # no inline assembler here (the tests' unix port)
    from boards._gs4 import expand

try:
    from micropython import const
except ImportError:
    def const(x):
        return x

_SWRESET = const(0x01)
_SLPOUT = const(0x11)
_NORON = const(0x13)
_INVON = const(0x21)
_DISPON = const(0x29)
_CASET = const(0x2A)
_RASET = const(0x2B)
_RAMWR = const(0x2C)
_MADCTL = const(0x36)
_COLMOD = const(0x3A)


class ST7789:
    def __init__(self, spi, cs, dc, width, height, rst=None, backlight=None,
                 xoff=0, yoff=0, madctl=0x70, invert=True, extra_init=()):
        self.spi = spi
        self.cs = cs
        self.dc = dc
        self.rst = rst
        self.bl = backlight  # a machine.PWM, or None
        self.width = width
        self.height = height
        self.xoff = xoff
        self.yoff = yoff
        self.madctl = madctl
        self.invert = invert
        self.extra_init = extra_init
        self.line = bytearray(width * 2)
        self.lut = bytearray(1024)
        self._b1 = bytearray(1)
        self._b4 = bytearray(4)
        self._ready = 0
        self._awake = True               # init() makes it False until wake()
        cs.value(1)
        dc.value(1)

    def cmd(self, c, data=None):
        b = self._b1
        b[0] = c
        self.cs.value(0)
        self.dc.value(0)
        self.spi.write(b)
        if data is not None:
            self.dc.value(1)
            self.spi.write(data)
        self.cs.value(1)

    def init(self):
        """Reset the panel and return at once. The reset's recovery (up to 120 ms after a reset pin
        pulse, 150 ms after a software reset) passes while the app loads; the first frame waits out
        what is left of it and then wakes the panel (wake()). This halves the boot to the menu."""
        if self.rst is not None:
            self.rst.value(0)
            time.sleep_us(20)            # the datasheet's 10 us low, with margin
            self.rst.value(1)
            wait = 120
        else:
            self.cmd(_SWRESET)
            wait = 150
        self._ready = time.ticks_add(time.ticks_ms(), wait)
        self._awake = False

    def wake(self):
        """Out of sleep, 16-bit colour, orientation, panel settings, display on (the backlight is the
        board's: it stays off until a whole frame is on the panel)."""
        left = time.ticks_diff(self._ready, time.ticks_ms())
        if left > 0:
            time.sleep_ms(left)
        self._awake = True
        self.cmd(_SLPOUT)
        time.sleep_ms(10)                # datasheet: 5 ms for the supply and clock to settle
        self.cmd(_COLMOD, b"\x55")  # 16 bits per pixel
        self.cmd(_MADCTL, bytes((self.madctl,)))
        for c, d in self.extra_init:  # panel-specific porch/voltage/gamma settings, if any
            self.cmd(c, d)
        if self.invert:
            self.cmd(_INVON)  # IPS panels show true colours inverted
        self.cmd(_NORON)
        self.cmd(_DISPON)

    def set_palette(self, colours565):
        make_lut(colours565, self.lut)

    def _window(self, x0, y0, x1, y1):
        b = self._b4
        x0 += self.xoff
        x1 += self.xoff
        y0 += self.yoff
        y1 += self.yoff
        b[0] = x0 >> 8
        b[1] = x0 & 0xFF
        b[2] = x1 >> 8
        b[3] = x1 & 0xFF
        self.cmd(_CASET, b)
        b[0] = y0 >> 8
        b[1] = y0 & 0xFF
        b[2] = y1 >> 8
        b[3] = y1 & 0xFF
        self.cmd(_RASET, b)

    def show(self, buf, y0=0, y1=-1, top=0):
        """Send screen rows y0..y1 (inclusive; default all) from a GS4_HMSB buffer of `width`
        columns whose first row is screen row `top` (a band of the frame: boards/_base.py)."""
        if y1 < 0:
            y1 = self.height - 1
        w = self.width
        self.show_rect(buf, 0, y0, w, y1 - y0 + 1, (y0 - top) * (w >> 1))

    def show_rect(self, buf, x, y, w, h, off=0):
        """Send a w x h rectangle (w even) to screen (x, y) from a GS4_HMSB buffer of w columns
        whose rows follow each other from byte `off` (as the panel takes them inside the window):
        as many whole rows a write as the line buffer holds (a row of the screen's width: one)."""
        if not self._awake:
            self.wake()
        self._window(x, y, x + w - 1, y + h - 1)
        self.cmd(_RAMWR)
        self.cs.value(0)
        self.dc.value(1)
        line = self.line
        lut = self.lut
        spi = self.spi
        bpl = w >> 1
        n = (len(line) >> 2) // bpl * bpl        # source bytes a write: 4 bytes of RGB565 each
        part = line if 4 * n == len(line) else memoryview(line)[:4 * n]
        end = off + bpl * h
        while off < end:
            if end - off < n:
                n = end - off
                part = memoryview(line)[:4 * n]
            expand(buf, line, lut, off << 16 | n)
            spi.write(part)
            off += n
        self.cs.value(1)

    def set_backlight(self, pct):
        if self.bl is None:
            return
        pct = 0 if pct < 0 else 100 if pct > 100 else pct
        # perceptual curve: duty ~ pct^2
        self.bl.duty_u16((pct * pct * 65535) // 10000)
