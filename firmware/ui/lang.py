"""The player's language: tr(s) gives the chosen language's text for the English text s, or s itself.

English is the source text in the code and loads nothing. Another language is a file lang/<code>.txt
beside ui/ (UTF-8, one "English<TAB>translation" a line, "\\n" for a line break, sorted; tools/lang/
writes and checks it). It stays on the flash: use() reads it once and keeps only an index, a hash
table of (hash of the English text, offset of its line), 2 KB for 300 texts; tr() looks a text up
there and reads its one line, and keeps the texts asked for since the screen changed (forget(),
called by App.go) in a dict, so a screen drawn every frame reads and allocates nothing, and what a
match holds at its worst point is its table screen's few texts, not the menus' (docs/UI.md,
"Languages": the heap figures). A translation keeps the English text's placeholders ({0}, {name},
%d): the caller formats the result.

The file's budget: at most 64 KB (its offsets are 16-bit), lines of at most 1 KB, UTF-8 throughout;
a file over it, or damaged, is refused whole (OSError), English stays.

use() switches at any time (no reboot): the old file is closed, its index dropped, the new one read.
"""
from array import array
try:
    from micropython import const
except ImportError:  # CPython: host tools import this module as it is
    def const(x):
        return x

_CACHE = const(48)          # texts kept translated at most: more than any screen shows at once
_HASH = const(0xFFFF)       # bits of a text's hash the index keeps (the line itself is compared)
_SIZE = const(0xFFFF)       # the most bytes a language file may hold (16-bit line offsets)
_LINE = const(1024)         # the longest line a language file may have
LANGS = ("en", "ru")        # the setting's values (store.SETTING_CHOICES)
NAMES = ("English", "Русский")   # each language's own name for itself (the Settings row)

_code = "en"
_f = None                   # the open language file, or None: English
_hashes = None              # array('H'): the index's hash per slot
_offs = None                # array('H'): line offset + 1 per slot (0: free)
_mask = 0
_cache = {}                 # English text: its translation, since the screen changed


def folder():
    """The languages folder: beside ui/ (the device's root, firmware/ on the PC)."""
    p = __file__
    p = p[:p.rfind("/")]
    return p[:p.rfind("/") + 1] + "lang/"


def code():
    """The language in use: "en", "ru"."""
    return _code


def _drop():
    global _f, _hashes, _offs, _mask, _code
    if _f:
        _f.close()
    _f = _hashes = _offs = None
    _mask = 0
    _code = "en"
    _cache.clear()


def use(lang, path=None):
    """Speak `lang` from now on ("en": drop the file and its index). An unknown code leaves English;
    so does a file that cannot be read or is over its budget or damaged, raising OSError (English
    already in place, so the caller can say so in one line: screen.lang_problem)."""
    global _f, _hashes, _offs, _mask, _code
    _drop()
    if lang == "en" or lang not in LANGS:
        return
    f = open(path or folder() + lang + ".txt", "rb")
    try:
        index = _index(f)
    except (ValueError, MemoryError):       # not UTF-8 (UnicodeError), over its budget
        f.close()
        raise OSError(22)                   # EINVAL: damaged
    _hashes, _offs, _mask = index
    _f, _code = f, lang


def _index(f):
    """(hashes, offsets, mask) of the open language file `f`, its budget checked."""
    n = 0
    at = 0
    while True:
        ln = f.readline(_LINE + 1)
        if not ln:
            break
        at += len(ln)
        n += 1
        if len(ln) > _LINE or at > _SIZE:
            raise ValueError
    size = 16
    while size < n + n // 2:
        size <<= 1
    hashes = array("H", bytes(2 * size))   # (bytes: the array's raw contents, all zeros)
    offs = array("H", bytes(2 * size))
    mask = size - 1
    f.seek(0)
    at = 0
    for _ in range(n):
        ln = f.readline(_LINE + 1)
        tab = ln.find(b"\t")
        if tab > 0:
            h = hash(_unescape(str(ln[:tab], "utf-8")))
            str(ln[tab + 1:], "utf-8")      # (a damaged translation is refused now, not mid-game)
            i = h & mask
            while offs[i]:
                i = (i + 1) & mask
            hashes[i] = h & _HASH
            offs[i] = at + 1
        at += len(ln)
    return hashes, offs, mask


def forget():
    """The screen changed: its texts need not be kept (they are read again if asked)."""
    _cache.clear()


def _unescape(s):
    return s.replace("\\n", "\n") if "\\" in s else s


def tr(s):
    """s in the language in use (s itself in English or when the file has no line for it)."""
    if _f is None:
        return s
    out = _cache.get(s)
    if out is None:
        out = _look(s, hash(s))
        if len(_cache) >= _CACHE:
            _cache.clear()
        _cache[s] = out
    return out


def _look(s, h):
    f = _f
    offs = _offs
    hashes = _hashes
    if f is None or offs is None or hashes is None:
        return s
    mask = _mask
    i = h & mask
    h &= _HASH
    while offs[i]:
        if hashes[i] == h:
            f.seek(offs[i] - 1)
            ln = str(f.readline(), "utf-8")
            tab = ln.find("\t")
            if _unescape(ln[:tab]) == s:
                return _unescape(ln[tab + 1:].rstrip("\r\n"))
        i = (i + 1) & mask
    return s


def help_file(name="help.txt"):
    """The rules help file of the language in use: ui/help.txt, or ui/help_<code>.txt."""
    if _code == "en":
        return name
    dot = name.rfind(".")
    return name[:dot] + "_" + _code + name[dot:]
