"""A linked match between two simulators, before the menus have a "Link game" (docs/LINK.md): each
simulator runs this instead of firmware/main.py, its link session on the virtual cable
(boards/_linkpipe.py), every seat played by a seeded random mover, a status screen drawn on the
board. Runs in MicroPython (the simulator) and without a board (`run(None)`: tests, two headless
processes). Saves after every move as the firmware does, so a killed simulator resumes its match.

Environment: PICO_SIM_LINK_WANT `host` or `join`; PICO_SIM_LINK_GAME the host's game,
`variant players teams owners` (default `fives 2 0 HG`); PICO_SIM_LINK_SEED the deal seed and the
movers' seed; PICO_SIM_LINK_THINK ms a seat waits before moving (default 300); PICO_SIM_DATA the
save folder.
"""
import os
import time

from domino.rng import Rng
from domino.rules import Rules
from link import session as ls
from savegame import last_token
from store import Store

_KINDS = {"H": "human", "G": "human", "e": "easy", "m": "medium", "h": "hard"}


def _env(name, default):
    v = os.getenv(name)
    return v if v else default


class Demo:
    def __init__(self, board):
        from boards._linkpipe import from_env
        self.board = board
        port = from_env()
        if port is None:
            raise SystemExit("demo_app: no link cable (PICO_SIM_LINK_IN / PICO_SIM_LINK_OUT)")
        host = _env("PICO_SIM_LINK_WANT", "host") == "host"
        seed = int(_env("PICO_SIM_LINK_SEED", "1"))
        self.think = int(_env("PICO_SIM_LINK_THINK", "300"))
        self.files = Store(_env("PICO_SIM_DATA", "/tmp/pico-link-" + ("host" if host else "guest")))
        self.pick = Rng(seed * 2 + (1 if host else 2))
        match, extras, _ = self.files.load_game()
        if match is not None and extras.get("link"):
            self.s = ls.Session(port, 0, self._rand, self, (match, extras["link"]))
            print("link: resumed at move %d" % self.s.mine)
        else:
            self.s = ls.Session(port, ls.WANT_HOST if host else ls.WANT_JOIN, self._rand, self)
            if host:
                vid, players, teams, owners = _env("PICO_SIM_LINK_GAME", "fives 2 0 HG").split()
                self.s.host_game(Rules(vid, int(players), teams == "1"), owners, seed)
        self.due = 0

    def _rand(self):
        return int.from_bytes(os.urandom(4), "little") & 0x3FFFFFFF

    def _extras(self, s):
        kinds = [_KINDS[o] for o in s.owners]
        return {"seats": ",".join(kinds), "link": ls.link_extra(s.hosting, s.gid, s.owners)}

    def started(self, s):
        self.files.clear_game()
        self.files.save_game(s.match, self._extras(s))

    def moved(self, s, seat, move, local):
        self.files.save_game(s.match, self._extras(s), last_token(s.match.round))

    def turned(self, s):
        self.files.save_game(s.match, self._extras(s))

    def ticks(self):
        b = self.board
        return b.ticks_ms() if b is not None else time.ticks_ms() if hasattr(time, "ticks_ms") \
            else int(time.time() * 1000)

    def step(self, now):
        s = self.s
        s.poll(now)
        seat = s.to_move()
        if seat < 0:
            self.due = now + self.think
        elif now - self.due >= 0:
            rd = s.match.round
            s.play(rd.buf[self.pick.below(rd.legal())])
        return s.match is not None and s.match.over and s.peer_has >= s.mine and s.up()

    def lines(self):
        s = self.s
        m = s.match
        out = ["Link " + ("host" if s.hosting else "guest") + (" ok" if s.up() else " OUT")]
        if s.message:
            out.append(s.message[:20])
        if m is not None:
            out.append("Round %d move %d" % (m.round_no, s.mine))
            out.append("Scores " + " ".join(str(x) for x in m.scores[:m.rules.sides]))
            out.append("Over" if m.over else "Your turn" if s.to_move() >= 0 else "Their turn")
        return out

    def draw(self):
        b = self.board
        lines = self.lines()

        def paint(_):
            fb = b.fb
            fb.fill(0)
            for i, t in enumerate(lines):
                fb.text(t, 2, 2 + 10 * i, 1)
        b.paint(paint)


def run(board=None):
    d = Demo(board)
    shown = None
    done_at = None
    while True:
        now = d.ticks()
        if d.step(now) and done_at is None:
            done_at = now
        if board is not None:
            text = d.lines()
            if text != shown:
                d.draw()
                shown = text
            board.sleep_ms(5)
        else:
            time.sleep_ms(2) if hasattr(time, "sleep_ms") else time.sleep(0.002)
        if done_at is not None and now - done_at > 1000:   # the last acknowledgements are through
            s = d.s
            print("link: resends=%d bad frames=%d" % (s.ch.resends, s.ch.fr.bad))
            print("link: over moves=%d digest=%d scores=%s" % (
                s.mine, s.digest, ",".join(str(x) for x in s.match.scores)))
            return
