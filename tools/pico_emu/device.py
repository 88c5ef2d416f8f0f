"""What goes on the emulated Pico's flash: a board's deployed tree and the app's own files."""
import os
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
sys.path.insert(0, os.path.join(ROOT, "tools"))
sys.path.insert(0, HERE)

import emu  # noqa: E402


def board_tree(board, out):
    """{device path: bytes} of what `make build BOARD=board` writes (armv6m .mpy, main.py, board.cfg),
    built into `out`."""
    import deploy
    deploy.build(out, board, deploy.CHIPS["rp2040"])
    return emu.tree_files(out)


def settings_file(**values):
    """settings.json as the firmware writes it (store.py: checksummed), defaults plus `values`."""
    fw = os.path.join(ROOT, "firmware")
    if fw not in sys.path:
        sys.path.insert(0, fw)
    import store
    with tempfile.TemporaryDirectory() as d:
        st = store.Store(d)
        s, _ = st.load_settings()
        s.update(values)
        st.save_settings(s)
        with open(os.path.join(d, store.SETTINGS), "rb") as f:
            return f.read()
