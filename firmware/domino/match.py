"""A match: rounds dealt from one seed, the score sheet, next leader, match end."""
from .rng import Rng, next_seed, code
from .round import Round
from . import scoring
try:
    from micropython import const
except ImportError:  # CPython
    def const(x):
        return x

_NONE = const(255)          # = domino.tiles.NONE
_PLAYING = const(0)         # = domino.round.PLAYING
_OUT = const(1)             # = domino.round.OUT
_BLOCKED = const(2)         # = domino.round.BLOCKED
_FAM_GOAT = const(1)       # = domino.rules._FAM_GOAT
_FAM_SEA = const(2)        # = domino.rules._FAM_SEA
_NEXT_ALTERNATE = const(0)  # = domino.rules._NEXT_ALTERNATE
_NEXT_WINNER = const(1)    # = domino.rules._NEXT_WINNER
_NEXT_FIRST = const(2)     # = domino.rules._NEXT_FIRST
_NEXT_OUT = const(4)       # = domino.rules._NEXT_OUT

_WIN00 = const(1 | 1 << 27)  # (1 << DOUBLE[0]) | (1 << DOUBLE[6]): the 0-0 and the 6-6
# The deal's generator and deck: seeded and filled afresh right before each deal, so one pair serves
# every match (a new match costs no generator warm-up).
_RNG = Rng()
_DECK = bytearray(28)


class Match:
    def __init__(self, rules, seed=1):
        self.rules = rules
        self.round = Round(rules)
        self.seed = seed                      # first round's deal seed (its code starts the match)
        self.scores = [0, 0, 0, 0]            # per side
        self.remembered = [0, 0, 0, 0]        # Goat: hidden "+N" points
        self.opened = bytearray(4)            # Goat: account opened
        self.pot = 0                          # Goat fish-for-one "eggs"
        self.counts = [0, 0, 0, 0]            # last round, per side
        self.recorded = [0, 0, 0, 0]
        self.inplay = [0, 0, 0, 0]
        self.round_winner = _NONE
        self.round_no = 0
        self.round_seed = seed
        self.prev_leader = _NONE
        self.prev_result = _PLAYING
        self.prev_winner = _NONE               # seat that went out / won the blocked round
        self.prev_fisher = _NONE
        self.over = False
        self.winner = _NONE                    # side
        self.loser = _NONE                     # side (the goat)
        self.moves = bytearray(64)            # this round's moves, 2 bytes each
        self.nmoves = 0
        self.history = []                     # finished rounds' moves (bytes)

    def deal_code(self):
        return code(self.round_seed)

    def start_round(self, hands=None, stock=None, stock_n=0, leader=_NONE):
        """Deal the next round from the seed chain (or from an explicit deal) and pick the leader."""
        rd = self.round
        if self.round_no:
            self.round_seed = next_seed(self.round_seed)
        self.round_no += 1
        self.nmoves = 0
        if hands is None:
            _RNG.seed(self.round_seed)
            rd.deal(_RNG, _DECK)
            rd.lead_by_rule()
        else:
            rd.setup(hands, stock, stock_n, _NONE if leader == _NONE else leader)
        if leader == _NONE and self.round_no > 1:
            self._next_leader()
        self.prev_leader = rd.leader

    def _next_leader(self):
        r = self.rules
        rd = self.round
        how = r.lead_next
        if how == _NEXT_FIRST:
            return
        if how == _NEXT_ALTERNATE:
            rd.set_leader((self.prev_leader + 1) % r.players)
            return
        if how == _NEXT_WINNER:
            if self.prev_winner != _NONE:
                rd.set_leader(self.prev_winner)
            return
        if how == _NEXT_OUT:
            if self.prev_result == _OUT:
                rd.set_leader(self.prev_winner)
            return
        # the player who went out, or the fisherman (option: that player's partner)
        s = self.prev_winner if self.prev_result == _OUT else self.prev_fisher
        if s == _NONE:
            return
        if r.partner_leads and r.teams:
            s = r.partner(s)
        rd.set_leader(s)

    def play(self, m):
        i = self.nmoves
        if i < 32:                            # self.moves holds 32 (a round has at most 28)
            mv = self.moves
            mv[2 * i] = m & 255
            mv[2 * i + 1] = m >> 8
            self.nmoves = i + 1
        self.round.play(m)

    def forced(self):
        return self.round.forced()

    def round_over(self):
        return self.round.result != _PLAYING

    def finish_round(self):
        """Score the ended round, update the sheet, decide whether the match is over."""
        rd = self.round
        r = self.rules
        self.history.append(bytes(self.moves[:2 * self.nmoves]))
        scoring.finish(self)
        self.prev_result = rd.result
        self.prev_fisher = rd.fisher if rd.result == _BLOCKED else _NONE
        if rd.result == _OUT:
            self.prev_winner = rd.winner
        elif self.round_winner != _NONE and not r.teams:
            self.prev_winner = self.round_winner
        else:
            self.prev_winner = _NONE
        self._check_end()

    def _check_end(self):
        r = self.rules
        n = r.sides
        sc = self.scores
        rd = self.round
        if r.family == _FAM_SEA and r.instant_win and rd.result == _OUT and rd.last_tiles & _WIN00:
            self.over = True
            self.winner = r.side(rd.winner)
            if n == 2:
                self.loser = 1 - self.winner
            return
        top = 0
        for i in range(1, n):
            if sc[i] > sc[top]:
                top = i
        if sc[top] < r.target:
            return
        for i in range(n):
            if i != top and sc[i] == sc[top]:
                if r.family != _FAM_GOAT:
                    return                    # a tie at the top plays another round
        self.over = True
        if r.family == _FAM_GOAT:
            self.loser = top                  # the goat
            low = 0
            for i in range(1, n):
                if sc[i] < sc[low]:
                    low = i
            for i in range(n):
                if i != low and sc[i] == sc[low]:
                    low = _NONE
                    break
            self.winner = low
        else:
            self.winner = top
            if n == 2:
                self.loser = 1 - top

    def move_list(self, k):
        """Moves of finished round k (0-based) or of the current round (k == len(history))."""
        b = self.history[k] if k < len(self.history) else self.moves[:2 * self.nmoves]
        out = []
        for i in range(0, len(b), 2):
            out.append(b[i] | (b[i + 1] << 8))
        return out

