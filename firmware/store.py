"""Persistence on the flash filesystem: the game in progress, settings and statistics.

Every file is written atomically (write `name.tmp`, then rename over `name`), and the game save keeps
the previous good save as `game.bak`, so pulling the power at any instant leaves a readable save.
A move is saved by copying the previous save with the move appended (its checksum checked on the
way), so saving needs neither the record module nor a replay of the match.
Everything read back is validated: a damaged file gives a one-line message and defaults, never an
exception. `root` is a directory, so tests use a temporary one.

Files:
- `game.txt`: the engine's game record (`domino.record.dump`) with extra header lines for the seats
  (`seats human,easy,...`, `names ...`, `sheet ...`) and a last line `sum XXXXXXXX` (Adler-32 of all
  lines before it) that catches a truncated or altered file.
- `settings.json`: {"v": 1, "bright": 80, "sound": 1, "think": 1000, "anim": 2, "wdt": 0, "last": {...}}.
- `stats.json`: {"v": 1, "<variant>": [played, wins, losses, streak, best], ...}; streak > 0 counts
  wins in a row, < 0 losses in a row.
"""
import os
import json
from domino.tiles import LO, HI
from domino.rng import code

VERSION = 1
GAME = "game.txt"
BACKUP = "game.bak"
SETTINGS = "settings.json"
STATS = "stats.json"

# setting: (default, allowed values)
SETTING_CHOICES = {
    "bright": (80, (10, 20, 30, 40, 50, 60, 70, 80, 90, 100)),
    "sound": (1, (0, 1)),
    "think": (1000, (250, 500, 1000, 2000, 4000)),
    "anim": (2, (0, 1, 2, 3)),      # off, fast, normal, slow
    "wdt": (0, (0, 1)),             # watchdog: off unless asked for (it cannot be stopped once on)
}
SEAT_KINDS = ("human", "easy", "medium", "hard")


class _SumWriter:
    """Passes text on to a file while keeping an Adler-32 checksum of it (catches a cut or edited
    save). Both sums stay below 2**16: small ints, no heap, on a 32-bit port."""

    def __init__(self, f):
        self.f = f
        self.a = 1
        self.b = 0

    def write(self, text):
        a = self.a
        b = self.b
        for c in text.encode():
            a = (a + c) % 65521
            b = (b + a) % 65521
        self.a = a
        self.b = b
        if self.f is not None:
            self.f.write(text)

    def hex(self):
        return "%04x%04x" % (self.b, self.a)


def _all_but_last(lines):
    """Every line but the last (the checksum line is not part of the record)."""
    prev = None
    for ln in lines:
        if prev is not None:
            yield prev
        prev = ln


def header(match, extras):
    """The record's header lines (the format of domino.record.header, kept here so that a save does
    not load the record module while the AI's search code is in memory; a test checks they agree)."""
    r = match.rules
    out = "DOMINO 1\nvariant " + r.vid + "\nplayers " + str(r.players) + "\nteams " + str(int(r.teams)) + \
        "\noptions " + r.options_text() + "\nseed " + code(match.seed) + "\n"
    for k in extras:
        out += k + " " + str(extras[k]) + "\n"
    return out


def _part(t, a, closed, lead):
    s = str(LO[t]) + str(HI[t])
    if not lead:
        s += "LRUD"[a]
    return s + "!" if closed else s


def last_token(rd):
    """Record text of the move just played in round rd, read back from the layout's play order
    (the tiles of the last move, first placed first), so a save needs nothing from before it."""
    lay = rd.layout
    k = 0
    m = rd.last_tiles
    while m:
        k += m & 1
        m >>= 1
    out = ""
    for i in range(lay.size - k, lay.size):
        code = lay.seq_arm[i]
        out += ("+" if out else "") + _part(lay.seq[i], code & 3, code & 8, code & 7 == 4)
    return out


class Store:
    def __init__(self, root="/"):
        if root and not root.endswith("/"):
            root += "/"
        self.root = root
        if root not in ("", "/"):
            try:
                os.stat(root)
            except OSError:              # a fresh directory (tests; a card): make it, parents too
                path = ""
                for part in root[:-1].split("/"):
                    path += part
                    if path:
                        try:
                            os.mkdir(path)
                        except OSError:
                            pass
                    path += "/"

    # --- files ---------------------------------------------------------------------------------
    def path(self, name):
        return self.root + name

    def exists(self, name):
        try:
            os.stat(self.path(name))
            return True
        except OSError:
            return False

    def read(self, name):
        """The file's text, or None when missing or unreadable."""
        try:
            with open(self.path(name)) as f:
                return f.read()
        except (OSError, UnicodeError, ValueError):
            return None

    def write(self, name, text, backup=None):
        """Atomic write: a power cut leaves either the old file or the new one, never half of one.
        With `backup`, the old file is kept under that name."""
        p = self.path(name)
        tmp = p + ".tmp"
        with open(tmp, "w") as f:
            f.write(text)
        if backup and self.exists(name):
            self._rename(p, self.path(backup))
        self._rename(tmp, p)

    def _rename(self, src, dst):
        try:
            os.rename(src, dst)
        except OSError:                  # a filesystem that will not rename over a file
            try:
                os.remove(dst)
            except OSError:
                pass
            os.rename(src, dst)

    def remove(self, name):
        try:
            os.remove(self.path(name))
        except OSError:
            pass

    # --- the game in progress ------------------------------------------------------------------
    def has_game(self):
        return self.exists(GAME) or self.exists(BACKUP)

    def save_game(self, match, extras, token=None):
        """Save the match after a move (`token`: its record text, from move_token before playing it)
        or after a round ended / began (no token). The previous save is copied line by line with the
        token appended, its checksum checked on the way; when it does not fit (no save yet, damage),
        the whole record is written again from the match (domino.record.dump). Either way the new
        file replaces the old one atomically and the old one is kept as game.bak."""
        p = self.path(GAME)
        tmp = p + ".tmp"
        done = False
        if match.round_no == 1 and not match.nmoves and not match.history:
            with open(tmp, "w") as f:   # a fresh deal: the record is its header and an empty round
                w = _SumWriter(f)
                w.write(header(match, extras) + "round\n")
                f.write("sum " + w.hex() + "\n")
            done = True
        elif self.exists(GAME):
            try:
                done = self._append(match, extras, token, p, tmp)
            except (OSError, ValueError):
                done = False
        if not done:
            from domino.record import dump
            with open(tmp, "w") as f:
                w = _SumWriter(f)
                dump(match, w, extras)
                f.write("sum " + w.hex() + "\n")
        if self.exists(GAME):
            self._rename(p, self.path(BACKUP))
        self._rename(tmp, p)

    def _append(self, match, extras, token, p, tmp):
        """Copy game.txt to tmp with a fresh header and `token` added; False when game.txt does not
        hold exactly the match before this move."""
        rounds_wanted = len(match.history) + (1 if match.round_no > len(match.history) else 0)
        old = _SumWriter(None)
        rounds = 0
        last = None                  # the newest round line, written once we know it is the last
        sum_line = None
        with open(p) as src, open(tmp, "w") as f:
            w = _SumWriter(f)
            w.write(header(match, extras))
            for ln in src:
                if sum_line is not None:
                    return False     # lines after the checksum
                if ln.startswith("sum "):
                    sum_line = ln
                    continue
                old.write(ln)
                if ln.startswith("round"):
                    if last is not None:
                        w.write(last)
                    last = ln
                    rounds += 1
            if sum_line is None or sum_line[4:].strip() != old.hex() or rounds > rounds_wanted:
                return False
            if last is not None:         # the newest round line must hold every move made so far
                if rounds == rounds_wanted:
                    have = match.nmoves - (1 if token is not None else 0)
                elif token is None and rounds == rounds_wanted - 1 and match.history and not match.nmoves:
                    have = len(match.history[-1]) // 2
                else:
                    return False
                if len(last.split()) - 1 != have:
                    return False
            elif token is not None:
                return False
            if token is not None and last is not None:
                last = last.rstrip("\n") + " " + token + "\n"
            if last is not None:
                w.write(last)
            while rounds < rounds_wanted:
                w.write("round\n")
                rounds += 1
            f.write("sum " + w.hex() + "\n")
        return True

    def load_game(self):
        """(match, extras, message). match None when nothing could be loaded; message explains any
        damage (the newest good save is used: game.txt, else game.bak)."""
        if not self.has_game():
            return None, None, None
        m, ex, err = self._load(GAME)
        if m is not None:
            return m, ex, None
        err = str(err)
        m2, ex2, err2 = self._load(BACKUP)
        if m2 is not None:
            if err == "missing":
                return m2, ex2, "Resumed from the backup save"
            return m2, ex2, "Last save damaged (" + err + "): resumed one move earlier"
        if err == "missing":
            err = str(err2)
        return None, None, "Saved game unreadable: " + err

    def _check(self, name):
        """None when the file's last line is a matching checksum, else why not."""
        w = _SumWriter(None)
        last = None
        try:
            with open(self.path(name)) as f:
                for ln in f:
                    if last is not None:
                        w.write(last)
                    last = ln
        except OSError:
            return "missing"
        except (UnicodeError, ValueError):
            return "not text"
        if last is None or not last.startswith("sum ") or not last.endswith("\n"):
            return "file cut short"
        if last[4:].strip() != w.hex():
            return "checksum mismatch"
        return None

    def _load(self, name):
        err = self._check(name)
        if err:
            return None, None, err
        from domino.record import load, RecordError
        try:
            with open(self.path(name)) as f:
                match, extras = load(_all_but_last(f))
        except RecordError as e:
            return None, None, str(e)
        except (OSError, ValueError, IndexError, KeyError, TypeError) as e:
            return None, None, "bad record: " + str(e)
        kinds = extras.get("seats", "").split(",")
        if len(kinds) != match.rules.players:
            return None, None, "seat list does not match the players"
        for k in kinds:
            if k not in SEAT_KINDS:
                return None, None, "unknown seat kind " + k
        return match, extras, None

    def clear_game(self):
        self.remove(GAME)
        self.remove(BACKUP)
        self.remove(GAME + ".tmp")

    def keep_bad_game(self):
        """Move an unreadable save aside (game.bad) so a new game does not erase the evidence."""
        for name in (GAME, BACKUP):
            if self.exists(name):
                self.remove(name + ".bad")
                try:
                    os.rename(self.path(name), self.path(name + ".bad"))
                except OSError:
                    pass

    # --- settings ------------------------------------------------------------------------------
    def _json(self, name):
        """(dict, message): {} with a message when the file is missing/damaged/stale."""
        text = self.read(name)
        if text is None:
            return {}, None if not self.exists(name) else name + " unreadable: reset"
        try:
            d = json.loads(text)
        except (ValueError, TypeError):
            return {}, name + " damaged: reset"
        if not isinstance(d, dict) or d.get("v") != VERSION:
            return {}, name + " from another version: reset"
        return d, None

    def load_settings(self):
        """(settings, message). Every value is checked; a bad one falls back to its default."""
        d, msg = self._json(SETTINGS)
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
        if bad and d and msg is None:
            msg = "Some settings were invalid: reset"
        return out, msg

    def save_settings(self, s):
        d = {"v": VERSION}
        for key in s:
            d[key] = s[key]
        self.write(SETTINGS, json.dumps(d))

    # --- statistics ----------------------------------------------------------------------------
    def load_stats(self):
        d, msg = self._json(STATS)
        out = {}
        for key in d:
            row = d[key]
            if key == "v":
                continue
            if (isinstance(row, list) and len(row) == 5 and
                    all(isinstance(x, int) and not isinstance(x, bool) for x in row) and
                    min(row[0], row[1], row[2], row[4]) >= 0):
                out[key] = row
            elif msg is None:
                msg = "Statistics partly damaged: bad rows dropped"
        return out, msg

    def record_result(self, vid, result):
        """result: 1 win, -1 loss, 0 neither (Goat: not the winner but not the goat)."""
        stats, _ = self.load_stats()
        row = stats.get(vid) or [0, 0, 0, 0, 0]
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
        self.save_stats(stats)
        return row

    def save_stats(self, stats):
        d = {"v": VERSION}
        for key in stats:
            d[key] = stats[key]
        self.write(STATS, json.dumps(d))
