"""The make variables a person types (BOARD=, CHIP=, PORT=, the simulator's) cannot run commands: a
value that is not what its name says stops the real make with one line and a non-zero exit before
any recipe, and a good value reaches the tool through the environment, never pasted into a shell
line (mk/vars.mk)."""
import os
import shutil
import subprocess

import pytest

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
pytestmark = pytest.mark.skipif(shutil.which("make") is None, reason="no make")

HOSTILE = [
    ("build", 'BOARD=x"; touch {f}; echo "'),
    ("build", "BOARD=x`touch {f}`"),
    ("build", "BOARD=$(shell touch {f})"),
    ("build", "BOARD=x$$(touch {f})"),
    ("build", 'CHIP=rp2040"; touch {f}; echo "'),
    ("build", "CHIP=`touch {f}`"),
    ("deploy", 'BOARD=x"; touch {f}; echo "'),
    ("deploy", 'PORT=/dev/x"; touch {f}; echo "'),
    ("deploy", "PORT=`touch {f}`"),
    ("repl", "PORT=$(shell touch {f})"),
    ("run", "BOARD=a;touch {f}"),
    ("sim-shot", 'SEED=1"; touch {f}; echo "'),
    ("sim-shot", "SIZE=1x1;touch {f}"),
    ("sim", "VIEW=term;touch {f}"),
    ("sim", "ACTUAL=1;touch {f}"),
    ("sim", "ACTUAL=$(shell touch {f})"),
    ("sim", 'DPI=96"; touch {f}; echo "'),
    ("sim-shot", "DPI=`touch {f}`"),
    ("pico-usb", "BOARD=x|touch {f}"),
]


@pytest.mark.parametrize("target,assign", HOSTILE)
def test_a_hostile_value_stops_make_in_one_line(tmp_path, target, assign):
    f = str(tmp_path / "F")
    r = subprocess.run(["make", "--no-print-directory", target, assign.format(f=f)], cwd=ROOT,
                       capture_output=True, text=True, timeout=120)
    assert not os.path.exists(f), (assign, r.stdout, r.stderr)
    assert r.returncode != 0
    lines = (r.stdout + r.stderr).strip().split("\n")
    assert len(lines) == 1 and "must be" in lines[0], lines


def test_plain_values_are_refused_by_what_they_are():
    for assign, word in (("BOARD=Waveshare", "board name"), ("BOARD=a b", "board name"),
                         ("CHIP=rp9999", "rp2040 or rp2350"), ("PORT=/dev/tty ACM0", "device path"),
                         ("SEED=-1", "number"), ("VIEW=tv", "term or window"),
                         ("ACTUAL=yes", "0 or 1"), ("DPI=96dpi", "pixels per inch")):
        r = subprocess.run(["make", "-n", "build", assign], cwd=ROOT, capture_output=True, text=True)
        assert r.returncode == 2 and word in r.stderr, (assign, r.stderr)


def test_good_values_reach_the_tool_through_the_environment():
    r = subprocess.run(["make", "-n", "-s", "deploy", "BOARD=waveshare_lcd13", "PORT=/dev/ttyACM3",
                        "CHIP=rp2350"], cwd=ROOT, capture_output=True, text=True)
    assert r.returncode == 0, r.stderr
    assert '-m tools.deploy deploy --board "$BOARD" --port "$PORT" --chip "$CHIP"' in r.stdout
    # the recipe's shell sees them as typed
    r = subprocess.run(["make", "-s", "-f", "-", "show", "BOARD=pimoroni_pack2", "PORT=/dev/ttyACM0"],
                       cwd=ROOT, capture_output=True, text=True,
                       input="include mk/vars.mk\nshow:\n\t@echo \"$$BOARD $$PORT\"\n")
    assert r.stdout.strip() == "pimoroni_pack2 /dev/ttyACM0", r.stderr
    r = subprocess.run(["make", "-n", "-s", "sim", "ACTUAL=1", "DPI=108.8"], cwd=ROOT, capture_output=True,
                       text=True)
    assert r.returncode == 0 and '--actual-size --dpi "$DPI"' in r.stdout, r.stdout + r.stderr
