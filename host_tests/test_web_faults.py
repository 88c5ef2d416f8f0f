"""The browser keeps the device's promises (docs/WEB.md, "Saves"): tools/web/webfaults.py's smoke set in
headless Chromium (the quota full at a store, storage that throws, damaged and stranger entries, a
reload after moves and during the AI's think, two tabs, deal links), every case ending with the last
move said saved resumed or a clear clean start; `make soak` runs its long form. The storage rules
themselves (tools/web/storage.mjs) are checked under Node, case by case."""
import json
import os
import shutil
import subprocess

import pytest

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

from tools.web import browser  # noqa: E402

STORAGE = os.path.join(ROOT, "tools", "web", "storage.mjs")


def node(expr_js):
    """Evaluate JS with storage.mjs's exports in scope; its JSON result."""
    code = ("import * as S from %s;\nconst out = await (async () => { %s })();\n"
            "process.stdout.write(JSON.stringify(out));\n" % (json.dumps("file://" + STORAGE), expr_js))
    r = subprocess.run(["node", "--input-type=module", "-e", code], capture_output=True, text=True,
                       timeout=60)
    assert r.returncode == 0, r.stderr
    return json.loads(r.stdout)


needs_node = pytest.mark.skipif(shutil.which("node") is None, reason="no node")


@needs_node
def test_only_the_firmwares_files_are_read_and_damage_is_set_aside():
    good = "DOMINO 1\n"
    cases = {
        "none_value": {"game.txt": None, "game.bak": good},
        "number": {"game.txt": 5, "game.bak": good},
        "big": {"game.txt": "x" * 70000, "game.bak": good},
        "wide": {"game.txt": "\u20ac", "game.bak": good},
        "strangers": {"": "a", ".": "b", "a/b/c": "c", "../fw/main.py": "d", "../fw/ui/app.py": "e",
                      "game.txt": good},
        "good": {"game.txt": good, "settings.json": "{}", "stats.json.bad": "x"},
    }
    out = node("const c = %s; const r = {};\n"
               "for (const k of Object.keys(c)) r[k] = S.readStore(JSON.stringify(c[k]));\n"
               "for (const raw of ['{', 'null', '[1]', '42', '\"s\"']) r[raw] = S.readStore(raw);\n"
               "r.none = S.readStore(null); return r;" % json.dumps(cases))
    for k in ("none_value", "number", "big", "wide"):
        assert out[k]["damaged"] and out[k]["notes"], out[k]
        assert sorted(out[k]["files"]) == ["game.bak", "game.txt.bad"], out[k]["files"]
        assert len(out[k]["files"]["game.txt.bad"]) <= 65536
    assert out["strangers"]["files"] == {"game.txt": good} and len(out["strangers"]["notes"]) == 5
    assert out["good"] == {"files": cases["good"], "notes": [], "damaged": False}
    for raw in ("{", "null", "[1]", "42", '"s"'):
        assert out[raw]["damaged"] and out[raw]["files"] == {} and out[raw]["notes"], raw
    assert out["none"] == {"files": {}, "notes": [], "damaged": False}


@needs_node
def test_deal_link_values_are_checked_before_anything_is_touched():
    hashes = ["#deal=abc-def", "#deal=%20ABC-DEF%20", "#deal=ABC-DEF&variant=fives&players=3&teams=0&ai=hard",
              "#deal=ABC-DEF&players=2.5", "#deal=ABC-DEF&players=99", "#deal=" + "A" * 100000,
              "#deal=ABC-DEF&variant=../x", "#deal=ABC-DEF&ai=god", "#deal=ABC-DEF&teams=2", "#x=1", ""]
    out = node("return %s.map((h) => S.parseLink(h));" % json.dumps(hashes))
    assert out[0] == {"deal": {"code": "ABC-DEF"}} and out[1] == {"deal": {"code": "ABC-DEF"}}
    assert out[2] == {"deal": {"code": "ABC-DEF", "variant": "fives", "players": 3, "teams": 0,
                               "level": "hard"}}
    for o in out[3:9]:
        assert list(o) == ["error"] and len(o["error"]) < 120, o
    assert out[9] is None and out[10] is None


@needs_node
def test_a_store_counts_only_when_read_back():
    out = node("""
        const mem = (setThrows, getLies) => { const m = {}; return {
          setItem(k, v) {
            if (setThrows) { const e = new Error('x'); e.name = setThrows; throw e; }
            m[k] = v; },
          getItem(k) { return getLies ? '{}' : (k in m ? m[k] : null); } }; };
        return [S.storeFiles(mem(null, false), {"game.txt": "a"}),
                S.storeFiles(mem("QuotaExceededError", false), {"game.txt": "a"}),
                S.storeFiles(mem("SecurityError", false), {"game.txt": "a"}),
                S.storeFiles(mem(null, true), {"game.txt": "a"}),
                S.closed({"game.txt": "a", "../fw/x.py": "b", "stats.json": 5})];""")
    assert out[0] == {"ok": True}
    assert out[1]["ok"] is False and out[1]["errno"] == 28
    assert out[2]["ok"] is False and out[2]["errno"] == 5
    assert out[3] == {"ok": False, "name": "ReadBackMismatch", "errno": 5}
    assert out[4] == {"game.txt": "a"}


@needs_node
def test_the_pages_preferences_stay_out_of_the_files_and_survive_refusals():
    out = node("""
        const m = {};
        const ok = () => ({ setItem(k, v) { m[k] = v; }, getItem(k) { return k in m ? m[k] : null; } });
        const refuses = () => ({ setItem() { throw new Error('quota'); },
                                 getItem() { throw new Error('denied'); } });
        const gone = () => { throw new Error('SecurityError'); };
        const keys = Object.values(S.PREFS);
        return [keys.some((k) => S.known(k) || k === S.STORE || k === S.STORE_BAD ||
                               k === S.STORE_REPLACED),
                S.readPref(ok, S.PREFS.actual), S.writePref(ok, S.PREFS.actual, "1"),
                S.readPref(ok, S.PREFS.actual), S.writePref(refuses, S.PREFS.actual, "1"),
                S.readPref(refuses, S.PREFS.actual), S.writePref(gone, S.PREFS.board, "x"),
                S.readPref(gone, S.PREFS.board), Object.keys(m)];""")
    assert out == [False, None, True, "1", False, None, False, None, ["pico-domino/actual"]]


@pytest.mark.skipif(browser.missing() is not None, reason=str(browser.missing()))
def test_browser_fault_suite_smoke(tmp_path):
    from tools.web import webfaults
    lines = []
    counts, failures = webfaults.run(long=False, out=lines.append)
    print("\n".join(lines))
    assert failures == [] and counts["lost"] == 0 and counts["errors"] == 0, "\n".join(lines)
    assert counts["cases"] >= 15 and counts["resumed"] >= 10 and counts["clean starts"] >= 2, counts
