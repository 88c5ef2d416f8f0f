"""Persistence on the flash filesystem: the game in progress, settings and statistics (saving a move
is savegame.py, kept apart so that a game loads only that; the statistics and the JSON files'
checked reading are stats.py, kept apart so that a round's end loads only that).

Writes are atomic and a move's save keeps the previous one as `game.bak` (savegame.py says how).
Everything read back is checked before it is parsed, against a budget: a regular file (not a
directory or a device), its size, its lines' length and number, printable ASCII only, the JSON
files' nesting; then the version, the checksum, every value's type and range. A file that cannot
be used is set aside as `<name>.bad` (renamed, never deleted: a new save must not erase the
evidence) with a one-line message, and the newest good state follows: game.bak, else a clean start
or defaults; a MemoryError while loading is damage like any other ("too big"), never a crash. A
`game.txt.tmp` left by a power cut is removed. A write the flash refuses (full) raises OSError after
removing its `.tmp`, so the previous file stays as it was; `failed(e)` words it for the screen.
`root` is a directory, so tests use a temporary one; `fs` the filesystem (savegame.Files). The
messages are listed in docs/UI.md.

Files (docs/RECORDS.md):
- `game.txt`: first line `DOMINO <version>`, then the engine's game record (`domino.record.dump`) with
  extra header lines for the seats (`seats human,easy,...`, `names ...`, `sheet ...`, `practice 1` in a
  practice game, whose results are not counted) and a last line
  `sum XXXXXXXX` (Adler-32 of every byte before it) that catches a truncated or altered file.
- `settings.json`: {"v": 1, "bright": 80, "sound": 1, "think": 500, "anim": 2, "wdt": 0, "last": {...}}
  on one line, then `sum XXXXXXXX` as in game.txt (a file without it, from before, is read as is).
- `stats.json`: see stats.py.
"""
import gc
import json
from savegame import GAME, BACKUP, SumWriter, failed, header, hexsum, last_token, tr  # noqa: F401
from stats import (Stats, STATS, STATS_MAX, DEPTH_MAX, COUNT_MAX, VERSION,  # noqa: F401
                   _sealed, _printable, _int, _word)

SETTINGS = "settings.json"
MAGIC = b"DOMINO 1\n"

# Budgets, checked before anything is parsed. A save grows ~150 bytes a round (its moves) and its
# score-sheet line ~5 bytes a round per side: 200 rounds fit, far beyond any real match.
GAME_MAX = 32768                # bytes in game.txt / game.bak
LINE_MAX = 4096                 # bytes in one line of a save
LINES_MAX = 240                 # lines in a save
HEAD_MAX = 16                   # header lines (DOMINO, variant ... seed: 6; seats, names, sheet, practice: 4)
NAME_MAX = 16                   # characters in a seat's name
SETTINGS_MAX = 1024             # bytes in settings.json (it holds ~300)

# setting: (default, allowed values)
SETTING_CHOICES = {
    "bright": (80, (10, 20, 30, 40, 50, 60, 70, 80, 90, 100)),
    "sound": (1, (0, 1)),
    "think": (500, (250, 500, 1000, 2000, 4000)),   # ms: Hard AI's budget (its strength was measured at 500)
    "anim": (2, (0, 1, 2, 3)),      # off, fast, normal, slow
    "wdt": (0, (0, 1)),             # watchdog: off unless asked for (it cannot be stopped once on)
    "lang": ("en", ("en", "ru")),   # the player's language (= ui.lang.LANGS); saves stay in English
}
SEAT_KINDS = ("human", "easy", "medium", "hard")

# Why a save file cannot be used: on the menu when nothing could be resumed ("<WHY>: set aside"), on
# the table when game.bak was ("<BACK>: 1 move back"; the table's message line holds ~22 characters).
GOOD = -2
MISSING = -1
CUT, DAMAGED, INVALID, FOREIGN, NEWER, BIG = 0, 1, 2, 3, 4, 5
WHY = ("Save cut short", "Save damaged", "Save invalid", "Not a game save", "Newer firmware's save",
       "Save too big")
BACK = ("Cut short", "Damaged", "Invalid", "Foreign", "Too new", "Too big")
POWER_CUT = "Power cut: 1 move back"       # a save never finished (a .tmp left)
LOST = "Save lost: 1 move back"             # game.txt missing, game.bak good (a cut between renames)
_EIO, _ENOMEM = 6, 7            # a read failed / ran out of heap: tried once more, then DAMAGED / BIG


def _all_but_last(lines):
    """Every line but the last (the checksum line is not part of the record)."""
    prev = None
    for ln in lines:
        if prev is not None:
            yield prev
        prev = ln


def _last(d):
    """The remembered New-game set-up, field by field: (kept, whether any field was wrong). The form
    checks the values against the variant (ui/menus.py); here only their types and ranges."""
    if not isinstance(d, dict):
        return {}, d is not None
    out = {}
    v = _word(d.get("variant"))
    if v is not None:
        out["variant"] = v
    v = _int(d.get("players"), 2, 4)
    if v is not None:
        out["players"] = v
    v = _int(d.get("teams"), 0, 1)
    if v is not None:
        out["teams"] = v
    v = d.get("seats")
    if isinstance(v, list) and len(v) <= 4:
        seats = []
        for k in v:
            seats.append(k if k in SEAT_KINDS else "medium")
        out["seats"] = seats
    v = d.get("names")                       # pass-and-play names (menus.seat_names checks letters)
    if isinstance(v, list) and len(v) <= 4:
        names = []
        for k in v:
            names.append(k if isinstance(k, str) and len(k) <= 5 else "")
        out["names"] = names
    v = d.get("options")
    if isinstance(v, dict) and len(v) <= 16:
        opts = {}
        for k in v:
            x = v[k]
            if _word(k) is not None and (_int(x, -9999, 9999) is not None or _word(x) is not None):
                opts[k] = x
        out["options"] = opts
    return out, out != d             # every field kept as it was: nothing wrong


class Store(Stats):
    """Loading and checking: the saved game, settings and statistics."""

    def load_game(self):
        """(match, extras, message) at boot or Continue: the newest good save, game.txt else
        game.bak (which becomes game.txt again). Every unusable save is set aside as .bad, a .tmp
        left by a power cut is removed; the message says what happened (None: nothing to say)."""
        tmp = self.kind(GAME + ".tmp")
        if tmp >= 0:
            self.clear(GAME + ".tmp")
        tmp = tmp == 1               # a directory in its place was no save of ours
        m, ex, why = self._load(GAME)
        if m is not None:
            return m, ex, POWER_CUT if tmp else None
        if why != MISSING:
            self.aside(GAME)
        m, ex, why2 = self._load(BACKUP)
        if m is not None:
            try:
                self.rename(BACKUP, GAME)     # the save resumed is game.txt
            except OSError:
                pass
            return m, ex, tr(POWER_CUT if tmp else LOST) if why == MISSING else \
                tr("{0}: 1 move back").format(tr(BACK[why]))
        if why2 != MISSING:
            self.aside(BACKUP)
        if why == MISSING:
            why = why2
        if why == MISSING:
            return None, None, tr("Power cut: game not saved") if tmp else None
        return None, None, tr("{0}: set aside").format(tr(WHY[why]))

    def _check(self, name):
        """GOOD when `name` is a whole save of this version within the budgets, else why not
        (MISSING, CUT, DAMAGED, INVALID, FOREIGN, NEWER, BIG). Read as bytes, a piece at a time:
        whatever the file holds, no exception and no more than a piece in memory."""
        k = self.kind(name)
        if k != 1:
            return MISSING if k < 0 else FOREIGN      # a directory, a device: no file of ours
        try:
            f = self.open(name, "rb")
        except OSError:
            return _EIO
        w = SumWriter(None)
        last = b""                   # the last line (when it is short: the checksum's is 13 bytes)
        at = (1, 0)                  # the checksum before it
        start = True                 # the next piece begins a line
        first = True
        size = 0
        line = 0                     # bytes of the line so far
        lines = 0
        head = 0                     # header lines (before the first round)
        odd = False                  # a byte that is not printable ASCII
        try:
            with f:
                while True:
                    p = f.readline(128)
                    if not p:
                        break
                    size += len(p)
                    line = len(p) if start else line + len(p)
                    if size > GAME_MAX or line > LINE_MAX:
                        return BIG
                    if first:
                        first = False
                        if not p.startswith(b"DOMINO "):
                            return CUT if MAGIC.startswith(p) else FOREIGN
                        v = p[7:].strip()
                        if v.isdigit() and int(v) > VERSION:
                            return NEWER
                    if start:
                        lines += 1
                        if head == lines - 1 and not p.startswith(b"round"):
                            head = lines
                        if lines > LINES_MAX or head > HEAD_MAX:
                            return BIG
                    if not _printable(p):
                        odd = True
                    last = p if start else b""
                    if start:
                        at = (w.a, w.b)
                    w.add(p)
                    start = p[-1:] == b"\n"
        except OSError:
            return _EIO
        except MemoryError:
            return _ENOMEM
        if first or not start or not last.startswith(b"sum "):
            return CUT
        if last[4:].strip() != hexsum(at[0], at[1]).encode():
            return DAMAGED
        return INVALID if odd else GOOD

    def _load(self, name):
        """(match, extras, GOOD) or (None, None, why not). A read that fails or runs out of heap is
        tried once more (a passing fault must not cost a save); twice is damage, never a crash."""
        why = _EIO
        for _ in range(2):
            m, ex, why = self._load_once(name)
            if why < _EIO:
                return m, ex, why
            gc.collect()
        return None, None, DAMAGED if why == _EIO else BIG

    def _load_once(self, name):
        why = self._check(name)
        if why != GOOD:
            return None, None, why
        from domino.record import load
        try:
            with self.open(name) as f:
                match, extras = load(_all_but_last(f))
        except OSError:
            return None, None, _EIO
        except MemoryError:          # too big for the heap left
            match = extras = None
            return None, None, _ENOMEM
        except Exception:            # the checksum holds, yet it does not replay (rules changed?)
            return None, None, INVALID
        n = match.rules.players
        kinds = extras.get("seats", "").split(",")
        if len(kinds) != n:
            return None, None, INVALID
        for k in kinds:
            if k not in SEAT_KINDS:
                return None, None, INVALID
        names = extras.get("names")              # shown only: when wrong, made up again (Game)
        if names is not None:
            for x in names.split(","):
                if not 0 < len(x) <= NAME_MAX:
                    del extras["names"]
                    break
        if extras.get("practice", "1") != "1":   # decides whether the match is counted: only
            return None, None, INVALID           # "practice 1" (absent: a counted game, as before)
        sheet = extras.get("sheet")              # shown only: when wrong, the rows are dropped
        if sheet:
            for c in sheet:
                if c not in "0123456789,;+-x":
                    extras["sheet"] = ""
                    break
        return match, extras, GOOD

    # --- settings ------------------------------------------------------------------------------
    def load_settings(self, read=True):
        """(settings, message). Every field is checked against its schema; a wrong one falls back to
        its default and the rest is kept. read=False: the defaults, no file read (B held at boot)."""
        d, msg = self._json(SETTINGS, "Settings", SETTINGS_MAX) if read else ({}, None)
        self.asked = "lang" in d         # the language chosen once (else a first boot asks it)
        out = {}
        bad = 0
        for key in SETTING_CHOICES:
            default, allowed = SETTING_CHOICES[key]
            v = d.get(key, default)
            if v not in allowed or isinstance(v, bool):
                v = default
                bad += 1
            out[key] = v
        last, wrong = _last(d.get("last"))
        out["last"] = last
        if wrong:
            bad += 1
        if bad and d:
            msg = "Some settings invalid: reset"
            self._mend(self.save_settings, out)
        return out, msg

    def save_settings(self, s):
        d = {"v": VERSION}
        for key in s:
            d[key] = s[key]
        self.write(SETTINGS, _sealed(json.dumps(d) + "\n"))

