"""The route without make (README "Without make", docs/HARDWARE.md): in the clone's folder,
`mpremote mip install --target / package.json` installs the package from the clone's own files (mip
reads a local package.json and its relative file names from the current folder), then the
micropython-lib driver the OLED needs from micropython.org. Here mpremote's own mip code runs against a
recording stand-in for the Pico's filesystem, and the dependency is only recorded (no network)."""
import json
import os

import pytest

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
mip = pytest.importorskip("mpremote.mip")


class Files:
    """The Pico's filesystem as mpremote's transport sees it: what was written where."""

    def __init__(self):
        self.files, self.dirs = {}, set()

    def fs_exists(self, path):
        return path in self.dirs or path in self.files

    def fs_mkdir(self, path):
        self.dirs.add(path)

    def fs_writefile(self, path, data, progress_callback=None):
        self.files[path] = data


def test_mip_installs_the_clones_own_files(monkeypatch, capsys):
    with open(os.path.join(ROOT, "package.json"), encoding="utf-8") as f:
        pkg = json.load(f)
    deps = []
    monkeypatch.setattr(mip, "_install_package", lambda _t, dep, *a: deps.append(dep))
    monkeypatch.chdir(ROOT)
    pico = Files()
    mip._install_json(pico, "package.json", mip._PACKAGE_INDEX, "/", None, False)
    written = {p.lstrip("/"): data for p, data in pico.files.items()}
    assert sorted(written) == sorted(dest for dest, _src in pkg["urls"])
    for dest, src in pkg["urls"]:
        with open(os.path.join(ROOT, src), "rb") as f:
            assert written[dest] == f.read(), dest
    assert "main.py" in written and any(p.startswith("boards/") for p in written)
    assert deps == [d for d, _v in pkg.get("deps", [])]
