"""tools/deploy/native_pins.py: the .mpy reader behind module heappins (the heap addresses the AI's machine
code pins on the device, which firmware/heapplug.py plugs at boot). The device side is in
test_pico_emu.py (test_boot_plugs_the_pinned_addresses)."""
import os
import re
import subprocess
import sys

import pytest

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

from tools.deploy import main as deploy  # noqa: E402
from tools.deploy import native_pins  # noqa: E402

LO, HI = native_pins.RAM["rp2040"]


@pytest.fixture(scope="module")
def trees(tmp_path_factory):
    base = tmp_path_factory.mktemp("pins")
    out = {}
    for chip in ("rp2040", "rp2350"):
        d = str(base / chip)
        out[chip] = (d, deploy.build(d, "waveshare_lcd13", deploy.CHIPS[chip]))
    return out


def read(d, rel):
    with open(os.path.join(d, rel), "rb") as f:
        return f.read()


def viper_functions(rel_py):
    path = os.path.join(ROOT, "firmware", rel_py)
    if rel_py.startswith("boards/"):
        path = os.path.join(ROOT, rel_py)
    with open(path) as f:
        return len(re.findall(r"^\s*@micropython\.viper", f.read(), re.M))


def test_every_built_mpy_reads_to_its_last_byte(trees):
    """The reader follows the loader's layout exactly: any slip would end short of or past the end."""
    n = 0
    for d, tree in trees.values():
        for rel in tree:
            if rel.endswith(".mpy"):
                native_pins.natives(read(d, rel))
                n += 1
    assert n > 80


def test_the_native_functions_are_the_viper_ones(trees):
    d, _ = trees["rp2040"]
    for rel in ("ai/rollout", "boards/_gs4"):
        fns = native_pins.natives(read(d, rel + ".mpy"))
        assert len(fns) == viper_functions(rel + ".py") > 0
        assert all(f.kind == 2 and f.code for f in fns)
    assert native_pins.natives(read(d, "domino/tiles.mpy")) == []


def test_pins_are_aligned_code_words_in_ram(trees):
    for chip, (d, tree) in trees.items():
        lo, hi = native_pins.RAM[chip]
        pins = native_pins.tree_pins(d, tree, chip)
        words = set()
        for rel in tree:
            if rel.endswith(".mpy"):
                for fn in native_pins.natives(read(d, rel)):
                    code = fn.code
                    words.update(int.from_bytes(code[i:i + 4], "little") for i in range(0, len(code) - 3, 4))
        for p in pins:
            assert lo <= p < hi and p % 16 == 0 and p in words


def test_the_build_ships_them_as_module_heappins(trees, tmp_path):
    for chip, (d, tree) in trees.items():
        assert "heappins.mpy" in tree
        data = read(d, "heappins.mpy")
        assert native_pins.natives(data) == []
        # the tuple's ints are kept as decimal text in the .mpy's constant table
        for p in native_pins.tree_pins(d, tree, chip):
            assert str(p).encode() in data
    src_tree = deploy.build(str(tmp_path / "src"), "waveshare_lcd13", None, src=True)
    assert not any(r.startswith("heappins") for r in src_tree)


def mpy(code_words, relocated=(), arch=4):
    """A made-up .mpy: a module whose one child is a viper function of these code words."""
    def uint(n):
        out = [n & 0x7F]
        n >>= 7
        while n:
            out.insert(0, 0x80 | (n & 0x7F))
            n >>= 7
        return bytes(out)
    code = b"".join(w.to_bytes(4, "little") for w in code_words)
    flags = 0x10 if relocated else 0
    child = uint(len(code) << 3 | 2) + code + uint(flags)
    if relocated:
        for i in relocated:          # op: address given (1) | destination qstr table (6 << 1)
            child += bytes([1 | 6 << 1]) + uint(i << 1)
        child += b"\xff"
    module_code = b"\x00\x00"
    return (b"M\x06" + bytes([arch << 2 | 3, 31]) + uint(0) + uint(0)
            + uint(len(module_code) << 3 | 4) + module_code + uint(1) + child)


def test_words_the_loader_relocates_are_left_out():
    words = [0x2000BC10, 0x2001E000, 0x20001234, 0x1000BC10, 0x20050000]
    assert native_pins.pins(mpy(words), LO, HI) == [0x2000BC10, 0x2001E000]
    assert native_pins.pins(mpy(words, relocated=[0]), LO, HI) == [0x2001E000]


def test_bad_files_say_so():
    good = mpy([0x2000BC10])
    for bad in (good[:-2], b"MZ" + good[2:], b"", good + b"\x00"):
        with pytest.raises(native_pins.MpyError):
            native_pins.natives(bad)


def test_command_line(trees, tmp_path):
    d, _ = trees["rp2040"]
    tool = [sys.executable, "-m", "tools.deploy.native_pins"]
    r = subprocess.run(tool + [d], capture_output=True, text=True)
    n = viper_functions("ai/rollout.py")
    assert r.returncode == 0 and "ai/rollout.mpy: %d native functions" % n in r.stdout
    r = subprocess.run(tool + [str(tmp_path / "nothing")], capture_output=True, text=True)
    assert r.returncode == 2 and "no such file or folder" in r.stderr and "Traceback" not in r.stderr
    bad = tmp_path / "bad.mpy"
    bad.write_bytes(b"not an mpy")
    r = subprocess.run(tool + [str(bad)], capture_output=True, text=True)
    assert r.returncode == 1 and "not a version 6 .mpy file" in r.stderr
