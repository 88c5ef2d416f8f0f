"""tools/emu/uf2info.py: the filesystem's place read from a MicroPython image's own binary info,
on the two stock images the emulator boots (RPI_PICO, RPI_PICO_W), and a clear refusal of a file
that is not one."""
import os
import struct

import pytest

from tools.emu import harness as emu
from tools.paths import ROOT
from tools.emu import uf2info


def image_bytes(image):
    path = emu.firmware(image)
    if not os.path.exists(path):
        pytest.skip("no %s in build/pico_emu: %s" % (emu.IMAGES[image], emu.HOW))
    with open(path, "rb") as f:
        return f.read()


@pytest.mark.parametrize("image,offset,size", [
    ("pico", 0xA0000, 1408 * 1024),      # MICROPY_HW_FLASH_STORAGE_BYTES of boards/RPI_PICO
    ("pico_w", 0x12C000, 848 * 1024),    # boards/RPI_PICO_W: the wireless firmware takes the rest
])
def test_filesystem_of_the_stock_images(image, offset, size):
    data = image_bytes(image)
    assert uf2info.filesystem(data) == (offset, size)
    assert offset + size == 2 * 1024 * 1024          # both: the flash's last bytes
    names = [d[0] for d in uf2info.block_devices(data)]
    assert names == ["MicroPython"]
    assert emu.geometry(image) == (offset, size) and emu.block_count(image) == size // 4096


def test_the_image_s_code_ends_before_its_filesystem():
    for image in emu.IMAGES:
        lo, flash = uf2info.flash_of(image_bytes(image))
        assert lo == uf2info.FLASH_START
        assert len(flash) <= uf2info.filesystem(image_bytes(image))[0]


def test_not_a_uf2_is_refused_with_a_reason():
    with pytest.raises(uf2info.Uf2Error, match="512-byte blocks"):
        uf2info.filesystem(b"\0" * 100)
    with pytest.raises(uf2info.Uf2Error, match="no UF2 header"):
        uf2info.filesystem(b"\0" * 512)
    block = struct.pack("<8I", 0x0A324655, 0x9E5D5157, 0, 0x10000000, 256, 0, 1, 0) + b"\0" * 480
    with pytest.raises(uf2info.Uf2Error, match="no pico-sdk binary info"):
        uf2info.filesystem(block)


def test_command_line(capsys):
    data_path = emu.firmware("pico_w")
    image_bytes("pico_w")
    assert uf2info.main([data_path]) == 0
    assert capsys.readouterr().out == "block device 0x1012c000 868352 MicroPython\n"
    assert uf2info.main(["--help"]) == 0
    assert uf2info.main([os.path.join(ROOT, "README.md")]) == 1
    assert "uf2info:" in capsys.readouterr().err
