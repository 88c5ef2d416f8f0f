"""Replay a scenario file (docs/SCENARIOS.md) through the real engine and print the JSON result.

    python3 tools/replay.py SCENARIO.json      (the format's own command; also python3 -m tools.replay)
    python -m tools.scenarios SCENARIO.json    (the same, in the venv)

Exit 0 when the scenario is legal; 2 with one line on stderr naming the first illegal or malformed
thing (`round 1, move 5: 3-4 does not match any open end`). Never a traceback.
"""
import json
import sys

from domino.match import Match
from domino.record import RecordError, run_forced
from domino.round import PLAYING, OUT
from domino.rules import Rules, RulesError
from domino.scoring import hand_value
from domino.tiles import parse as parse_tile, NONE
from tools import cli
from tools.scenarios.movecheck import find_move, find_multi   # the lookups that say why a move is illegal

USAGE = "usage: tools/replay.py SCENARIO.json  (python -m tools.scenarios SCENARIO.json)"

ENDS = {"L": 0, "R": 1, "U": 2, "D": 3}


class ScenarioError(Exception):
    pass


def _tile(x, where):
    if not isinstance(x, str):
        raise ScenarioError(where + ": a tile is a string like \"3-5\", not " + json.dumps(x))
    try:
        return parse_tile(x)
    except ValueError:
        raise ScenarioError(where + ": not a tile: " + json.dumps(x))


def _end(e, where):
    if not isinstance(e, str) or e not in ENDS:
        raise ScenarioError(where + ": end must be one of L, R, U, D, not " + json.dumps(e))
    return ENDS[e]


def _placement(x, where):
    """-> (tile, arm or None, close)"""
    if isinstance(x, str):
        return _tile(x, where), None, False
    if isinstance(x, list):
        if len(x) != 2:
            raise ScenarioError(where + ": a move list is [tile, end]")
        return _tile(x[0], where), _end(x[1], where), False
    if isinstance(x, dict) and "tile" in x:
        unknown = set(x) - {"tile", "end", "close"}
        if unknown:
            raise ScenarioError(where + ": unknown key " + sorted(unknown)[0])
        arm = _end(x["end"], where) if "end" in x else None
        return _tile(x["tile"], where), arm, bool(x.get("close", False))
    raise ScenarioError(where + ": not a move: " + json.dumps(x))


def _apply(match, mv, where):
    rd = match.round
    try:
        if isinstance(mv, dict) and "multi" in mv:
            parts = mv["multi"]
            if not isinstance(parts, list) or not parts:
                raise ScenarioError(where + ": multi needs a list of moves")
            parts = [_placement(p, where) for p in parts]
            if match.rules.chain:                # Blitz: a chain is the same player playing again
                seat = rd.turn
                for k, (t, a, c) in enumerate(parts):
                    if k and (rd.result != PLAYING or rd.turn != seat):
                        raise ScenarioError(where + ": the chain cannot go on after tile " + str(k))
                    match.play(find_move(rd, t, a, c))
                return
            match.play(find_multi(rd, parts))
            return
        t, a, c = _placement(mv, where)
        match.play(find_move(rd, t, a, c))
    except RecordError as e:
        raise ScenarioError(where + ": " + str(e))


def _side_list(match, vals):
    return [vals[i] for i in range(match.rules.sides)]


def _maybe(x):
    return None if x == NONE else x


def run(sc):
    if not isinstance(sc, dict):
        raise ScenarioError("a scenario is a JSON object")
    for key in ("variant", "players", "rounds"):
        if key not in sc:
            raise ScenarioError("missing \"" + key + "\"")
    players = sc["players"]
    if not isinstance(players, int) or isinstance(players, bool):
        raise ScenarioError("players must be a number")
    if not isinstance(sc.get("teams", False), bool):
        raise ScenarioError("teams must be true or false")
    opts = sc.get("options") or {}
    if not isinstance(opts, dict):
        raise ScenarioError("options must be an object")
    try:
        rules = Rules(sc["variant"], players, bool(sc.get("teams", False)), opts)
    except RulesError as e:
        raise ScenarioError(str(e))
    if not isinstance(sc["rounds"], list) or not sc["rounds"]:
        raise ScenarioError("rounds must be a non-empty list")
    match = Match(rules, 1)
    out = []
    for ri, rnd in enumerate(sc["rounds"]):
        where = "round " + str(ri + 1)
        if match.over:
            raise ScenarioError(where + ": the match is already over")
        if out and out[-1]["ended"] is None:
            raise ScenarioError(where + ": the previous round did not end")
        if not isinstance(rnd, dict) or not isinstance(rnd.get("hands"), list):
            raise ScenarioError(where + ": needs \"hands\"")
        if len(rnd["hands"]) != players:
            raise ScenarioError(where + ": " + str(players) + " hands expected, got " +
                                str(len(rnd["hands"])))
        seen = 0
        hands = []
        for s, h in enumerate(rnd["hands"]):
            if not isinstance(h, list):
                raise ScenarioError(where + ": hand " + str(s) + " must be a list")
            m = 0
            for x in h:
                t = _tile(x, where + ", hand " + str(s))
                if (seen >> t) & 1:
                    raise ScenarioError(where + ": " + x + " is listed twice")
                seen |= 1 << t
                m |= 1 << t
            hands.append(m)
        stock = []
        given = rnd.get("stock")
        if given is not None and not isinstance(given, list):
            raise ScenarioError(where + ": stock must be a list")
        for x in given or []:
            t = _tile(x, where + ", stock")
            if (seen >> t) & 1:
                raise ScenarioError(where + ": " + x + " is listed twice")
            seen |= 1 << t
            stock.append(t)
        leader = rnd.get("leader")
        if leader is not None and (not isinstance(leader, int) or isinstance(leader, bool) or
                                   not 0 <= leader < players):
            raise ScenarioError(where + ": leader must be a seat 0.." + str(players - 1))
        match.start_round(hands, bytes(stock), len(stock), NONE if leader is None else leader)
        moves = rnd.get("moves")
        if moves is None:
            moves = []
        if not isinstance(moves, list):
            raise ScenarioError(where + ": moves must be a list")
        for k, mv in enumerate(moves):
            mwhere = where + ", move " + str(k + 1)
            run_forced(match)
            if match.round_over():
                raise ScenarioError(mwhere + ": the round is already over")
            _apply(match, mv, mwhere)
        run_forced(match)
        rd = match.round
        if match.round_over():
            match.finish_round()
            out.append({
                "ended": "out" if rd.result == OUT else "blocked",
                "winner": _maybe(match.round_winner),
                "counts": _side_list(match, match.counts),
                "in_play": _side_list(match, match.inplay),
                "recorded": _side_list(match, match.recorded),
                "remembered": _side_list(match, match.remembered),
                "scores": _side_list(match, match.scores),
                "carry": match.pot,
            })
        else:
            counts = [0, 0, 0, 0]
            inplay = [0, 0, 0, 0]
            for s in range(players):
                counts[rules.side(s)] += hand_value(rules, rd.hands[s])
                inplay[rules.side(s)] += rd.inplay[s]
            out.append({
                "ended": None, "winner": None,
                "counts": _side_list(match, counts), "in_play": _side_list(match, inplay),
                "recorded": [0] * rules.sides, "remembered": _side_list(match, match.remembered),
                "scores": _side_list(match, match.scores), "carry": match.pot,
            })
    return {"rounds": out, "match_over": match.over,
            "match_winner": _maybe(match.winner) if match.over else None,
            "match_loser": _maybe(match.loser) if match.over else None}


def main(argv):
    if argv[:1] in (["--help"], ["-h"]):
        return cli.usage(USAGE, globals())
    if len(argv) != 1 or argv[0].startswith("-"):
        sys.stderr.write(USAGE + "\n")
        return 2
    try:
        cli.in_file("", argv[0])             # a regular file (not a FIFO, not a device) of sane size
    except cli.BadArg as e:
        return cli.say("replay", e)
    try:
        with open(argv[0], encoding="utf-8") as f:
            sc = json.load(f)
    except OSError as e:
        sys.stderr.write("replay: cannot read " + argv[0] + ": " + (e.strerror or str(e)) + "\n")
        return 2
    except RecursionError:
        sys.stderr.write("replay: " + argv[0] + " is not valid JSON: nested too deeply\n")
        return 2
    except (ValueError, UnicodeDecodeError) as e:
        sys.stderr.write("replay: " + argv[0] + " is not valid JSON: " + str(e).split("\n")[0] + "\n")
        return 2
    try:
        result = run(sc)
    except ScenarioError as e:
        sys.stderr.write(str(e) + "\n")
        return 2
    except Exception as e:  # a bug must still not show a traceback to the user
        sys.stderr.write("replay: internal error: " + type(e).__name__ + ": " + str(e) + "\n")
        return 2
    print(json.dumps(result))
    return 0

