"""The fault-injection proof: the real app on a flash that fails and on files no firmware
wrote. Two parts, each booting the app (firmware compiled to .mpy as deployed, the simulated board,
MicroPython unix port; tools/proofs/harness/faultfs.py):

- operations: a session is played once to list every file operation it makes (each open, read,
  line, write, rename, remove), then once per operation and fault: EIO or a MemoryError at that
  operation, ENOSPC (writes and renames) or EROFS (writes, renames, removes) from it on. Two
  sessions: "play" (a new practice match, moves, Save and quit, Settings, Continue, moves, Undo) and
  "finish" (a finished match's end pages, its statistics, the save retired). After each, a power-on
  without faults: the newest save the flash took is resumed (else a clean start), "Game saved" was said
  only over a save that holds the match, a finished match is counted once or the player told.
- files: each data file (game.txt, game.bak, game.txt.tmp, settings.json, stats.json, events.log)
  replaced in turn by oversized, deeply nested, mistyped, CRLF, binary, empty, directory and
  device-node variants (and both saves at once): the power-on resumes the save (or the backup,
  with a one-line message) or starts clean with one, and the next power-on finds nothing wrong.

    python -m tools.proofs.faults                       # everything: make soak-faults (part of make soak)
    python -m tools.proofs.faults --stride 9            # every 9th operation case (the smoke set: make test)

Prints the figures (cases, outcomes by kind, time); exit status 1 on any failure.
"""
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time

from tools import cli
from tools.proofs.harness import frames

HARNESS = os.path.join(frames.HERE, "faultfs.py")

FILES = ("game.txt", "game.bak", "game.txt.tmp", "settings.json", "stats.json", "events.log")


def run(job, mpy, timeout=7200):
    """The harness on `job`; its JSON answer."""
    env = frames.mp_env(mpy[0], mpy[1], UI_JOB=json.dumps(job))
    res = subprocess.run([frames.find(), HARNESS], stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                         universal_newlines=True, timeout=timeout, env=env)
    try:
        out = json.loads(res.stdout.strip().split("\n")[-1])
        out["_log"] = "\n".join(res.stdout.strip().split("\n")[:-1])
        return out
    except (ValueError, IndexError):
        raise RuntimeError("the fault harness failed (rc %d):\n%s\n%s" % (res.returncode, res.stdout[-3000:],
                                                                          res.stderr[-3000:]))


# --- good files, as the firmware writes them -----------------------------------------------------------
def sealed(text):
    import store
    w = store.SumWriter(None)
    w.write(text)
    return (text + "sum " + w.hex() + "\n").encode()


def body(data):
    text = data.decode()
    return text[:text.rfind("sum ")]


# In the order MicroPython's dict gives these keys (the header lines' order): a save the firmware
# writes again then has the same bytes, so its checksum line (the match's identity when its
# statistics are counted: store.record_result) stays the same.
EXTRAS = {"names": "You,Ann", "seats": "human,easy", "sheet": ""}


def play(st, m, rng, moves=None, extras=EXTRAS):
    """Random legal moves, each saved as the table saves it (a round's end and the next deal too);
    None: to the end of the match. Shared with host_tests/test_store_messages.py."""
    from domino.record import run_forced, move_text
    done = 0
    while not m.over and (moves is None or done < moves):
        run_forced(m)
        if m.round_over():
            m.finish_round()
            st.save_game(m, extras)
            if not m.over:
                m.start_round()
                st.save_game(m, extras)
            continue
        rd = m.round
        mv = rd.buf[rng.below(rd.legal())]
        tok = move_text(rd, mv)
        m.play(mv)
        st.save_game(m, extras, tok)
        done += 1


def good_files(d, finished=False):
    """A game in progress (or a finished match not yet counted) saved as the table saves it, with
    settings, statistics and an event log. Returns {name: bytes}."""
    import store
    import eventlog
    from domino.match import Match
    from domino.rng import Rng
    from domino.rules import Rules
    os.makedirs(d, exist_ok=True)
    st = store.Store(d)
    m = Match(Rules("draw", 2), 4242 if not finished else 777)
    m.start_round()
    st.save_game(m, EXTRAS)
    play(st, m, Rng(3 if not finished else 5), None if finished else 9)
    s, _ = st.load_settings()
    s["bright"] = 50
    s["last"] = {"variant": "draw", "players": 2, "teams": 0, "seats": ["human", "easy"], "options": {}}
    st.save_settings(s)
    st.record_result("draw", 1, "sum 0123abcd")
    st.record_result("fives", -1)
    eventlog.note(d + "/", "memory", "Table, free 12345: memory allocation failed")
    out = {}
    for name in os.listdir(d):
        with open(os.path.join(d, name), "rb") as f:
            out[name] = f.read()
    return out


# --- the variants of a data file ----------------------------------------------------------------------
def json_variants(name, good):
    d = json.loads(body(good) if b"\nsum " in good else good.decode())
    out = [("oversized field", sealed(json.dumps(dict(d, pad="x" * 80000)) + "\n")),
           ("nested 3000", sealed("[" * 3000 + "]" * 3000 + "\n")),
           ("nested in a field", sealed(json.dumps(d)[:-1] + ', "x": ' + "[" * 3000 + "]" * 3000 + "}\n")),
           ("nested unsigned", ("{" + '"a":{' * 2000 + "}" * 2001 + "\n").encode()),
           ("many keys", sealed(json.dumps(dict(d, **{"k%d" % i: i for i in range(3000)})) + "\n"))]
    wrong = ("80", 80.5, True, None, [], {}, 2 ** 70, -1, "x" * 100)
    for key in list(d):
        for w in wrong:
            text = json.dumps(dict(d, **{key: w})) + "\n"
            out.append(("%s = %s" % (key, json.dumps(w)[:12]), sealed(text)))
    if name == "settings.json":
        for field, w in (("players", "2"), ("variant", 7), ("seats", "human"), ("seats", [1, None]),
                         ("options", []), ("options", {"target": "61x"}), ("teams", 1.5), ("players", True)):
            last = dict(d.get("last", {}), **{field: w})
            out.append(("last.%s = %s" % (field, json.dumps(w)[:12]),
                        json.dumps(dict(d, last=last)).encode() + b"\n"))     # older format: no sum line
    else:
        out.append(("row of strings", sealed(json.dumps(dict(d, draw=["1", "1", "0", "1", "1"])) + "\n")))
        out.append(("row too long", sealed(json.dumps(dict(d, draw=[1] * 5000)) + "\n")))
    return out


def save_variants(good):
    text = body(good)
    out = [("names line 60,000", sealed(text.replace("names You,Ann", "names " + "x" * 60000))),
           ("3000 header lines", sealed(text.replace("sheet \n", "sheet \n" + "pad 1\n" * 3000))),
           ("40 KB of rounds", sealed(text + ("round\n" * 8000))),
           ("nested names", sealed(text.replace("names You,Ann", "names " + "," * 3000))),
           ("nested options", sealed(text.replace("options ", "options " + "a=" * 1500 + "1")))]
    for old, new in (("players 2", "players x"), ("players 2", "players 9"), ("seed ", "seed !!"),
                     ("teams 0", "teams 7"), ("seats human,easy", "seats human"),
                     ("seats human,easy", "seats god,easy"), ("variant draw", "variant 5"),
                     ("names You,Ann", "names " + "y" * 40 + ",Ann"), ("sheet ", "sheet x;{}")):
        out.append(("mistyped " + new[:16], sealed(text.replace(old, new, 1))))
    for v in ("0", "yes", "1" * 40):     # (only "practice 1" is written: it decides what is counted)
        bad = text.replace("sheet \n", "sheet \npractice " + v + "\n", 1)
        out.append(("mistyped practice " + v[:8], sealed(bad)))
    i = text.index("round ")
    out.append(("mistyped move", sealed(text[:i] + "round 99L " + text[i + 6:])))
    return out


def common_variants(good, name):
    rnd = bytes((i * 7919 + 13) & 0xFF for i in range(4096))
    out = [("CRLF, its sum", sealed(body(good).replace("\n", "\r\n")) if b"\nsum " in good else
            good.replace(b"\n", b"\r\n")),
           ("CRLF, old sum", good.replace(b"\n", b"\r\n")),
           ("empty", b""), ("NUL bytes", b"\0" * 300), ("binary", rnd),
           ("1 MB", b"abcdefghij" * 100000)]
    if name.endswith(".log"):
        out.append(("one line of 100 KB", b"memory #1 " + b"x" * 100000 + b"\n"))
    return out


SPECIAL = ("directory", "directory with a file", "/dev/zero", "/dev/null", "/dev/urandom", "a FIFO")


def make_special(path, kind):
    if kind == "directory":
        os.mkdir(path)
    elif kind == "directory with a file":
        os.makedirs(os.path.join(path, "inner"))
    elif kind == "a FIFO":
        os.mkfifo(path)
    else:
        os.symlink(kind, path)


def file_cases(work, live, done_game):
    """The boot cases: every variant of every data file in a folder of good files."""
    cases = []
    good_txt = body(live["game.txt"])
    good_bak = body(live["game.bak"])
    n = 0
    for name in FILES:
        good = live.get(name) or live["game.txt"]     # a .tmp: a save half-written looks like a save
        variants = common_variants(good, name)
        if name.endswith(".json"):
            variants += json_variants(name, good)
        elif name.startswith("game."):
            variants += save_variants(good)
        for what in [("special", k) for k in SPECIAL] + variants:
            d = os.path.join(work, "f%d" % n)
            n += 1
            os.makedirs(d)
            for f, data in live.items():
                if f != name:
                    with open(os.path.join(d, f), "wb") as fh:
                        fh.write(data)
            if what[0] == "special":
                make_special(os.path.join(d, name), what[1])
                label = what[1]
            else:
                label, data = what
                with open(os.path.join(d, name), "wb") as fh:
                    fh.write(data)
            want, alt = good_txt, good_bak
            cases.append({"root": d, "group": name, "label": name + " " + label, "want": want, "alt": alt})
    for label in ("binary", "empty", "directory"):           # both saves unusable: a clean start
        d = os.path.join(work, "f%d" % n)
        n += 1
        os.makedirs(d)
        for f, data in live.items():
            if not f.startswith("game."):
                with open(os.path.join(d, f), "wb") as fh:
                    fh.write(data)
        for f in ("game.txt", "game.bak"):
            if label == "directory":
                os.mkdir(os.path.join(d, f))
            else:
                with open(os.path.join(d, f), "wb") as fh:
                    fh.write(b"" if label == "empty" else bytes(range(256)))
        cases.append({"root": d, "group": "both saves", "label": "both saves " + label})
    return cases


# --- the proof ---------------------------------------------------------------------------------------
def proof(stride=1, work=None, mpy=None, parts=("play", "finish", "files"), offset=0, verbose=False,
          file_stride=1):
    """Run the parts; returns {"cases", "groups": {group: {outcome: n}}, "failures", ...}."""
    own = work is None
    work = work or tempfile.mkdtemp(prefix="faults-")
    t0 = time.time()
    try:
        if mpy is None:
            mpy = frames.build_mpy(os.path.join(work, "mpy"))[:2]
        out = {"cases": 0, "groups": {}, "failures": [], "ops": {}, "said": {}}
        if "play" in parts or "finish" in parts:
            prep = good_files(os.path.join(work, "prep_finished"), finished=True)
            import store
            played = store.Store(os.path.join(work, "prep_finished")).load_stats()[0]["draw"][0]
            for session in ("play", "finish"):
                if session not in parts:
                    continue
                job = {"mode": "ops", "session": session, "root": os.path.join(work, "ops_" + session),
                       "stride": stride, "offset": offset, "vid": "draw", "played": played}
                if session == "finish":
                    job["prep"] = {k: v.decode("latin-1") for k, v in prep.items()}
                os.makedirs(job["root"], exist_ok=True)
                got = run(job, mpy)
                out["cases"] += got["cases"]
                for err, kinds in got["kinds"].items():
                    out["groups"]["%s session, %s" % (session, err)] = kinds
                out["failures"] += ["%s session: %s" % (session, f) for f in got["failures"]]
                out["ops"][session] = {"total": got.get("ops"), "by kind": got.get("op_kinds")}
                out["said"][session] = {"Game saved": got.get("said_saved"),
                                        "Not saved": got.get("said_not_saved"), "Undone": got.get("undone")}
        if "files" in parts:
            live = good_files(os.path.join(work, "prep"))
            cases = file_cases(os.path.join(work, "files"), live, None)[offset % file_stride::file_stride]
            got = run({"mode": "boot", "cases": cases, "verbose": verbose}, mpy)
            if verbose:
                print(got.get("_log", ""))
            out["cases"] += got["cases"]
            for g, kinds in got["kinds"].items():
                out["groups"]["file " + g] = kinds
            out["failures"] += got["failures"]
        out["seconds"] = time.time() - t0
        return out
    finally:
        if own:
            shutil.rmtree(work, ignore_errors=True)


def tally(out):
    """(resumed, clean starts, failed) over every case."""
    resumed = clean = failed = 0
    for kinds in out["groups"].values():
        for k, n in kinds.items():
            if k.startswith("FAILED"):
                failed += n
            elif k.startswith("resumed") or k.startswith("counted") or k.startswith("not counted"):
                resumed += n
            else:
                clean += n
    return resumed, clean, failed


def report(out):
    resumed, clean, failed = tally(out)
    lines = ["fault injection: %d cases in %.0f s: %d resumed the last save (or counted a finished match), "
             "%d clean starts, %d failed; anything lost: %d"
             % (out["cases"], out["seconds"], resumed, clean, failed, failed)]
    for s, ops in sorted(out["ops"].items()):
        said = out["said"][s]
        lines.append("  %s session: %s file operations %s; said 'Game saved' %s times, 'Not saved' %s times"
                     % (s, ops["total"], ops["by kind"], said["Game saved"], said["Not saved"]))
    from tools.proofs.powercut import outcome_lines
    return "\n".join(lines + outcome_lines(out["groups"], out["failures"]))


def main(argv=None):
    ap = cli.parser("faults", description=__doc__.split("\n")[0])
    ap.add_argument("--stride", type=cli.typed(cli.whole, 1, 1000), default=1,
                    help="every Nth operation case (the files part is always whole)")
    ap.add_argument("--parts", default="play,finish,files", help="play, finish, files (comma separated)")
    ap.add_argument("-v", "--verbose", action="store_true", help="every file case's outcome")
    a = ap.parse_args(argv)
    parts = a.parts.split(",")
    if not parts or any(p not in ("play", "finish", "files") for p in parts):
        ap.error("--parts takes play, finish, files")
    if frames.find() is None:
        return cli.say("faults", "no micropython binary (make venv)")
    out = proof(a.stride, parts=parts, verbose=a.verbose)
    print(report(out))
    return 1 if out["failures"] or tally(out)[2] else 0


if __name__ == "__main__":
    sys.exit(main())
