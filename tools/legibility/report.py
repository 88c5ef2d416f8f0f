"""How big the text and the pips are on the real panels: every board's UI is driven through its
screens in the simulator (tools/legibility/record.py under MicroPython, seeded), every text and tile
the drawing layer draws is recorded, and the sizes are converted to millimetres with the board's
pixel pitch (boards/<board>.py PITCH_UM).

The rule (docs/UI.md, "Legibility"): capitals at least 1.2 mm tall (on the OLED the 7-px font's
1.19 mm counts), pips of the hand's tiles and of the table's at least 0.4 mm across (the OLED: 2 px),
and every text whole on the screen.

Usage: python -m tools.legibility.report [--seed N]   prints the table per board and screen.
"""
import argparse
import json
import os
import subprocess
import sys
import tempfile

from tools import paths

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))

BOARDS = ("waveshare_lcd13", "pimoroni_pack", "pimoroni_pack2", "oled_diy")
CAPS_UM = 1200
OLED_CAPS_PX = 7           # the OLED's 7-px capitals (1.19 mm) meet the text rule
PIP_UM = 400
OLED_PIP_PX = 2            # the OLED's pips: its panel's limit


def record(profile, seed=7, micropython=None):
    """record.py's JSON for one board."""
    if micropython is None:
        from tools.find_micropython import find
        micropython = find()
    env = paths.env()
    for k in list(env):
        if k.startswith("PICO_SIM_"):
            env.pop(k)
    with tempfile.TemporaryDirectory(prefix="legibility-") as data:
        r = subprocess.run([micropython, "-X", "heapsize=400K", os.path.join(HERE, "record.py"),
                            profile, str(seed), data], env=env, cwd=ROOT, capture_output=True,
                           text=True, timeout=300)
    if r.returncode != 0:
        raise RuntimeError("record.py %s failed: %s" % (profile, r.stderr.strip()[-400:]))
    return json.loads(r.stdout.strip().splitlines()[-1])


def text_ok(rec, caps_px):
    if rec["profile"] == "oled_diy" and caps_px >= OLED_CAPS_PX:
        return True
    return caps_px * rec["pitch_um"] >= CAPS_UM


def pip_ok(rec, z):
    if rec["profile"] == "oled_diy":
        return z >= OLED_PIP_PX
    return z * rec["pitch_um"] >= PIP_UM


def misfits(rec):
    """Texts not whole on the screen: [(screen, text, x, y)]."""
    out = []
    for scr, s, x, y, w, h, _caps in rec["texts"]:
        if x < 0 or y < 0 or x + w > rec["w"] or y + h > rec["h"]:
            out.append((scr, s, x, y))
    return out


def summary(rec):
    """{screen: {"caps": smallest capital px, "pip_hand": px, "pip_table": px}} (None: none seen)."""
    out = {}
    for scr, _s, _x, _y, _w, _h, caps in rec["texts"]:
        d = out.setdefault(scr, {"caps": None, "pip_hand": None, "pip_table": None})
        d["caps"] = caps if d["caps"] is None else min(d["caps"], caps)
    for scr, where, _s, z, _gap in rec["tiles"]:
        d = out.setdefault(scr, {"caps": None, "pip_hand": None, "pip_table": None})
        k = "pip_" + where
        d[k] = z if d[k] is None else min(d[k], z)
    return out


def failures(rec):
    """{screen: [what breaks the rule]} for one board's recording."""
    out = {}
    for scr, d in summary(rec).items():
        bad = []
        if d["caps"] is not None and not text_ok(rec, d["caps"]):
            bad.append("text")
        for k in ("pip_hand", "pip_table"):
            if d[k] is not None and not pip_ok(rec, d[k]):
                bad.append(k)
        if bad:
            out[scr] = bad
    for scr, _s, _x, _y in misfits(rec):
        out.setdefault(scr, [])
        if "fit" not in out[scr]:
            out[scr].append("fit")
    return out


def mm(px, pitch):
    return "-" if px is None else "%d px = %.2f mm" % (px, px * pitch / 1000.0)


def table(recs):
    lines = ["| board | screen | smallest capitals | hand pips | table pips | breaks |",
             "|---|---|---|---|---|---|"]
    for rec in recs:
        p = rec["pitch_um"]
        bad = failures(rec)
        for scr, d in sorted(summary(rec).items()):
            lines.append("| %s | %s | %s | %s | %s | %s |" % (
                rec["profile"], scr, mm(d["caps"], p), mm(d["pip_hand"], p), mm(d["pip_table"], p),
                ", ".join(bad.get(scr, [])) or "-"))
    return "\n".join(lines)


def main(argv=None):
    ap = argparse.ArgumentParser(description="Text and pip sizes in mm on every board's panel.")
    ap.add_argument("--seed", type=int, default=7)
    a = ap.parse_args(argv)
    recs = [record(b, a.seed) for b in BOARDS]
    print(table(recs))
    for rec in recs:
        for scr, s, x, y in misfits(rec):
            print("%s %s: %r at %d,%d leaves the screen" % (rec["profile"], scr, s, x, y))
    return 0


if __name__ == "__main__":
    sys.exit(main())
