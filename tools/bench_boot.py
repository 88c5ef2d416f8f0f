"""Boot to menu under the MicroPython unix port, for `make bench` (tools/bench.py runs it).

    micropython tools/bench_boot.py CODE_DIR BOARDS_DIR PROFILE [SIZE] [ROOT]

CODE_DIR holds the compiled firmware (domino/ ai/ ui/ ... as .mpy, see host_tests/ui_fakes/frames.py
build_mpy), BOARDS_DIR the directory holding boards/. Times what the device does after main.py has
picked its board: import the board and the app, build the App (settings, the AI; the UI modules'
boot warm-up is the 180K stress runs' opt-in only, docs/ENGINE.md), and run the loop until the
menu's first frame is shown. The simulated board stands in for the real one (same size, colours and
keys; no SPI panel to set up), on a virtual clock so no frame waits for real time.
Prints `us U frames F heap H free L`.
"""
import sys
import time

USAGE = "usage: bench_boot.py CODE_DIR BOARDS_DIR PROFILE [SIZE] [ROOT]"


def main(argv):
    if len(argv) < 3:
        print(USAGE)
        return 2
    code, boards_dir, profile = argv[0], argv[1], argv[2]
    size = argv[3] if len(argv) > 3 and argv[3] != "-" else None
    root = argv[4] if len(argv) > 4 else "/tmp/pico-domino-bench-boot"
    sys.path.insert(0, boards_dir)
    sys.path.insert(0, code)
    import gc
    t0 = time.ticks_us()
    import boards.sim as sim
    board = sim.build(profile=profile, size=size, virtual=True)
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
