"""The font and language fault proof: the real app booted with a file it reads besides its data
damaged, as the flash proof (tools/proofs/faults.py) does with the data files.

Every board's font file (the one its panel's pitch picks: fonts/f10x20.bin, f10x18, f8x14, and the
OLED's f6x12 for Russian), the language file (lang/ru.txt) and the Russian rules help
(ui/help_ru.txt), each damaged in turn: emptied, cut (to 10 bytes, to its header, in half, by one
byte), grown, missing, a folder in its place, noise; a font's magic, version, width and height
(0, 255, over the budget yet consistent), glyph count (0, 65,535), command length, code points
(out of order, repeated, in too many runs) wrong, and a bit flipped at every byte of its header;
a translation's placeholders shifted, repeated, named, extra or missing, a stray brace, two
translations swapped, every translation moved one line on, not UTF-8, a line over 1 KB, the file
over 64 KB; a help section's line not UTF-8, over 1 KB, its header lost; and a bit flipped at every
byte of one line (the language file's "Stock {0}", the help's first rules line). Each case is
booted normally and with B held (the safe start) on the boards it concerns, in English and in
Russian where the file serves both (tools/proofs/harness/filefaults.py says what each must do):
the saved game resumes and is played, with a one-line note where a file could not be used; the
safe start opens none of these files; no error page and no traceback, ever.

    python -m tools.proofs.filefaults                 # everything: make soak-filefaults (make soak)
    python -m tools.proofs.filefaults --stride 25     # every 25th case (the smoke set: make test)

Prints the figures (cases, outcomes by group, time); exit status 1 on any failure.
"""
import json
import os
import shutil
import struct
import subprocess
import sys
import tempfile
import time

from tools import cli
from tools.proofs.harness import frames

HARNESS = os.path.join(frames.HERE, "filefaults.py")
# the boards the simulator mimics, at their own sizes (boards/sim.py SIZE_BOARDS, SIZES)
BOARDS = (("waveshare_lcd13", "240x240"), ("pimoroni_pack", "240x135"), ("pimoroni_pack2", "320x240"),
          ("oled_diy", "128x64"))
LANG = "lang/ru.txt"
HELP = "ui/help_ru.txt"
HELP_LINE = b"[draw]\n"          # the section of the saved game's variant: its first line is flipped
LANG_LINE = b"Stock {0}\t"       # the line flipped at every byte (shown on every table)
CHUNK = 400                      # cases a harness process runs
BITS = (0x01, 0x02, 0x04, 0x08, 0x10, 0x20, 0x40, 0x80)


def noise(n, seed=13):
    return bytes((i * 7919 + seed * 31 + (i >> 3)) & 0xFF for i in range(n))


def header(data, **kw):
    """A font file with header fields changed (tools/fonts/build.py's layout)."""
    ver, w, h, base, caps, top, n, L = struct.unpack_from("<BBBBBBHH", data, 4)
    f = dict(ver=ver, w=w, h=h, base=base, caps=caps, top=top, n=n, L=L)
    f.update(kw)
    return data[:4] + struct.pack("<BBBBBBHH", f["ver"], f["w"], f["h"], f["base"], f["caps"], f["top"],
                                  f["n"], f["L"]) + data[14:]


def consistent(w, h, cps, L=0):
    """A font file whose size is what its header says: w x h cells, these code points."""
    stride = (w + 7) // 8 * h
    return (b"PDFN" + struct.pack("<BBBBBBHH", 1, w, h, h - 2, h // 2, 2, len(cps), L) + b"c" * L +
            b"".join(struct.pack("<H", cp) for cp in cps) + b"\x55" * (stride * len(cps)))


def font_variants(good):
    ver, w, h, base, caps, top, n, L = struct.unpack_from("<BBBBBBHH", good, 4)
    cps_at = 14 + L
    out = [("missing", None), ("a folder", "<dir>"), ("empty", b""), ("cut to 10 bytes", good[:10]),
           ("cut to its header", good[:14]), ("cut in half", good[:len(good) // 2]),
           ("one byte short", good[:-1]), ("one byte more", good + b"\0"),
           ("1 MB longer", good + b"\0" * (1 << 20)), ("noise", noise(len(good))),
           ("noise after the magic", b"PDFN\x01" + noise(len(good) - 5)),
           ("bad magic", b"XDFN" + good[4:]), ("version 0", header(good, ver=0)),
           ("version 2", header(good, ver=2)),
           ("width 0", header(good, w=0)), ("height 0", header(good, h=0)),
           ("width and height 0", header(good, w=0, h=0)),
           ("width and height 255", header(good, w=255, h=255)),
           ("width 255", header(good, w=255)), ("caps 0", header(good, caps=0)),
           ("caps 255", header(good, caps=255)), ("0 code points", header(good, n=0)),
           ("65,535 code points", header(good, n=65535)), ("one code point more", header(good, n=n + 1)),
           ("command length 65,535", header(good, L=65535)), ("command length 0", header(good, L=0)),
           ("255x255, its size to match", consistent(255, 255, [32])),
           ("33x33, its size to match", consistent(33, 33, list(range(32, 127)))),
           ("600 code points, its size to match", consistent(6, 12, list(range(32, 632)))),
           ("code points in 64 runs", consistent(6, 12, list(range(32, 160, 2)))),
           ("code points out of order",
            good[:cps_at] + good[cps_at + 2:cps_at + 4] + good[cps_at:cps_at + 2] + good[cps_at + 4:]),
           ("code points repeated", good[:cps_at] + good[cps_at:cps_at + 2] * 2 + good[cps_at + 4:]),
           ("command text noise", good[:14] + noise(L) + good[14 + L:]),
           ("glyphs noise", good[:cps_at + 2 * n] + noise(len(good) - cps_at - 2 * n))]
    for at in range(14):
        for bit in BITS:
            out.append(("header byte %d ^ %02x" % (at, bit), flip(good, at, bit)))
    for at in (cps_at, cps_at + 1, cps_at + 2 * 60, cps_at + 2 * n - 1, cps_at + 2 * n + 5, len(good) - 1):
        out.append(("byte %d ^ 80" % at, flip(good, at, 0x80)))
    return out


def flip(data, at, bit):
    return data[:at] + bytes([data[at] ^ bit]) + data[at + 1:]


def lang_lines(good):
    return good.decode("utf-8").split("\n")[:-1]


def relang(lines, f):
    """The language file with f(english, translation) -> translation applied to every line."""
    out = []
    for ln in lines:
        k, v = ln.split("\t")
        out.append(k + "\t" + f(k, v))
    return ("\n".join(out) + "\n").encode("utf-8")


def stock(lines, new):
    return relang(lines, lambda k, v: new if k == "Stock {0}" else v)


def shift(v):
    for i in (3, 2, 1, 0):
        v = v.replace("{%d}" % i, "{%d}" % (i + 1))
    return v


def lang_variants(good):
    lines = lang_lines(good)
    keys = [ln.split("\t")[0] for ln in lines]
    two = keys.index("{0} drew {1}")
    swapped = list(lines)
    a, b = keys.index("Stock {0}"), two
    swapped[a] = keys[a] + "\t" + lines[b].split("\t")[1]
    swapped[b] = keys[b] + "\t" + lines[a].split("\t")[1]
    moved = [keys[i] + "\t" + lines[(i + 1) % len(lines)].split("\t")[1] for i in range(len(lines))]
    out = [("missing", None), ("a folder", "<dir>"), ("empty", b""), ("cut to 10 bytes", good[:10]),
           ("cut in half", good[:len(good) // 2]), ("noise", noise(len(good))),
           ("noise in lines", b"\n".join(noise(40, i) for i in range(300)) + b"\n"),
           ("1 MB", b"Back\tx\n" * 150000), ("over 64 KB", good * 4),
           ("a line over 1 KB", good.replace(b"Stock {0}\t", b"Stock {0}\t" + b"x" * 2000, 1)),
           ("CRLF", good.replace(b"\n", b"\r\n")), ("a byte-order mark", b"\xef\xbb\xbf" + good),
           ("not UTF-8 in one line", good.replace("Базар".encode(), b"\xd0\xc0\xff\xfe", 1)),
           ("not UTF-8 in every line", good.replace(b"\t", b"\t\xff")),
           ("a line without its tab", good.replace(b"Stock {0}\t", b"Stock {0} ", 1)),
           ("Stock {1}", stock(lines, "Базар {1}")), ("Stock {0}{0}", stock(lines, "Базар {0}{0}")),
           ("Stock {x}", stock(lines, "Базар {x}")), ("Stock {", stock(lines, "Базар {")),
           ("Stock }", stock(lines, "Базар }")), ("Stock {0", stock(lines, "Базар {0")),
           ("Stock {0} {1}", stock(lines, "Базар {0} {1}")), ("Stock {}", stock(lines, "Базар {}")),
           ("Stock without {0}", stock(lines, "Базар")), ("Stock {0:>9999}", stock(lines, "Базар {0:>9999}")),
           ("Stock {0[0]}", stock(lines, "Базар {0[0]}")), ("Stock {0!r}", stock(lines, "Базар {0!r}")),
           ("Stock {{0}}", stock(lines, "Базар {{0}}")), ("Stock empty", stock(lines, "")),
           ("every placeholder shifted", relang(lines, lambda k, v: shift(v))),
           ("every placeholder doubled", relang(lines, lambda k, v: v.replace("{0}", "{0}{0}"))),
           ("every placeholder named", relang(lines, lambda k, v: v.replace("{0}", "{name}"))),
           ("a stray { in every line", relang(lines, lambda k, v: v + " {")),
           ("a stray } in every line", relang(lines, lambda k, v: "} " + v)),
           ("an extra placeholder in every line", relang(lines, lambda k, v: v + " {9}")),
           ("two translations swapped", ("\n".join(swapped) + "\n").encode("utf-8")),
           ("every translation one line on", ("\n".join(moved) + "\n").encode("utf-8"))]
    at = good.index(LANG_LINE)
    end = good.index(b"\n", at) + 1
    for i in range(at, end):
        for bit in BITS:
            out.append(("Stock line byte %d ^ %02x" % (i - at, bit), flip(good, i, bit)))
    return out


def help_variants(good):
    at = good.index(HELP_LINE) + len(HELP_LINE)
    end = good.index(b"\n", at) + 1
    out = [("missing", None), ("a folder", "<dir>"), ("empty", b""), ("cut to 10 bytes", good[:10]),
           ("cut in half", good[:len(good) // 2]), ("cut before its section", good[:at - len(HELP_LINE)]),
           ("noise", noise(len(good))), ("1 MB without a line break", b"x" * (1 << 20)),
           ("its section's first line not UTF-8", good[:at] + b"\xff\xfe" + good[at:]),
           ("another section not UTF-8", good.replace(b"[block]\n", b"[block]\n\xc3\x28", 1)),
           ("its section over 1 KB in a line", good[:at] + b"x" * 3000 + good[at:]),
           ("its section of 10,000 lines", good[:at] + b"x\n" * 10000 + good[at:]),
           ("its header lost", good.replace(HELP_LINE, b"[drw]\n", 1)),
           ("CRLF", good.replace(b"\n", b"\r\n"))]
    for i in range(at, end):
        for bit in (0x01, 0x80) if i - at > 12 else BITS:
            out.append(("rules line byte %d ^ %02x" % (i - at, bit), flip(good, i, bit)))
    return out


def cases(fw, work):
    """Every case: the damaged file written to work/cases, the boots that concern it."""
    from tools.deploy import main as deploy
    os.makedirs(os.path.join(work, "cases"), exist_ok=True)
    out = []

    def add(group, target, label, data, boots):
        if data is None or data == "<dir>":
            src = data
        else:
            src = os.path.join(work, "cases", "%d.bin" % len(out))
            with open(src, "wb") as f:
                f.write(data)
        for board, size, lang in boots:
            for hold in (False, True):
                out.append({"group": group, "target": target, "src": src, "board": board, "size": size,
                            "lang": lang, "hold": hold,
                            "label": "%s %s (%s, %s%s)" % (target, label, board, lang,
                                                           ", B held" if hold else "")})

    for board, size in BOARDS:
        font = deploy.board_font(board)
        langs = ("ru",) if board == "oled_diy" else ("en", "ru")   # (the OLED's English: no font read)
        with open(os.path.join(fw, font), "rb") as f:
            good = f.read()
        for label, data in font_variants(good):
            add("font " + font, font, label, data, [(board, size, lang) for lang in langs])
    small = [("waveshare_lcd13", "240x240", "ru"), ("oled_diy", "128x64", "ru")]
    for target, variants in ((LANG, lang_variants), (HELP, help_variants)):
        with open(os.path.join(fw, target), "rb") as f:
            good = f.read()
        for label, data in variants(good):
            add(("lang " if target == LANG else "help ") + target, target, label, data, small)
    return out


def flash(d):
    """A game in progress, statistics, and settings.json for each language (settings.en, .ru)."""
    from tools.proofs import faults
    import store
    faults.good_files(d)
    st = store.Store(d)
    for code in ("en", "ru"):
        s, _ = st.load_settings()
        s["lang"] = code
        st.save_settings(s)
        shutil.copy(os.path.join(d, "settings.json"), os.path.join(d, "settings." + code))
    return d


def notes():
    """The lines the firmware says, as it says them (English, and Russian where it can)."""
    from tools.sim.ui_host import device_module
    gfx = device_module("ui.gfx")
    ru = {}
    with open(os.path.join(frames.FIRMWARE, LANG), encoding="utf-8") as f:
        for ln in f:
            k, v = ln.rstrip("\n").split("\t")
            ru[k] = v
    skipped = "Language: {0} lines skipped"
    return {"font": list(gfx._NO_FONT), "lang": ["Language file damaged", "Language file missing"],
            "skipped": [skipped, ru[skipped]], "help": ru["Help damaged: in English"]}


def proof(stride=1, offset=0, work=None, verbose=False, timeout=7200, only="", also=()):
    """Run every `stride`-th case from `offset` (of those whose label holds `only`), and every case
    whose label holds one of `also`; returns {"cases", "of", "groups", "failures", "tracebacks",
    "seconds"}."""
    own = work is None
    work = work or tempfile.mkdtemp(prefix="filefaults-")
    t0 = time.time()
    try:
        code, boards, _arch = frames.build_mpy(os.path.join(work, "mpy"))
        every = [c for c in cases(code, work) if only in c["label"]]
        chosen = [c for i, c in enumerate(every) if i % stride == offset % stride or
                  any(a in c["label"] for a in also)]
        job = {"fw": code, "flash": flash(os.path.join(work, "flash")), "work": work, "notes": notes(),
               "verbose": verbose}
        out = {"cases": 0, "of": len(every), "groups": {}, "failures": [], "tracebacks": 0, "stderr": ""}
        for at in range(0, len(chosen), CHUNK):
            got, err = run(dict(job, cases=chosen[at:at + CHUNK]), code, boards, timeout)
            out["cases"] += got["cases"]
            for g, kinds in got["kinds"].items():
                mine = out["groups"].setdefault(g, {})
                for k, n in kinds.items():
                    mine[k] = mine.get(k, 0) + n
            out["failures"] += got["failures"][:30 - len(out["failures"])]
            out["tracebacks"] += got["tracebacks"]
            out["stderr"] = out["stderr"] or err
        out["seconds"] = time.time() - t0
        return out
    finally:
        if own:
            shutil.rmtree(work, ignore_errors=True)


def run(job, code, boards, timeout):
    """One harness process on `job` (its cases a chunk: a process's heap holds its job); (its JSON
    answer with the tracebacks it printed counted, its stderr's end)."""
    path = os.path.join(job["work"], "job.json")
    with open(path, "w") as f:
        json.dump(job, f)
    env = frames.mp_env(code, boards, UI_JOB_FILE=path)
    res = subprocess.run([frames.find(), HARNESS], stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                         universal_newlines=True, timeout=timeout, env=env, cwd=frames.mp_cwd(code))
    lines = res.stdout.strip().split("\n")
    try:
        got = json.loads(lines[-1])
    except (ValueError, IndexError):
        raise RuntimeError("the file fault harness failed (rc %d):\n%s\n%s"
                           % (res.returncode, res.stdout[-3000:], res.stderr[-3000:]))
    if job["verbose"]:
        print("\n".join(lines[:-1]))
    got["tracebacks"] = res.stderr.count("Traceback") + res.stdout.count("Traceback")
    return got, res.stderr[-2000:]


def failed(out):
    return sum(n for kinds in out["groups"].values() for k, n in kinds.items() if k == "FAILED")


def report(out):
    lines = ["file faults: %d cases (of %d) in %.0f s: %d failed, %d tracebacks"
             % (out["cases"], out["of"], out["seconds"], failed(out), out["tracebacks"])]
    for g in sorted(out["groups"]):
        kinds = out["groups"][g]
        lines.append("  %s: %s" % (g, ", ".join("%s %d" % (k, n) for k, n in sorted(kinds.items()))))
    lines += ["  FAILED " + f for f in out["failures"]]
    if out["tracebacks"]:
        lines.append("  stderr: " + out["stderr"])
    return "\n".join(lines)


def main(argv=None):
    ap = cli.parser("filefaults", description=__doc__.split("\n")[0])
    ap.add_argument("--stride", type=cli.typed(cli.whole, 1, 1000), default=1, help="every Nth case")
    ap.add_argument("--offset", type=cli.typed(cli.whole, 0, 1000), default=0, help="the first case")
    ap.add_argument("--only", default="", help="only the cases whose label holds this text")
    ap.add_argument("-v", "--verbose", action="store_true", help="every case's outcome")
    a = ap.parse_args(argv)
    if frames.find() is None:
        return cli.say("filefaults", "no micropython binary (make venv)")
    out = proof(a.stride, a.offset, verbose=a.verbose, only=a.only)
    print(report(out))
    return 1 if out["failures"] or failed(out) or out["tracebacks"] else 0


if __name__ == "__main__":
    sys.exit(main())
