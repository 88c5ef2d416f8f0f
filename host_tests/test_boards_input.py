"""Boards, display driver and input: CPython checks plus the same code under the MicroPython unix
port (subprocess), with a fake `machine` (host_tests/fakes) that records SPI traffic."""
import json
import os
import subprocess

import pytest

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
FIRMWARE = os.path.join(ROOT, "firmware")
FAKES = os.path.join(ROOT, "host_tests", "fakes")
FIXTURES = os.path.join(ROOT, "host_tests", "fixtures")

from tools import find_micropython  # noqa: E402

MP = find_micropython.find()
needs_mp = pytest.mark.skipif(not MP, reason="no micropython binary")
HEAP = "180K"


def mp_run(args, path=(FIRMWARE, ROOT), code=None, env=None, timeout=30, stdin_text=""):
    e = dict(os.environ, MICROPYPATH=os.pathsep.join(path))
    e.pop("PICO_BOARD", None)
    if env:
        e.update(env)
    cmd = [MP, "-X", "heapsize=" + HEAP] + (["-c", code] if code is not None else list(args))
    return subprocess.run(cmd, env=e, cwd=ROOT, capture_output=True, text=True, timeout=timeout,
                          input=stdin_text)


# input ------------------------------------------------------------------------------------------

def test_input_checks_cpython():
    from fixtures import input_checks   # host_tests/fixtures (pytest puts host_tests/ on the path)
    assert input_checks.run() == []


@needs_mp
def test_input_checks_micropython():
    r = mp_run([os.path.join(FIXTURES, "input_checks.py")], path=(FIRMWARE, FIXTURES))
    assert r.stdout.strip().startswith("OK"), r.stdout + r.stderr


def test_input_poll_allocates_nothing_in_steady_state():
    # CPython stand-in for "no allocation per poll": the queue is a fixed list; polling an idle or
    # held key never grows anything.
    from keys import K_DOWN, Input
    keys = [0]
    now = [0]
    inp = Input(lambda: keys[0], lambda: now[0], qsize=16)
    q = inp._q
    keys[0] = K_DOWN
    for _ in range(1000):
        now[0] += 10
        inp.poll()
    assert inp._q is q and len(q) == 16 and inp.overflow > 0


@needs_mp
def test_input_poll_allocates_nothing_micropython():
    # Allocation must not grow with the number of polls (a one-off of a few bytes is the VM's).
    code = (
        "import gc\nfrom keys import Input, K_DOWN, K_A\n"
        "k=[0]\nt=[0]\ni=Input(lambda: k[0], lambda: t[0])\n"
        "def step(n):\n while n:\n  t[0]+=10\n  i.poll()\n  i.get()\n  n-=1\n"
        "def phase(n):\n gc.collect()\n a=gc.mem_alloc()\n k[0]=K_DOWN|K_A\n step(n)\n"
        " k[0]=0\n step(10)\n return gc.mem_alloc()-a\n"
        "phase(50)\nprint(phase(100), phase(5000))\n")
    r = mp_run(None, code=code)
    few, many = [int(v) for v in r.stdout.split()]
    assert few == many and many <= 64, r.stdout + r.stderr


# GS4 -> RGB565 ----------------------------------------------------------------------------------

def test_gs4_python_twin_cpython():
    from boards import _gs4 as gs4
    cols = [gs4.rgb565(i * 17, 255 - i * 17, i * 8) for i in range(16)]
    lut = gs4.make_lut(cols)
    src = bytes([0x0F, 0xA5])
    dst = bytearray(8)
    gs4.expand_py(src, dst, lut, 2)
    want = b"".join(c.to_bytes(2, "big") for c in (cols[0], cols[15], cols[10], cols[5]))
    assert bytes(dst) == want


@needs_mp
def test_gs4_viper_matches_python_twin():
    code = (
        "from boards import _gs4 as gs4\n"
        "assert gs4.expand is not gs4.expand_py, 'viper not in use'\n"
        "cols=[gs4.rgb565((i*37)&255,(i*91)&255,(i*53)&255) for i in range(16)]\n"
        "lut=gs4.make_lut(cols)\n"
        "src=bytearray(1000)\n"
        "for i in range(1000): src[i]=(i*131+7)&255\n"
        "ok=True\n"
        "for off,n in ((0,120),(3,160),(500,256),(999,1)):\n"
        " a=bytearray(4*n); b=bytearray(4*n)\n"
        " gs4.expand(src,a,lut,off<<16|n); gs4.expand_py(src,b,lut,off<<16|n)\n"
        " ok = ok and a==b\n"
        "print('same' if ok else 'DIFFERENT')\n")
    r = mp_run(None, code=code)
    assert r.stdout.strip() == "same", r.stdout + r.stderr


# boards -----------------------------------------------------------------------------------------

@pytest.fixture(scope="module")
def board_results():
    if not MP:
        pytest.skip("no micropython binary")
    names = ["waveshare_lcd13", "pimoroni_pack", "pimoroni_pack2", "oled_diy"]
    r = mp_run([os.path.join(FIXTURES, "board_checks.py")] + names, path=(FAKES, FIRMWARE, ROOT))
    assert r.returncode == 0, r.stdout + r.stderr
    out = {}
    for line in r.stdout.splitlines():
        d = json.loads(line)
        out[d["board"]] = d
    return out


@pytest.mark.parametrize("name,w,h,caset,rasets", [
    ("waveshare_lcd13", 240, 240, "000000ef",
     ["00000027", "0028004f", "00500077", "0078009f", "00a000c7", "00c800ef"]),  # 6 bands of 40
    ("pimoroni_pack", 240, 135, "00280117",
     ["00350056", "00570078", "0079009a", "009b00bb"]),  # columns 40..279, rows 53..187, 4 bands
    ("pimoroni_pack2", 320, 240, "0000013f",
     ["00000027", "0028004f", "00500077", "0078009f", "00a000c7", "00c800ef"]),  # 6 bands of 40
])
def test_st7789_boards(board_results, name, w, h, caset, rasets):
    d = board_results[name]
    assert "error" not in d, d
    assert (d["w"], d["h"], d["mono"]) == (w, h, False)
    # the frame buffer holds a band of at most 4,800 bytes, or 40 rows (boards/_base.py)
    assert d["buf"] == d["band"] * w // 2 <= max(4800, 40 * w // 2) and d["band"] * len(rasets) >= h
    # build() only resets the panel (by its reset pin, else by SWRESET): the app loads meanwhile
    init = d["init_cmds"]
    assert init == ([] if name == "waveshare_lcd13" else [[0, "01"]])
    assert d["init_bytes"] == sum(len(c[1]) // 2 for c in init)
    # the first frame wakes it (boards/_st7789.py wake), then per band CASET+4, RASET+4, RAMWR, then
    # one RGB565 line per row in data mode
    cmds = d["show_cmds"]
    first = cmds.index([0, "2a"])
    wake, bands = cmds[:first], cmds[first:]
    assert wake[0] == [0, "11"] and wake[-1] == [0, "29"]  # out of sleep ... display on
    assert wake[wake.index([0, "3a"]) + 1] == [1, "55"]  # RGB565
    assert wake[wake.index([0, "36"]) + 1] == [1, "70"]  # MADCTL landscape
    assert [0, "21"] in wake  # IPS: inversion on
    assert d["show_bytes"] == sum(len(c[1]) // 2 for c in wake) + 11 * len(rasets) + w * h * 2
    assert d["show_lines"] == h
    assert d["pixels_in_cmd_mode"] == 0
    assert d["pixel_rows_differing"] == 0       # the rows sent are those a whole frame expands to
    assert bands == [c for r in rasets for c in ([0, "2a"], [1, caset], [0, "2b"], [1, r], [0, "2c"])]
    # only the fake SPI's log allocates (480 bytes a band): the driver and the band loop do not
    assert d["show_alloc"] < 600 * len(rasets)
    assert d["keys_read"] == [0x10, 0, 0x10]  # held A, released, a tap latched between reads
    assert d["colour_tile"] != d["colour_pip"]
    assert d["key_help"]


def test_oled_board(board_results):
    d = board_results["oled_diy"]
    assert "error" not in d, d
    assert (d["w"], d["h"], d["mono"]) == (128, 64, True)
    assert (d["colour_tile"], d["colour_pip"]) == (1, 0)
    assert d["keys_read"] == [0x10, 0, 0x10]
    assert d["pwm"] == [32768]  # the piezo is beeping (a timer ends it)


def test_mip_deps_are_literal():
    import ast
    for name in ("waveshare_lcd13", "pimoroni_pack", "pimoroni_pack2", "oled_diy", "sim"):
        tree = ast.parse(open(os.path.join(ROOT, "boards", name + ".py")).read())
        deps = [ast.literal_eval(n.value) for n in tree.body if isinstance(n, ast.Assign)
                and any(getattr(t, "id", "") == "MIP_DEPS" for t in n.targets)]
        assert deps == [("ssd1306",) if name == "oled_diy" else ()], name


@needs_mp
def test_unknown_board_one_line():
    r = mp_run([os.path.join(FIRMWARE, "main.py")], env={"PICO_BOARD": "zx81"})
    assert r.returncode == 0, r.stdout + r.stderr
    lines = r.stdout.strip().splitlines()
    assert len(lines) == 1 and "Traceback" not in r.stdout + r.stderr
    assert lines[0].startswith("board: unknown board 'zx81'; valid boards: waveshare_lcd13")


@needs_mp
def test_missing_board_cfg_lists_boards(tmp_path):
    cfg = str(tmp_path / "board.cfg")                # no board.cfg, nobody answers (EOF)
    r = mp_run([os.path.join(FIRMWARE, "main.py")], env={"PICO_BOARD_CFG": cfg})
    assert r.returncode == 0 and "Traceback" not in r.stdout + r.stderr
    assert "No /board.cfg" in r.stdout and "pimoroni_pack2" in r.stdout
    assert not os.path.exists(cfg)


@needs_mp
def test_first_boot_asks_for_the_board_and_remembers_it(tmp_path):
    cfg = str(tmp_path / "board.cfg")
    r = mp_run([os.path.join(FIRMWARE, "main.py")], env={"PICO_BOARD_CFG": cfg}, stdin_text="zx81\n9\n3\n")
    assert "Traceback" not in r.stdout + r.stderr
    assert "not a board: zx81" in r.stdout and "not a board: 9" in r.stdout
    assert open(cfg).read() == "pimoroni_pack2\n"                 # the third board in the list
    # then it goes on with that board: here (no Pico pins) that is the board's one-line message
    assert r.stdout.strip().splitlines()[-1].startswith("board: ")
    again = mp_run([os.path.join(FIRMWARE, "main.py")], env={"PICO_BOARD_CFG": cfg})
    assert "No /board.cfg" not in again.stdout                      # remembered


@needs_mp
def test_oled_without_driver_or_display_is_one_line(tmp_path):
    # no ssd1306 module on the path (not mip-installed): a path with the fake machine only
    code = ("import boards\ntry:\n boards.load('oled_diy')\n"
            "except boards.BoardError as e:\n print(e)\n")
    tmp = str(tmp_path)
    with open(os.path.join(FAKES, "machine.py")) as f, \
            open(os.path.join(tmp, "machine.py"), "w") as g:
        g.write(f.read())
    r = mp_run(None, code=code, path=(tmp, FIRMWARE, ROOT))
    assert r.stdout.strip() == ("board oled_diy failed to start: oled_diy needs the ssd1306 "
                                "driver: mpremote mip install ssd1306"), r.stdout + r.stderr
    code2 = ("import machine\nmachine.I2C_DEVICES[:] = []\nimport boards\ntry:\n"
             " boards.load('oled_diy')\nexcept boards.BoardError as e:\n print(e)\n")
    r = mp_run(None, code=code2, path=(FAKES, FIRMWARE, ROOT))
    assert "no SSD1306 answers at I2C 0x3C" in r.stdout, r.stdout + r.stderr


@needs_mp
def test_board_and_framebuffer_heap():
    """A colour board plus its frame buffer (one band: 4.8 KB of the 28.8 KB frame) fits a
    Pico-sized heap with room to spare."""
    code = ("import gc\ngc.collect()\na=gc.mem_alloc()\nimport boards\n"
            "b=boards.load('waveshare_lcd13')\ngc.collect()\nprint(gc.mem_alloc()-a, len(b.buf))\n")
    r = mp_run(None, code=code, path=(FAKES, FIRMWARE, ROOT))
    used, fb = [int(v) for v in r.stdout.split()]
    assert fb == 240 * 40 // 2
    assert used < 60 * 1024, used  # 64-bit unix port, modules from source: ~47 KB measured (~72 KB
    #                                with the whole frame in the buffer)


@needs_mp
def test_sim_board_without_link():
    code = ("import boards\nb=boards.load('sim', profile='pimoroni_pack', virtual=True)\n"
            "from keys import K_X, K_UP\n"
            "b.host_keys(K_X)\nprint(b.width, b.height, b.read_keys()==K_UP, b.ticks_ms())\n"
            "b.sleep_ms(250)\nprint(b.ticks_ms(), b.KEY_HELP.split(',')[0])\n"
            "i=b.make_input()\nprint(i._shift)\n")
    r = mp_run(None, code=code)
    assert r.stdout.split("\n")[:3] == ["240 135 True 0", "250 X/Y up/down", "32"], \
        r.stdout + r.stderr
