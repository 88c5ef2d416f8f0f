"""A small log of what went wrong on the device, for the owner to read with
`mpremote cat :events.log`: one line per event, `<kind> #<n> <detail>`, where n counts the events of
that kind since the log began. Kept apart from store.py so that logging a MemoryError needs almost
no heap (this module is a few hundred bytes). The log stays small: past LIMIT bytes it is renamed to
events.old (the previous one is dropped) and a new one begins, carrying the counts on.
Writing never raises: a full or failing flash only loses the log line.
"""
import os

LIMIT = 4096


def _lines(f):
    """The log's lines, each read to at most 200 bytes (a line the log never wrote cannot fill the heap)."""
    while True:
        ln = f.readline(200)
        if not ln:
            return
        yield ln


def _count(path, kind):
    """The newest count of `kind` in the log (0 when none or unreadable)."""
    n = 0
    try:
        with open(path) as f:
            for ln in _lines(f):
                if ln.startswith(kind + " #"):
                    sp = ln.find(" ", len(kind) + 2)
                    try:
                        n = int(ln[len(kind) + 2:sp if sp > 0 else len(ln)])
                    except ValueError:
                        pass
    except (OSError, ValueError):
        pass
    return n


def note(root, kind, detail=""):
    """Append one event; returns its count (0 when it could not be written)."""
    path = root + "events.log"
    try:
        try:
            st = os.stat(path)
            if st[0] & 0xF000 != 0x8000:
                return 0                 # a directory or a device where the log goes: no log
            size = st[6]
        except OSError:
            size = 0
        ours = size <= 4 * LIMIT         # larger: not a log this module wrote; set aside unread
        n = _count(path, kind) + 1 if ours else 1
        if size > LIMIT:
            kinds = []
            if ours:
                with open(path) as f:
                    for ln in _lines(f):
                        k = ln.split(" ", 1)[0]
                        if k not in kinds:
                            kinds.append(k)
            carried = ""
            for k in kinds:
                if k != kind:
                    carried += k + " #" + str(_count(path, k)) + " (carried over)\n"
            old = root + "events.old"
            try:
                os.remove(old)
            except OSError:
                pass
            os.rename(path, old)
            with open(path, "w") as f:
                f.write(carried)
        with open(path, "a") as f:
            f.write(kind + " #" + str(n) + " " + detail.replace("\n", " ")[:120] + "\n")
        return n
    except Exception:  # noqa: BLE001 - the log must never be why the device stops
        return 0
