"""Statistics on the flash filesystem (`stats.json`), and the checked reading of the small JSON files
that store.py's settings share. Apart from store.py so that a round's end, which counts the round
and at the match's end its result, loads only this, not the game loading and checking code: at a
round end the heap holds the table and the AI, and may be split (docs/ENGINE.md, "Memory tricks").

`stats.json` (docs/RECORDS.md): {"v": 1, "<variant>": [played, wins, losses, streak, best, rounds,
rounds won], ..., "counted": "<sum of the last match counted>"} and a last line `sum XXXXXXXX`
(Adler-32 of every byte before it); streak > 0 counts wins in a row, < 0 losses in a row; rows
written before rounds were counted have the first five only. A file that cannot be used is set
aside as `stats.json.bad` and the statistics start again (store.py says how files are checked).
"""
import gc
import json
from savegame import GAME, Files, SumWriter, failed, tr  # noqa: F401  (failed: words a refused write)

VERSION = 1
STATS = "stats.json"
STATS_MAX = 2048                # bytes in stats.json (~40 a variant)
DEPTH_MAX = 3                   # nesting of [ and { in settings ({"last": {"seats": [...]}}), stats
COUNT_MAX = 1000000             # played / won / lost / streaks in the statistics


def _sealed(text):
    """text and its checksum line (settings, statistics)."""
    w = SumWriter(None)
    w.write(text)
    return text + "sum " + w.hex() + "\n"


def _printable(p):
    """True when bytes p hold printable ASCII only, a line end allowed last (no CR, no NUL)."""
    if p[-1:] == b"\n":
        p = p[:-1]
    return not p or (min(p) >= 32 and max(p) <= 126)


def _depth(data):
    """The deepest nesting of [ and { in JSON text, known before parsing. Brackets inside strings
    count too: never less than the real depth (the files the firmware writes have none there)."""
    d = 0
    top = 0
    for c in data:
        if c == 91 or c == 123:      # [ {
            d += 1
            if d > top:
                top = d
        elif c == 93 or c == 125:    # ] }
            d -= 1
    return top


def _int(v, lo, hi):
    """v when it is an int (not a bool) in lo..hi, else None."""
    if isinstance(v, int) and not isinstance(v, bool) and lo <= v <= hi:
        return v
    return None


def _word(v, n=16):
    """v when it is a short printable string, else None."""
    if isinstance(v, str) and 0 < len(v) <= n and _printable(v.encode()):
        return v
    return None


def _row(row):
    """A statistics row: [played, wins, losses, streak, best], then (once rounds are counted)
    [rounds, rounds won]: ints in range."""
    if not isinstance(row, list) or len(row) not in (5, 7):
        return False
    for i in range(len(row)):
        if _int(row[i], -COUNT_MAX if i == 3 else 0, COUNT_MAX) is None:
            return False
    played, won, lost, streak, best = row[0], row[1], row[2], row[3], row[4]
    if won + lost > played or best > won or streak > best or -streak > lost:
        return False                 # counts no run of matches can give
    return len(row) == 5 or row[6] <= row[5]



class Stats(Files):
    """The statistics file, and the checked JSON reading store.Store's settings use too."""

    def game_sum(self):
        """The checksum line of game.txt: names a finished match, so its result is counted once."""
        ln = b""
        if self.exists(GAME):
            try:
                with self.open(GAME, "rb") as f:
                    start = True
                    while True:
                        p = f.readline(64)
                        if not p:
                            break
                        if start:
                            ln = p
                        start = p[-1:] == b"\n"
            except OSError:
                pass
        ln = ln.strip()
        return ln.decode() if ln.startswith(b"sum ") and _printable(ln) else None

    # --- checked JSON files ---------------------------------------------------------------------
    def _json(self, name, label, limit):
        """(dict, message): {} and None when the file is missing; {} and a message when it is
        damaged, over its budget, too new or outdated (then it is set aside as name.bad). A read
        that fails or runs out of heap is tried once more; short of heap again, the MemoryError goes
        to the caller (the app's recovery) and the file stays as it is: the heap, not the file, was
        at fault."""
        k = self.kind(name)
        if k < 0:
            return {}, None
        d = None
        why = " damaged: reset"              # a directory, a device: not ours
        if k == 1:
            for attempt in range(2):
                try:
                    d, why = self._parse(name, limit)
                    break
                except OSError:
                    why = " damaged: reset"
                except MemoryError:
                    if attempt:          # short of heap twice: not the file's fault
                        raise
                d = None
                gc.collect()
        if isinstance(d, dict):
            v = d.get("v")
            if v == VERSION and not isinstance(v, bool):
                return d, None
            why = " too new: reset" if isinstance(v, int) and v > VERSION else " outdated: reset"
        self.aside(name)
        return {}, tr(label) + tr(why)

    def _parse(self, name, limit):
        """(what the JSON file holds or None, why not): within `limit` bytes, its checksum right,
        printable, nested no deeper than DEPTH_MAX, checked before json.loads sees it."""
        size = self.os().stat(self.path(name))[6]    # (read(limit) would take `limit` bytes of
        if size > limit:                               # heap at once, however small the file)
            return None, " too big: reset"
        with self.open(name, "rb") as f:
            data = f.read(size)
        i = data.rfind(b"\nsum ")
        if i >= 0:                       # without a checksum line: a file from before they had one
            w = SumWriter(None)
            w.add(data[:i + 1])
            if data[i + 5:] != (w.hex() + "\n").encode():
                return None, " damaged: reset"
            data = data[:i + 1]
        if not _printable(data.replace(b"\n", b" ")) or _depth(data) > DEPTH_MAX:
            return None, " damaged: reset"
        try:
            return json.loads(data), " damaged: reset"
        except (ValueError, TypeError):
            return None, " damaged: reset"

    def _mend(self, save, good):
        """A file with some fields wrong: the good part is written over it (atomically), so the
        message is said once. A flash that refuses leaves it as it was."""
        try:
            save(good)
        except OSError:
            pass

    # --- statistics ----------------------------------------------------------------------------
    def load_stats(self):
        d, msg = self._json(STATS, "Statistics", STATS_MAX)
        out = {}
        for key in d:
            row = d[key]
            if key == "v":
                continue
            if key == "counted" and _word(row) is not None:
                out[key] = row
            elif _word(key) is not None and _row(row):
                out[key] = row
            else:
                msg = "Some stats invalid: dropped"
        if msg == "Some stats invalid: dropped":     # the file kept as stats.json.bad, as a
            self.aside(STATS)                           # damaged one is; the good rows go on
            self._mend(self.save_stats, out)
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
