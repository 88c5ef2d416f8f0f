# Stand-in for micropython-lib's ssd1306 (the real one is installed on the device with mip):
# the same class name, FrameBuffer subclass, buffer attribute and show()/contrast() calls.
import framebuf


class SSD1306_I2C(framebuf.FrameBuffer):
    def __init__(self, width, height, i2c, addr=0x3C, external_vcc=False):
        self.width = width
        self.height = height
        self.i2c = i2c
        self.addr = addr
        self.buffer = bytearray(width * height // 8)
        super().__init__(self.buffer, width, height, framebuf.MONO_VLSB)
        self.shows = 0

    def show(self):
        self.shows += 1
        self.i2c.writeto(self.addr, b"\x00\x21\x00\x7f\x22\x00\x07")
        self.i2c.writevto(self.addr, (b"\x40", self.buffer))

    def contrast(self, c):
        self.i2c.writeto(self.addr, bytes((0x80, 0x81, 0x80, c)))
