"""The font and language fault proof, smoke set (make test; the whole set is `make soak-filefaults`,
tools/proofs/filefaults.py). The real app under the MicroPython unix port, on every board the
simulator mimics, booted normally and with B held, with a board's font, the language file or the
Russian rules help damaged: the named damages of the issue every time (a font emptied, cut to 10
bytes, of a bad magic or version, 0x0 or 255x255, 65,535 glyphs, missing; a translation's {0}
turned {1}, doubled, named, a stray brace, two swapped; the help not UTF-8), and a different slice
of the rest each run (the offset comes from the clock and is printed). Each resumes the saved
game and plays it, with a one-line note where a file could not be used; the safe start opens none
of these files; no error page, no traceback.
"""
import time

import pytest

from tools.proofs import filefaults
from tools.proofs.harness import frames

pytestmark = pytest.mark.skipif(frames.find() is None, reason="no micropython binary")

STRIDE = 97
NAMED = ("bin empty", "cut to 10 bytes", "bad magic", "version 2", "width and height 0 ",
         "width and height 255",
         "65,535 code points", "bin missing", "Stock {1}", "Stock {0}{0}", "Stock {x}", "Stock {",
         "two translations swapped", "first line not UTF-8", "help_ru.txt missing")


def test_file_fault_smoke(tmp_path, capsys):
    offset = int(time.time()) % STRIDE
    with capsys.disabled():
        print("\nfile faults smoke: every %d-th case from %d (replay: filefaults.proof(%d, %d))"
              % (STRIDE, offset, STRIDE, offset))
    out = filefaults.proof(STRIDE, offset, work=str(tmp_path), also=NAMED)
    text = filefaults.report(out)
    print(text)
    assert out["failures"] == [] and filefaults.failed(out) == 0 and out["tracebacks"] == 0, text
    groups = out["groups"]
    assert len([g for g in groups if g.startswith("font ")]) == 4, text      # every board's font
    outcomes = {k for kinds in groups.values() for k in kinds}
    for want in ("8x8 font, English, noted", "safe start, resumed", "Russian, lines dropped, noted",
                 "English, noted", "English help, noted"):
        assert want in outcomes, text
    assert out["cases"] > 150, text
