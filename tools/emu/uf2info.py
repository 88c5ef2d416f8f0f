"""What a MicroPython rp2 .uf2 says about itself: its flash contents, and where its filesystem lives.

Every pico-sdk program carries "binary info" (what `picotool info` prints): a table of entries near
the start of its flash, found by its two markers. MicroPython's rp2 port declares its filesystem
there as a block-device entry (type 7, tag 'MP') with the flash address and size of the region
rp2.Flash() mounts. Stock images differ: RPI_PICO has 1,408 KiB at 0x100A0000, RPI_PICO_W 848 KiB
at 0x1012C000 (the wireless firmware takes the rest). The emulator harness reads the region from the
image it boots rather than keeping a table of its own.

    python -m tools.emu.uf2info FIRMWARE.uf2     prints `block device 0x100a0000 1441792 MicroPython`
"""
import os
import struct
import sys

FLASH_START = 0x10000000
UF2_MAGIC = (0x0A324655, 0x9E5D5157)
UF2_BLOCK = 512
BI_MARKER_START = 0x7188EBF2          # pico-sdk binary_info_header: start, table start/end, mapping, end
BI_MARKER_END = 0xE71AA390
BI_SEARCH = 0x1000                    # the header sits in the first 256 bytes after boot2's 256
BI_TYPE_BLOCK_DEVICE = 7
BI_TAG_MICROPYTHON = ord("M") | ord("P") << 8


class Uf2Error(ValueError):
    """The file is not a .uf2, or not one that declares a MicroPython filesystem."""


def flash_of(uf2):
    """(lowest flash address, bytearray of the flash from there) of a .uf2's blocks (gaps as 0xFF)."""
    if not uf2 or len(uf2) % UF2_BLOCK:
        raise Uf2Error("not a .uf2: %d bytes is not a whole number of 512-byte blocks" % len(uf2))
    blocks = []
    for off in range(0, len(uf2), UF2_BLOCK):
        m0, m1, _flags, addr, size = struct.unpack_from("<5I", uf2, off)
        if (m0, m1) != UF2_MAGIC or size > UF2_BLOCK - 32:
            raise Uf2Error("not a .uf2: block %d has no UF2 header" % (off // UF2_BLOCK))
        blocks.append((addr, uf2[off + 32:off + 32 + size]))
    lo = min(a for a, _ in blocks)
    img = bytearray(b"\xff" * (max(a + len(d) for a, d in blocks) - lo))
    for a, d in blocks:
        img[a - lo:a - lo + len(d)] = d
    return lo, img


class _Flash:
    """Reads at run-time addresses: flash itself, or RAM the boot copies from flash (the mapping table)."""

    def __init__(self, lo, img):
        self.lo, self.img, self.maps = lo, img, []

    def read(self, addr, n):
        for src, dst, end in self.maps:
            if dst <= addr < end:
                addr = src + (addr - dst)
                break
        at = addr - self.lo
        if at < 0 or at + n > len(self.img):
            raise Uf2Error("binary info points outside the image (0x%08x)" % addr)
        return bytes(self.img[at:at + n])

    def word(self, addr):
        return struct.unpack("<I", self.read(addr, 4))[0]

    def cstr(self, addr, limit=64):
        s = self.read(addr, limit) if addr else b""
        return s.split(b"\0", 1)[0].decode("latin-1")


def _header(flash):
    for off in range(0, min(BI_SEARCH, len(flash.img) - 20), 4):
        if struct.unpack_from("<I", flash.img, off)[0] == BI_MARKER_START and \
                struct.unpack_from("<I", flash.img, off + 16)[0] == BI_MARKER_END:
            return struct.unpack_from("<3I", flash.img, off + 4)
    raise Uf2Error("no pico-sdk binary info in the image")


def block_devices(uf2):
    """[(name, flash address, size in bytes, tag)] of every block device the image declares."""
    flash = _Flash(*flash_of(uf2))
    start, end, mapping = _header(flash)
    while True:                       # (source in flash, destination in RAM, destination end), 0-ended
        src, dst, dend = struct.unpack("<3I", flash.read(mapping, 12))
        if not src:
            break
        flash.maps.append((src, dst, dend))
        mapping += 12
    out = []
    for p in range(start, end, 4):
        entry = flash.word(p)
        typ, tag = struct.unpack("<HH", flash.read(entry, 4))
        if typ == BI_TYPE_BLOCK_DEVICE:
            name, address, size = struct.unpack("<3I", flash.read(entry + 4, 12))
            out.append((flash.cstr(name), address, size, tag))
    return out


def filesystem(uf2):
    """(offset from the start of flash, size in bytes) of the MicroPython filesystem a .uf2 mounts."""
    found = [(a, s) for _, a, s, tag in block_devices(uf2) if tag == BI_TAG_MICROPYTHON]
    if len(found) != 1:
        raise Uf2Error("the image declares %d MicroPython block devices, not one" % len(found))
    address, size = found[0]
    return address - FLASH_START, size


def main(argv):
    if len(argv) != 1 or argv[0] in ("-h", "--help"):
        asked = argv[:1] in (["-h"], ["--help"])
        print("usage: " + __doc__.strip().splitlines()[-1].strip(), file=sys.stdout if asked else sys.stderr)
        return 0 if asked else 2
    if not os.path.isfile(argv[0]):
        print("uf2info: %s is not a file" % argv[0], file=sys.stderr)
        return 2
    try:
        with open(argv[0], "rb") as f:
            devices = block_devices(f.read())
    except OSError as e:
        print("uf2info: cannot read %s: %s" % (argv[0], e.strerror or e), file=sys.stderr)
        return 2
    except Uf2Error as e:
        print("uf2info: %s" % e, file=sys.stderr)
        return 1
    for name, address, size, _tag in devices:
        print("block device 0x%08x %d %s" % (address, size, name))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
