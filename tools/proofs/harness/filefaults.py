"""The font and language fault proof's MicroPython side: the real app (firmware as .mpy, the simulated
board mimicking each real board, MicroPython unix port) booted with one of the files it reads
besides its data damaged: a board's font (fonts/*.bin), the language file (lang/ru.txt) or the
Russian rules help (ui/help_ru.txt). Run by tools/proofs/filefaults.py (make soak-filefaults) and
host_tests/test_file_faults.py (a smoke set):

    MICROPYPATH=<code dir>:<board dir>:<this folder> UI_JOB_FILE=<job.json> micropython -c "import filefaults"

Job (in the file $UI_JOB_FILE): {"fw": the compiled firmware tree the app runs from (its files are
damaged in place, one case at a time, and put back), "flash": a folder holding a game in progress
("settings.<lang>": its settings.json for each language), "work": a folder for each case's flash,
"notes": {"font": [...], "lang": [...], "skipped": [...], "help": line}, the lines the firmware
says, "cases": [{"board", "size", "lang", "target" (a path in fw), "src" (a file holding the
damaged bytes; None: the file removed; "<dir>": a folder in its place), "hold" (B held at
power-on), "group", "label"}]}.

Each case boots the app on a fresh copy of the flash, the board's language set in settings.json:
- B not held: no exception and no error page; the saved game resumed on the table, its message one
  line; a font that could not be read is framebuf's 8x8 font (English) with the font's note; a
  language file refused whole is English with the language's note, one with lines dropped says how
  many; the game's rules help opens with no error in it (the English help under a line saying so
  when the Russian is damaged); then human moves are played (the table redrawn each time).
- B held: the safe start, with no font, language or help file opened; Keep files, Continue: the
  game resumes (framebuf's 8x8 font, English) and moves are played; still no such file opened.
Prints one JSON line: cases, outcomes by group, failures (the first 30).
"""
import builtins
import gc
import json
import os
import sys

import faultfs
import powercut as pc
from faultfs import Bad, fits
from keys import K_A, K_B
from ui.screen import drop_module

REAL_OPEN = builtins.open
OPENED = []


def _open(p, *a):
    if isinstance(p, str):
        OPENED.append(p)
    return REAL_OPEN(p, *a)


builtins.open = _open


def read_files():
    """The font, language and help files opened since the last call."""
    out = [p for p in OPENED if "/fonts/" in p or "/lang/" in p or "/help" in p]
    del OPENED[:]
    return out


class Boot(faultfs.Run):
    """One power-on of the app on `root`, on the board the case names, B held or not."""

    def __init__(self, case, root):
        drop_module("ui.lang")       # a power-on: no language loaded yet (the last case's went with it)
        try:
            faultfs.Run.__init__(self, case, root, None, pc.board(case["board"], case["size"]),
                                 K_B if case.get("hold") else 0)
        except Exception as e:
            raise Bad("the app did not start: %r" % e)

    def close(self):
        """The files the app holds open (the font; the language file's handle)."""
        g = self.app.g
        if g.font is not None:
            g.font.close()
        lang = sys.modules.get("ui.lang")
        if lang is not None:
            lang.close()


def message(app):
    t = app.table
    return t.msg if t is not None else getattr(app.screen, "note", None)


def playable(r, n=3):
    """n human moves on the table (each redraws it): the game goes on."""
    if r.settle() != "Table":
        raise Bad("not at the table: %s" % r.screen())
    r.moves(n)
    if r.app.errors:
        raise Bad("error page: %r" % r.app.last_error)


def help_page(r, job):
    """The game's rules help (its variant's section), drawn: no error in it, never empty; returns
    whether the English help stands in for the language's."""
    from ui.widgets import HelpPage
    app = r.app
    t = app.table
    g = t.game
    app.go(HelpPage(app, "Rules help", g.match.rules.vid, t, g.match.rules))
    r.step()
    sc = app.screen
    if type(sc).__name__ != "HelpPage":
        raise Bad("the help did not open: %s" % type(sc).__name__)
    text = sc.text
    if "Error" in text or "Ошибка" in text or len(text) < 40:
        raise Bad("the help page says %r" % text[:80])
    english = job["notes"]["help"] + "\n" in text     # (under the match's options)
    r.press(K_A)
    if r.screen() != "Table":
        raise Bad("the help's A did not go back to the table: %s" % r.screen())
    return english


def normal(r, c, job):
    app = r.app
    notes = job["notes"]
    msg = message(app)
    if not fits(msg):
        raise Bad("message does not fit: %r" % msg)
    if app.table is None or r.screen() != "Table":
        raise Bad("the saved game is not resumed: %s, %r" % (r.screen(), msg))
    lang = sys.modules.get("ui.lang")
    code = lang.code() if lang is not None else "en"
    g = app.g
    kind = c["group"].split(" ")[0]
    if kind == "font":
        if g.font is None and c["lang"] == "en" and g.mono:
            got = "framebuf's font, as always in English there"
        elif g.font is None:
            if msg not in notes["font"]:
                raise Bad("framebuf's font without its note: %r" % msg)
            if code != "en":
                raise Bad("framebuf's font, yet the language is %s" % code)
            got = "8x8 font, English, noted"
        else:
            if msg:
                raise Bad("the font read, yet a note: %r" % msg)
            if code != c["lang"]:
                raise Bad("the font read, yet the language is %s" % code)
            got = "font read as it is (the damage is in glyphs or unchecked fields)"
    elif kind == "lang":
        if code == "en":
            if msg not in notes["lang"]:
                raise Bad("English, yet not the language's note: %r" % msg)
            got = "English, noted"
        elif msg:
            from ui import langfile             # (the same file indexed again: its count)
            n = langfile.use("ru", lang._path)
            if not n or msg not in [t.replace("{0}", str(n)) for t in notes["skipped"]]:
                raise Bad("Russian, %s lines dropped, note %r" % (n, msg))
            got = "Russian, lines dropped, noted"
        else:
            got = "Russian, every line kept"
    else:
        if code != "ru" or msg:
            raise Bad("the help's damage changed the boot: %s, %r" % (code, msg))
        got = None
    english = help_page(r, job)
    if kind == "help":
        got = "English help, noted" if english else "Russian help"
    elif english:
        raise Bad("the English help without its help file damaged")
    playable(r)
    return got


def held(r, c, job):
    app = r.app
    if r.screen() != "SafeStart":
        raise Bad("B held, yet %s" % r.screen())
    if app.g.font is not None or "ui.lang" in sys.modules:
        raise Bad("the safe start has a font or a language loaded")
    r.press(K_A)                             # Keep files
    if r.screen() != "MainMenu":
        raise Bad("Keep files went to %s" % r.screen())
    r.pick("Continue")
    playable(r)
    return "safe start, resumed"


FLASH = ("game.txt", "game.bak", "stats.json", "settings.json")


def run_case(c, job, n):
    root = job["work"] + "/c%d" % n
    pc.mkdir(root)
    for name in FLASH:
        src = job["flash"] + "/" + (name if name != "settings.json" else "settings." + c["lang"])
        pc.write(root + "/" + name, pc.read(src))
    read_files()
    r = Boot(c, root)
    try:
        got = held(r, c, job) if c.get("hold") else normal(r, c, job)
        if c.get("hold"):
            seen = read_files()
            if seen:
                raise Bad("the safe start opened %s" % seen[0])
    finally:
        r.close()
        r = None
        for e in list(os.ilistdir(root)):
            os.remove(root + "/" + e[0])
        os.rmdir(root)
    return got


def damage(path, src):
    os.remove(path)
    if src == "<dir>":
        os.mkdir(path)
    elif src is not None:                    # copied a piece at a time (some are 1 MB)
        buf = bytearray(4096)
        with REAL_OPEN(src, "rb") as f, REAL_OPEN(path, "wb") as out:
            while True:
                n = f.readinto(buf)
                if not n:
                    break
                out.write(buf[:n])


def restore(path, good):
    try:
        os.rmdir(path)
    except OSError:
        pass
    pc.write(path, good)


def main():
    with REAL_OPEN(os.getenv("UI_JOB_FILE")) as f:
        job = json.load(f)
    kinds = {}
    failures = []
    good = {}
    n = 0
    for c in job["cases"]:
        path = job["fw"] + "/" + c["target"]
        if path not in good:
            good[path] = pc.read(path)
        try:
            damage(path, c["src"])
            got = run_case(c, job, n)
        except Bad as e:
            got = "FAILED"
            if len(failures) < 30:
                failures.append("%s: %s" % (c["label"], e))
        except Exception as e:               # the harness itself, or a traceback out of the app
            got = "FAILED"
            if len(failures) < 30:
                failures.append("%s: crash %r" % (c["label"], e))
        restore(path, good[path])
        g = kinds.setdefault(c["group"], {})
        g[got] = g.get(got, 0) + 1
        if job.get("verbose"):
            print(c["label"], "->", got)
        n += 1
        gc.collect()
    print(json.dumps({"cases": len(job["cases"]), "kinds": kinds, "failures": failures}))


main()
