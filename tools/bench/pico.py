"""Device figures measured on the emulated Pico (stock MicroPython RPI_PICO in rp2040js; tools/emu,
docs/PICO_EMU.md), for `make bench` (the device section of python -m tools.bench) or alone:

    python -m tools.bench.pico [--quick] [--json OUT.json] [--jobs 2] [--only boot,ui,ai]
                               [--image pico,pico_w] [--boards B,..] [--matches N,..]
    python -m tools.bench.pico --doc docs/benchmarks.md --from A.json [B.json ...]

The second form writes the device section of the benchmarks doc from saved runs (the emulator is
slow: the parts can be measured apart and merged; what no run measured is listed as such).

Per image (--image: stock RPI_PICO `pico`, RPI_PICO_W `pico_w`; both by default) and colour board,
the deployed armv6m tree:
  boot      power-on to the last byte of the first whole menu frame (main.py as at power-on; the
            panel's bytes decoded from SPI), and press-to-pixels at the table: from the GPIO edge of
            a button press to the last byte of the redraw it causes (cursor RIGHT; A, which plays the
            tile, or asks for the end; the save's flash writes take a W25Q16's typical time)
  ui        the lowest free heap after a collection at every AI tick and save of a whole UI match
            (tools/emu/scripts/uimatch.py: the real App and board, keys at the key reader),
            Fives 2p you vs Hard, Goat 4p 2 v 2 (you and Hard vs 2 Hard), and a pass-and-play Draw
            match of 3 people at one device
and for the Hard AI (on RPI_PICO: the W's CPU is the same RP2040): tools/bench/ai_speed.py run on the device
at the default 500 ms think time: move time p50/p95 and rollouts per move, per variant and player count.
Times are the emulator's: Cortex-M0+ cycles at 125 MHz with zero-wait flash, so lower bounds.
"""
import json
import os
import statistics
import subprocess
import sys
import tempfile
import threading
from concurrent.futures import ThreadPoolExecutor

from tools import cli
from tools.emu import device
from tools.emu import harness as emu
from tools.emu import keys
from tools.emu import wiring
from tools.paths import ROOT, TOOLS

BUILD = os.path.join(ROOT, "build", "bench_pico")
SCRIPTS = os.path.join(TOOLS, "emu", "scripts")
MATCHPLAY = os.path.join(TOOLS, "proofs", "harness", "matchplay.py")   # uimatch.py's match player
HEADING = "## On the emulated Pico (measured)"
# The device budgets, on the emulated Pico and Pico W, every colour board (a press: from the GPIO
# edge to the last byte on the panel).
DEVICE_BOOT_MS = 1000.0
DEVICE_AI_P95_MS = 550.0
DEVICE_CURSOR_P50_MS = 10          # a cursor move: within one 60 Hz frame
DEVICE_CURSOR_MS = 16
DEVICE_PLAY_P50_MS = 50            # a played tile to its last pixel (its save comes after)
DEVICE_PLAY_MS = 90
BUDGETS = ("boot to the menu frame <= 1.0 s, every colour board",
           ">= 64 KB free at the worst point of a whole UI match, Pico W",
           "lowest free heap in a whole UI match, Pico (reported: the W's budget binds)",
           "Hard AI p95 <= 0.55 s at the default think time",
           "press-to-pixels, a cursor move: p50 <= %d ms, max <= %d ms (one 60 Hz frame)"
           % (DEVICE_CURSOR_P50_MS, DEVICE_CURSOR_MS),
           "press-to-pixels, a played tile (its save made, flash timed): p50 <= %d ms, max <= %d ms"
           % (DEVICE_PLAY_P50_MS, DEVICE_PLAY_MS),
           "a played tile to its save's end (reported: the save follows the pixels)")
UI_MATCHES = (("fives 2p vs Hard", "fives", 2, False, ("human", "hard")),
              ("goat 4p 2v2", "goat", 4, True, ("human", "hard", "hard", "hard")),
              ("draw 3p pass-and-play", "draw", 3, False, ("human", "human", "human")))
IMAGE_NAMES = {"pico": "Pico", "pico_w": "Pico W"}
# The UI matches repeat exactly (Hard by device time played another match after any change
# in the code's timing, and the lowest point moved by KBs): a fixed deal, and the AI's clock advancing
# UI_FAKE_MS a reading, one reading a determinization (a rollout of every legal move): 125 of them per
# 500 ms move, near what the device affords (docs/benchmarks.md, Hard AI: 276-637 rollouts a move).
UI_SEED = 20261127
UI_FAKE_MS = 4
# ... and once after a visit to every screen (uimatch.py VISIT: the names a whole session interns), on
# the board with the least heap to spare
UI_VISIT_BOARD = "pimoroni_pack2"
AI_VARIANTS = ("draw", "block", "fives", "classic", "goat", "sea_goat", "donkey", "muggins", "threes",
               "telephone", "blitz")
REDRAW_GAP_MS = 25         # windows of one redraw follow each other closer than this (the next
                           # region's drawing); the AI's turn sends its next one after the save
SAVE_GAP_MS = 10           # a save's flash writes follow each other closer than this (littlefs's
                           # work between them); the AI's move and its save come later
_TREES = {}
_LOCK = threading.Lock()


def compile_mpy(src, dst):
    from tools.deploy import main as deploy
    r = subprocess.run([deploy.mpy_cross_exe(), "-march=armv6m", "-O3", "-o", dst, src],
                       stdout=subprocess.PIPE, stderr=subprocess.STDOUT, universal_newlines=True)
    if r.returncode:
        raise emu.EmuError("mpy-cross %s: %s" % (src, r.stdout.strip()))
    with open(dst, "rb") as f:
        return f.read()


LANG = ["en"]        # the language of the device's settings (main's --lang)


def tree(board):
    """The board's deployed tree (built once per run: parallel runs share it), on a device already
    set up: its settings.json written (the language chosen, LANG, so the boot goes to the menu, not
    to a first boot's language question)."""
    with _LOCK:
        if board not in _TREES:
            t = device.board_tree(board, os.path.join(BUILD, "tree-%s-%d" % (board, os.getpid())))
            t["/settings.json"] = device.settings_file(lang=LANG[0])
            _TREES[board] = t
        return dict(_TREES[board])


def script_image(board, files, image=emu.DEFAULT_IMAGE):
    """The board's tree with main.py held back (the script imports what it needs) plus files."""
    t = tree(board)
    t["/main.py.held"] = t.pop("/main.py")
    t.update(files)
    return emu.flash_image(t, image)


def board_key(board, image):
    """The key of a board's figures on an image: the board's name on the Pico, 'NAME (Pico W)' on the W."""
    return board if image == emu.DEFAULT_IMAGE else "%s (%s)" % (board, IMAGE_NAMES[image])


def kv_lines(text):
    out = {}
    for ln in text.splitlines():
        parts = ln.split(None, 1)
        if len(parts) == 2:
            v = parts[1].strip()
            try:
                v = int(v)
            except ValueError:
                pass
            out[parts[0]] = v
    return out


# --- boot and press-to-pixels -------------------------------------------------------------------
def full_frame_end(windows, height):
    """Device ms of the last byte of the first frame that reached the bottom row."""
    for w in windows:
        if w[5] == height - 1:
            return w[1]
    return None


def responses(windows, marks, height, flash_ops=()):
    """{label: [ms]} for marks named 'press ...': from the press to the last byte of the redraw it
    causes: the first window after the press that reaches the bottom row (the hand row, which a
    cursor move and a played tile both change), and any that follow it within REDRAW_GAP_MS. An
    'A' is 'A play' when flash writes follow it (the move's save), else 'A, no tile played'.
    'LABEL, save': to the end of the save as well (its flash erases and programs, the first run of
    them after the press with gaps under SAVE_GAP_MS), whichever ends later."""
    out = {}
    for i, (label, t) in enumerate(marks):
        end = marks[i + 1][1] if i + 1 < len(marks) else 1e12
        if not label.startswith("press "):
            continue
        done = None
        for w in windows:
            if done is None:
                if t < w[0] < end and w[5] == height - 1:
                    done = w[1]
            elif w[0] - done < REDRAW_GAP_MS:
                done = w[1]                  # (a region sent after the hand row's, if any)
            else:
                break
        if done is None:
            continue
        ops = [o for o in flash_ops if t < o[0] < end]
        label = label[6:]
        if label == "A":             # a tile played is saved; else it asked for the end, or misfit
            label = "A play" if ops else "A, no tile played"
        out.setdefault(label, []).append(done - t)
        if ops:
            last = ops[0][1]
            for o in ops[1:]:
                if o[0] - last >= SAVE_GAP_MS:
                    break
                last = o[1]
            out.setdefault(label + ", save", []).append(max(done, last) - t)
    return out


def boot_press(board, quick=False, image=emu.DEFAULT_IMAGE):
    kind, wire = wiring.display(board)
    files = tree(board)
    steps = [{"idle": 1200, "max": 20000}]
    # New game (Draw, you vs Medium AI) -> Start game; then at the table the cursor and a played tile
    for word in ("a", "up", "a"):
        steps += [s for s in keys.plan(board, word, idle_ms=500, shots=False)[1:-1]]
    steps.append({"idle": 800, "max": 30000})
    for _ in range(1 if quick else 3):
        # DOWN moves to the next playable tile; its A plays it (or asks for the end: a second A plays)
        for word, label in (("right", "cursor RIGHT"), ("right", "cursor RIGHT"), ("down", "cursor DOWN"),
                            ("a", "A"), ("a", "A")):
            steps.append({"idle": 800, "max": 30000})
            press = keys.plan(board, word, shots=False)[1:-1]
            last = max(i for i, s in enumerate(press) if "down" in s)
            # from the edge that completes the press: a 4-button board's RIGHT is B held, then DOWN
            press.insert(last, {"mark": "press " + label})
            steps += press
    steps.append({"idle": 800, "max": 30000})
    r = emu.run(emu.flash_image(files, image), plan=keys.device_plan(steps), gpio_high=wiring.released(board),
                flash_timing=True, timeout=900, image=image, **{kind: wire})
    if r.rc != 0:
        raise emu.EmuError("%s boot run on %s: %s" % (board, image, r.why()))
    res = responses(r.windows(), r.marks(), wire["h"], r.report.get("flash_ops", ()))
    return {"boot_ms": full_frame_end(r.windows(), wire["h"]), "press": res, "quick": quick,
            "board": board, "image": image,
            "raw": {"marks": r.marks(), "flash_ops": r.report.get("flash_ops", []),
                    "windows": [w[:2] + w[3:6:2] for w in r.windows()]},
            "console": r.report.get("console", "")[-300:], "problems": r.display.get("problems")}


def press_parts(board, repeat=5, image=emu.DEFAULT_IMAGE):
    """Where a press's time goes on the device (tools/emu/scripts/presstime.py): {part: [p50 us,
    max us]}."""
    with tempfile.TemporaryDirectory() as d:
        src = os.path.join(d, "_presstime_cfg.py")
        with open(src, "w") as f:
            f.write("BOARD = %r\nREPEAT = %d\n" % (board, repeat))
        files = {"/_presstime_cfg.mpy": compile_mpy(src, os.path.join(d, "c.mpy")),
                 "/presstime.mpy": compile_mpy(os.path.join(SCRIPTS, "presstime.py"),
                                               os.path.join(d, "p.mpy")),
                 "/matchplay.mpy": compile_mpy(MATCHPLAY, os.path.join(d, "m.mpy"))}
    kind, wire = wiring.display(board)
    r = emu.run(script_image(board, files, image), code="import presstime", gpio_high=wiring.released(board),
                flash_timing=True, timeout=1800, image=image, **{kind: wire})
    if r.rc != 0:
        raise emu.EmuError("%s presstime: %s" % (board, r.why()))
    out = {}
    for ln in r.stdout.splitlines():
        p = ln.split()
        if len(p) == 4 and p[1].isdigit() and p[2].isdigit():
            out[p[0]] = [int(p[1]), int(p[2])]
    return out


# --- a whole UI match ------------------------------------------------------------------------------
def ui_run(board, variant, players, teams, seats, think=500, fake_ms=UI_FAKE_MS, warm=False, seed=UI_SEED,
           visit=False, uimatch=None, image=emu.DEFAULT_IMAGE):
    """Run uimatch.py (or the `uimatch` source given: tools/bench/heap_replay.py's) for one match on the
    device (booting `image`); the emulator's result."""
    cfg = "CFG = %r\n" % ((board, variant, players, teams, list(seats), think, fake_ms, warm, seed, visit),)
    with tempfile.TemporaryDirectory() as d:
        src = os.path.join(d, "_uimatch_cfg.py")
        with open(src, "w") as f:
            f.write(cfg)
        files = {"/_uimatch_cfg.mpy": compile_mpy(src, os.path.join(d, "c.mpy")),
                 "/uimatch.mpy": compile_mpy(uimatch or os.path.join(SCRIPTS, "uimatch.py"),
                                             os.path.join(d, "u.mpy")),
                 "/uimatch_end.mpy": compile_mpy(os.path.join(SCRIPTS, "uimatch_end.py"),
                                                 os.path.join(d, "e.mpy")),
                 "/matchplay.mpy": compile_mpy(MATCHPLAY, os.path.join(d, "m.mpy"))}
    kind, wire = wiring.display(board)
    return emu.run(script_image(board, files, image), code="import uimatch",
                   gpio_high=wiring.released(board), timeout=3600, image=image, **{kind: wire})


def ui_match(board, label, variant, players, teams, seats, think=500, fake_ms=UI_FAKE_MS, warm=False,
             seed=UI_SEED, visit=False, image=emu.DEFAULT_IMAGE):
    """A whole UI match on the device (uimatch.py), its figures; fake_ms=0 and seed=None: Hard by
    device time, a random deal (another match each run). visit: every on-demand screen module loaded
    once first."""
    r = ui_run(board, variant, players, teams, seats, think, fake_ms, warm, seed, visit, image=image)
    out = kv_lines(r.stdout)
    out.pop("kind", None)
    out.pop("holder", None)
    out["qstr"] = [ln.split(":", 1)[1].strip() for ln in r.stdout.splitlines() if ln.startswith("qstr pool:")]
    out.update(board=board, image=image, match=label, rc=r.rc, device_s=r.report.get("device_ms", 0) / 1000.0,
               seed=seed, fake_ms=fake_ms)
    out.update(probe_kinds(r.stdout))
    if r.rc != 0:
        out["result"] = "failed: " + r.why()[-300:]
    return out


def probe_kinds(text):
    """uimatch.py's breakdown: {"kinds": {kind: {"lowest", "n", "modules"}}, "holders": {module: B}}."""
    kinds = {}
    holders = {}
    for ln in text.splitlines():
        p = ln.split()
        if len(p) in (4, 5) and p[0] == "kind" and p[2].isdigit() and p[3].isdigit():
            kinds[p[1].replace("_", " ")] = {"lowest": int(p[2]), "n": int(p[3]),
                                             "modules": p[4].split(",") if len(p) == 5 else []}
        elif len(p) == 3 and p[0] == "holder" and p[2].lstrip("-").isdigit():
            holders[p[1]] = int(p[2])
    return {"kinds": kinds, "holders": holders} if kinds else {}


# --- Hard AI -----------------------------------------------------------------------------------------
def hard_ai(variant, decisions):
    with tempfile.TemporaryDirectory() as d:
        files = {"/bench_ai.mpy": compile_mpy(os.path.join(TOOLS, "bench", "ai_speed.py"),
                                              os.path.join(d, "b.mpy"))}
    code = ("import bench_ai\n"
            "bench_ai.main(['--decisions', '%d', '--variant', '%s'])" % (decisions, variant))
    r = emu.run(script_image("waveshare_lcd13", files), code=code, timeout=3600)
    if r.rc != 0:
        raise emu.EmuError("bench_ai %s on the device: %s" % (variant, r.why()))
    rows = []
    for ln in r.stdout.splitlines():
        p = ln.split()
        if len(p) == 9 and p[1][:1].isdigit() and p[1][1:] in ("p", "pt"):
            rows.append({"case": p[0] + " " + p[1], "p50": float(p[2]), "p95": float(p[3]),
                         "max": float(p[4]),
                         "roll_p5": int(p[5]), "roll_p50": int(p[6]), "start": p[7], "exact": int(p[8])})
    return rows


def measure(quick=False, jobs=2, log=print, only=("boot", "press", "ui", "ai"), images=tuple(emu.IMAGES),
            boards=wiring.COLOUR, ui_matches=UI_MATCHES):
    """Every device figure (or those of `only`, on `images`, `boards`, `ui_matches`); {section: ...}.
    Raises EmuError when the emulator is not set up."""
    why = emu.missing()
    if why:
        raise emu.EmuError(why)
    res = {"boards": {}, "ui": [], "ai": []}
    runs = [(b, i) for i in images for b in boards]
    with ThreadPoolExecutor(max_workers=jobs) as pool:
        boots = {board_key(b, i): pool.submit(boot_press, b, quick, i) for b, i in runs if "boot" in only}
        parts = {board_key(b, i): pool.submit(press_parts, b, 3 if quick else 5, i) for b, i in runs
                 if "press" in only}
        ui = "ui" in only and not quick
        matches = [pool.submit(ui_match, b, *m, image=i) for b, i in runs for m in ui_matches] if ui else []
        if ui and emu.DEFAULT_IMAGE in images and UI_MATCHES[0] in ui_matches and UI_VISIT_BOARD in boards:
            matches.append(pool.submit(ui_match, UI_VISIT_BOARD, UI_MATCHES[0][0] + ", every screen first",
                                       *UI_MATCHES[0][1:], visit=True))
        ai = "ai" in only and emu.DEFAULT_IMAGE in images
        variants = (AI_VARIANTS[:1] if quick else AI_VARIANTS) if ai else ()
        ais = [pool.submit(hard_ai, v, 4 if quick else 20) for v in variants]
        for b, f in boots.items():
            res["boards"][b] = f.result()
            log("device: %s boot %.0f ms" % (b, res["boards"][b]["boot_ms"] or -1))
        for b, f in parts.items():
            res.setdefault("press_parts", {})[b] = f.result()
            log("device: %s press parts %s" % (b, res["press_parts"][b]))
        for f in matches:
            res["ui"].append(f.result())
            u = res["ui"][-1]
            log("device: ui match %s %s %s lowest %s" % (u["image"], u["board"], u["match"], u.get("lowest")))
        for f in ais:
            res["ai"] += f.result()
    return res


def summary(xs):
    if not xs:
        return "-"
    xs = sorted(xs)
    return "p50 %.0f, max %.0f (%d)" % (statistics.median(xs), xs[-1], len(xs))


def merge(runs):
    """One result from several saved runs (later runs win per board; matches and AI rows add up)."""
    res = {"boards": {}, "ui": [], "ai": []}
    for r in runs:
        res["boards"].update(r.get("boards", {}))
        res.setdefault("press_parts", {}).update(r.get("press_parts", {}))
        res["ui"] += r.get("ui", [])
        res["ai"] += r.get("ai", [])
    return res


def write_doc(path, res):
    """Put the device section (render()) into the benchmarks doc at `path`, in place of the one there
    (or at its end)."""
    heading = HEADING
    lines = [heading, ""]
    render(res, lines.append)
    runs = [(b, i) for i in emu.IMAGES for b in wiring.COLOUR]
    missing = [board_key(b, i) for b, i in runs if board_key(b, i) not in res["boards"]]
    missing += ["%s %s" % (board_key(b, i), m[0]) for b, i in runs for m in UI_MATCHES
                if not any(u["board"] == b and u.get("image", emu.DEFAULT_IMAGE) == i and
                           u["match"].startswith(m[0]) for u in res["ui"])]
    missing += ["Hard AI %s" % v for v in AI_VARIANTS
                if not any(r["case"].startswith(v + " ") for r in res["ai"])]
    quick = sorted(b for b, r in res["boards"].items() if r.get("quick"))
    if quick:
        lines += ["Boot and presses of %s from `--quick` runs: one round of presses at the table (the A may"
                  " have asked for the end rather than played)." % ", ".join(quick), ""]
    if missing:
        lines += ["Not measured in these runs (the verdicts above rest on what was): " + ", ".join(missing)
                  + ".", ""]
    with open(path) as f:
        text = f.read()
    at = text.find(heading)
    if at < 0:
        text = text.rstrip("\n") + "\n\n"
        at = len(text)
    end = text.find("\n## ", at + len(heading))
    tail = text[end + 1:] if end >= 0 else ""
    with open(path, "w") as f:
        f.write(text[:at] + "\n".join(lines).rstrip("\n") + "\n" + ("\n" + tail if tail else ""))


def device_verdicts(dev):
    """[(budget, measured, PASS/MISS)] of the device budgets."""
    out = []
    boots = [(b["boot_ms"], name) for name, b in dev["boards"].items() if b.get("boot_ms")]
    if boots:
        ms, name = max(boots)
        out.append((BUDGETS[0],
                    "%.2f s (%s)" % (ms / 1000.0, name), "PASS" if ms <= DEVICE_BOOT_MS else "MISS"))
    # the heap budget is the Pico W's (the same code, 40.7 KB less heap); the Pico's figure is reported
    for image in emu.IMAGES:
        ui = [u for u in dev["ui"] if u.get("image", emu.DEFAULT_IMAGE) == image]
        lows = [(u["lowest"], u["board"], u["match"]) for u in ui if isinstance(u.get("lowest"), int)]
        if not lows:
            continue
        low, name, match = min(lows)
        runs = len(wiring.COLOUR) * len(UI_MATCHES)
        done = len(set((u["board"], u["match"].split(" (")[0]) for u in ui if "lowest" in u))
        part = "" if done >= runs else " (%d of the %d board and match pairs measured)" % (done, runs)
        measured = "%d B (%s, %s)%s" % (low, name, match, part)
        if image == "pico_w":
            ok = low >= emu.W_FREE_BUDGET and all(u.get("result") == "over" for u in ui)
            out.append((BUDGETS[1], measured,
                        "PASS" if ok else "MISS"))
        else:
            out.append((BUDGETS[2], measured, "-"))
    if dev["ai"]:
        w = max(dev["ai"], key=lambda r: r["p95"])
        out.append((BUDGETS[3],
                    "%.0f ms (%s)" % (w["p95"], w["case"]),
                    "PASS" if w["p95"] <= DEVICE_AI_P95_MS else "MISS"))
    presses = ((("cursor RIGHT", "cursor DOWN"), BUDGETS[4], DEVICE_CURSOR_P50_MS, DEVICE_CURSOR_MS),
               (("A play",), BUDGETS[5], DEVICE_PLAY_P50_MS, DEVICE_PLAY_MS))
    for labels, what, p50_budget, budget in presses:
        rows = [(statistics.median(b["press"][label]), max(b["press"][label]), name, label)
                for name, b in dev["boards"].items() for label in labels if b["press"].get(label)]
        if rows:
            p50 = max(rows)
            top = max(rows, key=lambda r: r[1])
            ok = p50[0] <= p50_budget and top[1] <= budget
            out.append((what, "p50 %.0f ms worst (%s, %s), max %.0f ms worst (%s, %s)"
                        % (p50[0], p50[2], p50[3], top[1], top[2], top[3]), "PASS" if ok else "MISS"))
    ends = [(statistics.median(b["press"]["A play, save"]), max(b["press"]["A play, save"]), name)
            for name, b in dev["boards"].items() if b["press"].get("A play, save")]
    if ends:                 # reported, not a budget: a sector erase alone is 45 ms typical, 400 ms max
        out.append((BUDGETS[6],
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


def ui_kinds(runs, add):
    """The lowest free heap per probe kind of each UI match (uimatch.py): where the worst point is,
    and the modules loaded there that the menu does not hold."""
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
            board_key(u["board"], u.get("image", emu.DEFAULT_IMAGE)), u["match"],
            " | ".join(str(ks[k]["lowest"]) if k in ks else "-" for k in kinds),
            ", ".join("%s %d" % kv for kv in hold) or "-"))
    add("")


def budget_table(rows, add):
    """The budgets' table: (budget, measured, PASS/MISS or '-') rows, verdicts in bold."""
    add("| budget | measured | verdict |")
    add("|---|---|---|")
    for t, v, ok in rows:
        add("| %s | %s | %s |" % (t, v, "**%s**" % ok if ok != "-" else ok))
    add("")


def render(dev, add, budgets=True):
    """The device section of docs/benchmarks.md (below its HEADING) from measure()'s result (its
    budgets' table too, unless the report's head holds them)."""
    add("Stock MicroPython v1.28.0 (RPI_PICO, and RPI_PICO_W: rows marked `(Pico W)`) on an emulated")
    add("RP2040 (rp2040js, tools/emu, docs/PICO_EMU.md) running each board's deployed armv6m tree")
    add("(`make build BOARD=...`). The W's wireless chip is not emulated (the game does not use it); its")
    add("image holds 40.7 KB more static RAM (lwIP, btstack, the CYW43 driver). The emulator counts")
    add("Cortex-M0+ cycles at 125 MHz with zero-wait flash: times are lower bounds for a real Pico.")
    add("")
    if budgets:
        add("#### Budgets")
        add("")
        budget_table(device_verdicts(dev), add)
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
            name, b["boot_ms"] or -1, summary(p.get("cursor RIGHT")),
            summary(p.get("cursor DOWN")), summary(p.get("A play")),
            summary(p.get("A play, save"))))
    add("")
    parts = dev.get("press_parts") or {}
    if parts:
        add("Where a press's time goes (tools/emu/scripts/presstime.py on the device, at the table;")
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
        add("tools/emu/scripts/uimatch.py on the device: the real App and board, keys given at the key")
        add("reader; `lowest` is the lowest `gc.mem_free()` after a collection at every AI tick, every save")
        add("and before every press, `raw` the lowest uncollected free heap between loop steps. Each match")
        add("repeats exactly: deal seed %d, Hard's clock advancing %d ms a determinization (~125 a"
            % (UI_SEED, UI_FAKE_MS))
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
                board_key(u["board"], u.get("image", emu.DEFAULT_IMAGE)), u["match"],
                str(u.get("result", "-")).replace("|", "/"), u.get("rounds", "-"),
                u.get("errors", "-"), u.get("free_boot", "-"), menu, u.get("lowest", "-"),
                u.get("raw", "-"), u.get("device_s", 0)))
        add("")
        ui_kinds(dev["ui"], add)
    if dev["ai"]:
        add("#### Hard AI at the default 500 ms think time")
        add("")
        add("tools/bench/ai_speed.py run on the device (500 ms a decision): Hard vs Medium self-play, seeded")
        add("deals;")
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


def main(argv=None):
    p = cli.parser("python -m tools.bench.pico", description=__doc__.split("\n")[0])
    p.add_argument("--quick", action="store_true")
    p.add_argument("--jobs", type=cli.typed(cli.whole, 1, cli.MAX_JOBS), default=2)
    p.add_argument("--json", type=cli.typed(cli.out_file), help="write the figures here as JSON")
    p.add_argument("--only", default="boot,press,ui,ai", help="comma list of boot, press, ui, ai")
    p.add_argument("--image", default=",".join(emu.IMAGES),
                   help="comma list of the images to boot: pico (RPI_PICO), pico_w (RPI_PICO_W)")
    p.add_argument("--boards", default=",".join(wiring.COLOUR), help="comma list of colour boards")
    p.add_argument("--matches", default="",
                   help="comma list of UI match numbers (1-%d: %s); default all" % (
                       len(UI_MATCHES), "; ".join(m[0] for m in UI_MATCHES)))
    p.add_argument("--lang", default="en", choices=("en", "ru"),
                   help="the devices' language (their settings.json); default en")
    p.add_argument("--doc", type=cli.typed(cli.out_file),
                   help="write the device section of this doc from --from runs")
    p.add_argument("--from", dest="runs", nargs="*", default=[], type=cli.typed(cli.in_file),
                   help="saved --json runs for --doc")
    a = p.parse_args(argv)
    only = tuple(x for x in a.only.split(",") if x)
    if any(x not in ("boot", "press", "ui", "ai") for x in only):
        p.error("--only takes boot, press, ui, ai")
    images = tuple(x for x in a.image.split(",") if x)
    if not images or any(x not in emu.IMAGES for x in images):
        p.error("--image takes %s" % ", ".join(emu.IMAGES))
    boards = tuple(x for x in a.boards.split(",") if x)
    if not boards or any(x not in wiring.COLOUR for x in boards):
        p.error("--boards takes %s" % ", ".join(wiring.COLOUR))
    nums = [x for x in a.matches.split(",") if x]
    if any(not x.isdigit() or not 1 <= int(x) <= len(UI_MATCHES) for x in nums):
        p.error("--matches takes numbers 1-%d" % len(UI_MATCHES))
    picked = tuple(UI_MATCHES[int(x) - 1] for x in nums) or UI_MATCHES
    LANG[0] = a.lang
    if a.doc:
        if not a.runs:
            p.error("--doc needs --from RUN.json ...")
        runs = []
        for path in a.runs:
            try:
                with open(path) as f:
                    runs.append(json.load(f))
            except (OSError, ValueError) as e:
                p.error("cannot read %s: %s" % (path, e))
        write_doc(a.doc, merge(runs))
        return 0
    try:
        res = measure(a.quick, a.jobs, only=only, images=images, boards=boards, ui_matches=picked)
    except emu.EmuError as e:
        print("bench_pico: %s" % e, file=sys.stderr)
        return 2
    text = json.dumps(res, indent=1)
    if a.json:
        with open(a.json, "w") as f:
            f.write(text)
    print(text)
    return 0


if __name__ == "__main__":
    sys.exit(main())
