"""Pass-and-play privacy on a frame about to be shown: no tile of a hidden hand may be on it.
Shared by driver.py (watch_privacy) and monkey.py (every frame of every run); MicroPython only.
Called on every board.show(): on a banded colour board (boards/_base.py) the buffer holds one band
of the frame (screen rows board.y0 ..), and each band is checked as it is shown, so every pixel of
every frame is. last_band(board) tells whether a show ends a frame (for counting frames).

check(app, board) -> (kind, bad):
  kind 0  nothing to check (a hand is face up, or the round is over and every hand is revealed)
       1  the curtain: no tile pixel anywhere (mono: nothing lit in the bottom 18 rows, where a
          hand would be)
       2  the table with no hand face up: no tile pixel in the hand area (mono: only the compact
          128x64 table, whose hand area holds nothing else)
       3  another screen opened while the hands are face down (the game menu from the curtain, its
          score sheet, rules help): no tile pixel anywhere (colour screens only)
  bad    how many bytes of the frame buffer hold a tile-face or pip pixel where none may be.
"""
_lut = [None, 0, 0]      # byte -> 1 when one of its two 4-bit pixels is a tile face or a pip


def last_band(board):
    """True when the band in the buffer is the frame's last (always, on an unbanded board)."""
    return not board.band or board.y0 + board.band >= board.height


def _bad_bytes(board, y0, y1):
    """Colour (GS4_HMSB, two pixels a byte): bytes of screen rows y0..y1-1 holding a TILE or PIP
    pixel, of those rows the buffer holds."""
    c = board.colour
    if _lut[0] is None or _lut[1] != c.TILE or _lut[2] != c.PIP:
        lut = bytearray(256)
        for b in range(256):
            hi = b >> 4
            lo = b & 15
            if hi == c.TILE or hi == c.PIP or lo == c.TILE or lo == c.PIP:
                lut[b] = 1
        _lut[0] = lut
        _lut[1] = c.TILE
        _lut[2] = c.PIP
    lut = _lut[0]
    buf = board.buf
    stride = (board.width + 1) // 2
    top = board.y0
    rows = len(buf) // stride
    y0 = max(y0, top) - top
    y1 = min(y1, top + rows) - top
    n = 0
    for i in range(y0 * stride, y1 * stride):
        n += lut[buf[i]]
    return n


def _lit(board, y0, y1):
    """Mono: lit pixels in rows y0..y1."""
    fb = board.fb
    n = 0
    for y in range(y0, y1):
        for x in range(board.width):
            if fb.pixel(x, y):
                n += 1
    return n


def check(app, board):
    sc = app.screen
    nm = type(sc).__name__
    t = app.table
    h = board.height
    if nm == "Curtain":
        if board.mono:
            return 1, _lit(board, h - 18, h)
        return 1, _bad_bytes(board, 0, h)
    if t is None or t.shown != 255 or nm in ("RoundEnd", "Message", "Screen", "MainMenu"):
        return 0, 0
    if nm == "Table":
        if board.mono:
            return 2, (_lit(board, t.hand_y, h) if t.compact else 0)
        return 2, _bad_bytes(board, t.hand_y, h)
    if board.mono:
        return 0, 0
    return 3, _bad_bytes(board, 0, h)
