# 4-bit framebuffer -> RGB565 expansion, one line at a time.
#
# A colour board draws into a framebuf.GS4_HMSB buffer (two pixels per byte, the left pixel in the
# high nibble; 28.8 KB for 240x240) and the display driver expands each line through a 16-colour
# lookup table into a small preallocated RGB565 line buffer as it sends it. There is never a full
# RGB565 frame in RAM.
#
# make_lut(colours565) builds a 256-entry table (1 KB): one source byte (two pixels) -> four output
# bytes, already in the panel's big-endian byte order. expand() is a @micropython.viper loop on
# MicroPython; expand_py() is the plain-Python twin (CPython, tests, ports without native code);
# the Pico runs boards/_gs4_asm.py's, in its inline assembler. All three take the same four
# arguments, the first source byte's offset and the count in one: off << 16 | n (the assembler's
# functions take four at most).


def rgb565(r, g, b):
    return ((r & 0xF8) << 8) | ((g & 0xFC) << 3) | (b >> 3)


def rgb888(c):
    """RGB565 int -> (r, g, b) as a panel shows it (low bits replicated)."""
    r = (c >> 11) & 0x1F
    g = (c >> 5) & 0x3F
    b = c & 0x1F
    return ((r << 3) | (r >> 2), (g << 2) | (g >> 4), (b << 3) | (b >> 2))


def make_lut(colours565, lut=None):
    """colours565: 16 RGB565 ints. Returns (or refills) a bytearray(1024)."""
    if lut is None:
        lut = bytearray(1024)
    for b in range(256):
        hi = colours565[b >> 4]
        lo = colours565[b & 15]
        o = b * 4
        lut[o] = hi >> 8
        lut[o + 1] = hi & 0xFF
        lut[o + 2] = lo >> 8
        lut[o + 3] = lo & 0xFF
    return lut


def expand_py(src, dst, lut, off):
    """Expand n source bytes of src into dst[0:4n] through lut; off: the first one's offset << 16 | n."""
    j = 0
    n = off & 0xFFFF
    off >>= 16
    for i in range(off, off + n):
        o = src[i] * 4
        dst[j] = lut[o]
        dst[j + 1] = lut[o + 1]
        dst[j + 2] = lut[o + 2]
        dst[j + 3] = lut[o + 3]
        j += 4


try:
    import micropython

    @micropython.viper
    def expand(src: ptr8, dst: ptr32, lut: ptr32, off: int):
        s = off >> 16
        n = off & 0xFFFF
        e = s + n
        q = s + (n & ~3)
        j = 0
        while s < q:                     # four bytes a pass: the loop's own work is most of a pass
            dst[j] = lut[src[s]]
            dst[j + 1] = lut[src[s + 1]]
            dst[j + 2] = lut[src[s + 2]]
            dst[j + 3] = lut[src[s + 3]]
            s += 4
            j += 4
        while s < e:
            dst[j] = lut[src[s]]
            s += 1
            j += 1
except (ImportError, SyntaxError, NameError):  # CPython, or a port built without native emitters
    expand = expand_py
