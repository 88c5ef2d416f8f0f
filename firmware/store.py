"""Persistence on the flash filesystem: the game in progress, settings and statistics (saving a move
is savegame.py, kept apart so that a game loads only that).

Writes are atomic and a move's save keeps the previous one as `game.bak` (savegame.py says how).
Everything read back is checked: version, checksum, every value. A file that cannot be used is set
aside as `<name>.bad` (renamed, never deleted: a new save must not erase the evidence) with a
one-line message, and the newest good state follows: game.bak, else a clean start or defaults; a
`game.txt.tmp` left by a power cut is removed. A write the flash refuses (full) raises OSError after
removing its `.tmp`, so the previous file stays as it was; `failed(e)` words it for the screen.
`root` is a directory, so tests use a temporary one. The messages are listed in docs/UI.md.

Files (docs/RECORDS.md):
- `game.txt`: first line `DOMINO <version>`, then the engine's game record (`domino.record.dump`) with
  extra header lines for the seats (`seats human,easy,...`, `names ...`, `sheet ...`) and a last line
  `sum XXXXXXXX` (Adler-32 of every byte before it) that catches a truncated or altered file.
- `settings.json`: {"v": 1, "bright": 80, "sound": 1, "think": 500, "anim": 2, "wdt": 0, "last": {...}}
  on one line, then `sum XXXXXXXX` as in game.txt (a file without it, from before, is read as is).
- `stats.json`: {"v": 1, "<variant>": [played, wins, losses, streak, best, rounds, rounds won], ...,
  "counted": "<sum of the last match counted>"} and its sum line; streak > 0 counts wins in a row,
  < 0 losses in a row; rows written before rounds were counted have the first five only.
"""
import json
from savegame import GAME, BACKUP, Files, SumWriter, failed, header, hexsum, last_token  # noqa: F401

VERSION = 1
SETTINGS = "settings.json"
STATS = "stats.json"
MAGIC = b"DOMINO 1\n"

# setting: (default, allowed values)
SETTING_CHOICES = {
    "bright": (80, (10, 20, 30, 40, 50, 60, 70, 80, 90, 100)),
    "sound": (1, (0, 1)),
    "think": (500, (250, 500, 1000, 2000, 4000)),   # ms: Hard AI's budget (its strength was measured at 500)
    "anim": (2, (0, 1, 2, 3)),      # off, fast, normal, slow
    "wdt": (0, (0, 1)),             # watchdog: off unless asked for (it cannot be stopped once on)
}
SEAT_KINDS = ("human", "easy", "medium", "hard")

# Why a save file cannot be used: on the menu when nothing could be resumed ("<WHY>: set aside"), on
# the table when game.bak was ("<BACK>: 1 move back"; the table's message line holds ~22 characters).
GOOD = -2
MISSING = -1
CUT, DAMAGED, INVALID, FOREIGN, NEWER = 0, 1, 2, 3, 4
WHY = ("Save cut short", "Save damaged", "Save invalid", "Not a game save", "Newer firmware's save")
BACK = ("Cut short", "Damaged", "Invalid", "Foreign", "Too new")
POWER_CUT = "Power cut: 1 move back"       # game.txt missing, or a save never finished (a .tmp)


def _sealed(text):
    """text and its checksum line (settings, statistics)."""
    w = SumWriter(None)
    w.write(text)
    return text + "sum " + w.hex() + "\n"


def _all_but_last(lines):
    """Every line but the last (the checksum line is not part of the record)."""
    prev = None
    for ln in lines:
        if prev is not None:
            yield prev
        prev = ln


class Store(Files):
    """Loading and checking: the saved game, settings and statistics."""

    def load_game(self):
        """(match, extras, message) at boot or Continue: the newest good save, game.txt else
        game.bak (which becomes game.txt again). Every unusable save is set aside as .bad, a .tmp
        left by a power cut is removed; the message says what happened (None: nothing to say)."""
        tmp = self.exists(GAME + ".tmp")
        self.remove(GAME + ".tmp")
        m, ex, why = self._load(GAME)
        if m is not None:
            return m, ex, POWER_CUT if tmp else None
        if why != MISSING:
            self.aside(GAME)
        m, ex, why2 = self._load(BACKUP)
        if m is not None:
            try:
                self._rename(self.path(BACKUP), self.path(GAME))    # the save resumed is game.txt
            except OSError:
                pass
            return m, ex, POWER_CUT if why == MISSING else BACK[why] + ": 1 move back"
        if why2 != MISSING:
            self.aside(BACKUP)
        if why == MISSING:
            why = why2
        if why == MISSING:
            return None, None, "Power cut: game not saved" if tmp else None
        return None, None, WHY[why] + ": set aside"

    def _check(self, name):
        """GOOD when `name` is a whole save of this version, else why not (MISSING, CUT, DAMAGED,
        FOREIGN, NEWER). Read as bytes, a piece at a time: whatever the file holds, no exception."""
        try:
            f = open(self.path(name), "rb")
        except OSError:
            return MISSING
        w = SumWriter(None)
        last = b""                   # the last line (when it is short: the checksum's is 13 bytes)
        at = (1, 0)                  # the checksum before it
        start = True                 # the next piece begins a line
        first = True
        try:
            with f:
                while True:
                    p = f.readline(128)
                    if not p:
                        break
                    if first:
                        first = False
                        if not p.startswith(b"DOMINO "):
                            return CUT if MAGIC.startswith(p) else FOREIGN
                        v = p[7:].strip()
                        if v.isdigit() and int(v) > VERSION:
                            return NEWER
                    last = p if start else b""
                    if start:
                        at = (w.a, w.b)
                    w.add(p)
                    start = p[-1:] == b"\n"
        except OSError:
            return DAMAGED
        if first or not start or not last.startswith(b"sum "):
            return CUT
        if last[4:].strip() != hexsum(at[0], at[1]).encode():
            return DAMAGED
        return GOOD

    def _load(self, name):
        why = self._check(name)
        if why != GOOD:
            return None, None, why
        from domino.record import load
        try:
            with open(self.path(name)) as f:
                match, extras = load(_all_but_last(f))
        except MemoryError:
            raise
        except Exception:            # the checksum holds, yet it does not replay (rules changed?)
            return None, None, INVALID
        kinds = extras.get("seats", "").split(",")
        if len(kinds) != match.rules.players:
            return None, None, INVALID
        for k in kinds:
            if k not in SEAT_KINDS:
                return None, None, INVALID
        return match, extras, GOOD

    def game_sum(self):
        """The checksum line of game.txt: names a finished match, so its result is counted once."""
        ln = ""
        try:
            with open(self.path(GAME)) as f:
                for ln in f:
                    pass
        except (OSError, ValueError):
            pass
        return ln.strip() or None

    # --- settings ------------------------------------------------------------------------------
    def _json(self, name, label):
        """(dict, message): {} and None when the file is missing; {} and a message when it is
        damaged, too new or outdated (then it is set aside as name.bad)."""
        try:
            with open(self.path(name), "rb") as f:
                data = f.read()
        except OSError:
            return {}, None
        why = " damaged: reset"
        i = data.rfind(b"\nsum ")
        ok = True
        if i >= 0:                   # without a checksum line: a file from before they had one
            w = SumWriter(None)
            w.add(data[:i + 1])
            ok = data[i + 5:] == (w.hex() + "\n").encode()
            data = data[:i + 1]
        d = None
        if ok:
            try:
                d = json.loads(data)
            except (ValueError, TypeError):
                pass
        if isinstance(d, dict):
            v = d.get("v")
            if v == VERSION:
                return d, None
            why = " too new: reset" if isinstance(v, int) and v > VERSION else " outdated: reset"
        self.aside(name)
        return {}, label + why

    def load_settings(self):
        """(settings, message). Every value is checked; a bad one falls back to its default."""
        d, msg = self._json(SETTINGS, "Settings")
        out = {}
        bad = 0
        for key in SETTING_CHOICES:
            default, allowed = SETTING_CHOICES[key]
            v = d.get(key, default)
            if v not in allowed or isinstance(v, bool):
                v = default
                bad += 1
            out[key] = v
        last = d.get("last")
        out["last"] = last if isinstance(last, dict) else {}
        if bad and d:
            msg = "Some settings invalid: reset"
        return out, msg

    def save_settings(self, s):
        d = {"v": VERSION}
        for key in s:
            d[key] = s[key]
        self.write(SETTINGS, _sealed(json.dumps(d) + "\n"))

    # --- statistics ----------------------------------------------------------------------------
    def load_stats(self):
        d, msg = self._json(STATS, "Statistics")
        out = {}
        for key in d:
            row = d[key]
            if key == "v":
                continue
            if key == "counted" and isinstance(row, str):
                out[key] = row
            elif (isinstance(row, list) and len(row) in (5, 7) and
                    all(isinstance(x, int) and not isinstance(x, bool) for x in row) and
                    min(row[0], row[1], row[2], row[4]) >= 0 and
                    (len(row) == 5 or 0 <= row[6] <= row[5])):
                out[key] = row
            else:
                msg = "Some stats invalid: dropped"
        return out, msg

    def record_result(self, vid, result, match_id=None):
        """result: 1 win, -1 loss, 0 neither (Goat: not the winner but not the goat). With match_id
        (game_sum()), a match already counted is not counted again (a power cut between writing the
        statistics and removing the finished save)."""
        stats, _ = self.load_stats()
        row = stats.get(vid) or [0, 0, 0, 0, 0]
        if match_id is not None and stats.get("counted") == match_id:
            return row
        row[0] += 1
        if result > 0:
            row[1] += 1
            row[3] = row[3] + 1 if row[3] > 0 else 1
            if row[3] > row[4]:
                row[4] = row[3]
        elif result < 0:
            row[2] += 1
            row[3] = row[3] - 1 if row[3] < 0 else -1
        stats[vid] = row
        if match_id is not None:
            stats["counted"] = match_id
        self.save_stats(stats)
        return row

    def record_round(self, vid, result):
        """A finished round of a match (its row's rounds played and won, kept after the match
        figures: [played, wins, losses, streak, best, rounds, rounds won]). Called once the round's
        end is saved: a power cut before this loses the round from the count, never counts it twice."""
        stats, _ = self.load_stats()
        row = stats.get(vid) or [0, 0, 0, 0, 0]
        if len(row) < 7:
            row = row + [0, 0]
        row[5] += 1
        if result:
            row[6] += 1
        stats[vid] = row
        self.save_stats(stats)

    def save_stats(self, stats):
        d = {"v": VERSION}
        for key in stats:
            d[key] = stats[key]
        self.write(STATS, _sealed(json.dumps(d) + "\n"))
