"""tools/bench/heap_replay.py: the collector's marking replayed on a made-up RAM dump."""
import pytest
import struct


from tools.bench import heap_replay as hr

POOL = 0x20003f80
NATIVE = 0x10041000


def dump(blocks, words):
    """The device's output for a block map and {address: word}."""
    mem = bytearray(hr.RAM_END - hr.RAM)
    for a, w in words.items():
        struct.pack_into("<I", mem, a - hr.RAM, w)
    lines = ["HR_MODULES 0x20001fa0", "HR_NATIVE 0x%08x" % NATIVE,
             "GC memory layout; from %08x:" % POOL]
    for i in range(0, len(blocks), 64):
        lines.append("%08x: %s" % (i * 16, blocks[i:i + 64]))
    lines.append("HR_MAPEND")
    for a in range(hr.RAM, hr.RAM_END, 256):
        lines.append("X%08x %s" % (a, mem[a - hr.RAM:a - hr.RAM + 256].hex()))
    lines.append("HR_END")
    return "\r\n".join(lines) + "\r\n"


def addr(block):
    return POOL + 16 * block


def test_a_dropped_module_kept_by_native_code_is_found_with_its_chain():
    # blocks: 0 sys.modules' table (holds module 2), 1 a viper function object, 2 a loaded module,
    # 3..4 the viper function's machine code, 5 a dropped module, 6..7 its globals, 8 garbage
    blocks = "hBMh=Mh=h" + "." * 55
    words = {
        0x20001fa0 + 12: addr(0),          # sys.modules -> its table
        addr(0) + 4: addr(2),              # the table -> the loaded module
        addr(2) + 4: addr(1),              # the loaded module -> the viper function (its global)
        addr(1): NATIVE, addr(1) + 12: addr(3),   # the function: native type, its code
        addr(3) + 8: addr(5),              # an instruction pair in the code reads as module 5's address
        addr(5) + 4: addr(6),              # the dropped module -> its globals
        0x20001fa0: addr(9),               # a static word at a free block: no effect
    }
    text = dump(blocks, words)
    lines = []
    hr.report(text, lines.append)
    heap = hr.Heap(*hr.parse(text)[:3])
    reached = heap.mark()
    assert 8 not in reached and 5 in reached and 6 in reached
    freed = (64 - 9) * 16 + 16                       # the free blocks and the garbage block
    assert lines[0] == "device: %d B free after its collection; replay: %d B" % ((64 - 9) * 16, freed)
    kept = lines.index("a module object not in sys.modules, kept:")
    assert "block 5 (M, 16 B)" in lines[kept + 1]
    assert "block 3 (h, 32 B)" in lines[kept + 2]   # the machine code holds it
    assert "  root: the static area" in lines
    assert "native code words that read as a heap address: 1 (1 addresses)" in lines
    pin = "0x%08x x1: the start of a 16-byte block (M): kept" % addr(5)
    assert any(ln.strip() == pin for ln in lines)


def test_the_stack_and_nothing_kept():
    blocks = "hM" + "." * 62
    words = {0x20001fa0 + 12: addr(0), addr(0) + 4: addr(1), hr.RAM_END - 8: addr(1)}
    lines = []
    hr.report(dump(blocks, words), lines.append)
    assert lines[1] == "no dropped module is kept"
    assert "native code words that read as a heap address: 0 (0 addresses)" in lines


def test_a_missing_dump_is_a_clear_error(tmp_path, capsys):
    bad = tmp_path / "out.txt"
    bad.write_text("no map here\n")
    assert hr.main(["--from", str(bad)]) == 2
    capsys.readouterr()
    with pytest.raises(SystemExit) as stop:          # refused by the argument check, before any work
        hr.main(["--from", str(tmp_path / "absent.txt")])
    assert stop.value.code == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and "cannot read" in err[0] and "absent.txt" in err[0], err
