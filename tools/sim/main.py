"""Play the firmware on this PC: MicroPython (unix port) runs firmware/main.py with boards/sim.py,
and this tool shows its framebuffer and feeds it keys. See docs/SIM.md.

  python -m tools.sim                            window if there is a display, else terminal
  python -m tools.sim --view term --board oled_diy   terminal view of the 128x64 mono board
  python -m tools.sim --board pimoroni_pack --keys "wait:300 down a wait:500 shot:menu.png"
                                                 headless: play a key script, save screenshots
  python -m tools.sim --actual-size --dpi 110    the window at the panel's physical size
"""
import argparse
import os
import sys

from tools import cli
from tools.paths import FIRMWARE, ROOT
from tools.sim import actual
from tools.sim.display import has_display
from tools.sim import link as sim_link
from tools.sim.link import BOARDS, SIZES, ScriptError, Sim, frame_hash, frame_image

AI_STEP = 10   # headless: a 500 ms Hard move = 50 reads of its clock (about 50 samples of every move)
KEYMAP_TEXT = "arrows=joystick  Enter/space=press  a b x y=buttons  q/Esc=quit"


def app_exists(app):
    """--app: a .py file, or a module under firmware/ or the repository (as the simulator's path)."""
    if app.endswith(".py") or os.sep in app:
        return os.path.isfile(app)
    rel = app.replace(".", os.sep)
    for base in (FIRMWARE, ROOT):
        if os.path.isfile(os.path.join(base, rel + ".py")) or \
                os.path.isfile(os.path.join(base, rel, "__init__.py")):
            return True
    return False


def default_view():
    if has_display():
        try:
            os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")
            import pygame  # noqa: F401
            return "window"
        except ImportError:
            pass
    return "term"


def default_board(view):
    # A window shows the main target pixel-exact at x2; a terminal shows the 128x64 OLED layout
    # best (pixel-exact from 128x34 characters up, half scale in 80x24).
    return "waveshare_lcd13" if view == "window" else "oled_diy"


def run_script(args):
    """Headless: virtual clock, play the script, write screenshots. Returns an exit code."""
    try:
        timeline, end = sim_link.parse_script(args.keys or "")
    except ScriptError as e:
        print("sim: bad key script: %s" % e, file=sys.stderr)
        return 2
    if args.screenshot:
        timeline.append((end, "shot", args.screenshot))
    try:
        for _t, what, arg in timeline:
            if what == "shot":
                cli.picture("shot:", arg)
    except cli.BadArg as e:
        return cli.say("sim", e)
    sim = Sim(args.board or "waveshare_lcd13", args.size, args.app, virtual=True, heap=args.heap,
              micropython=args.micropython, data_dir=args.data,
              source=args.source, ai_step=args.ai_step)
    import signal
    import threading

    timed_out = []

    def kill():
        timed_out.append(1)
        sim.proc.kill()

    timer = threading.Timer(args.timeout, kill)
    timer.daemon = True
    timer.start()
    i = 0
    now = 0
    keys = 0
    shots = 0
    ended_early = False

    def shoot(path, t):
        if sim.frame is None or sim.hello is None:
            print("sim: no frame yet for %s (at %d ms)" % (path, t), file=sys.stderr)
            return 0
        d = os.path.dirname(path)
        if d:
            os.makedirs(d, exist_ok=True)
        if args.dpi:
            im = actual.resize(frame_image(sim.hello, sim.frame), sim.hello.pitch_um, args.dpi)
        else:
            im = frame_image(sim.hello, sim.frame, args.scale)
        im.save(path)
        print("shot %s t=%dms frame=%d hash=%s" % (path, t, sim.frame_no, frame_hash(sim.frame)))
        return 1

    try:
        while True:
            msg = sim.read_msg()
            if msg is None:
                ended_early = i < len(timeline)
                break
            kind, payload = msg
            if kind != sim_link.MSG_SLEEP:
                continue
            target = now + int.from_bytes(payload[:4], "little")
            while i < len(timeline) and timeline[i][0] <= target:
                t, what, arg = timeline[i]
                if what == "keys":
                    keys = arg
                    sim.send_keys(keys)  # the board latches presses shorter than its sleep
                else:
                    shots += shoot(arg, t)
                i += 1
            now = target
            if i >= len(timeline) and now >= end:
                break
            sim.send_time(now, keys)
    except KeyboardInterrupt:
        sim.proc.send_signal(signal.SIGTERM)
        print("sim: interrupted")
        sim.stop()
        return 130
    finally:
        timer.cancel()
    for t, what, arg in timeline[i:]:
        if what == "shot":
            shots += shoot(arg, t)
    rc = sim.stop()
    if sim.frame is not None:
        print("frames=%d last=%s t=%dms" % (sim.frame_no, frame_hash(sim.frame), now))
    if rc == -9 and timed_out:
        print("sim: timeout after %ss: does the app call board.sleep_ms()?" % args.timeout)
    return sim_link.report(sim, "ended" if ended_early else "script", rc)


def main(argv=None):
    ap = cli.parser("sim", settings=cli.SETTINGS, description=__doc__.split("\n")[0],
                    formatter_class=argparse.RawDescriptionHelpFormatter,
                    epilog="keys: " + KEYMAP_TEXT + "\n\n" + sim_link.parse_script.__doc__)
    ap.add_argument("--board", choices=BOARDS, help="board to mimic (size, keys, help); "
                    "default waveshare_lcd13 in a window, oled_diy in a terminal")
    ap.add_argument("--size", choices=SIZES, help="override the board's screen size "
                    "(128x64 = mono, like the OLED)")
    ap.add_argument("--view", choices=("window", "term"), help="default: window if a display "
                    "is available, else term")
    ap.add_argument("--scale", type=cli.typed(cli.whole, 0, 16), default=0,
                    help="window zoom (default 2 or 3) / screenshot zoom (default 1)")
    ap.add_argument("--actual-size", action="store_true",
                    help="show the frame at the panel's physical size on this monitor (its pixel pitch "
                    "over the monitor's, from --dpi); the window view and screenshots, not the terminal")
    ap.add_argument("--dpi", type=cli.typed(cli.number, actual.MIN_DPI, actual.MAX_DPI),
                    help="this monitor's pixels per inch, for --actual-size (and implies it); default "
                    "%d: measure yours as its width in pixels / its width in inches" % actual.DEFAULT_DPI)
    ap.add_argument("--app", help="module or .py file with run(board) instead of firmware/main.py")
    ap.add_argument("--keys", help="headless: key script to play (see below)")
    ap.add_argument("--screenshot", type=cli.typed(cli.picture),
                    help="headless: PNG of the frame at the end of the script")
    ap.add_argument("--data", type=cli.typed(cli.out_dir, False), help="directory standing in for the "
                    "device's flash (saves, settings), made if missing in a folder that exists; default "
                    "build/sim-data/<board>")
    ap.add_argument("--source", action="store_true", help="run firmware/ and boards/ from source "
                    "(default: compiled to .mpy in build/sim-mpy, as deployed)")
    ap.add_argument("--seed", type=cli.typed(cli.whole, 0, cli.MAX_SEED), help="deal seed of every new game "
                    "(PICO_SIM_SEED), for reproducible games; default random")
    ap.add_argument("--heap", type=cli.typed(cli.heap), default=sim_link.DEFAULT_HEAP,
                    help="MicroPython heap (default %(default)s: the Pico's ~240 KB on this 64-bit port; "
                    "180K is the stress heap)")
    ap.add_argument("--ai-step", type=cli.typed(cli.whole, 0, 10000), default=AI_STEP, metavar="MS",
                    help="headless: each read of the AI's clock is MS ms later (boards/sim.py WorkClock), "
                    "so a Hard move does the same work on any machine; 0 = real time (default %(default)s)")
    ap.add_argument("--timeout", type=cli.typed(cli.number, 1, 86400), default=60.0,
                    help="headless: wall-clock limit, s")
    ap.add_argument("--micropython", type=cli.typed(cli.micropython),
                    help="micropython binary (default: tools/find_micropython.py)")
    args = ap.parse_args(argv)
    if args.app and not app_exists(args.app):
        ap.error("--app %s: no such module or file" % args.app)
    if args.dpi is not None:
        args.actual_size = True
    if args.actual_size:
        if args.scale:
            ap.error("--scale and --actual-size: choose one (actual size sets the scale)")
        args.dpi = args.dpi or actual.DEFAULT_DPI
    if args.seed is not None:
        os.environ["PICO_SIM_SEED"] = str(args.seed)  # read by boards/sim.py (board.seed)
    try:
        if args.keys is not None or args.screenshot:
            args.scale = args.scale or 1
            return run_script(args)
        view = args.view or default_view()
        args.board = args.board or default_board(view)
        if view == "term" and args.actual_size:
            return cli.say("sim", "%s needs the window view (%s): a terminal's character cells have no "
                           "size the simulator can know" % (cli.option("--actual-size"),
                                                            cli.option("--view", "window")))
        if view == "window" and not has_display():
            return cli.say("sim", "the window view needs a display (DISPLAY is not set): use %s"
                           % cli.option("--view", "term"))
        if view == "window":
            from tools.sim import window
            return window.run(args)
        from tools.sim import term
        return term.run(args)
    except RuntimeError as e:  # no micropython binary
        print("sim: %s" % e, file=sys.stderr)
        return 2

