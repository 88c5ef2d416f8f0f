"""The player's language (ui/lang.py, firmware/lang/<code>.txt, docs/UI.md "Languages"): every English
text the firmware shows has a translation with the same placeholders, in characters the fonts have;
tr() switches without a reboot and costs the MicroPython heap only its index; the setting is checked
like the others; a save does not depend on the language."""
import io
import os
import re
import subprocess

import pytest

import store
from domino import record
from domino.match import Match
from domino.rng import Rng
from domino.rules import Rules
from tools.lang import extract
from tools.proofs import faults
from ui import lang, langfile
from ui.screen import lang_problem

ROOT = extract.ROOT
LANG_DIR = os.path.join(ROOT, "firmware", "lang")
FONTS = os.path.join(ROOT, "firmware", "fonts")
PLACEHOLDER = re.compile(r"\{[^}]*\}|%[dsr]|\\n")


def table(code):
    """{English: translation} of a language file, as written (escaped line breaks kept)."""
    out = {}
    with open(os.path.join(LANG_DIR, code + ".txt"), encoding="utf-8") as f:
        for ln in f:
            k, v = ln.rstrip("\n").split("\t")
            out[k] = v
    return out


def dumps(match, extras):
    """The match's record (domino.record.dump) as one string."""
    buf = io.StringIO()
    record.dump(match, buf, extras)
    return buf.getvalue()


def escaped(s):
    return s.replace("\n", "\\n")


@pytest.fixture(autouse=True)
def english():
    langfile.use("en")
    yield
    langfile.use("en")


def test_every_text_has_russian():
    ru = table("ru")
    missing = [t for t in extract.catalogue() if escaped(t) not in ru]
    assert not missing, "no Russian for: " + repr(missing)


def test_no_stale_line():
    """A line whose English the firmware no longer shows is dropped (the settings row is told apart:
    its label is written tr("Language") in the code, which the extractor sees as well)."""
    cat = {escaped(t) for t in extract.catalogue()}
    stale = [k for k in table("ru") if k not in cat]
    assert not stale, "English no longer in the firmware: " + repr(stale)


def test_file_is_sorted_one_tab_a_line():
    with open(os.path.join(LANG_DIR, "ru.txt"), encoding="utf-8") as f:
        lines = f.read().split("\n")
    assert lines[-1] == ""
    lines = lines[:-1]
    assert all(ln.count("\t") == 1 and ln.split("\t")[1].strip() for ln in lines)
    keys = [ln.split("\t")[0] for ln in lines]
    assert keys == sorted(keys) and len(set(keys)) == len(keys)


def test_placeholders_match():
    for k, v in table("ru").items():
        assert sorted(PLACEHOLDER.findall(k)) == sorted(PLACEHOLDER.findall(v)), k
        assert (k[:1] == " ") == (v[:1] == " ") and (k[-1:] == " ") == (v[-1:] == " "), k


def font_chars(path):
    """The code points a font file (tools/fonts/build.py's layout, ui/font.py) holds."""
    with open(path, "rb") as f:
        head = f.read(14)
        n = head[10] | head[11] << 8
        f.seek(14 + (head[12] | head[13] << 8))
        cps = f.read(2 * n)
    return {chr(cps[2 * i] | cps[2 * i + 1] << 8) for i in range(n)}


def test_russian_in_the_fonts():
    with open(os.path.join(ROOT, "tools", "fonts", "charset.txt"), encoding="utf-8") as f:
        charset = set(f.read()) - {"\n"}
    used = set("".join(v.replace("\\n", "") for v in table("ru").values()))
    used |= set(lang.NAMES[1])
    assert used - charset == set()
    for name in os.listdir(FONTS):
        if name.endswith(".bin"):
            assert used - font_chars(os.path.join(FONTS, name)) == set(), name


def test_tr_switches_without_reboot():
    assert lang.tr("Settings") == "Settings" and lang.code() == "en"
    langfile.use("ru")
    assert lang.code() == "ru"
    assert lang.tr("Settings") == "Настройки"
    assert lang.tr("Settings") == "Настройки"            # from the cache
    assert lang.tr("{0} can't play\nA: go on") == "{0}: нет хода\nA: дальше"
    assert lang.tr("{0} drew {1}").format(lang.tr("Ann"), "3-5") == "Лиза берёт 3-5"
    assert lang.tr("no such text") == "no such text"
    assert lang.help_file() == "help_ru.txt"
    langfile.use("en")
    assert lang.tr("Settings") == "Settings" and lang.help_file() == "help.txt"
    langfile.use("ru")
    assert lang.tr("Back") == "Назад"


def test_every_line_found_through_the_index():
    langfile.use("ru")
    for k, v in table("ru").items():
        assert lang.tr(k.replace("\\n", "\n")) == v.replace("\\n", "\n")


def test_missing_file_leaves_english(tmp_path):
    with pytest.raises(OSError):
        langfile.use("ru", str(tmp_path / "none.txt"))
    assert lang.code() == "en" and lang.tr("Back") == "Back"


@pytest.mark.parametrize("content", [
    b"Back\t\xff\xfe\n",                              # not UTF-8: the translation
    b"\xc3(\tNazad\n",                                  # not UTF-8: the English text
    b"Back\t" + b"x" * 2000 + b"\n",                   # a line over 1 KB
    b"Back\tx" + b"\n" * 70000,                          # over 64 KB (in short lines)
    bytes(range(256)) * 300,                             # noise, no line breaks
])
def test_damaged_file_leaves_english(tmp_path, content):
    """A language file over its budget, or without one good line, is refused whole, with one line
    to say so, before anything reads it mid-game."""
    p = tmp_path / "ru.txt"
    p.write_bytes(content)
    with pytest.raises(OSError) as e:
        langfile.use("ru", str(p))
    assert lang.code() == "en" and lang.tr("Back") == "Back"
    assert lang_problem(e.value) == "Language file damaged"
    with pytest.raises(OSError) as e:
        langfile.use("ru", str(tmp_path / "none.txt"))
    assert lang_problem(e.value) == "Language file missing"


MUTATIONS = (
    ("shifted", lambda v: (v.replace("{3}", "{4}").replace("{2}", "{3}").replace("{1}", "{2}")
                           .replace("{0}", "{1}"))),
    ("repeated", lambda v: v.replace("{0}", "{0}{0}")),
    ("named", lambda v: v.replace("{0}", "{x}")),
    ("stray {", lambda v: v + " {"),
    ("stray }", lambda v: "} " + v),
    ("unclosed", lambda v: v.replace("{0}", "{0", 1)),
    ("extra", lambda v: v + " {3}"),
    ("dropped", lambda v: v.replace("{0}", "", 1)),
    ("a spec", lambda v: v.replace("{0}", "{0:>999}", 1)),
    ("auto", lambda v: v.replace("{0}", "{}", 1)),
)


def write_lang(path, rows):
    path.write_bytes(("".join("%s\t%s\n" % kv for kv in rows)).encode("utf-8"))


@pytest.mark.parametrize("how,mutate", MUTATIONS, ids=[m[0] for m in MUTATIONS])
def test_a_translation_whose_fields_differ_is_dropped(tmp_path, how, mutate):
    """Every line with a placeholder, its translation's fields changed: that line is left out when
    the file is indexed (its text shows in English) and counted; no format call can raise."""
    ru = table("ru")
    rows = list(ru.items())
    with_fields = [k for k, v in rows if "{0}" in v]
    assert len(with_fields) > 60
    bad = {k: mutate(ru[k]) for k in with_fields}
    p = tmp_path / "ru.txt"
    write_lang(p, [(k, bad.get(k, v)) for k, v in rows])
    n = langfile.use("ru", str(p))
    changed = [k for k in with_fields if bad[k] != ru[k]]
    assert n == len(changed) > 60
    for k in with_fields:
        text = k.replace("\\n", "\n")
        got = lang.tr(text)
        args = ["a", "b", "c", "d"]
        want = text if k in changed else ru[k].replace("\\n", "\n")
        assert got.format(*args) == want.format(*args)
    assert lang.tr("Back") == "Назад"                    # the other lines stay


def test_translations_swapped_or_moved_never_break_a_format(tmp_path):
    """Each translation moved one line on (the worst a swap does): a line whose fields still match
    its English text stays (a wrong text, but one that formats), every other one is dropped."""
    rows = list(table("ru").items())
    moved = [(rows[i][0], rows[(i + 1) % len(rows)][1]) for i in range(len(rows))]
    p = tmp_path / "ru.txt"
    write_lang(p, moved)
    n = langfile.use("ru", str(p))
    assert 0 < n < len(rows)
    for k, _ in rows:
        text = k.replace("\\n", "\n")
        lang.tr(text).format("a", "b", "c", "d")


def test_one_bad_line_costs_that_line(tmp_path):
    """A line not UTF-8, or without its tab, is dropped and counted; the rest of the file is used.
    A file with no good line at all is refused whole."""
    rows = list(table("ru").items())
    p = tmp_path / "ru.txt"
    good = "".join("%s\t%s\n" % kv for kv in rows).encode("utf-8")
    p.write_bytes(good.replace("\tНазад\n".encode(), b"\t\xd0\xff\n").replace(b"Settings\t", b"Settings "))
    assert langfile.use("ru", str(p)) == 2
    assert lang.tr("Back") == "Back" and lang.tr("Settings") == "Settings"
    assert lang.tr("Stock {0}") == "Базар {0}"
    p.write_bytes(b"Back\t{\nStock {0}\t\xff{0}\n")
    with pytest.raises(OSError):
        langfile.use("ru", str(p))
    assert lang.code() == "en"


def test_the_check_reads_format_fields_as_format_does():
    for text, fields in (("a {0} b {1}", [b"0", b"1"]), ("{{0}} {1}", [b"1"]), ("}}{{", []), ("{0}}", None),
                         ("{", None), ("}", None), ("{0{1}}", None), ("{x} {0!r}", [b"0!r", b"x"])):
        assert langfile._fields(text.encode()) == fields, text
        if fields is not None:
            "".join(text).format("p", "q", x="r")           # what format accepts is accepted
        else:
            with pytest.raises(ValueError):
                text.format("p", "q")


def test_a_screen_change_forgets_the_old_screens_texts():
    """The cache holds the texts asked for since the screen changed (App.go calls forget): a match's
    worst point keeps its table's few texts, not the menus'."""
    langfile.use("ru")
    for k in list(table("ru"))[:30]:
        lang.tr(k.replace("\\n", "\n"))
    assert len(lang._cache) == 30
    lang.forget()
    assert not lang._cache and lang.tr("Back") == "Назад" and len(lang._cache) == 1
    langfile.use("en")


def test_the_file_is_open_only_while_texts_are_looked_up(tmp_path):
    """close() (App.release, before an AI's search) gives the file's buffer back and a text not kept
    opens it again; a file gone since use() leaves English, never an error."""
    p = tmp_path / "ru.txt"
    p.write_bytes(open(os.path.join(LANG_DIR, "ru.txt"), "rb").read())
    langfile.use("ru", str(p))
    assert lang._f is None and lang.tr("Back") == "Назад" and lang._f is not None
    lang.close()
    assert lang._f is None and lang.tr("Back") == "Назад" and lang._f is None     # kept
    assert lang.tr("Settings") == "Настройки" and lang._f is not None
    lang.forget()
    assert lang._f is None
    p.unlink()
    assert lang.tr("Back") == "Back" and lang.tr("Settings") == "Settings"
    langfile.use("en")


def pico_hash(b):
    """MicroPython's hash() of bytes on the Pico: its qstr hash (py/qstr.c qstr_compute_hash), one
    byte of it (the rp2 port's MICROPY_QSTR_BYTES_IN_HASH)."""
    h = 5381
    for c in b:
        h = (h * 33) ^ c
    return (h & 0xFF) or 1


def test_the_index_is_small_and_every_hash_bucket_short(monkeypatch):
    """4 bytes a text, sorted; with the Pico's hash() the texts' 14-bit hashes rarely collide (a
    collision costs a miss one more line read)."""
    monkeypatch.setattr(lang, "hash", pico_hash, raising=False)
    langfile.use("ru")
    n = len(table("ru"))
    assert len(lang._index) == n and lang._index.itemsize == 4
    assert list(lang._index) == sorted(lang._index)
    hashes = [v >> 16 for v in lang._index]
    sizes = sorted(hashes.count(h) for h in set(hashes))
    assert sizes[-1] <= 3 and len(set(hashes)) > 0.9 * n, sizes[-10:]
    assert lang.tr("Settings") == "Настройки"
    langfile.use("en")


@pytest.mark.parametrize("way", ["dict", "index"])
def test_heap_on_micropython(micropython, way):
    """The index holds far less than a dict of every text, and a frame's look-ups allocate nothing."""
    env = dict(os.environ, MICROPYPATH=os.path.join(ROOT, "firmware"))
    out = subprocess.run([micropython, "-X", "heapsize=180K", os.path.join(ROOT, "tools", "lang", "heap.py"),
                          way, os.path.join(LANG_DIR, "ru.txt")], env=env, capture_output=True, text=True,
                         timeout=60, check=True).stdout.split()
    held, frame, full = int(out[2]), int(out[4]), int(out[-1])
    assert frame == 0
    if way == "index":
        assert held < 6000 and full < 12000
    else:
        assert held > 4 * 6000                  # why the index: the dict costs several times more


def test_setting_round_trips(tmp_path):
    st = store.Store(str(tmp_path))
    s, msg = st.load_settings()
    assert s["lang"] == "en" and msg is None
    s["lang"] = "ru"
    st.save_settings(s)
    s2, msg = store.Store(str(tmp_path)).load_settings()
    assert s2["lang"] == "ru" and msg is None
    assert set(store.SETTING_CHOICES["lang"][1]) == set(lang.LANGS)


@pytest.mark.parametrize("bad", ["fr", "RU", "", 1, True, None, ["ru"]])
def test_bad_language_refused(tmp_path, bad):
    st = store.Store(str(tmp_path))
    s, _ = st.load_settings()
    s["lang"] = bad
    st.save_settings(s)
    s2, msg = store.Store(str(tmp_path)).load_settings()
    assert s2["lang"] == "en" and msg == "Some settings invalid: reset"
    assert s2["bright"] == s["bright"]


def test_english_save_resumes_in_russian(tmp_path):
    """A save holds no text of the language: saved in English, loaded in Russian, the same match;
    and the reverse."""
    extras = {"seats": "human,easy,easy,easy", "names": "You,Ann,Bob,Cat", "sheet": ""}
    for first, second in (("en", "ru"), ("ru", "en")):
        d = tmp_path / first
        d.mkdir()
        langfile.use(first)
        st = store.Store(str(d))
        m = Match(Rules("goat", 4, True), 77)
        m.start_round()
        st.save_game(m, extras)
        faults.play(st, m, Rng(5), 12, extras)
        saved = (d / "game.txt").read_bytes()
        assert not re.search(rb"[\xd0\xd1]", saved)          # no Cyrillic in a save
        langfile.use(second)
        m2, ex, msg = store.Store(str(d)).load_game()
        assert msg is None and ex["names"] == "You,Ann,Bob,Cat"
        assert m2.round.hands == m.round.hands and m2.round.layout.lead == m.round.layout.lead
        assert dumps(m2, ex) == dumps(m, extras)


def test_russian_rules_help_has_every_page():
    """ui/help_ru.txt (what the rules help shows in Russian, ui/lang.py help_file) has every page of
    ui/help.txt, each with the same placeholders, in characters the fonts have, and in the
    glossary's words (docs/GLOSSARY.md: кость, базар, рыба, козёл, кон)."""
    en = extract.help_sections()
    ru = extract.help_sections(os.path.join(ROOT, "firmware", "ui", "help_ru.txt"))
    assert set(ru) == set(en)
    for k in en:
        assert ru[k], k
        assert sorted(re.findall(r"\{[^}]*\}", ru[k])) == sorted(re.findall(r"\{[^}]*\}", en[k])), k
        kept = r"mpremote[^.]*|events\.old|\*\.bad|\{[^}]*\}"    # commands, file names, placeholders
        assert not re.search(r"[A-Za-z]{4,}", re.sub(kept, "", ru[k])), k
    text = "".join(ru.values()).replace("\n", "")
    with open(os.path.join(ROOT, "tools", "fonts", "charset.txt"), encoding="utf-8") as f:
        charset = set(f.read()) - {"\n"}
    assert set(text) - charset == set()
    for name in os.listdir(FONTS):
        if name.endswith(".bin"):
            assert set(text) - font_chars(os.path.join(FONTS, name)) == set(), name
    for word in ("кость", "базар", "рыба", "козёл", "кон", "дубль", "пусто-пусто", "в памяти"):
        assert word in text.lower(), word
    assert os.path.getsize(os.path.join(ROOT, "firmware", "ui", "help_ru.txt")) <= 12 * 1024


def test_rules_help_follows_the_language():
    """The help page reads the language's own file once ui.lang is loaded, help.txt before."""
    from tools.sim.ui_host import device_module
    widgets = device_module("ui.helptext")
    langfile.use("en")
    assert widgets.help_text("goat").startswith("Goat: a penalty game.")
    langfile.use("ru")
    try:
        assert widgets.help_text("goat").startswith("Козёл: игра на штрафные очки.")
    finally:
        langfile.use("en")


@pytest.mark.parametrize("damage", ["missing", "not UTF-8", "a line over 1 KB", "no such section",
                                    "10,000 lines"])
def test_a_damaged_help_file_gives_the_english_page_with_a_line(tmp_path, monkeypatch, damage):
    """The Russian rules help damaged in its page (not UTF-8: once "Ошибка UnicodeError"), missing or
    without the page: the English page under "Справка повреждена: по-английски", never an error."""
    import shutil
    from tools.sim.ui_host import device_module
    helptext = device_module("ui.helptext")
    ui = tmp_path / "ui"
    ui.mkdir()
    src = os.path.join(ROOT, "firmware", "ui")
    shutil.copy(os.path.join(src, "help.txt"), str(ui / "help.txt"))
    good = open(os.path.join(src, "help_ru.txt"), "rb").read()
    at = good.index(b"[goat]\n") + 7
    bad = {"not UTF-8": good[:at] + b"\xd0\xff" + good[at:],
           "a line over 1 KB": good[:at] + b"x" * 2000 + good[at:],
           "no such section": good.replace(b"[goat]\n", b"[got]\n"),
           "10,000 lines": good[:at] + b"x\n" * 10000 + good[at:]}.get(damage)
    if bad is not None:
        (ui / "help_ru.txt").write_bytes(bad)
    monkeypatch.setattr(helptext, "__file__", str(ui / "helptext.py"))
    langfile.use("ru")
    try:
        text = helptext.help_text("goat")
    finally:
        langfile.use("en")
    assert text.startswith("Справка повреждена: по-английски\nGoat: a penalty game."), text[:80]
