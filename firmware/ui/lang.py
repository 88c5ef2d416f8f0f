"""The player's language: tr(s) gives the chosen language's text for the English text s, or s itself.

English is the source text in the code and loads nothing. Another language is a file lang/<code>.txt
beside ui/ (UTF-8, one "English<TAB>translation" a line, "\\n" for a line break, sorted; tools/lang/
writes and checks it). It stays on the flash: use() reads it once and keeps only an index, one
sorted array of (hash of the English text << 16 | offset of its line), 4 bytes a text: 1.3 KB for
330 texts. tr() looks a text up there and reads its one line; the texts asked for since the screen
changed (forget(), called by App.go) are kept in a dict, so a screen drawn every frame reads and
allocates nothing, and a match's worst point holds its table's one or two texts, not the menus'.
The file is open only while texts are being looked up: close() (App.release, before an AI's search;
forget()) gives its buffer back (1.1 KB on the Pico W) and the next text not kept opens it again
(docs/UI.md, "Languages": the heap figures). A translation keeps the English text's placeholders
({0}, {1}, ...): the caller formats the result with str.format.

The index's hash is 14 bits: hash() of the English text's UTF-8 bytes has 8 on the Pico (MicroPython's
qstr hash), too few alone for ~330 texts, so the length's low 6 bits go with them; 14 bits keep
every index entry a small int (no heap). A shared hash costs a miss one more line read.

The file's budget: at most 64 KB (its offsets are 16-bit), lines of at most 1 KB; a file over it,
or one with no good line, is refused whole (OSError), English stays. Each line is checked against its
English text when the file is indexed, so no format call can raise because of a translation: both
valid UTF-8, the same format fields ({0}, {1}: each as often as in the English, which is once),
every other brace doubled ({{, }}). A line that fails is left out of the index (its text shows in
English) and counted: use() returns how many, for the one line that says so. The reading and the
checks are ui/langfile.py's, loaded only while a file is indexed.

use() switches at any time (no reboot): the old index and texts are dropped, the new file read.
"""
from array import array
try:
    from micropython import const
except ImportError:  # CPython: host tools import this module as it is
    def const(x):
        return x

_CACHE = const(48)          # texts kept translated at most: more than any screen shows at once
_LINE = const(1024)         # the longest line a language file may have
LANGS = ("en", "ru")        # the setting's values (store.SETTING_CHOICES)
NAMES = ("English", "Русский")   # each language's own name for itself (the Settings row)

_code = "en"
_path = None                # the language file, or None: English
_f = None                   # ... open while texts are looked up (close())
_index = None               # array('I'), sorted: hash << 16 | line offset, a line each
_cache = {}                 # English text: its translation, since the screen changed


def folder():
    """The languages folder: beside ui/ (the device's root, firmware/ on the PC)."""
    p = __file__
    p = p[:p.rfind("/")]
    return p[:p.rfind("/") + 1] + "lang/"


def code():
    """The language in use: "en", "ru"."""
    return _code


def use(lang, path=None):
    """Speak `lang` from now on ("en": drop the index); returns how many of the file's lines were
    dropped (0: none). An unknown code leaves English; so does a file that cannot be read, is over
    its budget or has no good line, raising OSError (English already in place, so the caller can
    say so in one line: screen.lang_problem)."""
    global _path, _index, _code
    close()
    _cache.clear()
    _path = _index = None
    _code = "en"
    if lang == "en" or lang not in LANGS:
        return 0
    path = path or folder() + lang + ".txt"
    keys = None
    bad = 0
    from ui.langfile import read_index        # (loaded for this moment: App.release drops it)
    with open(path, "rb") as f:
        try:
            keys, bad = read_index(f, _hash, _unescape)
        except (ValueError, MemoryError):     # over its budget, or more lines than the heap
            pass                              # can index
        if not keys:
            raise OSError(22)                 # EINVAL: damaged
    keys.sort()
    _path, _index, _code = path, array("I", keys), lang
    return bad


def _hash(b):
    """14 bits for the UTF-8 bytes `b`: hash()'s low 8 and the length's low 6 (hash() is the runtime's
    own and fast; its 8 bits alone would share each value among ~330 / 256 texts)."""
    return (hash(b) & 0xFF) << 6 | (len(b) & 0x3F)


def _unescape(b):
    return b.replace(b"\\n", b"\n") if b"\\" in b else b


def close():
    """Give the open language file's buffer back; the next text not kept opens it again."""
    global _f
    if _f is not None:
        _f.close()
        _f = None


def forget():
    """The screen changed: its texts need not be kept (they are read again if asked)."""
    _cache.clear()
    close()


def tr(s):
    """s in the language in use (s itself in English or when the file has no line for it)."""
    if _index is None:
        return s
    out = _cache.get(s)
    if out is None:
        try:
            out = _look(s)
        except (OSError, ValueError):     # the file gone or changed since use(): English
            close()
            out = s
        if len(_cache) >= _CACHE:
            _cache.clear()
        _cache[s] = out
    return out


def _look(s):
    """s's line in the file, found through the index (s itself when the file has none)."""
    global _f
    index = _index
    path = _path
    if index is None or path is None:
        return s
    f = _f
    b = s.encode()
    h = _hash(b) << 16
    lo = 0
    hi = len(index)
    while lo < hi:                        # the first entry of this hash
        mid = (lo + hi) >> 1
        if index[mid] < h:
            lo = mid + 1
        else:
            hi = mid
    while lo < len(index) and index[lo] >> 16 == h >> 16:
        if f is None:
            f = _f = open(path, "rb")
        f.seek(index[lo] & 0xFFFF)
        ln = f.readline(_LINE + 1)
        tab = ln.find(b"\t")
        if _unescape(ln[:tab]) == b:
            return str(_unescape(ln[tab + 1:].rstrip(b"\r\n")), "utf-8")
        lo += 1
    return s


def help_file(name="help.txt"):
    """The rules help file of the language in use: ui/help.txt, or ui/help_<code>.txt."""
    if _code == "en":
        return name
    dot = name.rfind(".")
    return name[:dot] + "_" + _code + name[dot:]
