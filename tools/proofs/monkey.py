"""The monkey test and the device-path soak, run from the host (the proofs that no game is lost).

    python -m tools.proofs.monkey --presses 100000     random presses through the real UI (both cores)
    python -m tools.proofs.monkey --soak-games 1000    complete all-AI matches; is the free heap steady?

Both run tools/proofs/harness/monkey.py under the MicroPython unix port at `--heap` (STRESS_HEAP), with the
firmware compiled to .mpy as deployed and the fake AI clock (each clock reading is `--ai-ms` ms, so
a search does the same work on every run and takes little real time).

Monkey: the presses are split into segments of `--segment` presses; each segment is one process (a
boot of the handheld) on a random board profile and screen size, sometimes with keys held at boot;
each worker plays its segments one after another on its own save directory, so a segment resumes
(or finds damaged, or starts afresh) whatever the previous one left when its power was cut.
Soak: each worker plays its share of the matches in ONE process, so a leak would show as a falling
free heap; the figures and the trend (first/last 100 means, least-squares slope) are printed.

Exit status 1 when anything failed: an error caught by the app, a MemoryError, a broken engine
invariant, a hand's tile on a frame while the hands are face down, a segment that crashed or hung,
a free heap that trends down.
"""
import argparse
import os
import shutil
import subprocess
import sys
import tempfile
import threading
import time

from tools import cli
from tools.proofs.harness import frames
from tools.proofs.harness.rand import Rand

EXTRA = tuple(os.path.join(frames.HERE, f) for f in ("monkey.py", "privacy.py", "rand.py", "invariants.py"))
# (profile, size): the screen sizes, the four-button boards, the OLED. Every size runs by default
# since the colour frame buffers hold a band of the frame (at most 6.4 KB, boards/_base.py): the
# whole 38.4 KB frame of 320x240 (the Display Pack 2.0) left a Hard game no room in the stress heap.
BOARDS = (("sim", "240x240"), ("waveshare_lcd13", "240x240"), ("sim", "320x240"),
          ("pimoroni_pack2", "320x240"), ("sim", "240x135"), ("pimoroni_pack", "240x135"),
          ("sim", "128x64"), ("oled_diy", "128x64"))
STRESS_HEAP = frames.STRESS_HEAP      # (its reasons there)
SUMMARY = {}     # the last run's figures, for tests: "monkey" and "soak"
FAILS = ("errors", "mem_errors", "crashes", "inv_fail", "privacy_bad", "privacy_holder")
SUMS = ("presses", "steps", "moves", "draws_passes", "rounds", "setups", "started", "resumed", "finished",
        "curtain_frames", "hidden_frames", "menu_frames", "think_polls", "think_keys", "ai_problems",
        "save_failures", "oom_calls", "error_pages_oom", "boot_retries", "handoffs") + FAILS


def build(dst):
    """The firmware as deployed (.mpy) plus the monkey and its checks (compiled without -O3: asserts
    stay); returns (code dir, boards dir, harness dir: the compiled one, else the sources')."""
    code, boards, arch = frames.build_mpy(dst)
    drv = os.path.join(dst, "drv")
    if not arch:
        return code, boards, frames.HERE
    from tools.proofs import mptest as mt
    for src in EXTRA:
        out = os.path.join(drv, os.path.basename(src)[:-3] + ".mpy")
        subprocess.run(mt.cross_args(arch, shipped=False) + ["-o", out, src], check=True)
    return code, boards, drv


def run_one(tree, job, root, heap, timeout, nice=True):
    """One process: returns the `key value` lines as a dict (numbers as ints), plus _rc and _log."""
    code, boards, harness = tree
    env = frames.mp_env(code, boards, harness, UI_ROOT=root, UI_JOB=job)
    cmd = ([] if not nice else ["nice", "-n", "10"]) + [frames.find(), "-X", "heapsize=" + heap]
    cmd += ["-c", "import monkey; monkey.run()"]
    try:
        res = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, universal_newlines=True,
                             timeout=timeout, env=env, cwd=frames.mp_cwd(code))
        out = {"_rc": res.returncode, "_log": res.stdout[-4000:] + res.stderr[-4000:]}
        text = res.stdout
    except subprocess.TimeoutExpired as e:
        text = e.stdout.decode() if isinstance(e.stdout, bytes) else (e.stdout or "")
        out = {"_rc": "timeout", "_log": text[-4000:]}
    games = []
    where = {}
    for ln in text.split("\n"):
        if ln.startswith("where "):
            p = ln.split(" ", 2)
            where[p[2]] = where.get(p[2], 0) + int(p[1])
        elif ln.startswith("game "):
            p = ln.split(" ", 3)
            games.append((int(p[1]), int(p[2]), p[3] if len(p) > 3 else ""))
        elif " " in ln:
            k, v = ln.split(" ", 1)
            out[k] = int(v) if v.lstrip("-").isdigit() else v
    out["_games"] = games
    out["_where"] = where
    return out


def bare_boot(tree, heap, root):
    """(mem_alloc, mem_free) after gc.collect() once a bare App has booted on the 240x240 sim board."""
    code, boards, harness = tree
    prog = ("import gc; import boards.sim as s; "
            "from ui.app import App; b = s.build(profile='sim', size='240x240', virtual=True); "
            "a = App(b, %r); gc.collect(); print(gc.mem_alloc(), gc.mem_free())" % root)
    res = subprocess.run([frames.find(), "-X", "heapsize=" + heap, "-c", prog], stdout=subprocess.PIPE,
                         stderr=subprocess.STDOUT, universal_newlines=True, timeout=120,
                         env=frames.mp_env(code, boards, harness), cwd=frames.mp_cwd(code))
    try:
        a, f = res.stdout.strip().split("\n")[-1].split()
        return int(a), int(f)
    except ValueError:
        raise SystemExit("monkey: a bare App does not boot at %s:\n%s" % (heap, res.stdout))


def harness_bytes(tree, base):
    """Heap the harness holds (monkey.py, invariants.py, privacy.py: code, names, hooks, counters):
    the App booted under it minus a bare App, both on a roomy heap (so both load everything)."""
    root = os.path.join(base, "weigh")
    os.makedirs(root, exist_ok=True)
    bare, _ = bare_boot(tree, "1M", root)
    out = run_one(tree, "monkey 1 0 240x240 sim 10", root, "1M", 120, nice=False)
    if not isinstance(out.get("boot_alloc"), int):
        raise SystemExit("monkey: the harness does not boot:\n" + out["_log"])
    return out["boot_alloc"] - bare


def heap_bytes(heap):
    """'180K' -> 184320 (the -X heapsize syntax: bytes, or K / M)."""
    mult = {"k": 1024, "m": 1024 * 1024}.get(heap[-1].lower(), 0)
    return int(heap[:-1]) * mult if mult else int(heap)


def run_heap(args, tree, base):
    """The heap to run at: `--heap` plus what the harness itself holds, so the firmware has the heap
    it has at `--heap` alone (the harness is not on the device): first the harness's weight, then
    corrected until the app, booted under the harness, has the free heap a bare App has at `--heap`
    (the GC's layout does not add up byte for byte). Returns (heap, bytes added, bare free, free)."""
    root = os.path.join(base, "weigh")
    os.makedirs(root, exist_ok=True)
    _, bare_free = bare_boot(tree, args.heap, root)
    target = heap_bytes(args.heap)
    if not args.compensate:
        return args.heap, 0, bare_free, None
    heap = target + harness_bytes(tree, base)
    free = None
    for _ in range(4):
        out = run_one(tree, "monkey 1 0 240x240 sim %d" % args.ai_ms, root, str(heap), 120, nice=False)
        free = out.get("boot_free")
        if not isinstance(free, int):
            raise SystemExit("monkey: the harness does not boot at %d:\n%s" % (heap, out["_log"]))
        if abs(free - bare_free) < 256:
            break
        heap -= free - bare_free
    return str(heap), heap - target, bare_free, free


def segments(total, size, seed, sizes):
    """The segment jobs: (seed, presses, profile, size, keys held at boot), spread over the boards."""
    boards = [b for b in BOARDS if b[1] in sizes]
    r = Rand(seed * 7919 + 1)
    out = []
    i = 0
    left = total
    while left > 0:
        n = min(size, left)
        prof, scr = boards[(seed + i) % len(boards)]
        boot = 0
        if r.below(4) == 0:                  # keys held at boot: one key, a few, or every one
            boot = 1 << r.below(9) if r.below(2) else (r.below(511) + 1)
        out.append((seed * 1000 + i, n, prof, scr, boot))
        left -= n
        i += 1
    return out


def run_monkey(args, tree, base):
    segs = segments(args.presses, args.segment, args.seed, args.sizes.split(","))
    queues = [segs[w::args.jobs] for w in range(args.jobs)]
    results = []
    lock = threading.Lock()

    def worker(w):
        root = os.path.join(base, "flash%d" % w)
        shutil.rmtree(root, ignore_errors=True)          # a new flash; its segments then share it
        os.makedirs(root)
        for (sd, n, prof, scr, boot) in queues[w]:
            left = n
            held = boot
            for part in range(40):           # after a crash the handheld is reset: a new boot
                job = "monkey %d %d %s %s %d %d" % (sd * 100 + part, left, scr, prof, args.ai_ms, held)
                t0 = time.time()
                out = run_one(tree, job, root, args.run_heap, args.timeout)
                out["_job"] = job
                out["_secs"] = time.time() - t0
                with lock:
                    results.append(out)
                    if args.verbose:
                        print("  %-48s %5.1fs presses %s moves %s errors %s result %s" % (
                            job, out["_secs"], out.get("presses"), out.get("moves"), out.get("errors"),
                            out.get("result", out["_rc"])), flush=True)
                done = out.get("presses") if isinstance(out.get("presses"), int) else 0
                if out.get("result") != "crashed":
                    break
                if done <= 0 and held == 0x20:   # stopped at boot even with B held: a new flash
                    shutil.rmtree(root, ignore_errors=True)
                    os.makedirs(root)
                    out["wiped"] = 1
                held = 0x20 if done <= 0 and held != 0x20 else 0   # stopped at boot: B held, the
                left -= done                                       # documented way out
                if left <= 0:
                    break

    t0 = time.time()
    threads = [threading.Thread(target=worker, args=(w,)) for w in range(args.jobs)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    wall = time.time() - t0
    tot = {k: sum(r.get(k, 0) for r in results if isinstance(r.get(k, 0), int)) for k in SUMS}
    lowest = min((r["lowest"] for r in results if isinstance(r.get("lowest"), int)), default=None)
    raw = min((r["raw"] for r in results if isinstance(r.get("raw"), int)), default=None)
    bad_runs = [r for r in results if r["_rc"] != 0 or r.get("result") not in ("ok", "crashed")]
    print("monkey: %d presses in %d segments (%d processes at a time; %d booted with keys held), heap %s,"
          " AI clock %d ms/reading" % (tot["presses"], len(results), args.jobs,
                                      sum(1 for r in results if r.get("boot_keys")), args.heap, args.ai_ms))
    print("  games started %d (set up through the New-game form %d times), resumed %d, finished %d, "
          "rounds %d" % (tot["started"], tot["setups"], tot["resumed"], tot["finished"], tot["rounds"]))
    print("  moves checked %d, draws/passes checked %d; invariant failures %d"
          % (tot["moves"], tot["draws_passes"], tot["inv_fail"]))
    print("  frames checked with the hands face down: curtain %d, table %d, menus %d; tile bytes shown %d"
          % (tot["curtain_frames"], tot["hidden_frames"], tot["menu_frames"], tot["privacy_bad"]))
    print("  pass-and-play hand-offs %d; frames showing a hand to someone who does not hold the device %d"
          % (tot["handoffs"], tot["privacy_holder"]))
    print("  AI ticks polled %d, with keys down %d; AI problems (stand-in played) %d"
          % (tot["think_polls"], tot["think_keys"], tot["ai_problems"]))
    print("  MemoryErrors caught in a frame %d (played on, lean: %d; the error page: %d); error pages in all"
          " %d; crashes (an exception out of App.step: a reset) %d; save failures %d"
          % (tot["oom_calls"], tot["mem_errors"], tot["error_pages_oom"], tot["errors"], tot["crashes"],
             tot["save_failures"]))
    print("  boots that ran out of memory and were tried again %d; processes %d (resets included); flash"
          " wiped after a boot that stopped even with B held: %d"
          % (tot["boot_retries"], len(results), sum(r.get("wiped", 0) for r in results)))
    print("  lowest mem_free after collect %s, lowest raw %s" % (lowest, raw))
    by = {}
    for r in results:
        k = " ".join(r["_job"].split()[3:5])
        b = by.setdefault(k, [0, 0, 0, 0, 0])
        for i, f in enumerate(("presses", "moves", "oom_calls", "errors", "crashes")):
            b[i] += r.get(f, 0) if isinstance(r.get(f, 0), int) else 0
    for k in sorted(by):
        print("    %-24s presses %6d, moves %6d, MemoryErrors %4d, error pages %4d, crashes %3d"
              % ((k,) + tuple(by[k])))
    print("  loop passes %d; wall time %.0f s" % (tot["steps"], wall))
    notes = {}
    for r in results:
        for k, v in r.items():
            if k.startswith("note_") and k not in notes:
                notes[k] = "%s [UI_JOB=%r]" % (v, r["_job"])
    for k in sorted(notes):
        print("  first %s: %s" % (k[5:], notes[k]))
    where = {}
    for r in results:
        for k, n in r["_where"].items():
            where[k] = where.get(k, 0) + n
    if where:
        print("  where (count, kind, screen, exception, innermost place):")
        for k, n in sorted(where.items(), key=lambda kv: -kv[1]):
            print("    %6d  %s" % (n, k))
    for r in bad_runs[:5]:
        print("  FAILED process %r (rc %s):\n%s" % (r["_job"], r["_rc"], r["_log"][-3000:]))
    failed = bad_runs or any(tot[k] for k in FAILS) or tot["presses"] < args.presses
    if args.require_games and (tot["started"] == 0 or tot["moves"] == 0):
        print("  no game was played")
        failed = True
    tot["lowest"] = lowest
    tot["wall"] = wall
    tot["failed"] = bool(failed)
    SUMMARY["monkey"] = tot
    return 1 if failed else 0


def trend(values):
    """(first-100 mean, last-100 mean, least-squares slope in bytes per game)."""
    n = len(values)
    k = min(100, n)
    first = sum(values[:k]) / k
    last = sum(values[-k:]) / k
    mx = (n - 1) / 2
    my = sum(values) / n
    sxx = sum((i - mx) ** 2 for i in range(n)) or 1
    slope = sum((i - mx) * (v - my) for i, v in enumerate(values)) / sxx
    return first, last, slope


def run_soak(args, tree, base):
    per = [args.soak_games // args.jobs + (1 if w < args.soak_games % args.jobs else 0)
           for w in range(args.jobs)]
    results = [None] * args.jobs

    def worker(w):
        root = os.path.join(base, "soak%d" % w)
        shutil.rmtree(root, ignore_errors=True)
        os.makedirs(root)
        job = "soak %d %d 240x240 sim %d" % (args.seed * 100 + w, per[w], args.ai_ms)
        out = run_one(tree, job, root, args.run_heap, args.timeout)
        out["_job"] = job
        results[w] = out

    t0 = time.time()
    threads = [threading.Thread(target=worker, args=(w,)) for w in range(args.jobs) if per[w]]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    wall = time.time() - t0
    results = [r for r in results if r is not None]
    failed = False
    all_games = sum(len(r["_games"]) for r in results)
    variants = {}
    for r in results:
        for g in r["_games"]:
            v = g[2].split(" ")[0]
            variants[v] = variants.get(v, 0) + 1
    print("soak: %d all-AI matches through the App (240x240 board, heap %s, AI clock %d ms/reading), "
          "%d processes; wall time %.0f s" % (all_games, args.heap, args.ai_ms, len(results), wall))
    print("  variants: " + ", ".join("%s %d" % (v, n) for v, n in sorted(variants.items())))
    for r in results:
        frees = [g[1] for g in r["_games"]]
        bad = r["_rc"] != 0 or r.get("result") != "ok" or len(frees) == 0 or any(
            r.get(k, 0) for k in FAILS)
        if frees:
            first, last, slope = trend(frees)
            print("  %s: %d games, mem_free after collect min %d mean %.0f max %d; first-100 mean %.0f, "
                  "last-100 mean %.0f, slope %+.3f bytes/game; lowest during play %s; rounds %s, moves %s,"
                  " error pages %s, MemoryErrors caught %s (played on: %s), crashes %s, invariant failures %s"
                  % (r["_job"], len(frees), min(frees), sum(frees) / len(frees), max(frees), first, last,
                     slope, r.get("lowest"), r.get("rounds"), r.get("moves"), r.get("errors"),
                     r.get("oom_calls"), r.get("mem_errors"), r.get("crashes"), r.get("inv_fail")))
            blocks = [sum(frees[i:i + 100]) / len(frees[i:i + 100]) for i in range(0, len(frees), 100)]
            print("    mean per 100 games: " + " ".join("%.0f" % b for b in blocks))
            # no downward trend: the last games' mean within the noise of the first's, and a slope
            # that would not lose a kilobyte over the run
            if len(frees) >= 20 and (last < first - args.tolerance or slope * len(frees) < -args.tolerance):
                print("  the free heap trends down")
                bad = True
        for k, v in r.items():
            if k.startswith("note_"):
                print("  %s: %s" % (k[5:], v))
        if bad:
            failed = True
            print("  FAILED %r (rc %s):\n%s" % (r["_job"], r["_rc"], r["_log"][-3000:]))
    if all_games < args.soak_games:
        print("  only %d of %d matches were played" % (all_games, args.soak_games))
        failed = True
    SUMMARY["soak"] = {"games": all_games, "failed": failed, "wall": wall,
                       "frees": [[g[1] for g in r["_games"]] for r in results],
                       "errors": sum(r.get("errors", 0) for r in results),
                       "mem_errors": sum(r.get("mem_errors", 0) for r in results),
                       "inv_fail": sum(r.get("inv_fail", 0) for r in results),
                       "moves": sum(r.get("moves", 0) for r in results)}
    return 1 if failed else 0


MAX_SEED = 10 ** 9
SIZES = ("240x240", "240x135", "128x64", "320x240")


def seed(text):
    """--seed: a number, or 'random' (-1: a fresh one is drawn and printed)."""
    if text == "random":
        return -1
    return cli.typed(cli.whole, 0, MAX_SEED)(text)


def sizes(text):
    """--sizes: a comma-separated list of the sizes the monkey's boards have."""
    got = text.split(",")
    for sz in got:
        if sz not in SIZES:
            raise argparse.ArgumentTypeError("unknown size %r (sizes: %s)" % (sz, ",".join(SIZES)))
    return text


def main(argv=None, prebuilt=None):
    """Command line; `prebuilt`: a build() result to reuse (tests)."""
    ap = cli.parser("monkey", description=__doc__.split("\n\n")[0])
    count = cli.typed(cli.whole, 0, 10 * cli.MAX_COUNT)
    ap.add_argument("--presses", type=count, default=0, help="monkey: total presses")
    ap.add_argument("--soak-games", type=count, default=0, help="soak: complete all-AI matches")
    ap.add_argument("--segment", type=cli.typed(cli.whole, 1, cli.MAX_COUNT), default=2500,
                    help="monkey: presses per process (boot)")
    ap.add_argument("--sizes", type=sizes, default="240x240,240x135,128x64,320x240",
                    help="monkey: screen sizes to use")
    ap.add_argument("--jobs", type=cli.typed(cli.whole, 1, cli.MAX_JOBS), default=2,
                    help="processes at a time")
    ap.add_argument("--seed", type=seed, default=1,
                    help="segments' seeds derive from it; 'random': a fresh one, printed (replay with it)")
    ap.add_argument("--heap", type=cli.typed(cli.heap), default=STRESS_HEAP)
    ap.add_argument("--ai-ms", type=cli.typed(cli.whole, 1, 1000), default=10,
                    help="fake AI clock: ms per reading")
    ap.add_argument("--timeout", type=cli.typed(cli.whole, 1, 86400), default=3600,
                    help="seconds per process")
    ap.add_argument("--no-compensate", dest="compensate", action="store_false",
                    help="run at --heap exactly (the harness's own bytes then come off the firmware's)")
    ap.add_argument("--tolerance", type=cli.typed(cli.whole, 0, 1 << 20), default=1024,
                    help="soak: bytes of drift allowed")
    ap.add_argument("--require-games", action="store_true", help="monkey: fail when no game was played")
    ap.add_argument("--keep", type=cli.typed(cli.out_dir),
                    help="build and save directories here (default: a temporary one)")
    ap.add_argument("-v", "--verbose", action="store_true")
    args = ap.parse_args(argv)
    if args.seed < 0:
        import random
        args.seed = random.SystemRandom().randrange(1, MAX_SEED)
        print("monkey: random seed %d (replay: --seed %d)" % (args.seed, args.seed), flush=True)
    args.prebuilt = prebuilt
    if frames.find() is None:
        return cli.say("monkey", "no micropython binary (make venv)")
    if not args.presses and not args.soak_games:
        ap.error("give --presses N and/or --soak-games N")
    base = args.keep or tempfile.mkdtemp(prefix="monkey-")
    try:
        tree = args.prebuilt or build(os.path.join(base, "build"))
        args.run_heap, extra, args.bare_free, free = run_heap(args, tree, base)
        print("heap %s: a bare App boots with %d bytes free; the harness's own bytes given back "
              "(%+d): -X heapsize=%s, where the app boots under the harness with %s bytes free"
              % (args.heap, args.bare_free, extra, args.run_heap, free))
        rc = 0
        if args.presses:
            rc |= run_monkey(args, tree, base)
        if args.soak_games:
            rc |= run_soak(args, tree, base)
        return rc
    finally:
        if not args.keep:
            shutil.rmtree(base, ignore_errors=True)


if __name__ == "__main__":
    sys.exit(main())
