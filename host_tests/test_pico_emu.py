"""The firmware on the emulated Pico (tools/emu, docs/PICO_EMU.md): each colour board's
deployed armv6m .mpy tree (what `make build BOARD=...` writes) boots through the real main.py and
board file on stock MicroPython, a seeded game is played through the buttons (GPIOs driven at
device times), and every picture the ST7789 got over SPI, decoded back into pixels, is pixel-equal
to the PC simulator's frame after the same keys. The OLED board boots and draws on the SSD1306
responder. Skips, saying how to get it, where the emulator is not set up (`make pico-emu`)."""
import os
import shutil
from concurrent.futures import ThreadPoolExecutor

import pytest

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

from tools.emu import device  # noqa: E402
from tools.emu import harness as emu  # noqa: E402
from tools.emu import keys  # noqa: E402
from tools.sim import link as sim_link  # noqa: E402
from tools.emu import wiring  # noqa: E402

WHY = emu.missing()
pytestmark = pytest.mark.skipif(WHY is not None, reason="emulated Pico not set up: %s" % WHY)

# The main menu -> New game (Draw, you vs Medium AI) -> the deal code 000-001 typed in -> Start ->
# a few moves at the table (A plays the tile under the cursor, A again picks the end; the cursor's
# moves along the hand reach a colour panel as its two tiles' rectangles, ui/paint.py cursor_rects). The AI's
# moves are shown for the "fast" 150 ms (settings.json on both), so a picture changed by the key and
# then still for 350 ms means the app has answered. Stillness alone does not: Start loads the table's
# modules and saves the game before the table is drawn, 0.4 s with the form still showing, and a key
# pressed then is dropped (tools/emu/keys.py).
GAME = "a up up a a*5 up a down a a a right right down right right a a"
# (the OLED's one message line steps through a long text by the clock: after the same keys the
# device, whose presses come later, may show another step of it than the simulator)
OLED_GAME = "a up up a a*5 up a down a a a right a a"
IDLE_MS = 350
ANSWER_MS = 3000
SETTINGS = {"anim": 1}
BUILD = os.path.join(ROOT, "build", "test_pico_emu")


def rgb565(board, hello, frame):
    pal = wiring.rgb565_palette(board)
    out = bytearray()
    for i in sim_link.frame_indices(hello, frame):
        out += bytes((pal[i] >> 8, pal[i] & 0xFF))
    return bytes(out)


def first_diff(a, b, w):
    for i in range(0, min(len(a), len(b)), 2):
        if a[i:i + 2] != b[i:i + 2]:
            return "first difference at x=%d y=%d" % ((i // 2) % w, (i // 2) // w)
    return "sizes %d and %d" % (len(a), len(b))


def play(board):
    """The game on the emulated Pico and on the simulator: (device Result, simulator shots, hello)."""
    steps = keys.plan(board, OLED_GAME if board == "oled_diy" else GAME, idle_ms=IDLE_MS,
                      answer_ms=ANSWER_MS)
    kind, wire = wiring.display(board)
    files = device.board_tree(board, os.path.join(BUILD, "tree-" + board))
    files["/settings.json"] = device.settings_file(**SETTINGS)
    r = emu.run(emu.flash_image(files), plan=keys.device_plan(steps),
                gpio_high=wiring.released(board), timeout=600, **{kind: wire})
    data = os.path.join(BUILD, "sim-" + board)
    shutil.rmtree(data, ignore_errors=True)
    os.makedirs(data)
    with open(os.path.join(data, "settings.json"), "wb") as f:
        f.write(files["/settings.json"])
    sim_shots, hello, _ = keys.sim_play(board, steps, data)
    return steps, r, sim_shots, hello


@pytest.fixture(scope="module")
def games():
    """The four boards' runs, two at a time (the emulator is single-threaded; CI has two cores)."""
    pool = ThreadPoolExecutor(max_workers=2)
    futures = dict((b, pool.submit(play, b)) for b in wiring.COLOUR + ("oled_diy",))
    yield futures
    pool.shutdown(wait=True)


@pytest.mark.parametrize("board", wiring.COLOUR)
def test_game_through_the_buttons_pixel_equal(games, board):
    steps, r, sim_shots, hello = games[board].result()
    kind, wire = wiring.display(board)
    assert r.rc == 0, r.why()
    print("%s: device %.1f s in %.1f s of wall time" % (board, r.report["device_ms"] / 1000.0,
                                                          r.report["wall_s"]))
    assert "Traceback" not in r.report["console"], r.report["console"]
    assert not r.display["problems"], r.display["problems"]
    dev_shots = r.shots()
    assert len(dev_shots) == len(sim_shots) == sum(1 for s in steps if "shot" in s)
    seen = set()
    for (label, t, dev), (_, ts, frame) in zip(dev_shots, sim_shots):
        want = rgb565(board, hello, frame)
        assert dev == want, "%s, shot '%s' (device %.0f ms, simulator %d ms): %s" % (
            board, label, t, ts, first_diff(dev, want, wire["w"]))
        seen.add(dev)
    # the pictures are the menus, the deal-code editor and the table: not one blank screen
    assert len(seen) >= 12, len(seen)
    # and the panel was set up as the board file says: awake, 16-bit colour, display on
    assert r.display["state"]["awake"] and r.display["state"]["on"] and r.display["state"]["colmod"] == 0x55


def test_oled_game_through_the_buttons_pixel_equal(games):
    """oled_diy with micropython-lib's ssd1306 driver in /lib as `mpremote mip install ssd1306` puts it
    (here from its PyPI sdist, tools/emu/device.py): the board file finds the panel with
    I2C.scan() (bit-banged on the rp2 port), and the 1 KB display RAM the SSD1306 got over I2C equals
    the simulator's MONO_VLSB frame after the same keys."""
    try:
        steps, r, sim_shots, hello = games["oled_diy"].result()
    except emu.EmuError as e:           # no network for the driver's sdist: say so
        pytest.skip(str(e))
    assert r.rc == 0, r.why()
    assert "Traceback" not in r.report["console"], r.report["console"]
    assert not r.display["problems"], r.display["problems"]
    assert hello.format == "MONO_VLSB" and (hello.width, hello.height) == (128, 64)
    dev_shots = r.shots()
    assert len(dev_shots) == len(sim_shots) == sum(1 for s in steps if "shot" in s)
    seen = set()
    for (label, t, dev), (_, ts, frame) in zip(dev_shots, sim_shots):
        assert dev == bytes(frame), "oled_diy, shot '%s' (device %.0f ms, simulator %d ms): first byte %d" % (
            label, t, ts, next(i for i in range(len(dev)) if dev[i] != frame[i]))
        seen.add(dev)
    assert len(seen) >= 12, len(seen)
    assert r.display["state"]["on"]


# main.py for the images' smoke test: the free heap after a collection, the machine, the filesystem's
# blocks, a file the PC placed read back and one written for the PC to read.
IMAGE_MAIN = b"""import gc, os, sys
gc.collect()
free = gc.mem_free()
with open('/probe/placed.txt') as f:
    placed = f.read()
with open('/probe/written.txt', 'w') as f:
    f.write('written on the device')
print('@boot|%d|%d|%s|%s|@end' % (free, os.statvfs('/')[2], placed, sys.implementation._machine))
"""


IMAGES = {"pico": (352, "Raspberry Pi Pico with RP2040"), "pico_w": (212, "Raspberry Pi Pico W with RP2040")}
W_STATIC = 240208 - 199488     # the W image's free heap at boot is this much under the Pico's


def boot_image(image):
    """main.py's line on `image`: (free heap, filesystem blocks, the placed file, the machine), and the
    file the device wrote, read back from its flash on the PC."""
    placed = "placed on the PC for " + image
    files = {"/main.py": IMAGE_MAIN, "/probe/placed.txt": placed.encode()}
    r = emu.run(emu.flash_image(files, image), plan=[{"console": "@end", "max": 10000}], timeout=120,
                keep_flash=True, image=image)
    line = [ln for ln in r.report.get("console", "").splitlines() if ln.startswith("@boot")]
    assert line, r.why()
    free, blocks, got_placed, machine = line[0].split("|")[1:5]
    assert got_placed == placed
    return int(free), int(blocks), machine, emu.read_flash(r.flash, "/probe/written.txt", image)


def test_both_images_boot_with_their_heap_and_mount_their_flash():
    """Each stock image boots and mounts the littlefs the harness built at the place its binary info
    declares (a file placed on the PC is read on the device, one the device writes is read back on the
    PC), and the W's free heap is the Pico's less its wireless stack's 40.7 KB of static RAM."""
    got = {}
    for image, (blocks, machine) in IMAGES.items():
        free, got_blocks, got_machine, written = got[image] = boot_image(image)
        assert got_blocks == blocks == emu.block_count(image)
        assert got_machine == machine
        assert written == b"written on the device"
    assert got["pico"][0] - got["pico_w"][0] == W_STATIC, (got["pico"][0], got["pico_w"][0])
    assert abs(got["pico_w"][0] - 199488) < 2048, got["pico_w"][0]
