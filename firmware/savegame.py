"""Saving the game in progress after every move: the part of the persistence layer a game keeps
loading while the AI's search code is in memory, so it is kept small (store.py holds the rest: loading
and checking saves at boot, settings, statistics).

Every file is written atomically (write `name.tmp`, then rename over `name`), and the game save keeps
the previous good save as `game.bak`, so pulling the power at any instant leaves a readable save.
A move is saved by copying the previous save with the move appended (its checksum checked on the
way), so saving needs neither the record module nor a replay of the match. A write the flash refuses
(full) raises OSError after removing its `.tmp`, so the previous file stays as it was; `failed(e)`
words it for the screen. The file format is in store.py's docstring and docs/RECORDS.md.
"""
import os
import sys
from domino.tiles import LO, HI
from domino.rng import code

GAME = "game.txt"
BACKUP = "game.bak"


def tr(s):
    """s in the player's language: ui.lang is asked only when loaded (another language than
    English), so the files' code imports nothing of the UI."""
    lang = sys.modules.get("ui.lang")
    return lang.tr(s) if lang else s


def failed(e, what=None):
    """The message for a write the flash refused: 'Flash full: not saved' (ENOSPC), 'Read-only:
    not saved' (EROFS), 'Flash full: settings unsaved', 'Flash error 5: not saved' (in the player's
    language)."""
    n = e.args[0] if e.args else 0
    why = tr("Flash full") if n == 28 else tr("Read-only") if n == 30 else tr("Flash error {0}").format(n)
    return tr("{0}: {1} unsaved").format(why, tr(what)) if what else tr("{0}: not saved").format(why)


def hexsum(a, b):
    return "%04x%04x" % (b, a)


class SumWriter:
    """Passes text on to a file while keeping an Adler-32 checksum of it (catches a cut or edited
    save). Both sums stay below 2**16: small ints, no heap, on a 32-bit port."""

    def __init__(self, f):
        self.f = f
        self.a = 1
        self.b = 0

    def add(self, data):
        a = self.a
        b = self.b
        for c in data:
            a = (a + c) % 65521
            b = (b + a) % 65521
        self.a = a
        self.b = b

    def write(self, text):
        self.add(text.encode())
        if self.f is not None:
            self.f.write(text)

    def hex(self):
        return hexsum(self.a, self.b)


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


class Files:
    """The files under `root` (a directory: tests use a temporary one) and the game's save.

    Every file access of the store goes through here, to `fs`: None for the board's own filesystem
    (the os module and the builtin open), else an object offering open(path, mode) and the os names
    stat, rename, remove, rmdir, mkdir (the fault-injection tests' failing flash; a web board's
    storage). Whatever stands where a file is to be written (a directory, a device) is cleared out
    of the way, so no stray entry can stop every later save."""

    def __init__(self, root="/", fs=None):
        self.fs = fs
        if root and not root.endswith("/"):
            root += "/"
        self.root = root
        if root not in ("", "/"):
            o = self.os()
            try:
                o.stat(root)
            except OSError:              # a fresh directory (tests; a card): make it, parents too
                path = ""
                for part in root[:-1].split("/"):
                    path += part
                    if path:
                        try:
                            o.mkdir(path)
                        except OSError:
                            pass
                    path += "/"

    # --- files ---------------------------------------------------------------------------------
    def os(self):
        return self.fs or os

    def path(self, name):
        return self.root + name

    def open(self, name, mode="r"):
        fs = self.fs
        return open(self.root + name, mode) if fs is None else fs.open(self.root + name, mode)

    def kind(self, name):
        """1 a regular file, 0 something else (a directory, a device), -1 nothing."""
        try:
            m = self.os().stat(self.path(name))[0]
        except OSError:
            return -1
        return 1 if m & 0xF000 == 0x8000 else 0

    def exists(self, name):
        return self.kind(name) == 1

    def create(self, name):
        """`name` opened for writing; whatever stands in its way (a directory) is cleared first."""
        try:
            return self.open(name, "w")
        except OSError as e:
            if not e.args or e.args[0] in (28, 30):      # full, read-only: clearing will not help
                raise
            self.clear(name)
            return self.open(name, "w")

    def write(self, name, text):
        """Atomic write: a power cut leaves either the old file or the new one, never half of one.
        A refused write (flash full) removes the .tmp and raises: the old file stays."""
        try:
            with self.create(name + ".tmp") as f:
                f.write(text)
            self.rename(name + ".tmp", name)
        except Exception:            # flash full, or out of memory half-way: no .tmp left behind
            self.remove(name + ".tmp")
            raise

    def rename(self, src, dst):
        """src becomes dst. A filesystem that will not rename over a file (EEXIST), or something
        that is not a file in the way: cleared, then once more. Any other refusal (full, read-only,
        I/O) raises with dst as it was: a good file is never removed for a rename that may fail."""
        o = self.os()
        try:
            o.rename(self.path(src), self.path(dst))
        except OSError as e:
            if self.kind(dst) == 1 and not (e.args and e.args[0] == 17):
                raise
            self.clear(dst)
            o.rename(self.path(src), self.path(dst))

    def remove(self, name):
        try:
            self.os().remove(self.path(name))
        except OSError:
            pass

    def clear(self, name):
        """Nothing called `name` afterwards, whatever it was: a file or an empty directory is
        removed, anything else (a directory with files) set aside as name.bad."""
        o = self.os()
        p = self.path(name)
        try:
            o.remove(p)
            return
        except OSError:
            pass
        try:
            o.rmdir(p)
            return
        except OSError:
            pass
        if self.kind(name) >= 0:
            self.aside(name)

    def aside(self, name):
        """Keep an unusable file as name.bad (replacing an older one), out of the way of new saves."""
        self.clear(name + ".bad")
        try:
            self.os().rename(self.path(name), self.path(name + ".bad"))
        except OSError:
            pass

    # --- the game in progress ------------------------------------------------------------------
    def has_game(self):
        return self.kind(GAME) >= 0 or self.kind(BACKUP) >= 0

    def save_game(self, match, extras, token=None):
        """Save the match after a move (`token`: its record text, from move_token before playing it)
        or after a round ended / began (no token). The previous save is copied line by line with the
        token appended, its checksum checked on the way; when it does not fit (no save yet, damage),
        the whole record is written again from the match (domino.record.dump). Either way the new
        file replaces the old one atomically and the old one is kept as game.bak. Returns the new
        file's checksum (ui/pause.py reads it back against it). A refused write raises OSError with
        game.txt as it was and no .tmp left."""
        tmp = GAME + ".tmp"
        moved = False                # game.txt became game.bak: missing until the next rename
        had = 0                      # game.txt known to be a file (no stat needed)
        try:
            done = False
            if match.round_no == 1 and not match.nmoves and not match.history:
                with self.create(tmp) as f:   # a fresh deal: the record is its header and an empty round
                    w = SumWriter(f)
                    w.write(header(match, extras) + "round\n")
                    done = w.hex()
                    f.write("sum " + done + "\n")
            else:                    # (no stat first: each littlefs call costs ms on the device)
                try:
                    done = self._append(match, extras, token, tmp)
                except (OSError, ValueError) as e:
                    if e.args and e.args[0] in (28, 30):
                        raise                # flash full, read-only: a whole record will not fit either
                    done = False             # no game.txt (ENOENT), not a file, or damaged
                if done:
                    had = 1                  # game.txt was read whole: a file
            if not done:
                from domino.record import dump
                with self.create(tmp) as f:
                    w = SumWriter(f)
                    dump(match, w, extras)
                    done = w.hex()
                    f.write("sum " + done + "\n")
            if had or self.kind(GAME) >= 0:
                self.rename(GAME, BACKUP)
                moved = True
            self.rename(tmp, GAME)
        except Exception:            # flash full, or out of memory half-way: no .tmp left behind
            self.remove(tmp)
            if moved:                # and the save before is game.txt again, when the flash lets it
                try:
                    self.os().rename(self.path(BACKUP), self.path(GAME))
                except OSError:
                    pass
            raise
        return done

    def _append(self, match, extras, token, tmp):
        """Copy game.txt to tmp with a fresh header and `token` added: its checksum, or False when
        game.txt does not hold exactly the match before this move."""
        rounds_wanted = len(match.history) + (1 if match.round_no > len(match.history) else 0)
        old = SumWriter(None)
        rounds = 0
        last = None                  # the newest round line, written once we know it is the last
        sum_line = None
        with self.open(GAME) as src, self.create(tmp) as f:
            w = SumWriter(f)
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
        return w.hex()

    def clear_game(self):
        self.clear(GAME)
        self.clear(BACKUP)
        self.clear(GAME + ".tmp")
