"""The browser build runs the device's firmware modules, with one mechanical change (tools/web/build.py
without_native): the WebAssembly port has no native emitter, so the viper/native decorators go and
the plain-Python twins that CPython runs are selected. Here that firmware, compiled as the site ships
it, runs in the site's own MicroPython WebAssembly runtime under Node (tools/web/run_node.mjs), and
plays exactly as CPython and the unix port: the same selfplay digests over every variant and player
count, the same Hard AI decisions. Skipped without node/npm.
"""
import os
import shutil
import subprocess
import sys

import pytest

from tools import paths
from tools.web import build

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

pytestmark = pytest.mark.skipif(not (shutil.which("node") and shutil.which("npm")),
                                reason="no node/npm")
SELFPLAY = os.path.join(ROOT, "tools", "arena", "selfplay.py")   # run by path in the site's runtime


@pytest.fixture(scope="module")
def site(tmp_path_factory):
    out = str(tmp_path_factory.mktemp("web"))
    build.build(out)
    return out


def run(cmd):
    r = subprocess.run(cmd, capture_output=True, text=True, timeout=600, cwd=ROOT, env=paths.env())
    assert r.returncode == 0, r.stdout + r.stderr
    return r.stdout.strip().split("\n")


def web(site, script, *args):
    return run(["node", os.path.join(ROOT, "tools", "web", "run_node.mjs"), site, script] + list(args))


def test_selfplay_digests_equal_cpython_and_the_unix_port(site, micropython):
    args = ("--all", "--games", "4", "--seed", "7")
    w = web(site, SELFPLAY, *args)
    assert len(w) == 38           # every variant x player count (x team play)
    assert w == run([sys.executable, "-m", "tools.arena.selfplay"] + list(args))
    assert w == run([micropython, "-m", "tools.arena.selfplay"] + list(args))


def test_hard_ai_decisions_equal_cpython_and_the_unix_port(site, micropython, tmp_path):
    from test_ai_mpy import PROBE   # seeded rounds, hard seats on a counting clock, every move
    local = tmp_path / "probe.py"
    local.write_text("FIRMWARE = %r\n" % os.path.join(ROOT, "firmware") + PROBE)
    browser = tmp_path / "probe_web.py"
    browser.write_text("FIRMWARE = '/fw'\n" + PROBE)
    w = web(site, str(browser))
    assert len(w) == 6 and all(len(line.split()) > 5 for line in w)
    assert w == run([sys.executable, str(local)])
    assert w == run([micropython, str(local)])


def test_the_twins_are_selected(site, tmp_path):
    probe = tmp_path / "twins.py"
    probe.write_text("from boards import _gs4 as gs4\nfrom ai import rollout\nimport sys\n"
                     "print(gs4.expand is gs4.expand_py, sys.implementation._build)\n"
                     "print(type(rollout.micropython).__name__)\n")
    assert web(site, str(probe)) == ["True pyscript", "type"]   # rollout's CPython stand-in


def test_without_native_is_mechanical():
    src = ("try:\n    import micropython\n\n    @micropython.viper\n    def f(a: ptr8) -> int:\n"
           "        return a[0]\nexcept ImportError:\n    f = g\n")
    out = build.without_native(src, "m.py")
    assert out.count("\n") == src.count("\n")          # line numbers stay
    assert "@micropython" not in out and "raise ImportError" in out
    assert build.without_native("x = 1\n") == "x = 1\n"
    assert "@" not in build.without_native(src.replace("viper", "viper  # fast"), "m.py")
    with pytest.raises(build.BuildError, match="no `import micropython`"):
        build.without_native("@micropython.native\ndef f():\n    pass\n", "m.py")
    for rel in ("boards/_gs4.py", "firmware/ai/rollout.py"):
        with open(os.path.join(ROOT, rel)) as f:
            text = f.read()
        assert "@micropython.viper" in text
        compile(build.without_native(text, rel), rel, "exec")
