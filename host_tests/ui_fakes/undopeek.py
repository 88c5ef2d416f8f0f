"""Undo against the AI, tried as a player who wants to see the AI's tiles would: at every human turn,
each legal move is played and taken back by every route the game menu allows (B pressed with the
move's A, before the AI starts; B once the AI has answered), as often as Undo is offered, before a
move is finally kept. What the person has seen of the other hands is every tile another seat played
on the table in front of them; at every moment the person must choose a move, none of those tiles
may be back in a hidden hand (a move taken back after its answer was seen). MicroPython only; run by
driver.py's "undo_peek" step.

out["undo_peek"]: turns tried, undos made early (before the AI acted) and late (after it), the
decisions checked, and `peeks`: the first few tiles seen that were back in a hidden hand."""
from keys import K_DOWN, K_A, K_B


def _name(obj):
    return type(obj).__name__


class Peek:
    def __init__(self, d):
        self.d = d
        self.seen = 0                # mask of tiles the person saw another seat play (this round)
        self.round_no = -1
        self.out = d.out["undo_peek"] = {"turns": 0, "early": 0, "late": 0, "decisions": 0,
                                         "peeks": []}

    def look(self):
        """What the table has shown the person since the last look: the other seats' plays."""
        t = self.d.app.table
        if t is None:
            return
        m = t.game.match
        if m.round_no != self.round_no:          # a new deal: nothing of it seen yet
            self.round_no = m.round_no
            self.seen = 0
        rd = m.round
        for i in range(rd.nev):
            ev = rd.events[2 * i]
            if ev >> 4 == 1 and t.game.kinds[ev & 15] != "human":
                self.seen |= 1 << (rd.events[2 * i + 1] & 31)

    def decide(self):
        """The person is about to choose a move: no tile seen may be in a hidden hand."""
        t = self.d.app.table
        rd = t.game.match.round
        self.out["decisions"] += 1
        for s in range(t.game.match.rules.players):
            if t.game.kinds[s] != "human":
                back = rd.hands[s] & self.seen
                if back and len(self.out["peeks"]) < 5:
                    self.out["peeks"].append([t.game.match.nmoves, s, back])

    def settle(self):
        d = self.d
        for _ in range(400):
            self.look()
            sc = d.app.screen
            if _name(sc) == "Table" and sc.mode in (0, 3) or _name(sc) == "Screen":
                d.step()
                continue
            return
        raise RuntimeError("no settle")

    def choose(self, k, with_b):
        """Play the k-th playable tile (its first end), A pressed with B when `with_b`."""
        d = self.d
        t = d.app.screen
        n = 0
        for i in range(t.nh):
            if (t.playable >> t.hand[i]) & 1:
                n += 1
        for _ in range(k % n if n else 0):
            d.press(K_DOWN)
        while t.calm_until and t.now() - t.calm_until < 0:
            d.step()
        d.in_turn = True
        keys = K_A | K_B if with_b else K_A
        d.board.host_keys(keys)
        d.step()
        d.board.host_keys(0)
        d.step()
        if _name(d.app.screen) == "Table" and t.mode == 2:       # several ends: the first
            d.board.host_keys(keys)
            d.step()
            d.board.host_keys(0)
            d.step()
        d.in_turn = False

    def undo_offered(self):
        sc = self.d.app.screen
        if _name(sc) != "Pause":
            return False
        for r in sc.rows():
            if r[0].startswith("Undo"):
                return True
        return False

    def early(self, k):
        """The k-th move, B pressed with its A: True when Undo was offered and taken."""
        d = self.d
        self.decide()
        self.choose(k, True)
        self.look()
        if self.undo_offered():
            d.pick_prefix("Undo")
            self.out["early"] += 1
            self.settle()
            return True
        if _name(d.app.screen) == "Pause":
            d.press(K_B)                         # resumed: the AI answers, the move is kept
        self.settle()
        return False

    def late(self, k):
        """The k-th move, the AI's answer seen, then B: True when Undo was offered and taken."""
        d = self.d
        self.decide()
        self.choose(k, False)
        self.settle()
        if _name(d.app.screen) != "Table":
            return False
        d.press(K_B)
        self.look()
        if not self.undo_offered():
            d.press(K_B)
            self.settle()
            return False
        d.pick_prefix("Undo")
        self.out["late"] += 1
        self.settle()
        return True

    def turn(self, tries):
        """One human turn: moves played and taken back while the game allows, then one kept: every
        other turn `tries` moves taken back early then one late, the others late first."""
        d = self.d
        self.out["turns"] += 1
        if self.out["turns"] & 1:
            routes = [self.early] * tries + [self.late] * tries
        else:
            routes = [self.late] * tries + [self.early] * tries
        for k in range(len(routes)):
            if not routes[k](k):
                return                           # the move was kept
            if _name(d.app.screen) != "Table" or d.app.screen.mode != 1:
                return
        self.decide()
        self.choose(0, False)
        self.settle()


def run(d, turns, tries):
    p = Peek(d)
    for _ in range(turns):
        p.settle()
        sc = d.app.screen
        if _name(sc) == "RoundEnd":
            d.press(K_A)
            continue
        if _name(sc) != "Table" or sc.mode != 1:
            break
        p.turn(tries)
    return p.out
