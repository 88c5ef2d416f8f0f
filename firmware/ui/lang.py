"""The player's language: tr(s) gives the chosen language's text for the English text s, or s itself.

English is the source text in the code and loads nothing. Another language is a file lang/<code>.txt
beside ui/ (UTF-8, one "English<TAB>translation" a line, "\\n" for a line break, sorted; tools/lang/
writes and checks it). It stays on the flash: use() reads it once and keeps only an index, a hash
table of (hash of the English text, offset of its line), about 3 KB for 300 texts; tr() looks a text
up there and reads its one line, and keeps the last texts asked for (48) in a dict, so a screen
drawn every frame reads and allocates nothing (docs/UI.md, "Languages": the heap figures). A
translation keeps the English text's placeholders ({0}, {name}, %d): the caller formats the result.

use() switches at any time (no reboot): the old file is closed, its index dropped, the new one read.
"""
from array import array

# plain ints, not micropython.const: host tools import this module under CPython as it is
_CACHE = 48                 # texts kept translated: more than any screen shows at once
_HASH = 0xFFFF              # bits of a text's hash the index keeps (the line itself is compared)
LANGS = ("en", "ru")        # the setting's values (store.SETTING_CHOICES)
NAMES = ("English", "Русский")   # each language's own name for itself (the Settings row)

_code = "en"
_f = None                   # the open language file, or None: English
_hashes = None              # array('H'): the index's hash per slot
_offs = None                # array('I'): line offset + 1 per slot (0: free)
_mask = 0
_cache = {}                 # English text: its translation, the last ones asked for (emptied when full)


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
    """Speak `lang` from now on ("en": drop the file and its index). An unknown code, or a file
    that cannot be read, leaves English (raises OSError for a missing or unreadable file, with
    English already in place, so the caller can say so in one line)."""
    global _f, _hashes, _offs, _mask, _code
    _drop()
    if lang == "en" or lang not in LANGS:
        return
    f = open(path or folder() + lang + ".txt", "rb")
    n = 0
    for ln in f:
        n += 1
    size = 16
    while size < n + n // 2:
        size <<= 1
    hashes = array("H", _zeros(size))
    offs = array("I", _zeros(size))
    mask = size - 1
    f.seek(0)
    at = 0
    for ln in f:
        tab = ln.find(b"\t")
        if tab > 0:
            h = hash(_unescape(str(ln[:tab], "utf-8")))
            i = h & mask
            while offs[i]:
                i = (i + 1) & mask
            hashes[i] = h & _HASH
            offs[i] = at + 1
        at += len(ln)
    _f, _hashes, _offs, _mask, _code = f, hashes, offs, mask, lang


def _zeros(n):
    for _ in range(n):
        yield 0


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
