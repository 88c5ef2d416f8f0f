"""The browser's fault suite (docs/WEB.md, "Tests"): the page in headless Chromium with its storage
attacked, as tools/proofs/faults.py attacks the device's flash. Every case ends with the last move said to
be saved resumed, or a clear clean start: never a traceback, never "saved" when storage does not
hold it.

    python tools/web/webfaults.py [--long] [--site DIR]    prints the cases and the counts

Cases: the quota full from the k-th store on (k = every store of a short match in --long), with
Save and quit said on the game's own screen; storage that throws when read; stored entries damaged,
oversized, of the wrong type, or not the game's files at all (a key "../fw/ui/app.py" must never
run); a reload after every move of a match, and during the AI's think; two tabs on one storage;
deal links with bad values, or while a game is saved. Counts: cases, resumed, clean starts, lost
(a move said saved that storage did not hold, or a resume behind it), errors (a traceback, a
stopped firmware); lost and errors must be 0.
"""
import json
import os
import sys
import tempfile
import time

from tools import cli
from tools.web import browser

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))

STORE = "pico-domino/files"
BOARD = "waveshare_lcd13"
SEED = 7
# Main menu -> New game -> Fives, seat 2 Hard AI, target 61 -> Start (host_tests/test_web.py's)
SETUP = "wait:1000 a wait:300 right right down*3 right down down right up*6 wait:300 a wait:3000"
TURN = " down a a wait:2500"            # our move; the AI answers
SAVE_AND_QUIT = " b wait:500 up up a wait:1500"   # the game menu from the bottom: Save and quit
QUOTA = ("(() => { let n = 0; const real = Storage.prototype.setItem; "
         "Storage.prototype.setItem = function (k, v) { "
         "if (k === '%s' && ++n > %d) throw new DOMException('full', 'QuotaExceededError'); "
         "return real.call(this, k, v); }; })()")
READ_THROWS = ("Storage.prototype.getItem = function () { "
               "throw new DOMException('denied', 'SecurityError'); };")
EVIL = "import sys\nprint('EVIL CODE RAN')\nraise SystemExit(3)\n"


class Suite:
    def __init__(self, chrome, url, long=False, out=print):
        self.chrome = chrome
        self.url = url
        self.long = long
        self.say = out
        self.counts = {"cases": 0, "resumed": 0, "clean starts": 0, "lost": 0, "errors": 0}
        self.failures = []
        self.saved = None                # a game in progress, as storage held it: {name: str}

    # --- the page ----------------------------------------------------------------------------
    def context(self, init=None):
        ctx = self.chrome.browser.new_context(viewport={"width": 900, "height": 700})
        if init:
            ctx.add_init_script(init)
        return ctx

    def open(self, ctx, stored=None, raw=None, answer="dismiss"):
        """A page of the site in test mode (nothing runs by itself), storage set first; its
        questions ("Replace the saved game?") answered so."""
        page = ctx.new_page()
        page.on("dialog", lambda d: d.accept() if answer == "accept" else d.dismiss())
        page.goto(self.url + "?test")
        page.wait_for_function("window.pico !== undefined")
        if stored is not None or raw is not None:
            text = raw if raw is not None else json.dumps(stored)
            page.evaluate("t => localStorage.setItem('%s', t)" % STORE, text)
        return page

    def run(self, page, script, timeout=180):
        """The key script on the firmware (virtual clock, the AI counting work); the status after."""
        from tools.sim.link import parse_script
        timeline, end = parse_script(script)
        page.evaluate("cfg => pico.run(cfg)", {"board": BOARD, "seed": SEED, "aiStep": 10,
                                               "script": {"timeline": timeline, "end": end}})
        page.wait_for_function("pico.done || pico.error !== null", timeout=timeout * 1000)
        return self.status(page)

    @staticmethod
    def status(page):
        """(screen, round, moves, unsaved) the firmware last reported; the error, if it stopped."""
        st = page.evaluate("pico.status").split()
        err = page.evaluate("pico.error")
        log = "\n".join(page.evaluate("pico.log"))
        if "Traceback" in log or "EVIL" in log:
            err = err or log[-300:]
        return (st[0], int(st[1]), int(st[2]), int(st[3])) if len(st) == 4 else ("", 0, 0, 0), err

    @staticmethod
    def stored(page):
        """Storage's files ({} when none or unreadable) and the moves of its game.txt's last round
        (-1: no game.txt)."""
        try:
            files = json.loads(page.evaluate("localStorage.getItem('%s')" % STORE) or "{}")
        except Exception:
            return {}, -1
        return files, moves_of(files.get("game.txt"))

    # --- outcomes ----------------------------------------------------------------------------
    def outcome(self, name, kind, detail=""):
        self.counts["cases"] += 1
        self.counts[kind] += 1
        line = "%-44s %s%s" % (name, kind, (": " + detail) if detail else "")
        if kind in ("lost", "errors"):
            self.failures.append(line)
        self.say(line)

    def judge(self, name, page, said_saved_moves=None, expect_game=None):
        """After a reload: resumed (the firmware's game has storage's moves, and at least those it
        said were saved), a clean start (no game), lost, or an error."""
        (screen, _, moves, _), err = self.status(page)
        if err:
            return self.outcome(name, "errors", str(err)[:200])
        files, stored = self.stored(page)
        if screen in ("Table", "Curtain", "RoundEnd", "Pause"):
            if said_saved_moves is not None and moves < said_saved_moves:
                return self.outcome(name, "lost", "resumed at %d moves, %d were said saved" %
                                    (moves, said_saved_moves))
            return self.outcome(name, "resumed", "%d moves" % moves)
        if expect_game:
            return self.outcome(name, "lost", "a clean start (%s) while a game was stored" % screen)
        return self.outcome(name, "clean starts", screen)

    def reload(self, page, wait="wait:2000"):
        page.reload()
        page.wait_for_function("window.pico !== undefined")
        return self.run(page, wait)

    # --- the cases ---------------------------------------------------------------------------
    def a_saved_game(self):
        """A Fives game two moves in, as storage holds it (the damage cases start from it)."""
        ctx = self.context()
        page = self.open(ctx)
        self.run(page, SETUP + TURN * 2)
        self.saved, _ = self.stored(page)
        ctx.close()
        assert "game.txt" in self.saved and "game.bak" in self.saved, self.saved

    def quota(self, k, turns=3):
        """Storage refuses every store from the k-th on, while a match is played and then Save and
        quit chosen, in one run. Every move the firmware took for saved must be in storage, the
        refusal said on the game's screen as a full flash, "Game saved" only if storage holds the
        game; the reload resumes what storage holds."""
        name = "quota full from store %d" % k
        ctx = self.context(QUOTA % (STORE, k - 1))
        page = self.open(ctx)
        (screen, _, _, _), err = self.run(page, SETUP + TURN * turns + SAVE_AND_QUIT)
        if err:
            ctx.close()
            return self.outcome(name, "errors", str(err)[:200])
        files, stored = self.stored(page)
        table = [st for st in page.evaluate("pico.statuses") if st.startswith("Table")]
        last = table[-1].split("\n")[0].split() if table else ["Table", "0", "0", "1"]
        moves, unsaved = int(last[2]), int(last[3])
        said = [st.split("\n", 1)[1] for st in page.evaluate("pico.statuses")]
        refused = page.evaluate("pico.storageError") is not None
        if screen == "MainMenu" and stored != moves:
            ctx.close()
            return self.outcome(name, "lost", "\"Game saved\" said, storage holds %d of %d moves"
                                % (stored, moves))
        if screen not in ("MainMenu", "Message"):
            self.failures.append("%s: Save and quit ended on %s" % (name, screen))
        if refused and not [t for t in said if t.startswith("Flash full")]:
            self.failures.append("%s: the refusal never said as a full flash: %r" % (name, said[-3:]))
        name += " (quit: %s)" % ("saved" if screen == "MainMenu" else "not saved")
        self.reload(page)
        self.judge(name, page, moves if screen == "MainMenu" or not unsaved and stored == moves else None,
                   expect_game=stored >= 0)
        ctx.close()

    def read_throws(self):
        ctx = self.context(READ_THROWS)
        page = self.open(ctx)
        self.run(page, "wait:2000")
        warn = page.inner_text("#warn")
        if "storage" not in warn:
            self.failures.append("storage that throws: nothing said (%r)" % warn)
        self.judge("storage throws when read", page)
        ctx.close()

    def damaged(self, name, stored=None, raw=None, expect_game=True):
        ctx = self.context()
        page = self.open(ctx, stored, raw)
        self.run(page, "wait:2500")
        (_, _, moves, _), err = self.status(page)
        notes = page.evaluate("pico.storageNotes")
        if not err and not notes:
            self.failures.append("%s: nothing said" % name)
        kept = page.evaluate("localStorage.getItem('pico-domino/files.bad')")
        if not err and kept is None:
            self.failures.append("%s: the entry as found was not kept" % name)
        self.judge(name, page, expect_game=expect_game)
        ctx.close()

    def damage_cases(self):
        good = self.saved
        bak = {"game.bak": good["game.bak"], "settings.json": good.get("settings.json", "")}
        kinds = [("game.txt null", dict(bak, **{"game.txt": None})),
                 ("game.txt a number", dict(bak, **{"game.txt": 12345})),
                 ("game.txt a list", dict(bak, **{"game.txt": ["round"]})),
                 ("game.txt an object", dict(bak, **{"game.txt": {"a": 1}})),
                 ("game.txt 100,000 characters", dict(bak, **{"game.txt": "x" * 100000})),
                 ("game.txt not bytes", dict(bak, **{"game.txt": "\u20ac" * 10})),
                 ("settings.json null", dict(good, **{"settings.json": None}))]
        for key in ("", ".", "a/b/c", "../fw/main.py", "../fw/ui/app.py", "/fw/ui/app.py",
                    "game.txt/../../fw/ui/app.py"):
            kinds.append(("stranger key %r" % key, dict(good, **{key: EVIL})))
        if not self.long:
            kinds = kinds[:1] + kinds[4:5] + kinds[-3:-2]
        for name, stored in kinds:
            self.damaged(name, stored)
        raws = [("entry not JSON", "{\"game.txt\": "), ("entry null", "null"), ("entry a list", "[1, 2]"),
                ("entry a number", "42"), ("entry a string", "\"game.txt\"")]
        for name, raw in (raws if self.long else raws[:1]):
            self.damaged(name, raw=raw, expect_game=False)

    def reloads(self, every):
        """A match played by keys, the page reloaded after every `every` moves: each resume has
        the moves storage holds, at least those said saved."""
        ctx = self.context()
        page = self.open(ctx)
        self.run(page, SETUP)
        n = 0
        limit = 40 if self.long else 3
        while n < limit:
            (screen, rnd, moves, unsaved), err = self.run(page, "wait:1000" + TURN * every)
            n += 1
            name = "reload after move %d" % (n * every)
            if err:
                self.outcome(name, "errors", str(err)[:200])
                break
            said = moves if not unsaved else None
            _, stored = self.stored(page)            # (none once the match is over and counted)
            self.reload(page, "wait:1500")
            self.judge(name, page, said, expect_game=stored >= 0)
            (screen, _, _, _), _ = self.status(page)
            if screen not in ("Table", "RoundEnd"):
                break                                # the match is over
        ctx.close()

    def think_reload(self, after_s):
        """Real time: our move, the Hard AI thinks 4 s; the page reloaded `after_s` into its think.
        Our move was stored before it began: the resume has it."""
        name = "reload %.1f s into the AI's think" % after_s
        from domino.rng import code
        ctx = self.context()
        page = self.open(ctx, {"settings.json": "{\"v\": 1, \"think\": 4000, \"anim\": 0}\n"})
        page.goto(self.url + "#deal=%s&variant=fives&players=2&ai=hard" % code(SEED))
        page.wait_for_function("pico.frames > 0")
        end = time.time() + 40
        pressed = 0
        before = None                    # storage's moves before our move
        while time.time() < end:
            if page.evaluate("pico.busy"):
                if before is not None:
                    break                # the AI thinks about its answer to our move
                time.sleep(0.05)         # (it leads: its think, before our turn)
                continue
            if time.time() - pressed > 0.6:
                before = self.stored(page)[1]
                page.keyboard.press("a")
                pressed = time.time()
            time.sleep(0.05)
        time.sleep(after_s)
        busy = page.evaluate("pico.busy")
        _, stored = self.stored(page)
        page.reload()
        page.wait_for_function("pico.status !== ''", timeout=30000)
        (_, _, moves, _), err = self.status(page)
        if err:
            self.outcome(name, "errors", str(err)[:200])
        elif before is None or stored <= before:
            self.outcome(name, "lost", "our move was not in storage while the AI thought (%s -> %d)"
                         % (before, stored))
        elif moves < stored:
            self.outcome(name, "lost", "storage held %d moves, the resume %d" % (stored, moves))
        else:
            self.outcome(name, "resumed", "%d moves stored%s" % (stored, " mid-think" if busy else ""))
        ctx.close()

    def two_tabs(self):
        from domino.rng import code
        ctx = self.context()
        first = ctx.new_page()
        first.goto(self.url)
        first.wait_for_function("pico.frames > 0")
        second = ctx.new_page()
        second.on("dialog", lambda d: d.accept())
        second.goto(self.url + "#deal=%s&variant=block" % code(SEED))
        second.wait_for_function("pico.status.startsWith('Table')", timeout=30000)
        first.wait_for_function("document.getElementById('warn').textContent.includes('another tab')",
                                timeout=30000)
        time.sleep(1)
        _, stored = self.stored(second)
        first.reload()
        first.wait_for_function("pico.status !== ''", timeout=30000)
        (_, _, moves, _), err = self.status(first)
        if err:
            self.outcome("two tabs", "errors", str(err)[:200])
        elif moves < stored:
            self.outcome("two tabs", "lost", "storage %d moves, the first tab resumed %d" % (stored, moves))
        else:
            self.outcome("two tabs", "resumed", "the other tab's game, %d moves" % moves)
        ctx.close()

    def links(self):
        """Deal links while a game is saved: bad values are said and touch nothing; a good one asks
        first (dismissed: the game goes on; accepted: a new game, the old saves kept aside)."""
        cases = [("players=2.5", "#deal=ABC-DEF&variant=fives&players=2.5", "players"),
                 ("players=99", "#deal=ABC-DEF&variant=fives&players=99", "players"),
                 ("100,000-character deal", "#deal=" + "A" * 100000, "deal code"),
                 ("deal abc-def, dismissed", "#deal=abc-def", None),
                 ("deal ' ABC-DEF ', dismissed", "#deal=%20ABC-DEF%20", None),
                 ("deal 000-000, variant bogus", "#deal=000-000&variant=../../x", "variant"),
                 ("ai=god", "#deal=ABC-DEF&ai=god", "ai=")]
        if not self.long:
            cases = cases[:3] + cases[3:4]
        for name, hash_, said in cases:
            ctx = self.context()
            page = self.open(ctx, self.saved)
            page.goto(self.url + hash_)
            page.wait_for_function("pico.status !== '' || pico.error !== null", timeout=30000)
            time.sleep(0.5)
            files, _ = self.stored(page)
            warn = page.inner_text("#warn")
            if said and said not in warn:
                self.failures.append("link %s: not said (%r)" % (name, warn))
            if files.get("game.bak") is None:
                self.outcome("link " + name, "lost", "game.bak gone")
            else:
                self.judge("link " + name, page, moves_of(self.saved["game.txt"]), expect_game=True)
            ctx.close()
        ctx = self.context()                         # accepted: the old saves kept aside
        page = self.open(ctx, self.saved, answer="accept")
        page.goto(self.url + "#deal=ABC-DEF&variant=block")
        page.wait_for_function("pico.status !== '' || pico.error !== null", timeout=30000)
        kept = page.evaluate("localStorage.getItem('pico-domino/files.replaced')")
        if not kept or json.loads(kept).get("game.bak") != self.saved["game.bak"]:
            self.failures.append("link accepted: the replaced saves were not kept")
        self.judge("link accepted (a new game)", page)
        ctx.close()

    def all(self):
        self.a_saved_game()
        for k in (range(1, 13) if self.long else (1, 4)):
            self.quota(k)
        self.read_throws()
        self.damage_cases()
        self.reloads(1 if self.long else 2)
        for s in ((0.1, 0.3, 1.0, 2.5) if self.long else (0.3,)):
            self.think_reload(s)
        self.two_tabs()
        self.links()
        c = self.counts
        self.say("web faults: %d cases, %d resumed, %d clean starts, %d lost, %d errors" % (
            c["cases"], c["resumed"], c["clean starts"], c["lost"], c["errors"]))
        for f in self.failures:
            self.say("FAIL " + f)
        return c


def moves_of(game):
    """The moves of a save's last round (-1: no save)."""
    if not isinstance(game, str):
        return -1
    rounds = [ln.split()[1:] for ln in game.splitlines() if ln.startswith("round")]
    return len(rounds[-1]) if rounds else 0


def run(site=None, long=False, out=print):
    """Build the site (unless given), serve it, run the suite: (counts, failures)."""
    from tools.web import serve
    if site is None:
        from tools.web import build
        site = tempfile.mkdtemp(prefix="webfaults")
        build.build(site)
    srv, url = serve.serve_in_thread(site)
    try:
        with browser.Browser() as chrome:
            s = Suite(chrome, url, long, out)
            s.all()
            return s.counts, s.failures
    finally:
        srv.shutdown()


def main(argv=None):
    ap = cli.parser("python -m tools.web.webfaults", description=__doc__.split("\n\n")[0])
    ap.add_argument("--long", action="store_true", help="every case (make soak); else the smoke set")
    ap.add_argument("--site", type=cli.typed(cli.out_dir), help="a built site (make web); else built")
    args = ap.parse_args(argv)
    why = browser.missing()
    if why:
        sys.stderr.write("web-faults: %s\n" % why)
        return 2
    counts, failures = run(args.site, args.long)
    return 1 if failures or counts["lost"] or counts["errors"] else 0


if __name__ == "__main__":
    sys.exit(main())
