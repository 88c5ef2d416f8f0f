"""The heap a language costs, two ways, under the MicroPython unix port (run by host_tests and by
hand: `micropython -X heapsize=180K tools/lang/heap.py firmware/lang/ru.txt`; the import root
firmware/ on MICROPYPATH). Prints one line per way: bytes held after loading, and bytes allocated
by 300 look-ups of texts already looked up (a frame's redraw); then the index with its cache full.

- dict: every line read into a dict {English: translation} (the simple way);
- index: ui/lang.py, the file kept on flash behind a hash index and a 48-text cache.
"""
import gc
import sys


def _used():
    gc.collect()
    return gc.mem_alloc()


def keys(path):
    out = []
    with open(path, "rb") as f:
        for ln in f:
            out.append(str(ln[:ln.find(b"\t")], "utf-8").replace("\\n", "\n"))
    return out


def dict_way(path):
    d = {}
    with open(path, "rb") as f:
        for ln in f:
            ln = str(ln, "utf-8")
            t = ln.find("\t")
            d[ln[:t].replace("\\n", "\n")] = ln[t + 1:].rstrip("\n").replace("\\n", "\n")
    return d


def main(path):
    ks = keys(path)[:10]
    base = _used()
    d = dict_way(path)
    held = _used() - base
    a = gc.mem_alloc()
    for _ in range(30):
        for k in ks:
            d.get(k, k)
    print("dict", held, gc.mem_alloc() - a)
    d = None
    from ui import lang
    base = _used()
    lang.use("ru", path)
    held = _used() - base
    for k in ks:
        lang.tr(k)
    a = gc.mem_alloc()
    for _ in range(30):
        for k in ks:
            lang.tr(k)
    print("index", held, gc.mem_alloc() - a)
    for k in keys(path)[:48]:
        lang.tr(k)
    print("index+full cache", _used() - base, 0)
    lang.use("en")


main(sys.argv[1])
