"""The emulated Pico's images travel with the repo, each the exact file its README names."""
import hashlib
import os
import re

HERE = os.path.dirname(os.path.abspath(__file__))
IMAGES = os.path.join(os.path.dirname(HERE), "tools", "emu", "images")


def test_every_image_is_the_file_its_readme_names():
    with open(os.path.join(IMAGES, "README.md"), encoding="utf-8") as f:
        rows = re.findall(r"^\| `([^`]+)` \|[^|]*\| ([\d,]+) \| `([0-9a-f]{64})` \|$", f.read(), re.M)
    named = {name: (int(size.replace(",", "")), digest) for name, size, digest in rows}
    present = sorted(f for f in os.listdir(IMAGES) if f != "README.md")
    assert sorted(named) == present, (named, present)
    assert present == ["bootrom.mjs", "firmware-pico-w.uf2", "firmware.uf2"], present
    for name, (size, digest) in named.items():
        with open(os.path.join(IMAGES, name), "rb") as f:
            data = f.read()
        assert len(data) == size, name
        assert hashlib.sha256(data).hexdigest() == digest, name
