"""The heap a language costs, two ways, under the MicroPython unix port (run by host_tests and by
hand: `micropython -X heapsize=180K tools/lang/heap.py dict|index firmware/lang/ru.txt`; the import root
firmware/ on MICROPYPATH). Prints one line for the way asked (one process each, so one's garbage
is not the other's): bytes held after loading, bytes allocated by 300 look-ups of texts already
looked up (a frame's redraw), and bytes held once 48 texts were looked up (the cache full).

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


def main(way, path):
    ks = keys(path)
    base = _used()
    if way == "dict":
        d = dict_way(path)
        look = d.get
    else:
        from ui import lang, langfile
        base = _used()
        langfile.use("ru", path)
        look = lang.tr
    held = _used() - base
    ten = ks[:10]
    for k in ten:
        look(k)
    a = gc.mem_alloc()
    for _ in range(30):
        for k in ten:
            look(k)
    frame = gc.mem_alloc() - a
    for k in ks[:48]:
        look(k)
    print(way, "held", held, "frame", frame, "with 48 looked up", _used() - base)


main(sys.argv[1], sys.argv[2])
