"""The player's language: tr(s) gives the chosen language's text for the English text s, or s itself.

English is the source text in the code and loads nothing. Another language is a file lang/<code>.txt
beside ui/ (UTF-8, one "English<TAB>translation" a line, "\\n" for a line break, sorted; tools/lang/
writes and checks it). It stays on the flash: ui/langfile.py use() reads it once (and checks it),
and this module keeps only an index (install()), one
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

Choosing a language, reading its file within its budget and checking each line against its English
text (so no format call can raise because of a translation) are ui/langfile.py's, loaded only for
that moment; this module is what stays loaded while the texts are looked up. A language switches
at any time (no reboot): the old index and texts are dropped, the new file read.
"""
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


def install(lang, path=None, index=None):
    """Speak `lang` from now on, its file at `path` indexed as `index` (ui/langfile.py use() reads
    and checks it); no index: English, every text the code's own."""
    global _path, _index, _code
    close()
    _cache.clear()
    _path, _index, _code = (path, index, lang) if index is not None else (None, None, "en")


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
        except (OSError, ValueError):     # the file gone or changed since it was indexed: English
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
