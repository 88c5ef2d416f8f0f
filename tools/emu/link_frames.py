"""The emulated Pico pair's screens against the simulator pair's, pixel for pixel (docs/LINK.md,
"Tested on two emulated Picos"). The same board, the same deal (the emulated host's, read from its
save, given to the simulated host as PICO_SIM_SEED) and the same keys in the same order:
through the menus to the table (the host: Link game > Host a game > Start game; the guest: Link
game > Join a game, then it sits down at the host's set-up), then A on the host and on the guest in
turn, each once both screens have been still for a while. At every such point both devices' frames
are compared: the emulated Picos' as their panels got them over SPI (tools/emu/link.py), the
simulators' from their frame buffers (two MicroPython processes on the PC joined by the virtual
cable of named pipes, tools/link/wire.py), in the panel's RGB565.

    python -m tools.emu.link_frames [--presses N | --whole] [--board B] [--work DIR]

Exit status 0 when every frame is equal, 1 when one differs (each difference is listed), 2 when the
emulator is not set up.
"""
import os
import shutil
import sys
import tempfile
import time

from tools import cli
from tools.emu import device
from tools.emu import harness as emu
from tools.emu import link
from tools.emu import wiring
from tools.link.wire import Wire
from tools.sim import link as sim_link

JOIN_WAIT_S = 1.5        # the guest sits down this long after joining (link.menu_plans' wait)


def _still(sims, idle_ms, max_s):
    """Wait until neither simulator has sent a frame for idle_ms (real time)."""
    end = time.time() + max_s
    last = [s.frame_no for s in sims]
    since = time.time()
    while time.time() < end:
        time.sleep(0.02)
        for s in sims:
            if s.proc.poll() is not None:
                raise RuntimeError("a simulator stopped: %s" % s.crash_text()[-800:])
        now = [s.frame_no for s in sims]
        if now != last:
            last = now
            since = time.time()
        elif (time.time() - since) * 1000 >= idle_ms and all(s.frame is not None for s in sims):
            return
    raise RuntimeError("the simulators' screens were never still for %d ms" % idle_ms)


def _keys(sim, sims, words, idle_ms):
    """Tap each key of `words` ("up a right*4") on `sim`, each once both screens are still again."""
    for word in words.split():
        name, _, times = word.partition("*")
        for _ in range(int(times or 1)):
            sim.send_tap(sim_link.KEY_BITS[name])
            time.sleep(0.25)             # the tap and the app's answer begin
            _still(sims, idle_ms, 30)


def deal_seed(run_):
    """The seed of the emulated link match's deal (its host's save: `seed CODE`), or None."""
    from domino.rng import parse_code
    save = run_.save(0)
    for ln in (save or b"").decode("ascii", "replace").splitlines():
        if ln.startswith("seed "):
            return parse_code(ln[5:].strip())
    return None


def sim_pair(board, presses, seed, idle_ms=link.IDLE_MS, micropython=None):
    """The simulator pair through the same keys as link.run, its host dealing `seed`: ([(host frame,
    guest frame)] before each of the `presses` presses of A (on the host, the guest, the host...)
    and once after the last, as frame buffer bytes; the hello)."""
    wire = Wire()
    root = tempfile.mkdtemp(prefix="pico-link-frames-")
    sims = []
    try:
        for side, env in (("a", dict(wire.env("a"), PICO_SIM_SEED=str(seed))), ("b", wire.env("b"))):
            data = os.path.join(root, side)
            os.makedirs(data)
            with open(os.path.join(data, "settings.json"), "wb") as f:
                f.write(device.settings_file(anim=1))        # as link.build_device writes it
            s = sim_link.Sim(board, data_dir=data, env=env, micropython=micropython)
            sim_link.Reader(s).start()
            sims.append(s)
        host, guest = sims
        _still(sims, 1500, 60)
        _keys(host, sims, link.HOST_KEYS, idle_ms)
        _keys(guest, sims, link.JOIN_KEYS, idle_ms)
        time.sleep(JOIN_WAIT_S)
        _keys(guest, sims, link.SIT_KEYS, idle_ms)
        out = []
        for i in range(presses + 1):
            _still(sims, idle_ms, 60)
            out.append((host.frame, guest.frame))
            if i < presses:
                sims[i % 2].send_tap(sim_link.K_A)
                time.sleep(0.25)
        return out, host.hello
    finally:
        for s in sims:
            s.stop(2.0)
        wire.close()
        shutil.rmtree(root, ignore_errors=True)


def rgb565(board, hello, frame):
    """A simulator's frame buffer as the panel would hold it: RGB565, big-endian."""
    pal = [bytes((c >> 8, c & 0xFF)) for c in wiring.rgb565_palette(board)]
    return b"".join(pal[i] for i in sim_link.frame_indices(hello, frame))


def first_diff(a, b, w):
    n = 0
    first = None
    for i in range(0, min(len(a), len(b)), 2):
        if a[i:i + 2] != b[i:i + 2]:
            n += 1
            if first is None:
                first = ((i // 2) % w, (i // 2) // w)
    return n, first


def labels(presses):
    """The emulated run's shot labels at the points sim_pair takes frames: before each press, then
    at its end."""
    return ["auto %d" % i for i in range(presses)] + ["end"]


def compare(run_, frames, hello, board, names):
    """[(label, device, differing pixels or -1 for a missing shot, (x, y) of the first)] for each of
    the emulated run's shots `names` (in the order of `frames`) that differs from the simulator
    pair's frame; and the number of frames compared."""
    kind, wire = wiring.display(board)
    w = wire["w"]
    bad = []
    seen = 0
    for n, device_name in enumerate(("host", "guest")):
        shots = dict((label, img) for label, t, img in run_.shots(n))
        for i, label in enumerate(names):
            if label not in shots:
                bad.append((label, device_name, -1, None))
                continue
            want = rgb565(board, hello, frames[i][n])
            seen += 1
            if shots[label] != want:
                diff, first = first_diff(shots[label], want, w)
                bad.append((label, device_name, diff, first))
    return bad, seen


def main(argv=None):
    ap = cli.parser("python -m tools.emu.link_frames", description=__doc__.split("\n")[0])
    ap.add_argument("--board", default="waveshare_lcd13", choices=wiring.COLOUR)
    ap.add_argument("--presses", type=int, default=12, help="autoplay presses (default 12)")
    ap.add_argument("--whole", action="store_true", help="the whole match (as many presses as it takes)")
    ap.add_argument("--work", help="keep the emulated run's files here")
    a = ap.parse_args(argv)
    if a.presses < 1:
        sys.stderr.write("link_frames: --presses is at least 1\n")
        return 2
    try:
        r = link.run(a.board, presses=None if a.whole else a.presses, work=a.work, timeout=3600)
    except emu.EmuError as e:
        sys.stderr.write("link_frames: %s\n" % e)
        return 2
    if r.rc != 0:
        print("link_frames: the emulated run did not finish: %s" % r.why())
        return 1
    seed = deal_seed(r)
    if seed is None:
        print("link_frames: the emulated host left no save with its deal")
        return 1
    presses = len(r.report["presses"])
    frames, hello = sim_pair(a.board, presses, seed)
    bad, seen = compare(r, frames, hello, a.board, labels(presses))
    for label, name, n, first in bad:
        what = "no shot" if n < 0 else "%d pixels differ, first at %s" % (n, first)
        print("%s, %s: %s" % (label, name, what))
    print("link_frames: %d presses, %d frames compared (%d different pictures), %d differ from the "
          "simulator pair's" % (presses, seen, len(set(f for pair in frames for f in pair)), len(bad)))
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
