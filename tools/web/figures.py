"""The browser build's figures (docs/WEB.md), measured in headless Chromium on this machine:

    python -m tools.web.figures [--loads 5] [--moves 8] [--screenshot docs/img/web.png]
                                                                (make web-figures)

- page load to first frame: navigation start to the first frame on the canvas, fresh profile (no
  cache, no saves), the site served from localhost; median and range of --loads loads;
- the Hard AI's move in the browser at the default think time (0.5 s, real clock): the step that
  makes it, median and range over --moves moves of a Fives game, with its rollouts;
- what a visitor downloads: runtime (wasm + its JS), firmware, page; raw and gzip -9.
Times depend on the machine and its load; the AI's strength does not (rollouts per move do).
--screenshot: the README's picture of the page, a seeded Fives game against the Hard AI.
"""
import gzip
import os
import statistics
import sys
import tempfile
import time

from tools import cli
from tools.web import browser, build, serve


def sizes(site):
    out = {}
    groups = {"runtime": build.RUNTIME_FILES, "firmware": ("firmware.json",), "page": build.PAGE_FILES}
    for group, names in groups.items():
        raw = packed = 0
        for n in names:
            with open(os.path.join(site, n), "rb") as f:
                data = f.read()
            raw += len(data)
            packed += len(gzip.compress(data, 9))
        out[group] = (raw, packed)
    return out


def first_frames(chrome, url, loads):
    times = []
    for _ in range(loads):
        page = chrome.page(url)
        page.wait_for_function("pico.firstFrameAt !== null", timeout=60000)
        times.append(page.evaluate("pico.firstFrameAt"))
        page.context.close()
    return times


def ai_moves(chrome, url, moves):
    from domino.rng import code
    page = chrome.page(url + "#deal=%s&variant=fives&players=2&ai=hard" % code(7))
    page.wait_for_function("pico.frames > 0")
    end = time.time() + 60 + 5 * moves
    while time.time() < end and len([s for s in page.evaluate("pico.slow") if s["ai"]]) < moves:
        if not page.evaluate("pico.busy"):
            page.keyboard.press("a")     # our tile, its end; then the AI answers
        time.sleep(0.15)
    slow = [s for s in page.evaluate("pico.slow") if s["ai"]]
    page.context.close()
    return slow


# Main menu -> New game -> Fives, seat 2 Hard AI, target 61 -> Start; then three moves of ours.
SHOT_KEYS = "wait:1000 a wait:300 right right down*3 right down down right up*6 wait:300 a wait:3000" + \
    " down a a wait:2500" * 3


def screenshot(chrome, url, path):
    page = chrome.page(url + "?test", viewport=(1000, 760))
    chrome.play(page, "waveshare_lcd13", 7, SHOT_KEYS)
    page.screenshot(path=path)
    page.context.close()


def main(argv=None):
    ap = cli.parser("web-figures", description=__doc__.split("\n")[0],
                    epilog="make web-figures runs python -m tools.web.figures")
    ap.add_argument("--loads", type=cli.typed(cli.whole, 1, 100), default=5, help="page loads timed (1-100)")
    ap.add_argument("--moves", type=cli.typed(cli.whole, 1, 100), default=8,
                    help="Hard AI moves timed (1-100)")
    ap.add_argument("--screenshot", type=cli.typed(cli.picture),
                    help="also save a picture of the page here (PNG)")
    args = ap.parse_args(argv)
    why = browser.missing()
    if why:
        return cli.say("web-figures", why)
    site = tempfile.mkdtemp(prefix="pico-web-figures-")
    build.build(site)
    srv, url = serve.serve_in_thread(site)
    try:
        with browser.Browser() as chrome:
            if args.screenshot:
                screenshot(chrome, url, args.screenshot)
            loads = first_frames(chrome, url, args.loads)
            slow = ai_moves(chrome, url, args.moves)
    finally:
        srv.shutdown()
    print("page load to first frame: median %.0f ms (%.0f-%.0f, %d loads)" % (
        statistics.median(loads), min(loads), max(loads), len(loads)))
    sampled = [s for s in slow if s["ai"].split()[2] == "0"]
    if sampled:
        ms = [s["ms"] for s in sampled]
        ro = [int(s["ai"].split()[1]) for s in sampled]
        print("Hard AI move at 0.5 s: median %.0f ms (%.0f-%.0f), %d-%d rollouts (median %d), "
              "%d moves (+%d solved exactly)" % (
                  statistics.median(ms), min(ms), max(ms), min(ro), max(ro), statistics.median(ro),
                  len(ms), len(slow) - len(sampled)))
    print("load average: %.1f %.1f %.1f on %d cores" % (os.getloadavg() + (os.cpu_count(),)))
    for group, (raw, packed) in sizes(site).items():
        print("%-8s %9s B   gzip -9 %9s B" % (group, format(raw, ","), format(packed, ",")))
    return 0


if __name__ == "__main__":
    sys.exit(main())
