"""`make bench`: the engine against other engines and against its budgets, in one run; writes
docs/benchmarks.md (machine, versions, date, tables, PASS/MISS per target).

    python -m tools.bench [--quick] [--no-peers] [--out docs/benchmarks.md] [--reps 5] [--ms 1000]
                          [--peer-python .venv-bench/bin/python] [--micropython PATH] [--build DIR]

`make bench` builds .venv-bench (dominoes and open-spiel from PyPI, requirements-bench.txt) and runs
this with --peer-python. Sections, each measured here and now (nothing is hard-coded or carried over):
1. budgets: every budget in force, each with its verdict from this run's figures;
2. speed: random-vs-random full rounds per second, this engine under CPython and under the MicroPython
   unix port against the peers on the matching variant, interleaved repetitions, medians
   (tools/bench/engine.py rounds, tools/bench/peers.py);
3. memory: bytes allocated per engine move with the collector off, the heap a Hard AI move takes
   (tools/bench/engine.py alloc / hardmem), the lowest free heap of a whole UI game at the stress heap
   on every board's screen (tools/proofs/harness/heapgame.py through frames.heap_game);
4. size: the .mpy tree tools/deploy build() writes for the RP2040;
5. the device: boot, press-to-pixels, whole UI matches and Hard AI decisions on the emulated Pico and
   Pico W, every colour board (tools/bench/pico.py). Device figures come from the device model only:
   nothing here is a unix-port time multiplied by a factor.
--quick is the smoke run of `make test` (short runs, one repetition): its figures are not the
published ones. Exit 0 when every section ran (whatever the verdicts); 1 when a section failed (the
report is still written, saying why); 2 with one line when nothing could be measured.
"""
import datetime
import os
import platform
import shutil
import statistics
import subprocess
import sys
import time

from tools import cli, paths
from tools.bench import pico as bench_pico
from tools.find_micropython import find
from tools.paths import ROOT

from tools.proofs.harness import frames  # noqa: E402

MP_VERSION = ("import sys; v = sys.implementation.version; print('.'.join([str(x) for x in v[:3]]) + "
              "('-' + v[3] if len(v) > 3 and v[3] else '') + ' (' + sys.version.split('; ')[-1] + ')')")

# The engine's budget (the device's are tools/bench/pico.py's).
BUDGET_ALLOC = 16.0          # bytes per move, averaged over 1,000 rounds after warm-up
# What a Hard AI decision allocates is its search buffers (built once per rules) and each rollout's
# garbage, not a function of how long it thinks: a short budget here measures the same heap.
HARDMEM_BUDGET_MS = 4
HEAP = frames.STRESS_HEAP     # the UI tests' heap (frames.py says why this size)

# (label, variant, players, teams, peer id, peer label)
SPEED_CASES = (
    ("block 4p", "block", 4, False, "dominoes", "dominoes (4-player block hand)"),
    ("block 2p", "block", 2, False, "openspiel_block", "OpenSpiel python_block_dominoes"),
    ("block 4p teams", "block", 4, True, "openspiel_team", "OpenSpiel python_team_dominoes"),
)
ALLOC_CASES = (("block", 2, False), ("block", 4, False), ("block", 4, True), ("draw", 2, False),
               ("fives", 2, False), ("goat", 4, True), ("donkey", 3, False), ("telephone", 2, False),
               ("blitz", 4, False))
HARDMEM_CASES = (("block", 2, False), ("draw", 2, False), ("fives", 2, False), ("goat", 4, True))
UI_GAME = ("fives", 2, ["human", "hard"], 250, 10)   # variant, players, seats, think ms, fake ms/clock


class BenchError(Exception):
    pass


def case_name(vid, players, teams):
    return "%s %dp%s" % (vid, players, " teams" if teams else "")


def run(cmd, timeout=600, env=None):
    """Run a command; its stdout. A failure is a BenchError naming the command and its last line."""
    try:
        r = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, universal_newlines=True,
                           timeout=timeout, env=env, cwd=ROOT)
    except subprocess.TimeoutExpired:
        raise BenchError("%s took over %d s" % (" ".join(cmd[:3]), timeout))
    except OSError as e:
        raise BenchError("cannot run %s: %s" % (cmd[0], e))
    if r.returncode != 0:
        tail = (r.stderr.strip() or r.stdout.strip()).splitlines()
        raise BenchError("%s failed (exit %d): %s" % (" ".join(os.path.basename(c) if i == 0 else c
                                                               for i, c in enumerate(cmd[:4])),
                                                      r.returncode, tail[-1] if tail else "no output"))
    return r.stdout


def kv(text):
    """The last `key value key value ...` line of a tool's output, as a dict of ints."""
    line = text.strip().splitlines()[-1] if text.strip() else ""
    parts = line.split()
    if len(parts) < 2 or len(parts) % 2:
        raise BenchError("unexpected output: %r" % line[:200])
    out = {}
    for i in range(0, len(parts), 2):
        try:
            out[parts[i]] = int(parts[i + 1])
        except ValueError:
            raise BenchError("unexpected output: %r" % line[:200])
    return out


class Bench:
    def __init__(self, args):
        self.a = args
        self.mp = args.micropython or find()
        if not self.mp:
            raise BenchError("no `micropython` binary: run `make venv` (or set MICROPYTHON)")
        self.cpy = args.peer_python if args.peer_python else sys.executable
        self.quick = args.quick
        self.reps = args.reps or (1 if self.quick else 5)
        self.ms = args.ms or (150 if self.quick else 1000)
        self.build = os.path.abspath(args.build)
        self.res = {}
        self.t_start = time.time()

    def say(self, text):
        print("[%5.1fs] %s" % (time.time() - self.t_start, text), flush=True)

    def fresh(self, name):
        """An empty stand-in for the device's flash under the scratch directory: a save or settings
        left by an earlier run would change the menus the scripted keys walk through."""
        d = os.path.join(self.build, name)
        shutil.rmtree(d, ignore_errors=True)
        os.makedirs(d)
        return d

    def engine(self, python, *args, heap=None, firmware=None):
        """tools/bench/engine.py under `python` (CPython or micropython), on firmware/ or on the
        compiled tree `firmware`."""
        cmd = [python]
        if heap:
            cmd += ["-X", "heapsize=" + heap]
        env = paths.env(*([firmware] if firmware else []))
        if firmware:
            env["PYTHONPATH"] = os.pathsep.join((firmware, env["PYTHONPATH"]))
        return kv(run(cmd + ["-m", "tools.bench.engine"] + list(args), env=env))

    # --- facts about the machine -------------------------------------------------------------
    def machine(self):
        cpu = platform.processor() or platform.machine()
        try:
            with open("/proc/cpuinfo") as f:
                for ln in f:
                    if ln.startswith("model name"):
                        cpu = ln.split(":", 1)[1].strip()
                        break
        except OSError:
            pass
        try:
            load = "%.2f %.2f %.2f" % os.getloadavg()
        except (AttributeError, OSError):
            load = "-"
        m = {"cpu": cpu, "cores": os.cpu_count() or 0, "os": platform.platform(), "load": load,
             "date": datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%d %H:%M UTC")}
        m["python"] = run([self.cpy, "-c", "import sys; print(sys.version.split()[0])"]).strip()
        m["micropython"] = run([self.mp, "-c", MP_VERSION]).strip()
        try:
            from tools.deploy import main as deploy
            exe = deploy.mpy_cross_exe()
            m["mpy_cross"] = run([exe, "--version"]).strip()
        except Exception as e:  # the size section will fail with the reason
            m["mpy_cross"] = "-" + str(e)
        try:
            rev = run(["git", "rev-parse", "--short", "HEAD"]).strip()
            dirty = run(["git", "status", "--porcelain", "--untracked-files=no"]).strip()
            m["commit"] = rev + (" (with uncommitted changes)" if dirty else "")
        except BenchError:
            m["commit"] = "-"
        m["peers"] = {}
        if not self.a.no_peers:
            for ln in run([self.cpy, "-m", "tools.bench.peers", "versions"], env=paths.env()).splitlines():
                k, _, v = ln.partition(" ")
                m["peers"][k] = v
        self.res["machine"] = m

    # --- 2. speed -----------------------------------------------------------------------------
    def speed(self):
        runs = {}       # (case label, who) -> [(rounds/s, moves/round)]
        whos = ["cpython", "micropython"] + ([] if self.a.no_peers else ["peer"])
        ms = str(self.ms)
        for rep in range(self.reps):
            self.say("speed: repetition %d of %d" % (rep + 1, self.reps))
            for label, vid, p, t, peer, _ in SPEED_CASES:
                for who in whos:
                    if who == "peer":
                        r = kv(run([self.cpy, "-m", "tools.bench.peers", peer, "--ms", ms,
                                    "--seed", str(rep + 1)]))
                    else:
                        args = ["rounds", "--variant", vid, "--players", str(p), "--ms", ms,
                                "--seed", str(rep + 1)] + (["--teams"] if t else [])
                        r = self.engine(self.cpy if who == "cpython" else self.mp, *args)
                    if r["rounds"] <= 0 or r["us"] <= 0:
                        raise BenchError("%s %s: no round finished" % (label, who))
                    runs.setdefault((label, who), []).append((r["rounds"] * 1e6 / r["us"],
                                                              r["moves"] / float(r["rounds"])))
        rows = []
        for label, vid, p, t, peer, plabel in SPEED_CASES:
            for who in whos:
                xs = runs[(label, who)]
                rates = [x[0] for x in xs]
                rows.append({"case": label, "who": who, "peer": peer, "plabel": plabel,
                             "median": statistics.median(rates), "lo": min(rates), "hi": max(rates),
                             "moves": statistics.median([x[1] for x in xs])})
        med = {(r["case"], r["who"]): r["median"] for r in rows}
        fastest = None
        if not self.a.no_peers:
            fastest = max((r for r in rows if r["who"] == "peer"), key=lambda r: r["median"])
        for r in rows:
            r["vs_match"] = r["median"] / med[(r["case"], "peer")] if (r["case"], "peer") in med else None
            r["vs_fastest"] = r["median"] / fastest["median"] if fastest else None
        self.res["speed"] = {"rows": rows, "fastest": fastest}

    # --- 3. memory ----------------------------------------------------------------------------
    def alloc(self):
        rounds = 100 if self.quick else 1000
        self.say("memory: bytes per move over %d rounds per variant" % rounds)
        rows = []
        for vid, p, t in ALLOC_CASES:
            r = self.engine(self.mp, "alloc", "--variant", vid, "--players", str(p), "--rounds", str(rounds),
                            *(["--teams"] if t else []), heap="64M")
            r["case"] = case_name(vid, p, t)
            r["per_move"] = r["bytes"] / float(r["moves"]) if r["moves"] else float("inf")
            rows.append(r)
        self.res["alloc"] = rows

    def compiled(self):
        """The firmware and boards compiled for this host (x64 .mpy, as the UI tests run them)."""
        if getattr(self, "code", None):
            return self.code, self.boards
        self.say("building the .mpy tree for the unix port in %s" % self.build)
        code, boards, arch = frames.build_mpy(os.path.join(self.build, "mpy"))
        if not arch:
            raise BenchError("no mpy-cross for this host: the memory and boot figures need compiled code")
        self.code, self.boards = code, boards
        return code, boards

    def hardmem(self):
        code, _ = self.compiled()
        budget = HARDMEM_BUDGET_MS
        moves = 8 if self.quick else 60
        self.say("memory: %d Hard AI moves per case (budget %d ms)" % (moves, budget))
        rows = []
        for vid, p, t in HARDMEM_CASES:
            r = self.engine(self.mp, "hardmem", "--variant", vid, "--players", str(p),
                            "--budget", str(budget), "--moves", str(moves), firmware=code,
                            *(["--teams"] if t else []))
            r["case"] = case_name(vid, p, t)
            rows.append(r)
        self.res["hardmem"] = {"rows": rows, "budget": budget}

    def board_list(self):
        import importlib
        from boards import NAMES
        out = []
        for name in NAMES:
            if name == "sim":
                continue
            mod = importlib.import_module("boards." + name)
            out.append((name, "%dx%d" % (mod.WIDTH, mod.HEIGHT), bool(mod.MONO)))
        return out

    def ui_games(self):
        code, boards = self.compiled()
        rows = []
        vid, players, seats, think, fake = UI_GAME
        for name, size, mono in self.board_list():
            self.say("memory: a whole UI game at %s heap, %s (%s)" % (HEAP, name, size))
            root = self.fresh("flash-" + name)
            out = frames.heap_game(code, boards, vid, players, seats, think, HEAP, size=size, fake_ms=fake,
                                   root=root)
            result = str(out.get("result", "-"))
            if out.get("lowest", 0) >= 1 << 30:             # heapgame's "never probed" start value
                out["lowest"] = "-"
            if out.get("_rc") != 0 or "lowest" not in out:   # the game's failure is a result too
                tail = out["_log"].strip().splitlines()
                result = "harness stopped (exit %s): %s" % (out.get("_rc"), tail[-1] if tail else "no output")
            rows.append({"board": name, "size": size, "result": result.replace("|", "/"),
                         "rounds": out.get("rounds", "-"), "lowest": out.get("lowest", "-"),
                         "raw": out.get("raw", "-"), "heap": out.get("heap", "-"),
                         "errors": out.get("errors", "-"), "mem": out.get("mem_errors", "-")})
        self.res["ui"] = rows

    # --- 4. size --------------------------------------------------------------------------------
    def size(self):
        from tools.deploy import main as deploy
        self.say("size: tools/deploy build() for the RP2040 (armv6m)")
        out = os.path.join(self.build, "rp2040")
        try:
            tree = deploy.build(out, None, deploy.CHIPS["rp2040"])
            per_board = []
            for name in deploy.board_names():
                t = deploy.build(out, name, deploy.CHIPS["rp2040"])
                per_board.append((name, sum(s for r, s in t.items() if r.endswith(".mpy"))))
        except deploy.DeployError as e:
            raise BenchError("deploy build: %s" % e)
        mpy = dict((r, s) for r, s in tree.items() if r.endswith(".mpy"))
        self.res["size"] = {"total": sum(mpy.values()), "files": len(mpy),
                            "other": sum(s for r, s in tree.items() if not r.endswith(".mpy")),
                            "top": sorted(mpy.items(), key=lambda kv_: (-kv_[1], kv_[0]))[:10],
                            "boards": per_board}

    # --- 5. the emulated Pico ----------------------------------------------------------------------
    def device(self):
        """Device figures measured on the emulated Pico (tools/bench/pico.py)."""
        from tools.emu import harness as emu
        why = emu.missing()
        if why:
            raise BenchError(why)
        self.say("emulated Pico and Pico W: boot, presses, whole UI matches, Hard AI per variant (~40 min)")
        self.res["device"] = bench_pico.measure(log=self.say)

    def all(self):
        """Every section; one that fails is recorded (the report says why) and the others go on."""
        self.machine()
        self.failed = {}
        self.skipped = {}
        sections = [("speed", self.speed), ("alloc", self.alloc), ("hardmem", self.hardmem),
                    ("ui", self.ui_games), ("size", self.size), ("device", self.device)]
        if self.quick:
            sections.pop()
            self.skipped["device"] = ("the --quick smoke run leaves the emulated Pico out "
                                      "(`make bench` runs it)")
        for key, section in sections:
            try:
                section()
            except Exception as e:  # a measuring tool reports the failure and measures the rest
                text = str(e).strip().splitlines()
                self.failed[key] = "%s: %s" % (type(e).__name__, " / ".join(text[:3]) if text else "-")
                self.say("FAILED %s: %s" % (key, self.failed[key]))


# --- the report --------------------------------------------------------------------------------

def verdicts(res, why_not):
    """[(budget, measured, PASS/MISS)] for every budget in force ('-' where not measured, saying why:
    `why_not` maps a section to its reason)."""
    out = []
    if "alloc" in res:
        w = max(res["alloc"], key=lambda r: r["per_move"])
        out.append(("<= 16 bytes allocated per engine move (averaged after warm-up)",
                    "%.2f B/move worst (%s, %d rounds)" % (w["per_move"], w["case"], w["rounds"]),
                    "PASS" if w["per_move"] <= BUDGET_ALLOC else "MISS"))
    else:
        out.append(("<= 16 bytes allocated per engine move", "not measured: %s" % why_not("alloc"), "-"))
    if "device" in res:
        out += bench_pico.device_verdicts(res["device"])
    else:
        for budget in bench_pico.BUDGETS:
            out.append((budget, "not measured: %s" % why_not("device"), "-"))
    return out


def _head(bench, add):
    m = bench.res["machine"]
    add("# Benchmarks")
    add("")
    add("Written by `python -m tools.bench` (`make bench`); do not edit by hand: run it again. Every figure")
    add("below was measured in this one run on the machine named here.")
    add("")
    if bench.quick:
        add("**Quick smoke run (`--quick`): short runs, one repetition, not the published figures.**")
        add("")
    add("Reproduce: `make bench` (it builds `.venv-bench/` from `requirements-bench.txt` once, then runs")
    add("`.venv/bin/python -m tools.bench --peer-python .venv-bench/bin/python --out docs/benchmarks.md`).")
    add("")
    add("## Machine")
    add("")
    add("| | |")
    add("|---|---|")
    add("| date | %s |" % m["date"])
    add("| commit | %s |" % m["commit"])
    add("| CPU | %s, %d cores |" % (m["cpu"], m["cores"]))
    add("| OS | %s |" % m["os"])
    add("| load average at the start (1, 5, 15 min) | %s |" % m["load"])
    cpy = os.path.relpath(bench.cpy, ROOT) if bench.cpy.startswith(ROOT) else bench.cpy
    add("| CPython (this engine and the peers) | %s (`%s`) |" % (m["python"], cpy))
    add("| MicroPython unix port | %s |" % m["micropython"])
    add("| mpy-cross | %s |" % m["mpy_cross"])
    if m["peers"]:
        add("| peers | %s |" % ", ".join("%s %s" % kv_ for kv_ in sorted(m["peers"].items())))
    else:
        add("| peers | not run (`--no-peers`) |")
    add("| repetitions | %d per engine, %d ms each, interleaved |" % (bench.reps, bench.ms))
    add("")
    add("## Budgets")
    add("")
    add("Every budget in force; the device's are measured on the emulated Pico and Pico W (section")
    add("\"%s\", stock MicroPython v1.28.0: cycle-counted times, lower bounds for a real Pico)."
        % bench_pico.HEADING[3:])
    add("")
    bench_pico.budget_table(verdicts(bench.res, lambda key: bench.failed.get(key) or
                                     bench.skipped.get(key, "?")), add)


def _speed(bench, add):
    sp = bench.res["speed"]
    add("A round is one hand from the deal to out or blocked, random legal moves for every player, the")
    add("deal and the round-end scoring included. This engine: `Match.start_round`, `legal`/`forced`/")
    add("`play`, `finish_round` (tools/bench/engine.py rounds); the peers through their public APIs, a")
    add("new game per round (tools/bench/peers.py). Median of %d run(s) of %d ms each (min-max in"
        % (bench.reps, bench.ms))
    add("brackets); ratios are of medians.")
    add("")
    add("| variant | engine | runtime | rounds/s | moves/round | x matching peer | x fastest peer |")
    add("|---|---|---|---|---|---|---|")
    for r in sp["rows"]:
        eng = r["plabel"] if r["who"] == "peer" else "this engine"
        rt = "CPython" if r["who"] in ("peer", "cpython") else "MicroPython unix"
        vm = "-" if r["vs_match"] is None or r["who"] == "peer" else "%.2fx" % r["vs_match"]
        vf = "-" if r["vs_fastest"] is None else "%.2fx" % r["vs_fastest"]
        add("| %s | %s | %s | %.0f (%.0f-%.0f) | %.1f | %s | %s |" %
            (r["case"], eng, rt, r["median"], r["lo"], r["hi"], r["moves"], vm, vf))
    add("")
    if sp["fastest"]:
        add("Fastest peer: %s on %s, %.0f rounds/s." % (sp["fastest"]["plabel"], sp["fastest"]["case"],
                                                       sp["fastest"]["median"]))
        add("Matching variants: dominoes' 4-player block hand = `Rules('block', 4)`; python_block_dominoes")
        add("= `Rules('block', 2)`; python_team_dominoes = `Rules('block', 4, teams=True)` (7 tiles each,")
        add("no boneyard, in all three).")
        add("")


def _alloc(bench, add):
    add("The move loop (`start_round` with its deal, `legal`, `forced`, `play`) after 10 warm-up")
    add("rounds; every byte allocated counts, garbage included (tools/bench/engine.py alloc).")
    add("")
    add("| variant | rounds | moves | bytes allocated | bytes/move |")
    add("|---|---|---|---|---|")
    for r in bench.res["alloc"]:
        full = " (heap ran out)" if r.get("full") else ""
        add("| %s | %d | %d | %d%s | %.2f |" %
            (r["case"], r["rounds"], r["moves"], r["bytes"], full, r["per_move"]))
    add("")


def _hardmem(bench, add):
    hm = bench.res["hardmem"]
    add("Budget %d ms here (the heap a decision takes is its buffers and each rollout's garbage, not its"
        % hm["budget"])
    add("length). Collection off around each decision: `first` is the")
    add("first decision (it builds the search buffers, once per rules), `later` the most any later")
    add("decision allocated; `peak` the heap in use at the end of the worst decision (code, match,")
    add("buffers and what it allocated). 64-bit port: a 32-bit Pico needs roughly 55-60% of these")
    add("(docs/ENGINE.md).")
    add("")
    add("| variant | decisions | first (bytes) | later max (bytes) | peak heap in use (bytes) |")
    add("|---|---|---|---|---|")
    for r in hm["rows"]:
        add("| %s | %d | %d | %d | %d |" % (r["case"], r["moves"], r["first"], r["later"], r["peak"]))
    add("")


def _ui(bench, add):
    vid, players, seats, think, fake = UI_GAME
    add("tools/proofs/harness/heapgame.py: %s, %d players (%s), to the end of the match, on each"
        % (vid, players, " vs ".join(seats)))
    add("board's screen size (simulated board); `lowest` is the lowest `gc.mem_free()` after a collection")
    add("at every AI tick and save, `raw` the lowest uncollected free heap between loop steps; `errors`")
    add("the error pages, `recovered` the MemoryErrors the app recovered from (then playing on lean).")
    add("")
    add("| board | screen | result | rounds | errors | recovered | lowest free (bytes) | raw lowest (bytes) "
        "| heap |")
    add("|---|---|---|---|---|---|---|---|---|")
    for r in bench.res["ui"]:
        add("| %s | %s | %s | %s | %s | %s | %s | %s | %s |" % (
            r["board"], r["size"], r["result"], r["rounds"], r["errors"], r.get("mem", "-"), r["lowest"],
            r["raw"], r["heap"]))
    add("")


def _size(bench, add):
    sz = bench.res["size"]
    add("Every board included (what `make build` writes without BOARD=): **%d bytes** of .mpy in %d"
        % (sz["total"], sz["files"]))
    add("files (%.1f KiB), plus %d bytes of other files (main.py and help text stay as they are)." %
        (sz["total"] / 1024.0, sz["other"]))
    add("")
    add("A device gets one board's tree (`make deploy BOARD=...`: the firmware, that board's modules and")
    add("the drivers they import); host_tests/test_size.py holds the largest of these under its ceiling:")
    add("")
    add("| one board (`make build BOARD=...`) | .mpy bytes |")
    add("|---|---|")
    for name, s in sz["boards"]:
        add("| %s | %d |" % (name, s))
    add("")
    add("| biggest modules | bytes |")
    add("|---|---|")
    for rel, s in sz["top"]:
        add("| %s | %d |" % (rel, s))
    add("")


SECTIONS = (
    ("speed", "## Speed: random-vs-random full rounds per second", _speed),
    ("alloc", "## Memory\n\n### Allocation per engine move (MicroPython, `gc.mem_alloc()`, collection off)",
     _alloc),
    ("hardmem", "### Heap of a Hard AI move (MicroPython, firmware as .mpy)", _hardmem),
    ("ui", "### A whole UI game at `-X heapsize=%s`, per board" % HEAP, _ui),
    ("size", "## Size: the deployable .mpy tree (tools/deploy build(), RP2040, armv6m)", _size),
    ("device", bench_pico.HEADING, lambda bench, add: bench_pico.render(bench.res["device"], add, False)),
)


def report(bench):
    lines = []

    def add(text):
        lines.append(text)

    _head(bench, add)
    for key, heading, fn in SECTIONS:
        add(heading)
        add("")
        if key in bench.res:
            fn(bench, add)
        else:
            add("Not measured in this run: %s" % (bench.failed.get(key) or bench.skipped.get(key, "?")))
            add("")
    return "\n".join(lines)


def main(argv=None):
    p = cli.parser("bench", description="Benchmarks: the engine against peers and budgets.")
    p.add_argument("--quick", action="store_true", help="short smoke run (make test)")
    p.add_argument("--no-peers", action="store_true", help="skip the peer engines (no .venv-bench needed)")
    p.add_argument("--out", default=os.path.join(ROOT, "docs", "benchmarks.md"), type=cli.typed(cli.out_file),
                   help="report path")
    p.add_argument("--reps", type=cli.typed(cli.whole, 0, 100), default=0,
                   help="repetitions per engine (default 5, quick 1)")
    p.add_argument("--ms", type=cli.typed(cli.whole, 0, 60000), default=0,
                   help="ms per speed run (default 1000, quick 150)")
    p.add_argument("--peer-python", default="", help="the Python with dominoes and open-spiel")
    p.add_argument("--micropython", default="", help="the micropython binary (default: find_micropython)")
    p.add_argument("--build", default=os.path.join(ROOT, "build", "bench"), type=cli.typed(cli.out_dir),
                   help="scratch directory")
    a = p.parse_args(argv)
    if not a.no_peers and not a.peer_python:
        p.error("the peers need --peer-python (make bench passes .venv-bench/bin/python) or --no-peers")
    if a.peer_python and not os.path.exists(a.peer_python):
        p.error("no Python at %s: run `make bench`, it builds .venv-bench" % a.peer_python)
    try:
        if a.peer_python:
            cli.executable("--peer-python", a.peer_python)
        if a.micropython:
            cli.executable("--micropython", a.micropython)
    except cli.BadArg as e:
        p.error(str(e))
    try:
        b = Bench(a)
        b.all()
        text = report(b)
    except BenchError as e:
        print("bench: " + str(e), file=sys.stderr)
        return 2
    d = os.path.dirname(os.path.abspath(a.out))
    os.makedirs(d, exist_ok=True)
    with open(a.out, "w", encoding="utf-8") as f:
        f.write(text + "\n")
    print()
    print(text)
    print()
    print("written to %s" % a.out)
    if b.failed:
        print("bench: %d section(s) failed: %s (the report says why)" % (len(b.failed), ", ".join(b.failed)),
              file=sys.stderr)
        return 1
    return 0

