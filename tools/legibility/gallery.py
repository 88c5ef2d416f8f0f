"""Every screen on every board in a language, as pictures: the legibility recorder's key path
(tools/legibility/record.py: menus, forms and editors, the safe start, the first boot's question,
seeded games of solo Fives, Goat 2v2, pass-and-play Draw and Blitz with their game menu, move log,
score sheet, hint, curtain and round-end pages) keeps each screen's first whole frame; this writes
them as PNGs, docs/img/screens/<lang>/<board>/<screen>.png, and the table of them in docs/UI.md
between the markers `<!-- screens-<lang> -->` and `<!-- /screens-<lang> -->`.

  make screenshots                                     (English pictures, then this for Russian)
  python -m tools.legibility.gallery --lang ru [--out DIR] [--no-doc] [--boards oled_diy,...]
"""
import os
import re
import sys
import tempfile

from tools import cli
from tools.legibility import report, todo
from tools.paths import ROOT
from tools.proofs.harness import frames

OUT = os.path.join(ROOT, "docs", "img", "screens")
DOC = os.path.join(ROOT, "docs", "UI.md")
SCALE = {"oled_diy": 3}          # the colour boards at 2x, the 128x64 OLED at 3x (as the README's)
SIZES = {"waveshare_lcd13": "240×240", "pimoroni_pack2": "320×240", "pimoroni_pack": "240×135",
         "oled_diy": "128×64"}


def slug(screen):
    return re.sub(r"[^a-z0-9]+", "_", screen.lower()).strip("_")


def pictures(board, lang, out, micropython=None):
    """Record `board` in `lang` and write its screens' pictures into out/<lang>/<board>/: {screen:
    path}."""
    rec = report.record(board, 7, micropython, lang, shots=True)
    folder = os.path.join(out, lang, board)
    os.makedirs(folder, exist_ok=True)
    done = {}
    with tempfile.TemporaryDirectory(prefix="gallery-") as tmp:
        for screen, hexed in sorted(rec["shots"].items()):
            raw = os.path.join(tmp, "frame.bin")
            with open(raw, "wb") as f:
                f.write(bytes.fromhex(hexed))
            path = os.path.join(folder, slug(screen) + ".png")
            frames.save_png({"w": rec["w"], "h": rec["h"], "mono": rec["h"] == 64, "file": raw}, path,
                            SCALE.get(board, 2))
            done[screen] = path
    return done


def table(lang, shots, boards):
    """The markdown table: a row a screen (todo.SCREENS' order, then any other one a board has: the
    OLED's scores page), a column a board."""
    lines = ["| screen | " + " | ".join("%s (%s)" % (b, SIZES.get(b, "")) for b in boards) + " |",
             "|---|" + "---|" * len(boards)]
    more = sorted({s for b in boards for s in shots.get(b, {})} - set(todo.SCREENS))
    for screen in list(todo.SCREENS) + more:
        cells = []
        for b in boards:
            p = shots.get(b, {}).get(screen)
            cells.append("![](%s)" % os.path.relpath(p, os.path.dirname(DOC)).replace(os.sep, "/")
                         if p else "—")
        lines.append("| %s | %s |" % (screen, " | ".join(cells)))
    return "\n".join(lines)


def write_doc(lang, text, doc=DOC):
    """Put `text` between the language's markers in docs/UI.md (False when they are missing)."""
    with open(doc, encoding="utf-8") as f:
        s = f.read()
    a, b = "<!-- screens-%s -->" % lang, "<!-- /screens-%s -->" % lang
    if a not in s or b not in s:
        return False
    head, rest = s.split(a, 1)
    _, tail = rest.split(b, 1)
    with open(doc, "w", encoding="utf-8") as f:
        f.write(head + a + "\n" + text + "\n" + b + tail)
    return True


def boards_arg(name, text):
    """A comma-separated list of boards the recorder knows."""
    got = [b for b in text.split(",") if b]
    bad = [b for b in got if b not in report.BOARDS]
    if bad or not got:
        raise cli.BadArg("%s: not a board: %s (one or more of %s)" % (name or "--boards", ",".join(bad) or
                                                                    repr(text), ",".join(report.BOARDS)))
    return got


def main(argv=None):
    ap = cli.parser("gallery", description=__doc__.split("\n\n")[0])
    ap.add_argument("--lang", default="ru", choices=("en", "ru"))
    ap.add_argument("--out", type=cli.typed(cli.out_dir), default=OUT,
                    help="the pictures' folder (default docs/img/screens)")
    ap.add_argument("--boards", type=cli.typed(boards_arg), default=list(report.BOARDS),
                    help="comma-separated: " + ",".join(report.BOARDS))
    ap.add_argument("--no-doc", action="store_true", help="do not rewrite docs/UI.md's table")
    ap.add_argument("--micropython", default=None)
    args = ap.parse_args(argv)
    shots = {}
    for b in args.boards:
        shots[b] = pictures(b, args.lang, args.out, args.micropython)
        missing = [s for s in todo.SCREENS if s not in shots[b]]
        print("%s %s: %d screens%s" % (args.lang, b, len(shots[b]),
                                       " (not reached: %s)" % ", ".join(missing) if missing else ""))
    if not args.no_doc and not write_doc(args.lang, table(args.lang, shots, args.boards)):
        print("docs/UI.md has no <!-- screens-%s --> markers: the table was not written" % args.lang)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
