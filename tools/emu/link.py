"""Two emulated Picos joined by a link cable (link_run.mjs, docs/LINK.md "Tested on the emulated
Picos"): each boots a board's deployed tree, one hosts and the other joins through the buttons, and
the match is played by pressing A on one device and the other in turn once both displays are still
(a press on a device whose person is not to move is dropped by its table, so the match goes one way
whatever the timing). The cable can be pulled and garbage put on a wire at chosen device times.

    python -m tools.emu.link [--presses N | --whole] [--cut AT_MS:FOR_MS] [--garbage AT_MS:DEVICE:N]
                             [--heap] [--board B] [--image pico|pico_w] [--form KEYS]

What a run gives (LinkRun): each device's console, shots and display windows, every frame on each
wire with its device times, the saves both devices left on their flash; figures() works out the
latency from a move's A press on one device to the last pixel it drew on the other, the bytes on the
wire per move, and (with heap=True: a main.py that probes the heap after every save and AI tick) the
lowest free heap after a collection on each device.
"""
import json
import os
import random
import subprocess
import sys
import tempfile

from tools import cli
from tools.emu import device
from tools.emu import harness as emu
from tools.emu import keys
from tools.emu import wiring

HOST_KEYS = "up a a up a"      # main menu (no save) -> Link game -> Host a game -> the form: Start game
# --form: keys on the host's form before its Start game row, e.g. Goat 2v2 (the two people opponents,
# each with a Medium AI partner the host plays): variant Goat, 4 players (teams: on for them), back to
# the top
GOAT_2V2 = "right*4 down right*2 down up up"
JOIN_KEYS = "up a down a"      # main menu -> Link game -> Join a game (then waits for the host's game)
SIT_KEYS = "a"                 # the host's set-up shown on the guest: sit down
MOVE_TYPE = 0x84               # link.session's MOVE: head (4), game (4), index (2), move (2)
ACK_TYPE = 0x02               # link.session's STATE: what a device has (the acknowledgement)
OVER = "link: over"
IDLE_MS = 500                  # both displays still this long before each autoplay press

# main.py with a heap probe: after every save and every AI search tick, a collection and
# gc.mem_free(); each new lowest figure is printed as `heap: N WHERE` (the console is the USB REPL).
HEAP_MAIN = b"""import gc
import boards
import ui.app
board = boards.load(boards.read_cfg("/board.cfg"))
app = ui.app.App(board, board.data_dir)
low = [1 << 30]


def probe(what):
    gc.collect()
    f = gc.mem_free()
    if f < low[0]:
        low[0] = f
        print("heap:", f, what, "link" if app.link is not None else "-")


app.probe = probe
gc.collect()
print("heap: boot", gc.mem_free())
app.run()
"""


class LinkRun:
    """What link_run.mjs left: rc, its report (times in device ms), the two devices' shots and saves."""

    def __init__(self, rc, stderr, report, shots, flashes, image=emu.DEFAULT_IMAGE):
        self.rc = rc
        self.stderr = stderr
        self.report = report or {}
        self._shots = shots
        self.flashes = flashes
        self.image = image               # whose filesystem geometry the saved flashes have

    def device(self, n):
        return self.report["devices"][n]

    def console(self, n):
        return self.device(n)["console"]

    def shots(self, n):
        """[(label, device ms, RGB565 big-endian bytes)]."""
        out = []
        for s in self.device(n)["shots"]:
            out.append((s["label"], s["t"], self._shots[n][s["offset"]:s["offset"] + s["bytes"]]))
        return out

    def frames(self, n):
        """Frames device n sent: [(t_first_ms, t_delivered_ms, bytes, garbage, dropped_bytes)]."""
        return [(f[0], f[1], bytes.fromhex(f[2]), f[3], f[4]) for f in self.report["wires"][n]["frames"]]

    def save(self, n, name="game.txt"):
        return emu.read_flash(self.flashes[n], "/" + name, self.image) if self.flashes[n] else None

    def why(self):
        tail = (self.stderr.strip().splitlines() or [""])[-3:]
        cons = [self.console(n)[-400:] for n in (0, 1)] if self.report.get("devices") else []
        return "exit %s (%s); consoles' tails %r; stderr %s" % (self.rc, self.report.get("why", ""), cons,
                                                                " / ".join(tail))


def frame_type(raw):
    """The type byte of a frame as sent on the wire (COBS-stuffed, 0x00 at its end), or None."""
    body = unstuff(raw.rstrip(b"\x00"))
    return body[0] if body else None


def unstuff(data):
    out = bytearray()
    i = 0
    while i < len(data):
        code = data[i]
        if code == 0:
            return None
        out += data[i + 1:i + code]
        i += code
        if code < 0xFF and i < len(data):
            out.append(0)
    return bytes(out)


def build_device(board, tree_dir, heap=False):
    files = device.board_tree(board, tree_dir)
    files["/settings.json"] = device.settings_file(anim=1)
    if heap:
        files["/main.py"] = HEAP_MAIN
    return files


def host_keys(form=""):
    """The host's keys from the main menu to its game: HOST_KEYS with `form`'s keys on the form."""
    return "up a a " + (form + " " if form else "") + "up a"


def menu_plans(board, idle_ms=600, form=""):
    """(host's plan, guest's plan): through the menus to the table. The guest joins once the host
    has started its game (sync), then sits down when the host's set-up has had time to arrive."""
    host = keys.device_plan(keys.plan(board, host_keys(form), idle_ms=idle_ms, shots=False))
    host.append({"mark": "hosted"})
    guest = keys.device_plan(keys.plan(board, JOIN_KEYS, idle_ms=idle_ms, shots=False))
    guest.insert(0, {"sync": "hosted", "max": 120000})
    guest.append({"wait": 1500})
    guest += keys.device_plan(keys.plan(board, SIT_KEYS, idle_ms=idle_ms, shots=False))
    return host, guest


def run(board="waveshare_lcd13", presses=None, until=OVER, cuts=(), garbage=(), heap=False,
        image=emu.DEFAULT_IMAGE, idle_ms=IDLE_MS, timeout=1800, device_s=0, work=None, node="node", form=""):
    """Two devices, host and guest, through the menus and `presses` autoplay presses (or until both
    print `until`). cuts: [(at_ms, for_ms)] of device time; garbage: [(at_ms, device, bytes)]."""
    why = emu.missing()
    if why:
        raise emu.EmuError(why)
    emu.sync()
    kind, wire = wiring.display(board)
    a_gpio = keys.buttons_for(board, keys.sim_link.KEY_BITS["a"])[0][0]
    work = work or tempfile.mkdtemp(prefix="pico-link-")
    os.makedirs(work, exist_ok=True)
    files = build_device(board, os.path.join(work, "tree"), heap)
    img = os.path.join(work, "flash.img")
    with open(img, "wb") as f:
        f.write(emu.flash_image(files, image))
    host_plan, guest_plan = menu_plans(board, form=form)
    fw = emu.firmware(image)
    spec = ",".join("%s=%d" % kv for kv in sorted(wire.items()))
    out = os.path.join(work, "out")
    cfg = {
        "devices": [dict(name=name, flash=img, firmware=fw, fs=emu.fs_arg(image), high=wiring.released(board),
                         plan=plan, **{kind: spec})
                    for name, plan in (("host", host_plan), ("guest", guest_plan))],
        "cable": {"cuts": [list(c) for c in cuts], "garbage": [[a, d, list(b)] for a, d, b in garbage]},
        "autoplay": {"keys": [a_gpio, a_gpio], "idle": idle_ms, "hold": keys.TAP_MS, "max": 120000,
                     "until": until},
        "out": out, "timeout": timeout, "device_s": device_s, "save_flash": True,
    }
    if presses is not None:
        cfg["autoplay"]["presses"] = presses
    with open(os.path.join(work, "link.cfg.json"), "w") as f:
        json.dump(cfg, f)
    cmd = ["nice", node, os.path.join(emu.HOME, "link_run.mjs"), os.path.join(work, "link.cfg.json")]
    r = subprocess.run(cmd,
                       stdout=subprocess.PIPE, stderr=subprocess.PIPE, timeout=timeout + 60)
    rep = None
    shots = [b"", b""]
    flashes = [None, None]
    if os.path.exists(os.path.join(out, "link.json")):
        with open(os.path.join(out, "link.json")) as f:
            rep = json.load(f)
        for n, name in enumerate(("host", "guest")):
            with open(os.path.join(out, "shots-%s.bin" % name), "rb") as f:
                shots[n] = f.read()
            p = os.path.join(out, "flash-%s.img" % name)
            if os.path.exists(p):
                with open(p, "rb") as f:
                    flashes[n] = f.read()
    return LinkRun(r.returncode, r.stderr.decode("latin-1"), rep, shots, flashes, image)


# --- figures -----------------------------------------------------------------------------------
def moves_sent(run_, n):
    """[(t_first_ms, t_delivered_ms)] of the MOVE frames device n sent (first sending of each)."""
    out = []
    seen = set()
    for t0, t1, raw, garbage, dropped in run_.frames(n):
        body = unstuff(raw.rstrip(b"\x00")) if raw.endswith(b"\x00") else None
        if garbage or not body or len(body) < 12 or body[0] != MOVE_TYPE:
            continue
        index = body[8] | body[9] << 8
        if index in seen or dropped:
            continue
        seen.add(index)
        out.append((t0, t1, index))
    return out


def latencies(run_, gap_ms=30.0):
    """[(mover, press ms, last pixel ms on the other device)] for each move made by a person's A
    press: the press is the mover's last autoplay press before its MOVE frame went out (within 1 s),
    the last pixel is the end of the other display's burst of drawing that began after the frame
    arrived (windows less than gap_ms apart)."""
    presses = run_.report.get("presses", [])
    out = []
    for n in (0, 1):
        windows = run_.device(1 - n)["display"]["windows"]
        for t0, t1, index in moves_sent(run_, n):
            mine = [t for dev, t in presses if dev == n and t <= t0]
            if not mine or t0 - mine[-1] > 1000:
                continue            # the host's AI seat, not a person's press
            after = [w for w in windows if w[0] >= t1]
            if not after:
                continue
            end = after[0][1]
            for w in after[1:]:
                if w[0] - end > gap_ms:
                    break
                end = max(end, w[1])
            out.append((n, mine[-1], end, index))
    return out


def wire_bytes(run_):
    """Bytes each way (garbage put on the wire by the test excluded), and the MOVE / ACK frames."""
    total = 0
    moves = 0
    for n in (0, 1):
        for t0, t1, raw, garbage, dropped in run_.frames(n):
            if garbage:
                continue
            total += len(raw)
        moves += len(moves_sent(run_, n))
    return total, moves


def heap_lows(run_):
    """Per device the lowest `heap: N` the probe printed while a link game was on (None without)."""
    out = []
    for n in (0, 1):
        lows = [int(ln.split()[1]) for ln in run_.console(n).splitlines()
                if ln.startswith("heap: ") and ln.split()[1].isdigit() and ln.rstrip().endswith(" link")]
        out.append(min(lows) if lows else None)
    return out


def figures(run_):
    lat = latencies(run_)
    total, moves = wire_bytes(run_)
    ms = sorted(end - press for _, press, end, _ in lat)
    return {
        "device_s": round(run_.report.get("device_ms", 0) / 1000.0, 1),
        "wall_s": round(run_.report.get("wall_s", 0), 1),
        "moves": moves, "bytes": total,
        "latency_ms": {"n": len(ms), "min": round(ms[0], 1), "median": round(ms[len(ms) // 2], 1),
                       "max": round(ms[-1], 1)} if ms else None,
        "heap_low": heap_lows(run_),
        "dropped": [run_.report["wires"][n]["dropped"] for n in (0, 1)],
    }


def main(argv=None):
    ap = cli.parser("python -m tools.emu.link", description=__doc__.split("\n")[0])
    ap.add_argument("--board", default="waveshare_lcd13")
    ap.add_argument("--presses", type=int, help="autoplay presses (default: the whole match)")
    ap.add_argument("--cut", action="append", default=[], help="AT_MS:FOR_MS the cable pulled")
    ap.add_argument("--garbage", action="append", default=[], help="AT_MS:DEVICE:N random bytes")
    ap.add_argument("--heap", action="store_true", help="probe the heap after every save / AI tick")
    ap.add_argument("--image", choices=sorted(emu.IMAGES), default=emu.DEFAULT_IMAGE,
                    help="the stock MicroPython both devices boot (pico_w: the Pico W)")
    ap.add_argument("--form", default="", help="keys on the host's form before Start game (e.g. %r: "
                                               "Goat 2v2)" % GOAT_2V2)
    ap.add_argument("--work", help="keep the run's files here")
    ap.add_argument("--timeout", type=int, default=3600)
    a = ap.parse_args(argv)
    try:
        cuts = [tuple(float(x) for x in c.split(":")) for c in a.cut]
        rnd = random.Random(1)
        garbage = []
        for g in a.garbage:
            at, dev, n = g.split(":")
            garbage.append((float(at), int(dev), bytes(rnd.randrange(256) for _ in range(int(n)))))
    except ValueError:
        sys.stderr.write("link: --cut AT_MS:FOR_MS, --garbage AT_MS:DEVICE:N (numbers)\n")
        return 2
    try:
        r = run(a.board, presses=a.presses, cuts=cuts, garbage=garbage, heap=a.heap, image=a.image,
                timeout=a.timeout, work=a.work, form=a.form)
    except emu.EmuError as e:
        sys.stderr.write("link: %s\n" % e)
        return 2
    if not r.report:
        sys.stderr.write("link: no report: %s\n" % r.why())
        return 1
    for n, name in enumerate(("host", "guest")):
        lines = [ln for ln in r.console(n).splitlines() if ln.startswith(("link:", "heap:", "Traceback"))]
        print("%s: %s" % (name, " | ".join(lines[-4:])))
    print(json.dumps(figures(r)))
    if r.rc != 0:
        print("link: the run did not finish: %s" % r.why())
        return 1
    problem = disagreement(r, whole=a.presses is None)
    if problem:
        print("link: " + problem)
        return 1
    lows = [x for x in figures(r)["heap_low"] if x is not None]
    if a.heap and a.image == "pico_w" and lows and min(lows) < emu.W_FREE_BUDGET:
        print("link: %d bytes free at the worst point on the Pico W, under the budget's %d"
              % (min(lows), emu.W_FREE_BUDGET))
        return 1
    return 0


def disagreement(run_, whole):
    """None when both devices hold the same match (and, for a whole match, printed the same closing
    line), else what differs."""
    for n in (0, 1):
        if "Traceback" in run_.console(n):
            return "device %d raised: %s" % (n, run_.console(n)[-600:])
    if whole:
        over = [[ln for ln in run_.console(n).splitlines() if ln.startswith(OVER)] for n in (0, 1)]
        if not over[0] or over[0] != over[1]:
            return "closing lines differ: %r" % (over,)
        return None
    saves = [run_.save(n) for n in (0, 1)]
    if not saves[0] or not saves[1]:
        return "a device has no save"
    skip = ("link ", "names ", "sum ")      # the lines that differ between host and guest
    keep = [[ln for ln in s.decode().splitlines() if not ln.startswith(skip)] for s in saves]
    return None if keep[0] == keep[1] else "the saves differ: %r" % (keep,)


if __name__ == "__main__":
    sys.exit(main())
