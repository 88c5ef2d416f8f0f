"""How big the text and the pips are on the real panels: every board's UI is driven through its
screens in the simulator (tools/legibility/record.py under MicroPython, seeded), every text and tile
the drawing layer draws is recorded, and the sizes are converted to millimetres with the board's
pixel pitch (boards/<board>.py PITCH_UM).

The rule (docs/UI.md, "Legibility"): capitals at least 1.2 mm tall (on the OLED the 7-px font's
1.19 mm counts), pips of the hand's tiles and of the open ends at least 0.4 mm across (the OLED:
2 px) with at least half a pip between them, and every text whole on the screen, over no other
text of its frame.

Usage: python -m tools.legibility.report [--seed N]   prints the table per board and screen.
"""
import json
import os
import subprocess
import sys
import tempfile

from tools import cli, paths

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))

BOARDS = ("waveshare_lcd13", "pimoroni_pack", "pimoroni_pack2", "oled_diy")
CAPS_UM = 1200
OLED_CAPS_PX = 7           # the OLED's 7-px capitals (1.19 mm) meet the text rule
PIP_UM = 400
OLED_PIP_PX = 2            # the OLED's pips: its panel's limit


def record(profile, seed=7, micropython=None, lang="en", shots=False):
    """record.py's JSON for one board, its screens in `lang` (shots: with each screen's first whole
    frame, "shots": {screen: hex bytes}; tools/legibility/gallery.py)."""
    if micropython is None:
        from tools.find_micropython import find
        micropython = find()
    env = paths.env()
    for k in list(env):
        if k.startswith("PICO_SIM_"):
            env.pop(k)
    with tempfile.TemporaryDirectory(prefix="legibility-") as data:
        r = subprocess.run([micropython, "-X", "heapsize=8M", os.path.join(HERE, "record.py"),
                            profile, str(seed), data, lang, "1" if shots else "0"], env=env, cwd=ROOT,
                           capture_output=True,
                           text=True, timeout=300)
    if r.returncode != 0:
        raise RuntimeError("record.py %s failed: %s" % (profile, r.stderr.strip()[-400:]))
    lines = r.stdout.strip().splitlines()
    out = json.loads(lines[-1])
    if shots:
        out["shots"] = dict((ln.split()[1].replace("_", " "), ln.split()[2]) for ln in lines
                            if ln.startswith("SHOT "))
    return out


def text_ok(rec, caps_px):
    if rec["profile"] == "oled_diy" and caps_px >= OLED_CAPS_PX:
        return True
    return caps_px * rec["pitch_um"] >= CAPS_UM


def pip_ok(rec, z):
    if rec["profile"] == "oled_diy":
        return z >= OLED_PIP_PX
    return z * rec["pitch_um"] >= PIP_UM


def misfits(rec):
    """Texts not whole on the screen, over another text drawn in the same frame, or with a letter
    the font in use lacks (framebuf's 8x8 font has ASCII only): [(screen, text, x, y, why)]."""
    out = []
    for scr, s in {tuple(u) for u in rec.get("unglyphed", ())}:
        out.append((scr, s, 0, 0, "a letter its font lacks"))
    frames = {}
    for scr, s, x, y, w, h, _caps, f in rec["texts"]:
        if x < 0 or y < 0 or x + w > rec["w"] or y + h > rec["h"]:
            out.append((scr, s, x, y, "leaves the screen"))
        frames.setdefault(f, []).append((scr, s, x, y, w, h))
    seen = set()
    for boxes in frames.values():
        for i, (scr, s, x, y, w, h) in enumerate(boxes):
            for s2, x2, y2, w2, h2 in [b[1:] for b in boxes[i + 1:]]:
                if (x, y, s) == (x2, y2, s2):
                    continue                     # the same text drawn again (a region redrawn)
                if x < x2 + w2 and x2 < x + w and y < y2 + h2 and y2 < y + h:
                    key = (scr, s, s2)
                    if key not in seen:
                        seen.add(key)
                        out.append((scr, s, x, y, "overlaps %r" % s2))
    return out


def summary(rec):
    """{screen: {"caps": smallest capital px, "pip_hand", "pip_ends", "pip_table": px}} (None:
    none seen)."""
    out = {}
    blank = {"caps": None, "pip_hand": None, "pip_ends": None, "pip_table": None}
    for scr, _s, _x, _y, _w, _h, caps, _f in rec["texts"]:
        d = out.setdefault(scr, dict(blank))
        d["caps"] = caps if d["caps"] is None else min(d["caps"], caps)
    for scr, where, _s, z, _gap in rec["tiles"]:
        d = out.setdefault(scr, dict(blank))
        k = "pip_" + where
        d[k] = z if d[k] is None else min(d[k], z)
    return out


def gaps_ok(rec):
    """{(screen, where)} of tiles whose pips have less than half a pip (at least 1 px) between."""
    bad = set()
    for scr, where, _s, z, gap in rec["tiles"]:
        if where in ruled(rec) and gap < max(1, z // 2 if z > 2 else 1):
            bad.add((scr, where))
    return bad


def ruled(rec):
    """The tiles whose pips the rule covers: the hand's and the open ends' (a board that shows the
    open ends in their own row may draw the table's other tiles smaller; one that does not, all
    of the table's)."""
    return ("hand", "ends") if rec.get("ends_row") else ("hand", "ends", "table")


def failures(rec):
    """{screen: [what breaks the rule]} for one board's recording."""
    out = {}
    for scr, d in summary(rec).items():
        bad = []
        if d["caps"] is not None and not text_ok(rec, d["caps"]):
            bad.append("text")
        for where in ruled(rec):
            k = "pip_" + where
            if d[k] is not None and not pip_ok(rec, d[k]):
                bad.append(k)
        if bad:
            out[scr] = bad
    for scr, where in gaps_ok(rec):
        out.setdefault(scr, []).append("gap_" + where)
    for scr, _s, _x, _y, _why in misfits(rec):
        out.setdefault(scr, [])
        if "fit" not in out[scr]:
            out[scr].append("fit")
    return out


def mm(px, pitch):
    return "-" if px is None else "%d px = %.2f mm" % (px, px * pitch / 1000.0)


def table(recs):
    lines = ["| board | screen | smallest capitals | hand pips | open ends' pips | table pips | breaks |",
             "|---|---|---|---|---|---|---|"]
    for rec in recs:
        p = rec["pitch_um"]
        bad = failures(rec)
        for scr, d in sorted(summary(rec).items()):
            lines.append("| %s | %s | %s | %s | %s | %s | %s |" % (
                rec["profile"], scr, mm(d["caps"], p), mm(d["pip_hand"], p), mm(d["pip_ends"], p),
                mm(d["pip_table"], p),
                ", ".join(bad.get(scr, [])) or "-"))
    return "\n".join(lines)


def main(argv=None):
    ap = cli.parser("python -m tools.legibility.report",
                    description="Text and pip sizes in mm on every board's panel.")
    ap.add_argument("--seed", type=cli.typed(cli.whole, 0, cli.MAX_SEED), default=7,
                    help="deal seed (default 7)")
    a = ap.parse_args(argv)
    recs = [record(b, a.seed) for b in BOARDS]
    print(table(recs))
    for rec in recs:
        for scr, s, x, y, why in misfits(rec):
            print("%s %s: %r at %d,%d %s" % (rec["profile"], scr, s, x, y, why))
    return 0


if __name__ == "__main__":
    sys.exit(main())
