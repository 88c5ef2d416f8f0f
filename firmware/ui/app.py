"""The handheld app: one loop that polls the keys, hands each press to the current screen, lets the
screen advance (AI turns, animations) and redraws it when it asks. Screens are small objects with
key(k), step() and draw(g); `App.go` switches between them. Nothing here knows the board's size.

Any unexpected error is caught and shown as a message (the game was saved after its last move), so
the device never stops at a traceback. A MemoryError is not an error page: every cache is given
back, the app plays on leaner (Hard AI plays as Medium, no thinking wheel) and the game carries on
from its saved state; events.log on the flash counts each one (`mpremote cat :events.log`).
The watchdog (a setting, off by default) is fed here and on every AI search tick.
"""
import gc
import sys
from micropython import const
from ui.gfx import Gfx
from ui.screen import Screen, ticks_diff, drop_module
_EV_PRESS = const(0x1000)   # = keys.EV_PRESS
_EV_REPEAT = const(0x2000)  # = keys.EV_REPEAT
_EV_KIND = const(0xF000)    # = keys.EV_KIND
_EV_KEY = const(0x0FFF)     # = keys.EV_KEY
_K_A = const(0x010)         # = keys.K_A
_K_B = const(0x020)         # = keys.K_B
_K_PRESS = const(0x100)     # = keys.K_PRESS

_FRAME_MS = const(20)
_WDT_MS = const(8000)                  # the RP2040's longest watchdog period is 8.3 s
_USB_POLL_MS = const(1000)
# below this much free heap a module is loaded only after the droppable ones are unloaded (never on a
# Pico: ~130 KB free at its worst; the 180K stress heap of the 64-bit unix port, where a split heap
# refused 400-1,200 B with 10-30 KB free, docs/ENGINE.md)
_LOAD_ROOM = const(32768)
_MEM_RETRY_MS = const(2000)            # a third MemoryError this soon after the last: error page


class App:
    def __init__(self, board, root="/", ai_clock=None, warm=False):
        self.board = board
        self.inp = board.make_input()
        self.inp.poll()
        self.safe = self.inp.raw & _K_B    # B held at power-on: no file is read, fonts and the
        self.g = Gfx(board, self.safe)      # language included (ui/nav.py boot)
        self.root = root
        self.fs = getattr(board, "fs", None)   # the files' storage (savegame.Files): None, the flash
        self.log_root = root if root.endswith("/") else root + "/"
        self.lean = False            # after a MemoryError: Hard AI plays as Medium, no wheel
        self.mem_errors = 0          # MemoryErrors recovered from since boot (events.log: ever)
        self._mem_streak = 0
        self._mem_at = 0
        self.wd = board.watchdog
        self.wd_on = False
        self._usb_at = 0
        st = self.store()
        self.settings, note = st.load_settings(not self.safe)
        self.asked = self.safe or st.asked    # else nav.boot asks the language first, unless the
        hint = board.lang                     # board's host says it (the browser's, the simulator's:
        if not self.asked and hint in self.need("store").SETTING_CHOICES["lang"][1]:
            self.settings["lang"] = hint      # followed, not written, until settings are saved)
            self.asked = True
        if self.settings["lang"] != "en":     # English loads nothing (ui/lang.py)
            from ui.langfile import use_lang     # (dropped again by release: nav.boot)
            why = use_lang(self.settings["lang"], self.g)
            note = note or why
        note = note or self.g.note            # the board's font could not be read
        st = None
        self.ai_clock = ai_clock or board.ai_clock
        self.screen = Screen(self)
        self.dirty = True            # the whole screen is to be drawn again
        self.parts = 0               # ... or only these regions of it (redraw)
        self.errors = 0              # unexpected errors caught (tests expect 0)
        self.save_failures = 0
        self.unsaved = False         # the last save failed: nothing may say "saved"
        self.saved = None            # the checksum of the last save (read back by ui/pause.verify)
        self.last_error = None
        self.low_mem = 0             # lowest gc.mem_free() seen between steps (every 16th), where
                                     # a proof starts it at 1 << 30; 0: not watched (a heap walk)
        self._pass = 0
        self.probe = None            # tests: called on every AI tick and after every save
        self.table = None            # the Table screen of the game in progress
        self.pending = None          # a game to start on the next pass (see start)
        self.menu_at = None          # the main menu's row last chosen: its cursor comes back there
        self.link = None             # a link game's session (ui/linkgame.py): polled every pass
        self.handover = None         # ... a finished one's, until the other device has it all
        board.set_brightness(self.settings["bright"])
        from ui import nav
        if warm:                     # the 180K unix-port stress runs only: the Pico does not need it
            nav.warm_up()            # (docs/ENGINE.md, "Memory tricks"); else the AI is loaded when
                                     # a match with an AI seat starts (nav.begin), for good
        self.arm_watchdog()
        nav.boot(self, note)         # back into a saved game (B held: the safe start)

    def need(self, name):
        """Module `name`, loaded if it is not. When the heap is short (_LOAD_ROOM), or too split for
        it, the AI's memory and every droppable module go first."""
        mod = sys.modules.get(name)
        if mod is not None:
            return mod
        self.feed()                          # loading from flash takes a while on the device
        if gc.mem_free() < _LOAD_ROOM:
            gc.collect()
            if gc.mem_free() < _LOAD_ROOM:   # short: the droppable code goes first, so the module
                self.release()               # lands in one piece instead of in the gaps between
        try:
            __import__(name)
        except MemoryError:
            drop_module(name)                # a half-loaded module
            from ui import brain
            brain.release()
            self.release()
            __import__(name)
        return sys.modules[name]

    def store(self):
        """The persistence layer, loaded when needed (see release)."""
        return self.need("store").Store(self.root, self.fs)

    def stats(self):
        """The statistics alone (stats.py: what a round's end loads, not the whole store)."""
        return self.need("stats").Stats(self.root, self.fs)

    def saves(self):
        """What a game loads to save a move (savegame.py: the store without its loading and checking
        code, settings and statistics)."""
        return self.need("savegame").Files(self.root, self.fs)

    def release(self):
        """Unload what the table does not need now (saving, menus, a human's turn), before a long AI
        search: each is loaded again, from flash, when next used."""
        for name in ("store", "stats", "savegame", "domino.record", "ui.menus", "ui.dealcode",
                     "ui.widgets", "ui.seatnames", "ui.statistics", "ui.pause", "ui.sheet", "ui.pick",
                     "ui.place", "ui.paint", "ui.nav", "ui.settings", "ui.movelog", "ui.safestart",
                     "ui.linkgame", "ui.linksetup", "ui.linkstart", "ui.langfile", "ui.helptext",
                     "ui.lineview", "ui.words", "ai.reason"):    # ai.reason: a hint's words
            drop_module(name)
        lang = sys.modules.get("ui.lang")
        if lang:
            lang.close()             # the language file's buffer (reopened for a text not kept)
        gc.collect()

    # --- navigation ----------------------------------------------------------------------------
    def go(self, screen):
        lang = sys.modules.get("ui.lang")
        if lang:
            lang.forget()            # the old screen's texts (ui/lang.py)
        self.screen = screen
        screen.enter()
        self.dirty = True

    def redraw(self, parts=0):
        """Draw the screen again on this pass: whole, or only `parts`, bits of a mask of the screen's
        regions (a screen that has them: draw_parts, part_rows), when only they changed."""
        if parts:
            self.parts |= parts
        else:
            self.dirty = True

    def menu(self, note=None):
        """Back to the main menu (on the next pass: the screen asking goes first, the AI too)."""
        self.table = None
        self.pending = ("menu", note)
        self.screen = Screen(self)

    def start(self, match, kinds, names, sheet="", note=None, fresh=False, practice=False):
        """Play a match on the table screen (fresh: a new one, saved at once; practice: a game not
        counted, ui/table.py Game). Done on the next pass of the loop, once the menu screen that
        asked (and its module) has let go of the heap."""
        self.pending = (match, kinds, names, sheet, note, fresh, practice)
        self.screen = Screen(self)

    def resume(self, note=None):
        """Continue the saved game (loaded on the next pass, with the menus out of memory)."""
        self.pending = ("resume", note) if note else ("resume",)
        self.screen = Screen(self)

    # --- the watchdog ----------------------------------------------------------------------------
    def arm_watchdog(self):
        """Start the watchdog when the settings ask for it and USB has no power (boards._hw.Watchdog
        says why). Returns a note for the settings screen, or None."""
        wd = self.wd
        if wd is None:
            return "This board can't restart itself" if self.settings["wdt"] else None
        if not self.settings["wdt"]:
            return "Stops at the next power-up" if self.wd_on else None
        if self.wd_on:
            return None
        if wd.usb_power():
            return "Waits: USB is connected"
        self.wd_on = wd.start(_WDT_MS)
        self._usb_at = self.board.ticks_ms()
        return None

    def feed(self):
        """Keep the watchdog quiet: called every pass of the loop and every AI search tick."""
        if self.wd_on:
            self.wd.feed()
            now = self.board.ticks_ms()
            if ticks_diff(now, self._usb_at) >= _USB_POLL_MS:
                self._usb_at = now
                if self.wd.usb_power():
                    self.usb_plugged()

    def usb_plugged(self):
        """USB power came while the watchdog runs: mpremote could not work under a watchdog that
        cannot be stopped, so reboot (the game was saved after its last move and resumes; the
        watchdog stays off while USB has power)."""
        self.log("usb", "reboot to stop the watchdog")
        self.wd.reset()                  # does not return on a real board
        self.wd_on = False

    # --- drawing -------------------------------------------------------------------------------
    def paint(self, draw):
        """draw(g) and show it. Colour boards draw in bands (boards/_base.py): draw then runs once
        per band, so a screen's draw must draw the same frame every time it is called."""
        self.board.paint(draw, self.g)

    def flush(self):
        """Show now what is to be drawn again (the whole screen, or the regions that changed). Not
        while a screen is pending (start, resume, menu, fail): the stand-in Screen draws nothing, and
        a banded board would push the band it holds into every band; the old screen stays shown
        until the new one, set up on the next pass, draws itself."""
        if self.pending is not None:
            return
        if self.dirty:
            self.dirty = False
            self.parts = 0
            self.paint(self.screen.draw)
        elif self.parts:
            parts = self.parts
            self.parts = 0
            sc = self.screen
            if hasattr(sc, "draw_parts"):
                self.paint_parts(sc, parts)
            else:                            # (asked by a screen since replaced)
                self.paint(sc.draw)
        else:
            return
        lang = sys.modules.get("ui.lang")
        if lang:
            lang.close()                     # drawn: the language file's 1.1 KB buffer back until
                                             # a text not kept is asked for (ui/lang.py)

    def paint_parts(self, sc, parts):
        """Draw and send only the regions in `parts` (bits in drawing order, each region clearing its
        own rows: sc.part_rows(bit) -> (y0, y1)). Each run of adjacent regions is drawn band by band
        from its first row (sc.draw_parts draws those of the run the band touches), and only its rows
        are sent, the runs top to bottom. A cursor move sends the hand row, not the frame (docs/UI.md,
        "Drawing only what changed")."""
        b = self.board
        g = self.g
        h = b.height
        band = b.band if b.band and b.band < h else h
        runs = []
        bit = 1
        while bit <= parts:
            if not parts & bit:
                bit <<= 1
                continue
            run = bit
            y0, y1 = sc.part_rows(bit)
            bit <<= 1
            while parts & bit:
                a, z = sc.part_rows(bit)
                if a != y1 + 1:
                    break
                run |= bit
                y1 = z
                bit <<= 1
            runs.append((y0, y1, run))
        runs.sort()                          # top to bottom, as a whole frame is sent
        for y0, y1, run in runs:
            y = y0
            while y <= y1:
                top = b.y0 if band < h else 0
                if not (top <= y and y1 < top + band):
                    b.set_band(y)                # (a band that holds the whole run stays: ui/paint.py's
                    top = y                      # cursor draws on the hand row it holds)
                sc.draw_parts(g, run)
                z = top + band - 1
                if z > y1:
                    z = y1
                b.show(y, z, z < y1)
                y = z + 1

    def paint_rows(self, draw, y0, y1):
        """draw(g), which changes screen rows y0..y1 only, over the frame shown, and show those
        rows. When the band in the buffer holds them (the thinking wheel) that is all; else the
        screen is drawn again under draw(g) in a band from y0, which then holds them for the next
        call, or, for more rows than a band, in each band they touch."""
        b = self.board
        g = self.g
        band = b.band
        if not band or band >= b.height:
            draw(g)
            b.show()
            return
        top = b.y0
        if top <= y0 and y1 < top + band:
            draw(g)
            b.show(y0, y1)
            return
        y = y0 if y1 - y0 < band else y0 - y0 % band
        while y <= y1:
            b.set_band(y)
            self.screen.draw(g)
            draw(g)
            y += band
            b.show(y0, y1, y <= y1)

    # --- feedback ------------------------------------------------------------------------------
    def beep(self, freq, ms):
        if self.settings["sound"]:
            self.board.beep(freq, ms)

    # --- the loop ------------------------------------------------------------------------------
    def handle_keys(self):
        inp = self.inp
        inp.poll()
        ev = inp.get()
        while ev:
            kind = ev & _EV_KIND
            if kind == _EV_PRESS or kind == _EV_REPEAT:
                k = ev & _EV_KEY
                if k == _K_PRESS:
                    k = _K_A
                screen = self.screen
                screen.key(k)
                if self.screen is not screen:
                    self.inp.flush()     # a new screen starts with no stale presses
                    break
            ev = inp.get()

    def step(self):
        """One pass of the loop: keys, screen work, redraw. Never raises."""
        self.feed()
        try:
            if self.pending is not None:     # first, with the stack shallow: no stale reference
                from ui import nav           # to the old screen keeps its heap (the GC scans the
                nav.begin(self)              # C stack conservatively)
            if self.link is not None:        # the link cable: read, acknowledged, resent
                self.link.poll(self.board.ticks_ms())
                if self.handover is not None:
                    from ui import nav
                    nav.handed(self)
            self.handle_keys()
            self.screen.step()
            self.flush()
        except MemoryError as e:
            self.out_of_memory(e)
        except Exception as e:
            self.fail(e)
        self._pass += 1
        if self.low_mem and not self._pass & 15:   # gc.mem_free() walks the heap's whole block
            free = gc.mem_free()         # table: 8 ms on a Pico, a key pressed meanwhile waits (the
            if free < self.low_mem:      # proofs only, docs/benchmarks.md press-to-pixels)
                self.low_mem = free
        self.board.idle_ms(_FRAME_MS)

    def out_of_memory(self, e):
        """A MemoryError in a frame: give back the AI's buffers and every module the screens load
        again, play on leaner, and pick the game up again as it stands (saved first: the engine
        is never left half-way through a move, but a screen may be). A third one within
        _MEM_RETRY_MS goes to the error page instead."""
        now = self.board.ticks_ms()
        self._mem_streak = self._mem_streak + 1 if ticks_diff(now, self._mem_at) < _MEM_RETRY_MS else 1
        self._mem_at = now
        if self._mem_streak >= 3:
            self.fail(e)
            return
        where = type(self.screen).__name__
        table = self.table
        self.table = None
        self.screen = Screen(self)
        self.pending = None
        brain = sys.modules.get("ui.brain")  # only if loaded: importing it now could fail too
        if brain is not None:
            try:
                brain.release()
            except MemoryError:
                pass
        brain = None
        self.release()
        self.lean = True
        self.mem_errors += 1
        note = "Low memory: playing lean"
        if table is not None:
            g = table.game
            try:
                table.save()
            except MemoryError:          # the save from before this frame stays on the flash
                pass
            table = None
            self.start(g.match, g.kinds, g.names, g.sheet, note, False, g.practice)
            g = None
        else:
            self.menu(note)
        gc.collect()
        self.log("memory", where + ", free " + str(gc.mem_free()) + ": " + str(e))

    def fail(self, e):
        """An unexpected error: the next pass shows what happened and offers the menu (Continue
        resumes the game: it was saved after its last move)."""
        self.errors += 1
        self.last_error = e
        self.table = None
        self.screen = Screen(self)
        self.pending = ("error", type(e).__name__ + ": " + str(e))
        try:
            sys.print_exception(e)
        except AttributeError:
            pass
        self.log("error", self.pending[1])

    def log(self, kind, detail):
        """Count an event in events.log (eventlog.py), loaded for the moment: when even that does
        not fit in memory, the event goes uncounted and the app goes on."""
        try:
            import eventlog
            eventlog.note(self.log_root, kind, detail)
        except MemoryError:
            pass
        drop_module("eventlog")

    def run(self):
        while True:
            self.step()


def run(board, root="/"):
    try:
        app = App(board, root)
    except MemoryError:                  # a heap split at boot: once more, from a clean slate
        gc.collect()
        app = App(board, root)
    app.run()
