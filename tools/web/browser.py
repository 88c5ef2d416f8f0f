"""Headless Chromium for the browser build's tests and figures (docs/WEB.md): Debian's `chromium`
driven by Playwright (PyPI), which downloads no browser of its own here.

    with Browser() as b:
        page = b.page(url + "?test")
        frames = b.play(page, board="oled_diy", seed=7, script="wait:1000 down a shot:x.png")
"""
import base64
import io
import os
import shutil

from tools.sim import link as sim_link

# Flags that work in a sandboxed container as root, with no network beyond localhost.
FLAGS = ("--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
         "--disable-background-networking", "--disable-component-update", "--disable-sync")


def chromium():
    """The Chromium binary (CHROMIUM, else chromium or chromium-browser on PATH), or None."""
    exe = os.environ.get("CHROMIUM")
    if exe:
        return exe if os.access(exe, os.X_OK) else None
    return shutil.which("chromium") or shutil.which("chromium-browser")


def missing():
    """Why the browser tests cannot run here, or None."""
    if not chromium():
        return "no chromium (Debian: apt-get install chromium)"
    try:
        import playwright.sync_api  # noqa: F401
    except ImportError:
        return "no playwright (make venv installs it)"
    if not shutil.which("node") or not shutil.which("npm"):
        return "no node/npm (the web build's runtime comes from the npm registry)"
    return None


class Browser:
    def __init__(self):
        self._pw = None
        self.browser = None

    def __enter__(self):
        from playwright.sync_api import sync_playwright
        self._pw = sync_playwright().start()
        self.browser = self._pw.chromium.launch(executable_path=chromium(), args=list(FLAGS),
                                                headless=True)
        return self

    def __exit__(self, *exc):
        if self.browser is not None:
            self.browser.close()
        if self._pw is not None:
            self._pw.stop()

    def page(self, url, viewport=(1000, 800)):
        """A page in a fresh context (its own, empty localStorage), loaded."""
        ctx = self.browser.new_context(viewport={"width": viewport[0], "height": viewport[1]})
        page = ctx.new_page()
        page.goto(url)
        page.wait_for_function("window.pico !== undefined")
        return page

    @staticmethod
    def play(page, board, seed, script, ai_step=10, timeout=120):
        """Run a key script on the page's firmware as tools/sim/main.py does headless (virtual clock,
        AI counting work): {shot file name: RGB bytes of the canvas at that moment}."""
        timeline, end = sim_link.parse_script(script)
        page.evaluate("cfg => pico.run(cfg)", {"board": board, "seed": seed, "aiStep": ai_step,
                                               "script": {"timeline": timeline, "end": end}})
        page.wait_for_function("pico.done || pico.error !== null", timeout=timeout * 1000)
        err = page.evaluate("pico.error")
        if err:
            raise RuntimeError("the firmware stopped in the browser: %s\n%s" % (
                err, "\n".join(page.evaluate("pico.log"))))
        return {os.path.basename(k): canvas_rgb(v) for k, v in page.evaluate("pico.shots").items()}

    @staticmethod
    def files(page):
        """The saves the page keeps in localStorage: {name: bytes}."""
        files = page.evaluate("JSON.parse(localStorage.getItem('pico-domino/files') || '{}')")
        return {k: v.encode("latin-1") for k, v in files.items()}


def canvas_rgb(data_url):
    """A canvas's PNG data URL -> (size, RGB bytes)."""
    from PIL import Image
    png = base64.b64decode(data_url.split(",", 1)[1])
    im = Image.open(io.BytesIO(png)).convert("RGB")
    return im.size, im.tobytes()


def png_rgb(path):
    """A simulator screenshot (palette PNG, scale 1) -> (size, RGB bytes)."""
    from PIL import Image
    im = Image.open(path).convert("RGB")
    return im.size, im.tobytes()
