"""Hand-built scenarios for RULES.md sections A-C (Draw, Block, Fives, Classic) through
tools/scenarios/replay.py,
and replay's handling of bad input: exit 2, exactly one line on stderr, never a traceback.

Every `host_tests/scenarios/{draw,block,fives,classic}_*.json` holds a fixed deal, the moves, and either
`expect` (the exact JSON replay must print) or `expect_error` (a substring of its one-line error). The
expected values were worked out by hand from RULES.md (the `about` text of each file shows the working),
not copied from the engine.
"""
import copy
import glob
import io
import json
import os
import subprocess
import sys
from contextlib import redirect_stderr, redirect_stdout

import pytest

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
SCEN = os.path.join(ROOT, "host_tests", "scenarios")
VARIANTS = ("draw", "block", "fives", "classic")
FILES = sorted(f for v in VARIANTS for f in glob.glob(os.path.join(SCEN, v + "_*.json")))


def run_replay(*args, cwd=ROOT, module=False):
    cmd = [sys.executable, "-m", "tools.scenarios"]
    p = subprocess.run(cmd + list(args), cwd=cwd, capture_output=True, text=True, timeout=60)
    return p.returncode, p.stdout, p.stderr


def assert_one_line_error(code, out, err):
    assert code == 2, (code, out, err)
    assert out == "", out
    assert "Traceback" not in err, err
    assert err.endswith("\n") and err.count("\n") == 1, repr(err)
    assert err.strip(), "empty error message"


def test_scenarios_present():
    names = [os.path.basename(f) for f in FILES]
    for v in VARIANTS:
        assert sum(n.startswith(v + "_") for n in names) >= 5, v


@pytest.mark.parametrize("path", FILES, ids=[os.path.basename(f)[:-5] for f in FILES])
def test_scenario(path):
    with open(path, encoding="utf-8") as f:
        sc = json.load(f)
    assert ("expect" in sc) != ("expect_error" in sc), "a scenario has expect or expect_error"
    assert sc.get("about"), "say what the scenario checks and how the numbers were worked out"
    code, out, err = run_replay(path)
    if "expect_error" in sc:
        assert_one_line_error(code, out, err)
        assert sc["expect_error"] in err, err
        return
    assert code == 0, err
    assert err == ""
    got = json.loads(out)
    want = sc["expect"]
    for i, (g, w) in enumerate(zip(got["rounds"], want["rounds"])):
        assert g == w, "round %d" % (i + 1)
    assert got == want


def test_module_form_matches_script_form():
    path = os.path.join(SCEN, "fives_spinner_lead_counts.json")
    a = run_replay(path)
    b = run_replay(path, module=True)
    assert a[0] == 0 and a == b
    with open(path, encoding="utf-8") as f:
        assert json.loads(b[1]) == json.load(f)["expect"]
    assert_one_line_error(*run_replay(os.path.join(SCEN, "nope.json"), module=True))


def test_runs_from_another_directory(tmp_path):
    path = os.path.join(SCEN, "draw_lead_highest_double.json")
    code, out, err = run_replay(path, cwd=str(tmp_path))
    assert code == 0, err
    with open(path, encoding="utf-8") as f:
        assert json.loads(out) == json.load(f)["expect"]


# --- bad files ---------------------------------------------------------------------------------------------

def _valid():
    with open(os.path.join(SCEN, "draw_3p_alternate_lead.json"), encoding="utf-8") as f:
        sc = json.load(f)
    del sc["expect"]
    return sc


def _write(tmp_path, name, data):
    p = tmp_path / name
    if isinstance(data, bytes):
        p.write_bytes(data)
    else:
        p.write_text(data, encoding="utf-8")
    return str(p)


BAD_BYTES = {
    "empty": b"",
    "whitespace": b"  \n\t\n",
    "binary": bytes(range(256)) * 4,
    "png_header": b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR" + b"\x00" * 40,
    "latin1": '{"variant": "draw\xe9"}'.encode("latin-1"),
    "nul": b'{"variant": "draw",\x00 "players": 2}',
    "nested_deep": b"[" * 100000 + b"]" * 100000,
    "nested_deep_unclosed": b'{"a":' * 50000,
    "trailing_garbage": b'{"variant": "draw", "players": 2, "rounds": []} xyz',
    "two_objects": b"{}{}",
    "single_quotes": b"{'variant': 'draw'}",
    "comment": b'// scenario\n{"variant": "draw"}',
    "huge_int": b'{"variant": "draw", "players": ' + b"9" * 5000 + b', "rounds": []}',
    "nan": b'{"variant": "draw", "players": NaN, "rounds": []}',
    "infinity": b'{"variant": "draw", "players": Infinity, "rounds": []}',
    "bare_string": b'"draw"',
    "bare_number": b"2",
    "null": b"null",
    "list": b"[]",
}


@pytest.mark.parametrize("name", sorted(BAD_BYTES))
def test_garbage_files(tmp_path, name):
    assert_one_line_error(*run_replay(_write(tmp_path, name + ".json", BAD_BYTES[name])))


def test_truncated_json_at_every_cut(tmp_path):
    text = json.dumps(_valid())
    cuts = sorted(set([1, 2, 10, len(text) // 3, len(text) // 2, len(text) - 2, len(text) - 1]))
    for n in cuts:
        assert_one_line_error(*run_replay(_write(tmp_path, "cut%d.json" % n, text[:n])))


def test_missing_file_directory_and_arguments(tmp_path):
    assert_one_line_error(*run_replay(str(tmp_path / "missing.json")))
    assert_one_line_error(*run_replay(str(tmp_path)))
    assert_one_line_error(*run_replay())
    ok = _write(tmp_path, "ok.json", json.dumps(_valid()))
    assert_one_line_error(*run_replay(ok, ok))


def test_unreadable_file(tmp_path):
    if hasattr(os, "geteuid") and os.geteuid() == 0:
        pytest.skip("root can read anything")
    p = _write(tmp_path, "locked.json", json.dumps(_valid()))
    os.chmod(p, 0)
    try:
        assert_one_line_error(*run_replay(p))
    finally:
        os.chmod(p, 0o600)


WRONG_TYPES = [None, True, False, 0, -1, 7, 2.5, "", "x", "L", [], [None], [[]], {}, {"tile": 1},
               "9-9", "0-0"]


def _paths(x, path=()):
    """Every node of a JSON tree as a path of keys / indexes."""
    yield path
    if isinstance(x, dict):
        for k in x:
            yield from _paths(x[k], path + (k,))
    elif isinstance(x, list):
        for i, v in enumerate(x):
            yield from _paths(v, path + (i,))


def _replace(tree, path, value):
    t = copy.deepcopy(tree)
    if not path:
        return value
    node = t
    for k in path[:-1]:
        node = node[k]
    node[path[-1]] = value
    return t


def _inprocess(path):
    """Run replay.main in this process (fast enough for hundreds of cases); an exception escaping main()
    fails the test, and so does a message that only names a Python exception."""
    from tools.scenarios import replay
    out, err = io.StringIO(), io.StringIO()
    with redirect_stdout(out), redirect_stderr(err):
        code = replay.main([path])
    return code, out.getvalue(), err.getvalue()


def test_wrong_types_everywhere(tmp_path):
    base = _valid()
    base["options"] = {"target": 100}
    base["teams"] = False
    base["rounds"][1]["leader"] = 1
    base["rounds"][0]["moves"][1] = {"tile": "0-5", "end": "L"}
    p = str(tmp_path / "m.json")
    seen = 0
    for path in list(_paths(base)):
        if path[:1] == ("about",):
            continue
        for value in WRONG_TYPES:
            sc = _replace(base, path, value)
            with open(p, "w", encoding="utf-8") as f:
                json.dump(sc, f)
            code, out, err = _inprocess(p)
            where = "%s = %r" % ("/".join(map(str, path)), value)
            if code == 0:                     # a harmless substitution (e.g. another legal seat)
                assert err == "" and "rounds" in json.loads(out), where
                continue
            assert code == 2, where
            assert out == "", where
            assert err.count("\n") == 1 and err.strip(), where + ": " + repr(err)
            assert "internal error" not in err and "Traceback" not in err, where + ": " + err
            seen += 1
    assert seen > 100


@pytest.mark.parametrize("patch, message", [
    ({"players": "2"}, "players must be a number"),
    ({"players": True}, "players must be a number"),
    ({"players": 1}, "is for 2-4 players"),
    ({"variant": None}, "unknown variant"),
    ({"options": ["target", 100]}, "options must be an object"),
    ({"options": {"target": "lots"}}, "option target"),
    ({"rounds": []}, "rounds must be a non-empty list"),
    ({"rounds": "all"}, "rounds must be a non-empty list"),
    ({"rounds": [[]]}, "round 1: needs \"hands\""),
])
def test_wrong_types_messages(tmp_path, patch, message):
    sc = _valid()
    sc.update(patch)
    code, out, err = run_replay(_write(tmp_path, "t.json", json.dumps(sc)))
    assert_one_line_error(code, out, err)
    assert message in err


@pytest.mark.parametrize("where, value, message", [
    (("hands", 0, 0), 55, "round 1, hand 0: a tile is a string"),
    (("hands", 0, 0), "7-7", "round 1, hand 0: not a tile"),
    (("hands", 1), "0-5", "round 1: hand 1 must be a list"),
    (("stock",), 5, "round 1"),
    (("stock",), {"0-3": 1}, "round 1"),
    (("stock", 0), "5-5", "round 1: 5-5 is listed twice"),
    (("leader",), "0", "round 1: leader must be a seat"),
    (("leader",), 3, "round 1: leader must be a seat"),
    (("leader",), True, "round 1: leader must be a seat"),
    (("moves",), "5-5", "round 1: moves must be a list"),
    (("moves", 0), 55, "round 1, move 1"),
    (("moves", 1), ["0-5", "L", "x"], "round 1, move 2"),
    (("moves", 1), ["0-5", "left"], "round 1, move 2: end must be one of L, R, U, D"),
    (("moves", 1), {"tile": "0-5", "side": "L"}, "round 1, move 2: unknown key side"),
    (("moves", 1), {"multi": ["0-5"]}, "round 1, move 2"),
    (("moves", 1), {"multi": "0-5"}, "round 1, move 2"),
])
def test_bad_round_fields(tmp_path, where, value, message):
    sc = _valid()
    sc["rounds"] = sc["rounds"][:1]
    sc["rounds"][0] = _replace(sc["rounds"][0], where, value)
    code, out, err = run_replay(_write(tmp_path, "t.json", json.dumps(sc)))
    assert_one_line_error(code, out, err)
    assert message in err, err
