"""The PC side of pico-domino: one folder per job, each run as `python -m tools.<job> --help`.

    sim/        the simulator: the firmware under the MicroPython unix port, its views, screenshots
    deploy/     build the device tree and put it on a Pico with mpremote
    emu/        the emulated Pico (stock MicroPython in rp2040js): harness, displays, USB, key plans
    bench/      `make bench`: the engine, the AI, boot and the device figures
    arena/      AI against AI or outside players, seeded self-play; the host's additions to the engine
    scenarios/  replay a rules scenario file through the engine
    proofs/     monkey, power cuts, flash faults, soaks, the portable tests; harness/: the UI harness
    web/        the browser build

paths.py holds the import roots (the repository and firmware/), cli.py the argument checks every
tool shares, find_micropython.py which `micropython` binary to use. Tools never import host_tests/.
"""
