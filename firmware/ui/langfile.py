"""Choosing the player's language: its file read and checked into ui/lang.py's index, loaded only for
that moment (at boot, in Settings; App.release drops it), so none of this stays in the heap while
the texts are looked up.

The file's budget: at most 64 KB (its offsets are 16-bit), lines of at most 1 KB; a file over it,
or one without a single good line, is refused whole (OSError), English stays. Each line is checked
against its English text, so that no format call can raise because of a translation: both valid
UTF-8, the translation not empty, the same format fields ({0}, {1}: each as often as in the English,
which is once; named, shifted, repeated, extra or missing ones fail), every other brace doubled
({{, }}). A line that fails is left out of the index (its text shows in English) and counted.
"""
from array import array
from ui import lang
from ui.screen import drop_module, lang_problem, tr
try:
    from micropython import const
except ImportError:  # CPython: host tools import this module as it is
    def const(x):
        return x

_SIZE = const(0xFFFF)       # the most bytes a language file may hold (16-bit line offsets)
_LINE = const(1024)         # the longest line a language file may have (= ui/lang.py _LINE)


def use_lang(code, g):
    """Speak `code` from now on, in a font that has its letters (Gfx.for_lang). Returns None, or
    the one line to show: why English stays (the language's file missing or damaged, no font for
    its letters) or how many of its lines were dropped (those texts show in English)."""
    why = None
    n = 0
    try:
        n = use(code)
        if not g.for_lang(code):
            why = g.note
            use("en")
    except OSError as e:
        why = lang_problem(e)
    if lang.code() == "en":
        drop_module("ui.lang")           # English loads nothing (screen.tr)
        g.for_lang("en")
        return why
    return tr("Language: {0} lines skipped").format(n) if n else None


def use(code, path=None):
    """Speak `code` from now on ("en": drop the index); returns how many of its file's lines were
    dropped (0: none). An unknown code leaves English; so does a file that cannot be read, is over
    its budget or has no good line, raising OSError (English already in place, so the caller can
    say so in one line: screen.lang_problem)."""
    lang.install("en")
    if code == "en" or code not in lang.LANGS:
        return 0
    path = path or lang.folder() + code + ".txt"
    keys = None
    bad = 0
    with open(path, "rb") as f:
        try:
            keys, bad = _read_index(f)
        except (ValueError, MemoryError):     # over its budget, or more lines than the heap
            pass                              # can index
    if not keys:
        raise OSError(22)                     # EINVAL: damaged
    keys.sort()
    lang.install(code, path, array("I", keys))
    return bad


def _read_index(f):
    """The open language file `f`'s index entries (ui/lang.py: the English text's hash << 16 | its
    line's offset, unsorted) and how many lines were dropped, its budget checked on the way
    (ValueError)."""
    hash14 = lang._hash                   # (the index's own: ui/lang.py looks texts up by it)
    unescape = lang._unescape
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
            # good: both UTF-8, the translation not empty, the same format fields (most lines
            # have none: nothing more to check), each brace otherwise doubled
            t = ln[tab + 1:].rstrip(b"\r\n")
            try:
                str(ln, "utf-8")
                good = len(t) > 0
            except ValueError:                # (UnicodeError)
                good = False
            if good and (b"{" in ln or b"}" in ln):
                a = _fields(ln[:tab])
                good = a is not None and a == _fields(t)
            if good:
                keys.append(hash14(unescape(ln[:tab])) << 16 | at)
            else:
                bad += 1
        elif ln.strip():
            bad += 1                          # (a line without its English text)
        at += len(ln)
    return keys, bad


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
