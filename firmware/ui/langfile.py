"""A language file read and checked, for ui/lang.py's index (loaded only while a file is indexed):
its budget (at most 64 KB, its offsets are 16-bit; lines of at most 1 KB), and each line against
its English text, so that no format call can raise because of a translation: both valid UTF-8, the
translation not empty, the same format fields ({0}, {1}: each as often as in the English), every
other brace doubled ({{, }}). A line that fails is left out (its text shows in English) and
counted."""
try:
    from micropython import const
except ImportError:  # CPython: host tools import this module as it is
    def const(x):
        return x

_SIZE = const(0xFFFF)       # the most bytes a language file may hold (16-bit line offsets)
_LINE = const(1024)         # the longest line a language file may have (= ui/lang.py _LINE)


def read_index(f, hash14, unescape):
    """The open language file `f`'s index entries (ui/lang.py: hash14(English text) << 16 | its
    line's offset, unsorted) and how many lines were dropped, its budget checked on the way
    (ValueError). `unescape`: a text as the code writes it ("\\n" a line break)."""
    keys = []
    bad = 0
    at = 0
    while True:
        ln = f.readline(_LINE + 1)
        if not ln:
            break
        if len(ln) > _LINE or at + len(ln) > _SIZE:
            raise ValueError
        tab = ln.find(b"\t")
        if tab > 0:
            if _good(ln, tab):
                keys.append(hash14(unescape(ln[:tab])) << 16 | at)
            else:
                bad += 1
        elif ln.strip():
            bad += 1                          # (a line without its English text)
        at += len(ln)
    return keys, bad


def _good(ln, tab):
    """Line `ln` (English, a tab at `tab`, the translation) can stand in for its English: both
    UTF-8, the translation not empty, and the same format fields, each brace otherwise doubled."""
    try:
        str(ln, "utf-8")
    except ValueError:                        # (UnicodeError)
        return False
    t = ln[tab + 1:].rstrip(b"\r\n")
    if not t:
        return False
    if b"{" not in ln and b"}" not in ln:     # (most lines: no field, nothing more to check)
        return True
    a = _fields(ln[:tab])
    return a is not None and a == _fields(t)


def _fields(b):
    """The format fields of `b` ({0} -> b"0"), sorted, or None when a brace is unpaired ("{", "}",
    "{0" ...) or a field holds a brace."""
    out = []
    i = 0
    while True:
        o = b.find(b"{", i)
        c = b.find(b"}", i)
        if o < 0 and c < 0:
            break
        if c >= 0 and (o < 0 or c < o):       # a "}" first: only "}}" is one
            if b[c + 1:c + 2] != b"}":
                return None
            i = c + 2
        elif b[o + 1:o + 2] == b"{":          # "{{"
            i = o + 2
        elif c < 0 or b.find(b"{", o + 1, c) >= 0:
            return None
        else:
            out.append(b[o + 1:c])
            i = c + 1
    out.sort()
    return out
