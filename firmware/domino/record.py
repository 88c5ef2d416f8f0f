"""Game records: a compact text a person can read, and a replay that rebuilds the match from it.

    DOMINO 1
    variant fives
    players 2
    teams 0
    options target=61
    seed 0K3-9QZ
    round 66 63R 35L ...
    round 52 ...

Header lines are `key value`; unknown keys (player names, AI levels) are kept in `extras`. Each
`round` line lists the moves of one round in order: a tile as two digits (low first), then the arm it
went on (L R U D; none for the lead), `!` if it was closed (Donkey); several doubles played at once are
joined with `+`, the spinner/cross candidate first. Draws and passes are forced by the rules, so they
are not written: replaying the moves on the seeded deal reproduces them. The last round may be
unfinished (a saved game in progress).
"""
from .tiles import LO, HI, DOUBLE, name, short, parse as parse_tile
from .layout import ARM_NAMES
from .round import first_arm, first_tile
from .rules import Rules, RulesError
from .match import Match
from .rng import code, parse_code
try:
    from micropython import const
except ImportError:  # CPython
    def const(x):
        return x

_NONE = const(255)     # = domino.tiles.NONE
_MULTI = const(0x100)  # = domino.round.MULTI
_CLOSE = const(0x80)   # = domino.round.CLOSE
_ARM_SHIFT = const(5)  # = domino.round._ARM_SHIFT
_PLAYING = const(0)    # = domino.round.PLAYING
_TILE_MASK = const(0x1F)  # = domino.round._TILE_MASK
_ARM_MASK = const(3)  # = domino.round._ARM_MASK
_ARMS_MASK = const(0xF)  # = domino.round._ARMS_MASK
_CLOSES_SHIFT = const(4)  # = domino.round._CLOSES_SHIFT
_CLOSES_MASK = const(0xF)  # = domino.round._CLOSES_MASK
_FIRST_SHIFT = const(9)  # = domino.round._FIRST_SHIFT
_ARMS_AND_CLOSES = const(0xFF)  # = domino.round._ARMS_AND_CLOSES

MAGIC = "DOMINO 1"


class RecordError(ValueError):
    pass


def _part(t, a, closed, lead):
    s = short(t)
    if not lead:
        s += ARM_NAMES[a]
    if closed:
        s += "!"
    return s


def move_text(rd, m):
    """Text of move m in round rd's current position (call before playing it)."""
    lay = rd.layout
    if not m & _MULTI:
        return _part(m & _TILE_MASK, (m >> _ARM_SHIFT) & _ARM_MASK, m & _CLOSE, lay.lead == _NONE)
    arms = m & _ARMS_MASK
    closes = (m >> _CLOSES_SHIFT) & _CLOSES_MASK
    f = first_arm(m)
    out = _part(first_tile(lay, m), f, (closes >> f) & 1, False)
    for a in range(4):
        if a != f and (arms >> a) & 1:
            out += "+" + _part(DOUBLE[lay.end[a]], a, (closes >> a) & 1, False)
    return out


def find_move(rd, tile, arm, close):
    """The legal single move placing `tile` (on `arm`, or on the only end that matters when arm is
    None), or NONE. tools/scenarios/movecheck.py says why there is none (the device only needs yes or no)."""
    lay = rd.layout
    keep = rd.dedupe
    rd.dedupe = False
    n = rd.legal()
    rd.dedupe = keep
    found = _NONE
    for i in range(n):
        m = rd.buf[i]
        if m & _MULTI or m & _TILE_MASK != tile or bool(m & _CLOSE) != bool(close):
            continue
        a = (m >> _ARM_SHIFT) & _ARM_MASK
        if lay.lead == _NONE or arm is None or a == arm:
            if found != _NONE and arm is None and not lay.same(a, (found >> _ARM_SHIFT) & _ARM_MASK):
                raise RecordError(name(tile) + " fits several ends: name the end")
            if found == _NONE:
                found = m
    return found


def find_multi(rd, parts):
    """parts: [(tile, arm, close)], the first one the spinner candidate. The legal move, or NONE."""
    lay = rd.layout
    arms = 0
    closes = 0
    for t, a, c in parts:
        if a is None or LO[t] != HI[t] or not lay.fits(t, a):
            return _NONE
        arms |= 1 << a
        if c:
            closes |= 1 << a
    f = parts[0][1]
    m = _MULTI | arms | (closes << _CLOSES_SHIFT) | (f << _FIRST_SHIFT)
    if rd.is_legal(m):
        return m
    n = rd.legal()
    for i in range(n):   # the generator's canonical choice of the first arm when it does not matter
        x = rd.buf[i]
        if x & _MULTI and x & _ARMS_AND_CLOSES == m & _ARMS_AND_CLOSES:
            return x
    return _NONE


def parse_part(tok):
    close = tok.endswith("!")
    if close:
        tok = tok[:-1]
    arm = None
    if tok and tok[-1] in "LRUD":
        arm = "LRUD".index(tok[-1])
        tok = tok[:-1]
    try:
        t = parse_tile(tok)
    except ValueError:
        raise RecordError("not a move: " + tok)
    return t, arm, close


def parse_move(rd, tok):
    parts = []
    for p in tok.split("+"):
        parts.append(parse_part(p))
    if len(parts) == 1:
        m = find_move(rd, parts[0][0], parts[0][1], parts[0][2])
    else:
        m = find_multi(rd, parts)
    if m == _NONE:
        raise RecordError("not a legal move: " + tok)
    return m


def run_forced(match):
    """Perform forced draws and passes until someone has a move or the round ends."""
    rd = match.round
    while rd.result == _PLAYING and not rd.legal():
        rd.forced()


def header(rules, seed, extras=None):
    """Header lines of a record (a save file starts with these, then gets a move appended at a time)."""
    out = MAGIC + "\nvariant " + rules.vid + "\nplayers " + str(rules.players) + "\nteams " + \
        str(int(rules.teams)) + "\noptions " + rules.options_text() + "\nseed " + code(seed) + "\n"
    if extras:
        for k in extras:
            out += k + " " + str(extras[k]) + "\n"
    return out


def dump(match, out, extras=None):
    """Write the record of a seeded match to `out` (anything with .write), a line at a time. Replays
    the match from its seed to write each move in context."""
    r = match.rules
    out.write(header(r, match.seed, extras))
    twin = Match(Rules(r.vid, r.players, r.teams, r.options), match.seed)
    rounds = len(match.history) + (0 if match.round_no <= len(match.history) else 1)
    for k in range(rounds):
        twin.start_round()
        out.write("round")
        for m in match.move_list(k):
            run_forced(twin)
            out.write(" " + move_text(twin.round, m))
            twin.play(m)
        out.write("\n")
        run_forced(twin)
        if twin.round_over():
            twin.finish_round()


def _options(text):
    options = {}
    for kv in text.split(","):
        if kv:
            k, v = kv.split("=")
            options[k] = int(v) if v.isdigit() else v
    return options


def load(lines):
    """Rebuild a match from a record: `lines` is an iterable of lines (an open file streams it) or one
    string. Returns (match, extras). RecordError names the first bad line."""
    if isinstance(lines, str):
        lines = lines.split("\n")
    head = {}
    match = None
    lineno = 0
    pending = False                            # the last round line left its round unfinished
    for ln in lines:
        lineno += 1
        ln = ln.strip()
        if lineno == 1:
            if ln != MAGIC:
                raise RecordError("not a game record (first line should be '" + MAGIC + "')")
            continue
        if not ln:
            continue
        sp = ln.find(" ")
        key = ln if sp < 0 else ln[:sp]
        val = "" if sp < 0 else ln[sp + 1:].strip()
        if key != "round":
            if match is not None:
                raise RecordError("line " + str(lineno) + ": header line after the moves")
            head[key] = val
            continue
        if match is None:
            match = _start(head)
        if pending:
            raise RecordError("line " + str(lineno - 1) + ": round ends before it is finished")
        if match.over:
            raise RecordError("line " + str(lineno) + ": the match was already over")
        pending = _replay_round(match, val.split(), lineno)
    if lineno == 0:
        raise RecordError("empty record")
    if match is None:
        match = _start(head)
    extras = {}
    for key in head:
        if key not in ("variant", "players", "teams", "options", "seed"):
            extras[key] = head[key]
    return match, extras


def _start(head):
    try:
        rules = Rules(head["variant"], int(head["players"]), head.get("teams", "0") == "1",
                      _options(head.get("options", "")))
        return Match(rules, parse_code(head["seed"]))
    except KeyError as e:
        raise RecordError("record header lacks " + str(e))
    except (ValueError, RulesError) as e:
        raise RecordError("bad record header: " + str(e))


def _replay_round(match, toks, lineno):
    """Play one round line; True when the round is left unfinished (a game in progress)."""
    match.start_round()
    for j in range(len(toks)):
        run_forced(match)
        if match.round_over():
            raise RecordError("line " + str(lineno) + ": move " + str(j + 1) + " after the round ended")
        try:
            match.play(parse_move(match.round, toks[j]))
        except RecordError as e:
            raise RecordError("line " + str(lineno) + ", move " + str(j + 1) + ": " + str(e))
    run_forced(match)
    if match.round_over():
        match.finish_round()
        return False
    return True
