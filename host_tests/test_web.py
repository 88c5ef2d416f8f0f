"""The browser build (docs/WEB.md) in a real headless Chromium: the page built by tools/web/build.py
runs the firmware in MicroPython WebAssembly, and what its canvas shows is compared, pixel for
pixel, with the simulator's frame for the same board, seed and keys (tools/sim/main.py headless: a
virtual clock, the AI counting work). Skipped where Chromium, Playwright or node/npm is missing; CI
installs Chromium (.ci/run).
"""
import os
import re
import subprocess
import sys
import time

import pytest

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

from tools.web import browser  # noqa: E402

pytestmark = pytest.mark.skipif(browser.missing() is not None, reason=str(browser.missing()))

SEED = 7
TAP = "shot:{d}/%s.png"
# Main menu -> New game -> Fives, seat 2 Hard AI, (past Practice) target 61 -> Start (the list wraps).
FIVES_HARD = "wait:1000 a wait:300 right right down*3 right down down right up*6 wait:300 a wait:3000"
TURN = " down a a wait:2500"          # our move (next playable tile, play, place); the AI answers
# A board of four buttons: X/Y are up/down, B+X / B+Y left/right.
PACK_SETUP = "wait:1000 shot:{d}/menu.png a wait:300 shot:{d}/form.png b+y b+y y y y b+y y y b+y " \
             "x*6 wait:300 a wait:3000 shot:{d}/table.png y a a wait:2500 shot:{d}/move.png"
PAD_SETUP = "wait:1000 shot:{d}/menu.png a wait:300 shot:{d}/form.png right right down*3 right " \
            "down down right up*6 wait:300 a wait:3000 shot:{d}/table.png down a a wait:2500 " \
            "shot:{d}/move.png"


@pytest.fixture(scope="module")
def built(tmp_path_factory):
    """The site's folder (tools/web/build.py)."""
    from tools.web import build
    out = str(tmp_path_factory.mktemp("web"))
    build.build(out)
    return out


@pytest.fixture(scope="module")
def site(built):
    """The site served with the isolation headers, as make web-serve does: its URL."""
    from tools.web import serve
    srv, url = serve.serve_in_thread(built)
    yield url
    srv.shutdown()


@pytest.fixture(scope="module")
def chrome():
    with browser.Browser() as b:
        yield b


def sim(tmp_path, board, script, data, size=None):
    """tools/sim/main.py headless: {shot file name: (size, RGB)} and the saved files."""
    cmd = [sys.executable, "-m", "tools.sim", "--board", board, "--seed", str(SEED),
           "--data", str(data), "--keys", script]
    if size:
        cmd += ["--size", size]
    r = subprocess.run(cmd, cwd=ROOT, capture_output=True, text=True, timeout=120)
    assert r.returncode == 0 and r.stdout.splitlines()[-1] == "sim: script done", r.stdout + r.stderr
    shots = {}
    for line in r.stdout.splitlines():
        m = re.match(r"shot (\S+) t=", line)
        if m:
            shots[os.path.basename(m.group(1))] = browser.png_rgb(m.group(1))
    return shots, saved(data)


def saved(data):
    out = {}
    for name in sorted(os.listdir(data)):
        with open(os.path.join(data, name), "rb") as f:
            out[name] = f.read()
    return out


def same_frames(sim_shots, web_shots):
    assert sorted(web_shots) == sorted(sim_shots)
    for name in sorted(sim_shots):
        (w, h), px = sim_shots[name]
        assert web_shots[name][0] == (w, h), name
        if web_shots[name][1] != px:
            a, b = px, web_shots[name][1]
            diff = sum(1 for i in range(0, len(a), 3) if a[i:i + 3] != b[i:i + 3])
            pytest.fail("%s: %d of %d pixels differ from the simulator's frame" % (name, diff, w * h))


@pytest.mark.parametrize("board", ["waveshare_lcd13", "pimoroni_pack", "pimoroni_pack2", "oled_diy"])
def test_every_board_pixel_equal_to_the_simulator(site, chrome, tmp_path, board):
    setup = PAD_SETUP if board in ("waveshare_lcd13", "oled_diy") else PACK_SETUP
    script = setup.format(d=tmp_path)
    want, files = sim(tmp_path, board, script, tmp_path / "data")
    page = chrome.page(site + "?test")
    got = chrome.play(page, board, SEED, script)
    same_frames(want, got)
    assert len(set(v[1] for v in want.values())) == len(want), "each shot should show something new"
    assert chrome.files(page) == files and "game.txt" in files


def test_hard_fives_match_with_a_reload_between_every_two_moves(site, chrome, tmp_path):
    """A whole Fives match (to 61) against the Hard AI, played by keys. Every two of our moves the
    page is reloaded (the simulator restarted on its data folder, as after a power cut): the game
    resumes from the saves in localStorage, and every frame and every saved byte equal the
    simulator's."""
    board = "waveshare_lcd13"
    data = tmp_path / "data"
    page = chrome.page(site + "?test")
    chunk = 0
    script = FIVES_HARD + " shot:{d}/c0.png"
    while True:
        s = script.format(d=tmp_path)
        want, files = sim(tmp_path, board, s, data)
        got = chrome.play(page, board, SEED, s)
        same_frames(want, got)
        assert chrome.files(page) == files, "chunk %d: the saves differ" % chunk
        if b'"fives": [1' in files.get("stats.json", b""):
            break                    # the match is over and counted
        chunk += 1
        assert chunk <= 40, "the match did not end: %s" % files.get("game.txt")
        page.reload()
        page.wait_for_function("window.pico !== undefined")
        script = "wait:1500" + "".join(TURN + " shot:{d}/c%d_%d.png" % (chunk, i) for i in range(2))
    assert chunk >= 3, "a match of a few moves only?"
    # the last round's deal is offered as a link
    assert re.match(r"fives 2 0 [0-9A-Z]{3}-[0-9A-Z]{3}$", page.evaluate("pico.deal"))
    link = page.get_attribute("#share-link", "href")
    assert link.endswith("#deal=%s&variant=fives&players=2" % page.evaluate("pico.deal").split()[3])


def test_real_keys_and_on_screen_buttons(site, chrome, tmp_path):
    """Real time, real input: the keyboard and the on-screen buttons move the menu as the
    simulator's keys do."""
    want, _ = sim(tmp_path, "waveshare_lcd13", "wait:1000 shot:{d}/m0.png down wait:200 "
                  "shot:{d}/m1.png down wait:200 shot:{d}/m2.png".format(d=tmp_path), tmp_path / "d")
    page = chrome.page(site)
    page.wait_for_function("pico.frames > 0")
    time.sleep(0.3)

    def canvas():
        return browser.canvas_rgb(page.evaluate("document.getElementById('screen').toDataURL()"))

    def after(action, shot):
        n = page.evaluate("pico.frames")
        action()
        page.wait_for_function("pico.frames > %d" % n)
        time.sleep(0.2)
        assert canvas() == want[shot]

    assert canvas() == want["m0.png"]
    assert page.evaluate("pico.isolated"), "served with COOP/COEP: the keys go by shared memory"
    after(lambda: page.keyboard.press("ArrowDown"), "m1.png")
    after(lambda: page.click("button.dn"), "m2.png")
    after(lambda: page.click("button.up"), "m1.png")


def test_a_deal_link_opens_that_deal_and_a_reload_resumes_it(site, chrome):
    from domino.rng import code
    deal = code(123456)
    page = chrome.page(site + "#deal=%s&variant=fives&players=3&ai=hard" % deal.lower())
    page.wait_for_function("JSON.parse(localStorage.getItem('pico-domino/files') || '{}')['game.txt']")
    game = chrome.files(page)["game.txt"].decode()
    assert "variant fives\nplayers 3\n" in game and "seed %s\n" % deal in game
    assert "seats human,hard,hard\n" in game
    assert page.evaluate("location.hash") == "", "a reload must resume, not deal again"
    page.reload()
    page.wait_for_function("pico.frames > 0")
    time.sleep(1)
    assert chrome.files(page)["game.txt"].decode().split("round")[0] == game.split("round")[0]
    bad = chrome.page(site + "#deal=not-a-code")
    bad.wait_for_function("pico.frames > 0")
    assert "Not a deal code" in bad.inner_text("#warn")


def test_keys_pressed_while_the_ai_thinks_act_as_on_the_device(site, chrome):
    """Our move, then Bob (Hard, 4 s) thinks. Meanwhile the thinking wheel turns (the page never
    waits for the firmware), and the keys reach the firmware as on the handheld: A is dropped (it
    would play a tile by accident), B opens the menu at once, Bob's answer not played (our move can
    still be taken back: ui/table.py on_tick)."""
    from domino.rng import code
    from boards._gs4 import rgb565, rgb888
    page = chrome.page(site + "?test")
    page.evaluate("localStorage.setItem('pico-domino/files', JSON.stringify({'settings.json': "
                  "'{\"v\": 1, \"think\": 4000, \"anim\": 0}\\n'}))")
    page.goto(site + "#deal=%s&variant=fives&players=2&ai=hard" % code(SEED))
    page.wait_for_function("pico.frames > 0")
    since = None                     # a long step that lasts: Bob thinks (not a module loading)
    pressed = 0
    end = time.time() + 30
    while time.time() < end:
        if page.evaluate("pico.busy"):
            since = since or time.time()
            if time.time() - since > 0.3:
                break
        else:
            since = None
            if time.time() - pressed > 0.6:
                page.keyboard.press("a")     # our tile, then its end when it fits several
                pressed = time.time()
        time.sleep(0.05)
    assert since is not None and time.time() < end, "Bob never thought"
    frames = page.evaluate("pico.frames")
    page.keyboard.press("a")
    time.sleep(1.2)
    assert page.evaluate("pico.busy"), "Bob should still be thinking"
    assert page.evaluate("pico.frames") - frames >= 8, "the wheel turns while the AI thinks"
    page.keyboard.press("b")
    page.wait_for_function("!pico.busy", timeout=20000)
    time.sleep(1)
    game = chrome.files(page)["game.txt"].decode()
    moves = [ln.split()[1:] for ln in game.splitlines() if ln.startswith("round")][-1]
    assert len(moves) == 2, game     # the lead and ours: the A played nothing, Bob's not played
    (w, h), px = browser.canvas_rgb(page.evaluate("document.getElementById('screen').toDataURL()"))
    felt = bytes(rgb888(rgb565(0, 88, 48)))
    assert not any(px[i:i + 3] == felt for i in range(0, len(px), 3)), "B: the menu, not the table"


def test_a_static_host_without_headers_gets_isolated_by_the_service_worker(built, chrome):
    """Served with no COOP/COEP headers (GitHub Pages): sw.js adds them after one reload."""
    from tools.web import serve
    srv, url = serve.serve_in_thread(built, isolate=False)
    try:
        page = chrome.page(url)
        page.wait_for_function("pico.frames > 0 && pico.isolated", timeout=30000)
        assert page.evaluate("navigator.serviceWorker.controller !== null")
    finally:
        srv.shutdown()


def test_a_refused_save_is_said_not_hidden(site, chrome):
    from domino.rng import code
    ctx = chrome.browser.new_context()
    ctx.add_init_script("Storage.prototype.setItem = function () { "
                        "throw new DOMException('full', 'QuotaExceededError'); };")
    page = ctx.new_page()
    page.goto(site + "#deal=%s&variant=draw" % code(SEED))
    page.wait_for_function("pico.storageError !== null", timeout=30000)
    assert "not saved" in page.inner_text("#warn")
    ctx.close()


def test_a_second_tab_that_saves_stops_the_first(site, chrome):
    from domino.rng import code
    first = chrome.page(site)
    first.wait_for_function("pico.frames > 0")
    second = first.context.new_page()
    second.goto(site + "#deal=%s&variant=block" % code(SEED))
    first.wait_for_function("document.getElementById('warn').textContent.includes('another tab')",
                            timeout=30000)


@pytest.mark.parametrize("board", ["waveshare_lcd13", "pimoroni_pack", "oled_diy"])
def test_a_phone_held_upright_gets_the_screen_across_and_the_right_key_line(site, chrome, board):
    """A 390x844 phone (touch, no keyboard): the screen takes the page's width, the key line speaks
    of tapping, and names the joystick only on boards that have one; a desktop's line names the
    keyboard's keys for the board."""
    for dpr in (2, 3):
        ctx = chrome.browser.new_context(viewport={"width": 390, "height": 844}, is_mobile=True,
                                         has_touch=True, device_scale_factor=dpr)
        page = ctx.new_page()
        page.goto(site + "?board=" + board)
        page.wait_for_function("window.pico !== undefined && pico.frames > 0")
        time.sleep(0.3)
        width = page.evaluate("document.getElementById('screen').getBoundingClientRect().width")
        line = page.evaluate("document.getElementById('keyline').textContent")
        assert width >= 0.85 * 390, (board, dpr, width)
        assert line.startswith("Tap the buttons") and "joystick" not in line.lower(), line
        ctx.close()
    page = chrome.page(site + "?board=" + board)
    page.wait_for_function("pico.frames > 0")
    line = page.evaluate("document.getElementById('keyline').textContent")
    assert ("joystick" in line) == (board != "pimoroni_pack"), line
    page.context.close()


def test_a_phone_held_sideways_is_told_the_buttons_are_beside_the_screen(site, chrome):
    ctx = chrome.browser.new_context(viewport={"width": 844, "height": 390}, is_mobile=True,
                                     has_touch=True, device_scale_factor=2)
    page = ctx.new_page()
    page.goto(site + "?board=waveshare_lcd13")
    page.wait_for_function("window.pico !== undefined && pico.frames > 0")
    line = page.evaluate("document.getElementById('keyline').textContent")
    assert line.startswith("Tap the buttons beside the screen"), line
    ctx.close()


ENGLISH = re.compile(r"\b(Board|Actual size|Keys|Tap|Copy link|firmware|saves|play|back|menu|hint)\b")


@pytest.mark.parametrize("locale,phone", [("ru-RU", False), ("ru", True), ("en-US", False)])
def test_the_page_speaks_the_browser_s_language(site, chrome, locale, phone):
    """The page around the game (index.html, page.js) in the browser's language: a Russian browser
    reads Russian everywhere on it, the board's key help line too (the firmware's catalogue); an
    English one reads English."""
    opts = {"viewport": {"width": 390, "height": 844}, "is_mobile": True, "has_touch": True} if phone \
        else {"viewport": {"width": 1000, "height": 800}}
    ctx = chrome.browser.new_context(locale=locale, **opts)
    page = ctx.new_page()
    page.goto(site + "?board=oled_diy")
    page.wait_for_function("window.pico !== undefined && pico.frames > 0")
    words = page.evaluate("[document.title, document.querySelector('header').innerText, "
                          "document.getElementById('help').textContent, "
                          "document.getElementById('keyline').textContent, "
                          "document.querySelector('main').innerText, "
                          "document.getElementById('actual').parentElement.title, "
                          "document.documentElement.lang]")
    ctx.close()
    text = "\n".join(words[:6])
    if locale.startswith("ru"):
        assert words[6] == "ru"
        assert "Плата" in words[1] and "Настоящий размер" in words[1], words
        assert re.search("[а-яё]", words[2]) and re.search("[а-яё]", words[3]), words
        left = ENGLISH.findall(text)
        assert not left, (left, words)
        if phone:
            assert words[3].startswith("Нажимайте кнопки под экраном"), words
    else:
        assert words[6] == "en" and "Board" in words[1] and words[3].startswith("Keys:"), words
        assert words[2] == "Joystick move, A play, B back/menu, X hint, Y scores"


def test_actual_size_shows_the_panel_in_css_millimetres_and_is_remembered(site, chrome):
    """"Actual size" sizes the screen as the board's panel (pixels x its pitch, in CSS mm), is kept
    under the page's own key (never among the firmware's files) and survives a reload; storage that
    refuses every access only makes the page forget it."""
    import importlib

    def mm(board):
        m = importlib.import_module("boards." + board)
        return m.WIDTH * m.PITCH_UM / 1000, m.HEIGHT * m.PITCH_UM / 1000

    canvas = "document.getElementById('screen')"
    board = "pimoroni_pack2"
    mm_w, mm_h = mm(board)
    page = chrome.page(site + "?board=" + board)
    page.wait_for_function("pico.frames > 0")
    assert page.evaluate(canvas + ".style.width").endswith("px")         # a whole zoom
    page.click("#actual")
    assert page.evaluate("[%s.style.width, %s.style.height]" % (canvas, canvas)) == \
        ["%gmm" % mm_w, "%gmm" % mm_h]
    # laid out at CSS's 96 px an inch: 25.4 mm = 96 px
    width = page.evaluate("getComputedStyle(%s).width" % canvas)
    assert float(width[:-2]) == pytest.approx(mm_w / 25.4 * 96, abs=0.01), width
    assert page.inner_text("#actual-mm") == "%.1f × %.1f mm" % (mm_w, mm_h)
    assert page.evaluate("localStorage.getItem('pico-domino/actual')") == "1"
    page.reload()
    page.wait_for_function("window.pico !== undefined && pico.frames > 0")
    assert page.evaluate("document.getElementById('actual').checked")
    assert page.evaluate(canvas + ".style.width") == "%gmm" % mm_w
    assert "actual" not in page.evaluate("localStorage.getItem('pico-domino/files') || ''")
    page.click("#actual")
    assert page.evaluate(canvas + ".style.width").endswith("px")
    assert page.evaluate("localStorage.getItem('pico-domino/actual')") == "0"
    page.context.close()
    ctx = chrome.browser.new_context()
    ctx.add_init_script("Object.defineProperty(window, 'localStorage', { get() { "
                        "throw new DOMException('denied', 'SecurityError'); } });")
    page = ctx.new_page()
    page.goto(site + "?board=oled_diy")
    page.wait_for_function("window.pico !== undefined && pico.frames > 0")
    page.click("#actual")
    assert page.evaluate(canvas + ".style.width") == "%gmm" % mm("oled_diy")[0]
    assert page.evaluate("pico.error") is None
    ctx.close()
