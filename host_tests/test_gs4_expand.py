"""The colour boards' frame expansion (boards/_gs4.py): the viper `expand` the device runs (and the
unix port) and its plain-Python twin `expand_py` (CPython, the browser) give the same RGB565 bytes
for every length (the viper loop takes four bytes a pass, then the rest one by one) and offset."""
import os
import subprocess

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

PROBE = r"""
from boards import _gs4 as gs4
lut = gs4.make_lut([(i * 4099 + 77) & 0xFFFF for i in range(16)])
src = bytearray((i * 37 + 11) & 0xFF for i in range(400))
bad = []
runs = 0
for n in list(range(0, 18)) + [119, 120, 121, 160, 163]:
    for off in (0, 1, 3, 7, 200):
        a = bytearray(4 * n + 8)
        b = bytearray(4 * n + 8)
        gs4.expand(src, a, lut, off << 16 | n)
        gs4.expand_py(src, b, lut, off << 16 | n)
        runs += 1
        if a != b:
            bad.append((n, off))
print(runs, gs4.expand is not gs4.expand_py, bad)
"""


def test_the_viper_expansion_matches_its_twin(micropython):
    env = dict(os.environ, MICROPYPATH=ROOT)
    r = subprocess.run([micropython, "-c", PROBE], cwd=ROOT, env=env, capture_output=True, text=True,
                       timeout=60)
    assert r.returncode == 0, r.stderr
    assert r.stdout.split() == ["115", "True", "[]"], r.stdout   # 23 lengths x 5 offsets, natively
