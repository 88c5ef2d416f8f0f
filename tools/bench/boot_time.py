"""Boot to menu under the MicroPython unix port, for `make bench` (tools/bench/report.py runs it).

    MICROPYPATH=CODE_DIR:BOARDS_DIR micropython tools/bench/boot_time.py PROFILE [SIZE] [ROOT]

CODE_DIR holds the compiled firmware (domino/ ai/ ui/ ... as .mpy, see tools/proofs/harness/frames.py
build_mpy), BOARDS_DIR the directory holding boards/. Times what the device does after main.py has
picked its board: import the board and the app, build the App (settings, the AI; the UI modules'
boot warm-up is the 180K stress runs' opt-in only, docs/ENGINE.md), and run the loop until the
menu's first frame is shown. The simulated board stands in for the real one (same size, colours and
keys; no SPI panel to set up), on a virtual clock so no frame waits for real time.
Prints `us U frames F heap H free L`.
"""
import sys
import time

USAGE = "usage: MICROPYPATH=CODE_DIR:BOARDS_DIR micropython tools/bench/boot_time.py PROFILE [SIZE] [ROOT]"


def main(argv):
    if argv[:1] in (["--help"], ["-h"]):
        print(USAGE)
        print(__doc__.strip())
        return 0
    if not hasattr(time, "ticks_us"):
        sys.stderr.write("boot_time: runs under the MicroPython unix port (" + USAGE[7:] + ")\n")
        return 2
    if len(argv) < 1 or len(argv) > 3:
        sys.stderr.write(USAGE + "\n")
        return 2
    profile = argv[0]
    size = argv[1] if len(argv) > 1 and argv[1] != "-" else None
    root = argv[2] if len(argv) > 2 else "/tmp/pico-domino-bench-boot"
    import gc
    t0 = time.ticks_us()
    import boards.sim as sim
    try:
        board = sim.build(profile=profile, size=size, virtual=True)
    except ValueError as e:        # an unknown profile or size
        sys.stderr.write("boot_time: %s\n" % e)
        return 2
    from ui.app import App
    app = App(board, root)
    steps = 0
    while board.frames == 0 and steps < 100:
        app.step()
        steps += 1
    dt = time.ticks_diff(time.ticks_us(), t0)
    gc.collect()
    print("us %d frames %d heap %d free %d errors %d" % (dt, board.frames, gc.mem_alloc() + gc.mem_free(),
                                                         gc.mem_free(), app.errors))
    return 0 if board.frames else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
