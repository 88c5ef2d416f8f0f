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
from ui import lang
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
    lang.use("en")
    yield
    lang.use("en")


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
    lang.use("ru")
    assert lang.code() == "ru"
    assert lang.tr("Settings") == "Настройки"
    assert lang.tr("Settings") == "Настройки"            # from the cache
    assert lang.tr("{0} can't play\nA: go on") == "{0}: нет хода\nA: дальше"
    assert lang.tr("{0} drew {1}").format(lang.tr("Ann"), "3-5") == "Лиза берёт 3-5"
    assert lang.tr("no such text") == "no such text"
    assert lang.help_file() == "help_ru.txt"
    lang.use("en")
    assert lang.tr("Settings") == "Settings" and lang.help_file() == "help.txt"
    lang.use("ru")
    assert lang.tr("Back") == "Назад"


def test_every_line_found_through_the_index():
    lang.use("ru")
    for k, v in table("ru").items():
        assert lang.tr(k.replace("\\n", "\n")) == v.replace("\\n", "\n")


def test_missing_file_leaves_english(tmp_path):
    with pytest.raises(OSError):
        lang.use("ru", str(tmp_path / "none.txt"))
    assert lang.code() == "en" and lang.tr("Back") == "Back"


@pytest.mark.parametrize("content", [
    b"Back\t\xff\xfe\n",                              # not UTF-8: the translation
    b"\xc3(\tNazad\n",                                  # not UTF-8: the English text
    b"Back\t" + b"x" * 2000 + b"\n",                   # a line over 1 KB
    b"Back\tx" + b"\n" * 70000,                          # over 64 KB (in short lines)
    bytes(range(256)) * 300,                             # noise, no line breaks
])
def test_damaged_file_leaves_english(tmp_path, content):
    """A language file over its budget or not UTF-8 is refused whole, with one line to say so,
    before anything reads it mid-game."""
    p = tmp_path / "ru.txt"
    p.write_bytes(content)
    with pytest.raises(OSError) as e:
        lang.use("ru", str(p))
    assert lang.code() == "en" and lang.tr("Back") == "Back"
    assert lang_problem(e.value) == "Language file damaged"
    with pytest.raises(OSError) as e:
        lang.use("ru", str(tmp_path / "none.txt"))
    assert lang_problem(e.value) == "Language file missing"


def test_a_screen_change_forgets_the_old_screens_texts():
    """The cache holds the texts asked for since the screen changed (App.go calls forget): a match's
    worst point keeps its table's few texts, not the menus'."""
    lang.use("ru")
    for k in list(table("ru"))[:30]:
        lang.tr(k.replace("\\n", "\n"))
    assert len(lang._cache) == 30
    lang.forget()
    assert not lang._cache and lang.tr("Back") == "Назад" and len(lang._cache) == 1
    lang.use("en")


def test_the_file_is_open_only_while_texts_are_looked_up(tmp_path):
    """close() (App.release, before an AI's search) gives the file's buffer back and a text not kept
    opens it again; a file gone since use() leaves English, never an error."""
    p = tmp_path / "ru.txt"
    p.write_bytes(open(os.path.join(LANG_DIR, "ru.txt"), "rb").read())
    lang.use("ru", str(p))
    assert lang._f is None and lang.tr("Back") == "Назад" and lang._f is not None
    lang.close()
    assert lang._f is None and lang.tr("Back") == "Назад" and lang._f is None     # kept
    assert lang.tr("Settings") == "Настройки" and lang._f is not None
    lang.forget()
    assert lang._f is None
    p.unlink()
    assert lang.tr("Back") == "Back" and lang.tr("Settings") == "Settings"
    lang.use("en")


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
    lang.use("ru")
    n = len(table("ru"))
    assert len(lang._index) == n and lang._index.itemsize == 4
    assert list(lang._index) == sorted(lang._index)
    hashes = [v >> 16 for v in lang._index]
    sizes = sorted(hashes.count(h) for h in set(hashes))
    assert sizes[-1] <= 3 and len(set(hashes)) > 0.9 * n, sizes[-10:]
    assert lang.tr("Settings") == "Настройки"
    lang.use("en")


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
        lang.use(first)
        st = store.Store(str(d))
        m = Match(Rules("goat", 4, True), 77)
        m.start_round()
        st.save_game(m, extras)
        faults.play(st, m, Rng(5), 12, extras)
        saved = (d / "game.txt").read_bytes()
        assert not re.search(rb"[\xd0\xd1]", saved)          # no Cyrillic in a save
        lang.use(second)
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
    widgets = device_module("ui.widgets")
    lang.use("en")
    assert widgets.help_text("goat").startswith("Goat: a penalty game.")
    lang.use("ru")
    try:
        assert widgets.help_text("goat").startswith("Козёл: игра на штрафные очки.")
    finally:
        lang.use("en")
