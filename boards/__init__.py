# Boards: one module per board, each with build() -> Board (API in docs/BOARDS.md).
# load(name) turns every way a board can fail to start into one BoardError with a one-line message.

NAMES = ("waveshare_lcd13", "pimoroni_pack", "pimoroni_pack2", "oled_diy", "sim")


class BoardError(Exception):
    pass


def load(name, **kw):
    """Build the board `name` (a string from /board.cfg). Raises BoardError with a clear line."""
    import sys
    name = (name or "").strip()
    if name not in NAMES:
        raise BoardError("unknown board %r; valid boards: %s" % (name, ", ".join(NAMES)))
    modname = "boards." + name
    try:
        __import__(modname)
        mod = sys.modules[modname]
    except ImportError as e:
        raise BoardError("board %s cannot be imported: %s" % (name, _msg(e)))
    try:
        return mod.build(**kw)
    except (ImportError, OSError, ValueError, TypeError, AttributeError, MemoryError) as e:
        raise BoardError("board %s failed to start: %s" % (name, _msg(e)))


def _msg(e):
    s = str(e) if e.args else e.__class__.__name__
    if isinstance(e, OSError) and e.args and isinstance(e.args[0], int) and len(e.args) == 1:
        s = "OSError %d (hardware not answering? check wiring and the board name)" % e.args[0]
    return s


def read_cfg(path="/board.cfg"):
    """First non-empty, non-comment line of the board config file, or None if there is none. Only a
    regular file's first 256 bytes are read (a board name is short): whatever the file holds, the
    boot goes on (an unknown name is a BoardError with the valid ones)."""
    import os
    try:
        if os.stat(path)[0] & 0xF000 != 0x8000:      # a directory, a device: not a config
            return None
        with open(path, "rb") as f:
            data = f.read(256)
        for line in data.decode().split("\n"):
            line = line.strip()
            if line and not line.startswith("#"):
                return line[:32]
    except (OSError, ValueError):
        pass
    return None
