"""Variant table: every variant is a row of parameters; options are named settings with defaults.

`Rules(variant, players, teams, options)` turns a row plus the player's choices into a flat object of
small ints that the round and the scoring read. No variant has engine code of its own beyond
the scoring family it names (see scoring.py).

Decisions where RULES.md is silent (seasoned-player defaults):
- A block needs an empty (or reserve-only) stock, as RULES.md A says "nothing can be drawn": while
  drawable tiles remain, a stuck player draws them even if none fits (nobody at the table can know the
  boneyard is dead), keeps them in hand, and the round is blocked after the last draw; the player of the
  last tile is the fisherman. Goat's early fish (RULES.md D) still ends the round with a stock.
- Match end is checked at the end of a round; the highest score at or over the target wins, and a tie
  at the top plays another round.
- Draw/Fives with 3-4 players deal 5 each by default (7 each would leave no stock); Block deals 7.
- Muggins/Threes/Telephone "first player by lot": the holder of the lightest tile leads, any tile.
- Telephone blocked: the lowest hand scores (others' total - own) / 5 rounded up, like going out.
- Classic: every round is led as the first (6-6, else highest double, else heaviest tile).
- Muggins option "spinner keeps counting": the spinner's two halves count while one of its long sides
  is still empty.
- Donkey: the lead is never closed; a closed double never becomes the cross.
- Blitz: a chain is a run of single moves by the same player (the turn stays while the player can
  play), so the AI and the UI see ordinary moves.
- Sea Goat: no remembered points (the 25-point minimum plays that role); a blocked round goes to the
  lowest hand; the 2v2 option scores only rounds won by going out.
  A write-off (a record made while another side holds points) is shown on the score sheet as a row
  of "x"; `recorded` still says what the round's winner recorded before the write-off took it.
- Goat family: the side that went out counts 0 (in 2v2 the partner's tiles too); a blocked round's
  "winner" is the single lowest count; the match winner beside the goat is the single lowest sheet.
- Goat fish for one: the take (all counts, plus eggs, plus the taker's remembered points) is recorded
  and opens the account even when it is 12 or less. Eggs taken in a later round count as part of the
  taker's round count; a round that ends by going out with a tie for the highest count is scored as
  usual and the eggs carry on untouched (only a blocked tie adds to them).
- Donkey: closing the last open ends (two doubles on a non-double lead) ends the round as a block with
  the closer as the fisherman, who leads the next round.
- Option "partner leads" changes only 2v2 play.
- Team play starts from the team targets RULES.md names (team Block 200, 2v2 Sea Goat 202); a target
  the players pick explicitly is kept.
- Goat: when two sides reach the target with the same (highest) total in one round, the first of them
  in seat order is the goat (RULES.md names one goat).
"""
try:
    from micropython import const
except ImportError:  # CPython
    def const(x):
        return x

# layout modes
_LINE = const(0)
_SPINNER = const(1)    # first double: four sides, up/down after both line directions are built
_CROSS = const(2)      # Donkey: four sides open at once

# scoring families
FAM_POINTS = const(0)  # winner scores opponents' pips (Draw, Block, Fives, Classic, Muggins, Threes,
#                        Telephone)
_FAM_GOAT = const(1)   # penalty counts, remembered points, goat at target (Goat, Donkey, Blitz)
_FAM_SEA = const(2)    # Sea Goat

# end-of-round transforms of the points family
_END_RAW = const(0)
_END_ROUND5 = const(1)
_END_ROUND5_DIV5 = const(2)
_END_CEIL_DIV5 = const(3)

# first-round lead
_LEAD_HIGH_DOUBLE = const(0)  # highest double must be played, else heaviest tile
_LEAD_GOAT = const(1)         # 1-1, 2-2, .. 6-6, 0-0, then heaviest tiles
_LEAD_LOT = const(2)          # holder of the lightest tile leads any tile

# later rounds
_NEXT_ALTERNATE = const(0)    # next seat after the previous leader, any tile
_NEXT_WINNER = const(1)       # winner of the round (out / blocked winner) leads any; none -> first-round rule
_NEXT_FIRST = const(2)        # every round as the first
_NEXT_OUT_OR_FISHER = const(3)  # the player who went out or the fisherman leads any tile
_NEXT_OUT = const(4)           # Fives: who played the last tile leads any; after a block, as the first round

# Options of each variant as one compact spec (parsed only when a game is set up: constant strings cost
# far less heap than nested tuples): "key=default|choice|choice ...", the first choice is the default.
_GOAT_OPTS = "target=101|202 lone_00=10|25 lone_66=off|50 reserve=0|1|2 fish=all|one leader=winner|partner"
_MUGGINS_OPTS = "target=100|250|500 divide=yes|no spinner=yes|no spinner_counts=ends|always"

# id, name, fewest players, most players, teams allowed, options
VARIANTS = (
    ("draw", "Draw", 2, 4, True, "target=100|150|200|61 hand=auto|5|7"),
    ("block", "Block", 2, 4, True, "target=100|150|200|61 hand=auto|5|7"),
    ("fives", "Fives", 2, 4, True, "target=150|61|100|250 hand=auto|5|7"),
    ("classic", "Classic", 2, 4, False, "target=100|150|200|300|500 big_tiles=off|on"),
    ("goat", "Goat", 2, 4, True, _GOAT_OPTS),
    ("sea_goat", "Sea Goat", 2, 4, True, "target=125|202 reserve=0|1|2 leader=winner|partner"),
    ("donkey", "Donkey", 2, 4, True, _GOAT_OPTS),
    ("muggins", "Muggins", 2, 4, False, _MUGGINS_OPTS),
    ("threes", "All Threes", 2, 4, False, _MUGGINS_OPTS),
    ("telephone", "Telephone", 2, 4, False, "target=72|100|150 four_doubles=off|on"),
    ("blitz", "Blitz", 4, 4, True,
     "target=101|202 lone_00=10|25 lone_66=off|50 fish=all|one leader=winner|partner"),
)


class RulesError(ValueError):
    pass


def variant(vid):
    for row in VARIANTS:
        if row[0] == vid:
            return row
    raise RulesError("unknown variant: " + str(vid))


def _value(text):
    return int(text) if text.isdigit() else text


def option_choices(vid):
    """[(key, default, [choices])] of a variant, the default first among the choices."""
    out = []
    for item in variant(vid)[5].split():
        key, rest = item.split("=")
        choices = []
        for c in rest.split("|"):
            choices.append(_value(c))
        out.append((key, choices[0], choices))
    return out


# Team play starts from a higher target where RULES.md says so (team Block 200, 2v2 Sea Goat 202).
_TEAM_TARGET = {"block": 200, "sea_goat": 202}


def default_options(vid, teams=False):
    d = {}
    for key, default, _ in option_choices(vid):
        d[key] = default
    if teams and vid in _TEAM_TARGET:
        d["target"] = _TEAM_TARGET[vid]
    return d


def _coerce(key, value, choices):
    if value in choices:
        return value
    for c in choices:   # "25" from a file, 25 from JSON, True/"on" for switches
        if str(c) == str(value):
            return c
    if value is True and "on" in choices:
        return "on"
    if value is False and "off" in choices:
        return "off"
    raise RulesError("option " + key + ": " + str(value) + " is not one of " +
                     ", ".join([str(c) for c in choices]))


class Rules:
    """Flat parameters of one variant with its options, for a number of players."""

    def __init__(self, vid, players=2, teams=False, options=None):
        row = variant(vid)
        self.vid = vid
        self.title = row[1]
        if players < row[2] or players > row[3]:
            raise RulesError(row[1] + " is for " + str(row[2]) + "-" + str(row[3]) + " players")
        if teams and (not row[4] or players != 4):
            raise RulesError("teams need 4 players" if row[4] else row[1] + " has no team play")
        self.players = players
        self.teams = bool(teams)
        self.sides = 2 if teams else players
        opts = default_options(vid, self.teams)
        if options:
            table = option_choices(vid)
            for key in options:
                found = None
                for o in table:
                    if o[0] == key:
                        found = o
                if found is None:
                    raise RulesError(row[1] + " has no option " + str(key))
                opts[key] = _coerce(key, options[key], found[2])
        self.options = opts
        self._defaults(players)
        self._variant(vid, opts, players)

    def _defaults(self, players):
        self.hand = 7
        self.draw = True          # draw until playable (False: pass when stuck)
        self.reserve = 0          # last N stock tiles never drawn
        self.layout = _LINE
        self.inplay_mod = 0       # score the open-end count when a positive multiple of this
        self.inplay_div = 1
        self.spinner_keeps = False
        self.multi = 1            # most doubles in one move
        self.multi_exact = False  # Sea Goat: exactly two
        self.close = False        # Donkey: doubles may be closed
        self.chain = False        # Blitz: the turn stays while the player can play
        self.family = FAM_POINTS
        self.end_mode = _END_RAW
        self.lead_first = _LEAD_HIGH_DOUBLE
        self.lead_next = _NEXT_ALTERNATE
        self.redeal = False
        self.early_fish = False
        self.any00 = 0            # value of 0-0 in any final hand (0: its pips)
        self.any66 = 0
        self.lone00 = 0           # value of a hand that is only 0-0
        self.lone66 = 0
        self.fish_one = False
        self.partner_leads = False
        self.open_over = 12       # Goat: counts of 12 or less are remembered
        self.sea_min = 25
        self.team_out_only = False
        self.instant_win = False
        self.target = 100

    def _variant(self, vid, o, players):
        small = 5 if players > 2 else 7
        if vid in ("draw", "block", "fives"):
            h = o["hand"]
            if self.teams or players == 2:
                self.hand = 7
            else:
                self.hand = h if h != "auto" else (7 if vid == "block" else 5)
            self.draw = vid != "block"
            if vid == "fives":
                self.layout = _SPINNER
                self.inplay_mod = 5
                self.end_mode = _END_ROUND5
                self.lead_next = _NEXT_OUT
            self.target = o["target"]
            if self.teams:
                self.lead_next = _NEXT_OUT_OR_FISHER
        elif vid == "classic":
            self.hand = small
            self.lead_next = _NEXT_FIRST
            self.target = o["target"]
            if o["big_tiles"] == "on":
                self.any00 = 25
                self.any66 = 50
        elif vid in ("goat", "donkey", "blitz", "sea_goat"):
            self.family = _FAM_SEA if vid == "sea_goat" else _FAM_GOAT
            self.lead_first = _LEAD_GOAT
            self.lead_next = _NEXT_OUT_OR_FISHER
            self.redeal = True
            self.early_fish = True
            self.target = o["target"]
            self.reserve = o.get("reserve", 0)
            self.partner_leads = o["leader"] == "partner"
            if vid == "sea_goat":
                self.multi = 2
                self.multi_exact = True
                self.any00 = 25
                self.any66 = 50
                self.instant_win = True
                if self.teams:
                    self.team_out_only = True
            else:
                self.lone00 = o["lone_00"]
                self.lone66 = 50 if o["lone_66"] == 50 else 0
                self.fish_one = o["fish"] == "one"
            if vid == "donkey":
                self.layout = _CROSS
                self.multi = 4
                self.close = True
            if vid == "blitz":
                self.draw = False
                self.chain = True
        elif vid in ("muggins", "threes"):
            self.hand = small
            self.layout = _SPINNER if o["spinner"] == "yes" else _LINE
            self.spinner_keeps = o["spinner_counts"] == "always"
            self.inplay_mod = 5 if vid == "muggins" else 3
            self.end_mode = _END_ROUND5_DIV5 if o["divide"] == "yes" else _END_ROUND5
            self.lead_first = _LEAD_LOT
            self.lead_next = _NEXT_WINNER
            self.target = o["target"]
        elif vid == "telephone":
            self.layout = _SPINNER
            self.inplay_mod = 5
            self.inplay_div = 5
            self.end_mode = _END_CEIL_DIV5
            self.lead_first = _LEAD_LOT
            self.lead_next = _NEXT_WINNER
            self.target = o["target"]
            if o["four_doubles"] == "on":
                self.multi = 4
        if self.hand * players > 28:
            raise RulesError("not enough tiles for " + str(players) + " hands of " + str(self.hand))

    def side(self, seat):
        """Score-sheet column of a seat: the seat itself, or its team (0 = seats 0+2, 1 = seats 1+3)."""
        return seat & 1 if self.teams else seat

    def partner(self, seat):
        return (seat + 2) & 3 if self.teams else seat

    def options_text(self):
        out = []
        defaults = default_options(self.vid, self.teams)
        for key, _default, _ in option_choices(self.vid):
            v = self.options[key]
            if v != defaults[key]:
                out.append(key + "=" + str(v))
        return ",".join(out)
