"""firmware/heapplug.py: which words of machine code the collector takes for block addresses; and
that off the device (CPython, no native code) it does nothing. On the device: tools/heap_replay.py
(docs/benchmarks.md, "why the lowest point moves")."""
import heapplug


def test_scan_finds_aligned_heap_addresses_in_code_words():
    # pop {r4}; movs r0,#0 -> 0x2000bc10 | b.n; movs r0,#1 -> 0x2001e000 | unaligned | outside the heap
    code = [0xbc10, 0x2000, 0xe000, 0x2001, 0x1234, 0x2001, 0x0000, 0x4000, 0x3f70, 0x2000]
    found = {}
    heapplug.scan(code, len(code), 0x20003f80, 0x20040000, found)
    assert sorted(found) == [0x2000bc10, 0x2001e000]


def test_scan_reads_whole_words_only():
    code = [0x2000, 0xbc10, 0x2000]           # 0x2000bc10 straddles two words: not a word
    found = {}
    heapplug.scan(code, len(code), 0x20003f80, 0x20040000, found)
    assert found == {}


def test_off_the_device_nothing_is_plugged():
    assert heapplug.plug() == []
