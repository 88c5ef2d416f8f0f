"""Seeded self-play with random legal moves; the last line is a digest of all transcripts.

Runs unchanged under `python3` and `micropython`, so equal digests prove both runtimes play the same:
    python3 -m tools.arena.selfplay --variant fives --players 2 --games 50 --seed 1
    MICROPYPATH=.:firmware micropython -m tools.arena.selfplay --variant fives --players 2 --games 50 --seed 1
`--all` plays every variant x player count (x teams) in one run, one digest line each.
"""
import sys

from domino.match import Match
from domino.record import move_text
from domino.rng import Rng
from domino.round import PLAYING, EV_DRAW
from domino.rules import Rules, VARIANTS, RulesError
from tools import cli
from tools.arena import rng32

USAGE = ("usage: python -m tools.arena.selfplay --variant V --players N [--teams] --games G --seed S [--all] "
         "[--transcript]")


class Stats:
    def __init__(self):
        self.h = 0x811C9DC5
        self.games = self.rounds = self.moves = self.draws = self.passes = self.outs = self.blocks = 0

    def feed(self, tok):
        h = self.h
        for ch in tok:
            h = ((h ^ ord(ch)) * 16777619) & 0xFFFFFFFF
        self.h = ((h ^ 32) * 16777619) & 0xFFFFFFFF


def play_game(rules, seed, st, out=None):
    m = Match(rules, seed)
    pol = Rng(seed ^ 0x5EED)
    while not m.over and m.round_no < 200:
        m.start_round()
        rd = m.round
        st.feed("R" + m.deal_code() + "L" + str(rd.leader))
        while rd.result == PLAYING:
            n = rd.legal()
            if n == 0:
                if rd.forced() == EV_DRAW:
                    st.draws += 1
                    st.feed("d")
                else:
                    st.passes += 1
                    st.feed("p")
                continue
            mv = rd.buf[pol.below(n)]
            tok = move_text(rd, mv)
            st.feed(tok)
            if out is not None:
                out.append(tok)
            m.play(mv)
            st.moves += 1
        m.finish_round()
        st.rounds += 1
        if rd.result == 1:
            st.outs += 1
        else:
            st.blocks += 1
        st.feed("S" + ",".join([str(x) for x in m.scores]) + "M" + ",".join([str(x) for x in m.remembered]))
    st.feed("W" + str(m.winner) + "/" + str(m.loser))
    st.games += 1
    return m


def run(vid, players, teams, games, seed, transcript=False):
    rules = Rules(vid, players, teams)
    st = Stats()
    for g in range(games):
        toks = [] if transcript else None
        play_game(rules, seed + g, st, toks)
        if transcript:
            print(" ".join(toks))
    return ("%s %dp%s digest %08x games %d rounds %d moves %d draws %d passes %d outs %d blocks %d" %
            (vid, players, "t" if teams else "", st.h, st.games, st.rounds, st.moves, st.draws, st.passes,
             st.outs, st.blocks))


def combos():
    for row in VARIANTS:
        for p in range(row[2], row[3] + 1):
            yield row[0], p, False
            if p == 4 and row[4]:
                yield row[0], p, True


def main(argv):
    if "--help" in argv or "-h" in argv:
        return cli.usage(USAGE, globals())
    rng32.install()
    args = {"--variant": None, "--players": "2", "--games": "10", "--seed": "1"}
    flags = []
    i = 0
    while i < len(argv):
        a = argv[i]
        if a in args and i + 1 < len(argv):
            args[a] = argv[i + 1]
            i += 2
        elif a in ("--teams", "--all", "--transcript"):
            flags.append(a)
            i += 1
        else:
            return cli.say("selfplay", ("%s wants a value" % a if a in args else "unknown argument %s" % a) +
                           " (" + USAGE + ")")
    try:
        games = cli.whole("--games", args["--games"], 1, cli.MAX_COUNT)
        seed = cli.whole("--seed", args["--seed"], 0, cli.MAX_SEED - games)
        players = cli.whole("--players", args["--players"], 1, 4)
        if "--all" in flags:
            for vid, p, t in combos():
                print(run(vid, p, t, games, seed))
            return 0
        if not args["--variant"]:
            return cli.say("selfplay", "--variant or --all is needed (" + USAGE + ")")
        rules = Rules(args["--variant"], players, "--teams" in flags)
    except (ValueError, RulesError) as e:
        return cli.say("selfplay", e)
    print(run(rules.vid, rules.players, rules.teams, games, seed, "--transcript" in flags))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
