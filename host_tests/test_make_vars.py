"""No make variable can run a command. Every variable the makefiles read is either a setting (one
table in mk/vars.mk: a value that is not what its name says stops make with one line and exit 2
before anything is expanded or run, on the command line and in the environment alike), or the
makefiles' own (refused on the command line; the environment cannot replace it). A setting's value
reaches the tool through the environment, as typed, never pasted into a shell line.

The makefiles run here in a copy of the checkout whose .venv holds fakes (python, pip, ruff,
basedpyright, micropython: each writes its arguments to a log and exits 0), so the real recipes of
every target run in seconds and touch nothing outside the copy; a hostile value must never create
its file, whichever target reads it."""
import os
import re
import shutil
import subprocess

import pytest

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
pytestmark = pytest.mark.skipif(shutil.which("make") is None, reason="no make")

MAKEFILES = ["Makefile"] + sorted(os.path.join("mk", f) for f in os.listdir(os.path.join(ROOT, "mk"))
                                  if f.endswith(".mk"))
# Values that would run `touch {f}` if pasted into a shell line, or expanded by make.
HOSTILE = ['x"; touch {f}; echo "', "x; touch {f}", "$(shell touch {f})", "x`touch {f}`",
           "x$$(touch {f})", "x$(touch {f})", "x\ntouch {f}", "x' ; touch {f} ; echo '", "x|touch {f}",
           "x&&touch {f}", "x >{f}"]
# A target whose recipe reads each setting (PYTHON: read while the makefiles are parsed).
READ_BY = {"BOARD": "deploy", "PORT": "repl", "CHIP": "build", "FORCE": "deploy", "SEED": "sim-shot",
           "SIZE": "sim-shot", "VIEW": "sim", "ACTUAL": "sim", "DPI": "sim", "KEYS": "sim-shot",
           "SHOT": "sim-shot", "SIM_ARGS": "sim", "LINK_GAME": "sim-link", "LINK_ARGS": "sim-link",
           "WEB_PORT": "web-serve", "WEB_OUT": "web", "WEB_ARGS": "web", "BENCH_ARGS": "bench",
           "MICROPYTHON": "sim-shot", "PYTHON": "help", "IMAGE": "pico-usb", "RP2EMU": "pico-emu",
           "ARENA_MATCHES": "arena-long", "DOMINOES_MATCHES": "arena-long", "MONKEY_PRESSES": "soak-monkey",
           "SOAK_GAMES": "soak-games", "MONKEY_SEED": "soak-monkey", "MONKEY_ARGS": "soak-games",
           "MAKE": "test", "MAKE_COMMAND": "test"}
# Every target whose recipe runs a program (`clean` apart: it removes the fake .venv).
TARGETS = ["sim", "sim-shot", "sim-link", "web-serve", "build", "deploy", "deploy-src", "run", "repl",
           "package-json", "test", "soak", "bench", "arena-long", "screenshots", "fonts", "pico-usb",
           "web-figures", "venv"]
# make's own variables the makefiles read (MAKE and MAKE_COMMAND, which the environment can replace,
# are in the table too)
BUILTIN = {"CURDIR", "MAKE", "MAKE_COMMAND"}
FAKE = """#!/bin/sh
{ printf 'RUN %s' "$0"; for a in "$@"; do printf '\\037%s' "$a"; done
  printf '\\037PICO_DOMINO_MAKE=%s\\n' "$PICO_DOMINO_MAKE"; } >> "$FAKE_LOG"
"""


def _text(path):
    with open(os.path.join(ROOT, path), encoding="utf-8") as f:
        return f.read().replace("\\\n", " ")


def settings():
    m = re.search(r"^_VAR_SETTINGS\s*:=(.*)$", _text("mk/vars.mk"), re.M)
    assert m
    return m.group(1).split()


def table():
    """The names the table in mk/vars.mk checks."""
    return re.findall(r"^\$\(call _var_(?:one|list|choice),([A-Z][A-Z0-9_]*),", _text("mk/vars.mk"), re.M)


def read_vars():
    """(every variable the makefiles assign or read, those given a default with ?=)."""
    names, defaults = set(), set()
    for mf in MAKEFILES:
        text = _text(mf)
        for m in re.finditer(r"^\s*(?:override\s+|export\s+)?([A-Z][A-Z0-9_]*)\s*([?:+!]?)=", text, re.M):
            names.add(m.group(1))
            if m.group(2) == "?":
                defaults.add(m.group(1))
        names.update(re.findall(r"\$\((?:value |origin )?([A-Z][A-Z0-9_]*)\)", text))
        names.update(re.findall(r"\$\$\{?([A-Z][A-Z0-9_]*)", text))   # read by a recipe's shell
    return names, defaults


@pytest.fixture(scope="module")
def copy(tmp_path_factory):
    return make_copy(str(tmp_path_factory.mktemp("checkout")))


def make_copy(d):
    """A copy of the makefiles in d with a fake .venv, its stamps up to date."""
    os.makedirs(d, exist_ok=True)
    shutil.copy(os.path.join(ROOT, "Makefile"), d)
    shutil.copytree(os.path.join(ROOT, "mk"), os.path.join(d, "mk"))
    for f in os.listdir(ROOT):
        if f.startswith("requirements") and f.endswith(".txt"):
            shutil.copy(os.path.join(ROOT, f), d)
    t = 1000000000
    for f in os.listdir(d):
        if f.startswith("requirements"):
            os.utime(os.path.join(d, f), (t, t))
    for venv in (".venv", ".venv-bench"):
        os.makedirs(os.path.join(d, venv, "bin"))
        for exe in ("python", "pip", "ruff", "basedpyright", "micropython"):
            p = os.path.join(d, venv, "bin", exe)
            with open(p, "w") as f:
                f.write(FAKE)
            os.chmod(p, 0o755)
            os.utime(p, (t + 1, t + 1))
    for i, stamp in enumerate((".venv/.roots-pth", ".venv/.installed-player", ".venv/.installed",
                               ".venv-bench/.installed")):
        p = os.path.join(d, stamp)
        open(p, "w").close()
        os.utime(p, (t + 2 + i, t + 2 + i))
    return d


def run(copy, args, env=None, log=None):
    base = {k: v for k, v in os.environ.items() if k not in settings() and not k.startswith("MAKE")}
    base.update(FAKE_LOG=log or os.path.join(copy, "log"),
                MICROPYTHON=os.path.join(copy, ".venv", "bin", "micropython"))
    base.update(env or {})
    return subprocess.run(["make", "--no-print-directory"] + args, cwd=copy, env=base, capture_output=True,
                          text=True, timeout=120)


def runs(log):
    """The fake programs' runs: [(program, [arguments], PICO_DOMINO_MAKE)]."""
    if not os.path.exists(log):
        return []
    out = []
    with open(log) as f:
        for line in f.read().split("\n"):
            if line.startswith("RUN "):
                parts = line[4:].split("\x1f")
                out.append((os.path.basename(parts[0]), parts[1:-1], parts[-1].split("=", 1)[1]))
    return out


def one_line(r):
    lines = [ln for ln in (r.stdout + r.stderr).split("\n") if ln.strip()]
    assert r.returncode == 2 and len(lines) == 1, (r.returncode, lines)
    return lines[0]


def test_every_variable_the_makefiles_read_is_a_setting_or_their_own():
    names, defaults = read_vars()
    table_names = table()
    assert len(table_names) == len(set(table_names)), "a setting twice in the table"
    assert set(settings()) | {"MAKE", "MAKE_COMMAND"} == set(table_names), \
        "a setting without its row, or a row no setting"
    extra = defaults - set(settings())
    assert not extra, "a ?= default that is not a setting: %s" % extra
    assert set(READ_BY) == set(table_names)
    # the shell's own variables a recipe reads ($$PATH) and the ones it sets itself ($$c, $$n, $$failed)
    assert {n for n in names if n not in settings()} - internal() - BUILTIN <= {"PATH", "PICO_DEPLOY_SOAK",
                                                                                 "LINK_HOSTILE_RUNS"}
    assert internal() >= {"VENV", "BIN", "STAMP", "PLAYER", "DEPLOY", "SIM_OPTS", "MP_RUN", "SOAK_EXTRA",
                          "PICO_DOMINO_MAKE"}


def internal():
    """The variables the makefiles set for themselves (assigned, never with ?=; PICO_DEPLOY_SOAK=1 and
    LINK_HOSTILE_RUNS=200 are recipes' shell assignments)."""
    assigned = set()
    for mf in MAKEFILES:
        assigned.update(re.findall(r"^(?:override\s+|export\s+)?([A-Z][A-Z0-9_]*)\s*[:+!]?=", _text(mf),
                                   re.M))
        assigned.update(re.findall(r"^[a-z% -]+:\s*export\s+([A-Z][A-Z0-9_]*)\s*:?=", _text(mf), re.M))
    return assigned - set(settings())


@pytest.mark.parametrize("where", ["command line", "environment"])
@pytest.mark.parametrize("name", sorted(READ_BY))
def test_a_hostile_setting_stops_make_in_one_line(copy, tmp_path, name, where):
    for i, value in enumerate(HOSTILE):
        f = str(tmp_path / ("F%d" % i))
        log = str(tmp_path / ("log%d" % i))
        v = value.format(f=f)
        if where == "command line":
            r = run(copy, [READ_BY[name], "%s=%s" % (name, v)], log=log)
        else:
            r = run(copy, [READ_BY[name]], env={name: v}, log=log)
        assert not os.path.exists(f), (name, where, v, r.stdout, r.stderr)
        line = one_line(r)
        assert ("%s= must be" % name) in line, (name, where, v, line)
        assert runs(log) == [], (name, where, v, "a program ran")


@pytest.mark.parametrize("name", sorted(internal() | {"CURDIR"}))
def test_the_makefiles_own_variables_are_refused_on_the_command_line(copy, tmp_path, name):
    for i, value in enumerate(HOSTILE[:4] + ["plain"]):
        f = str(tmp_path / ("F%d" % i))
        r = run(copy, ["sim", "%s=%s" % (name, value.format(f=f))], log=str(tmp_path / "log"))
        assert not os.path.exists(f)
        assert ("%s= is not a setting" % name) in one_line(r) or ("%s= must be" % name) in one_line(r)
    assert runs(str(tmp_path / "log")) == []


def test_a_typo_is_refused_by_name(copy):
    line = one_line(run(copy, ["sim", "BORD=oled_diy"]))
    assert "BORD= is not a setting" in line and "BOARD" in line


@pytest.mark.parametrize("i", range(len(HOSTILE)))
def test_the_environment_cannot_replace_the_makefiles_own_variables(copy, tmp_path, i):
    """Every variable the makefiles set for themselves, hostile in the environment, while every
    target runs its recipes (with the fakes): they run as written, nothing else."""
    f = str(tmp_path / "F")
    log = str(tmp_path / "log")
    env = {name: HOSTILE[i].format(f=f) for name in internal() | {"CURDIR", "SHELL"}}
    r = run(copy, ["-k"] + TARGETS, env=env, log=log)
    assert not os.path.exists(f), (r.stdout[-3000:], r.stderr[-3000:])
    assert r.returncode == 0, r.stdout[-3000:] + r.stderr[-3000:]
    ran = runs(log)
    assert {p for p, _a, _m in ran} >= {"python", "ruff", "basedpyright", "micropython"}
    assert len(ran) > 60, len(ran)
    other = make_copy(str(tmp_path / "other"))
    r = run(other, ["clean"], env=env, log=log)
    assert r.returncode == 0 and not os.path.exists(f)
    assert not os.path.exists(os.path.join(other, ".venv")), "clean removes .venv"


def test_good_values_reach_the_tools_as_typed(copy, tmp_path):
    mp = os.path.join(copy, ".venv", "bin", "micropython")

    def tool(target, *assign, env=None):
        log = str(tmp_path / (target + "-log"))
        if os.path.exists(log):
            os.remove(log)
        r = run(copy, [target] + list(assign), env=env, log=log)
        assert r.returncode == 0, r.stdout + r.stderr
        return [(a, m) for p, a, m in runs(log) if p == "python" and "-c" not in a]

    [(args, from_make)] = tool("sim-shot", "KEYS=down a*2 wait:500 shot:out/m n.png", "SHOT=out/x.png",
                               "SEED=7", "SIZE=240x135", "SIM_ARGS=--heap 180K --source", "BOARD=oled_diy")
    assert args == ["-m", "tools.sim", "--board", "oled_diy", "--size", "240x135", "--seed", "7",
                    "--micropython", mp, "--heap", "180K", "--source", "--keys",
                    "down a*2 wait:500 shot:out/m n.png", "--screenshot", "out/x.png"], args
    assert from_make == "1"      # the tools' messages then name the make settings
    [(args, _m)] = tool("sim", "VIEW=term", "ACTUAL=1", "DPI=108.8")
    assert args == ["-m", "tools.sim", "--actual-size", "--dpi", "108.8", "--micropython", mp, "--view",
                    "term"], args
    [(args, _m)] = tool("sim-link", "LINK_GAME=goat 4 1 HhGh", "LINK_ARGS=--demo --rate 0.001", "SEED=3")
    assert args == ["-m", "tools.link.sim_pair", "--game", "goat 4 1 HhGh", "--seed", "3", "--demo", "--rate",
                    "0.001"], args
    [build, serve] = tool("web-serve", "WEB_OUT=out/site", "WEB_PORT=8123", "WEB_ARGS=--source")
    assert build[0] == ["-m", "tools.web.build", "--out", "out/site", "--source"], build
    # (run from make: its busy-port line names WEB_PORT=)
    assert serve == (["-m", "tools.web.serve", "out/site", "--port", "8123"], "1"), serve
    [(args, _m)] = tool("deploy", "BOARD=pimoroni_pack2", "PORT=/dev/ttyACM3", "CHIP=rp2350", "FORCE=1")
    assert args == ["-m", "tools.deploy", "deploy", "--board", "pimoroni_pack2", "--port", "/dev/ttyACM3",
                    "--chip", "rp2350", "--force"], args
    [(args, _m)] = tool("deploy", env={"BOARD": "oled_diy", "FORCE": "0"})
    assert args == ["-m", "tools.deploy", "deploy", "--board", "oled_diy", "--port", "", "--chip", ""], args
    [(args, from_make)] = tool("bench", "BENCH_ARGS=--reps 9 --out /tmp/b.md")
    assert args[-4:] == ["--reps", "9", "--out", "/tmp/b.md"] and from_make == "", args
    # the makefiles' defaults reach them too
    [(args, _m)] = tool("sim-shot")
    assert args[-4:] == ["--keys", "wait:500", "--screenshot", "out/sim.png"], args
    [(args, _m)] = tool("sim-link")
    assert args == ["-m", "tools.link.sim_pair", "--game", "fives 2 0 HG"], args
    [build, serve] = tool("web-serve")
    assert build[0][-2:] == ["--out", "build/web"] and serve[0][-3:] == ["build/web", "--port", "8000"], serve
    ran = tool("soak-monkey", "MONKEY_PRESSES=300", "MONKEY_SEED=5", "MONKEY_ARGS=--jobs 1")
    assert ran[0][0] == ["-m", "tools.proofs.monkey", "--presses", "300", "--jobs", "2", "--seed", "5",
                         "--jobs", "1"], ran


def test_plain_values_are_refused_by_what_they_are(copy):
    for assign, word in (("BOARD=Waveshare", "board name"), ("BOARD=a b", "board name"),
                         ("CHIP=rp9999", "rp2040 or rp2350"), ("PORT=/dev/tty ACM0", "device path"),
                         ("SEED=-1", "number"), ("VIEW=tv", "term or window"), ("FORCE=yes", "0 or 1"),
                         ("ACTUAL=yes", "0 or 1"), ("DPI=96dpi", "pixels per inch"),
                         ("WEB_PORT=http", "port number"), ("IMAGE=pico2", "pico or pico_w"),
                         ("LINK_GAME=fives,2", "variant players teams seats")):
        line = one_line(run(copy, ["build", assign]))
        assert word in line, (assign, line)


def test_the_real_makefiles_refuse_the_same(tmp_path):
    """The checkout's own makefiles (not the copy): one hostile value per kind of check."""
    f = str(tmp_path / "F")
    for assign in ('LINK_GAME=x"; touch %s; echo "' % f, "WEB_PORT=x; touch %s" % f,
                   "SIM_ARGS=$(shell touch %s)" % f, "BIN=x;touch %s" % f):
        r = subprocess.run(["make", "--no-print-directory", "sim-link", assign], cwd=ROOT,
                           capture_output=True, text=True, timeout=60)
        assert not os.path.exists(f) and r.returncode == 2, (assign, r.stdout, r.stderr)
    r = subprocess.run(["make", "-s", "sim-shot"], cwd=ROOT, capture_output=True, text=True, timeout=60,
                       env=dict(os.environ, MICROPYTHON='/bin/false"; touch %s; echo "' % f))
    assert not os.path.exists(f) and r.returncode == 2 and "MICROPYTHON= must be" in r.stderr


def test_the_readme_and_make_help_name_every_setting():
    with open(os.path.join(ROOT, "README.md"), encoding="utf-8") as f:
        readme = f.read()
    table = readme[readme.index("## Make settings"):]
    table = table[:table.index("\n## ")]
    r = subprocess.run(["make", "-s", "help"], cwd=ROOT, capture_output=True, text=True, timeout=60)
    for name in settings():
        assert "`%s=" % name in table, "README's Make settings do not name %s=" % name
        assert " %s=" % name in r.stdout, "make help does not name %s=" % name
