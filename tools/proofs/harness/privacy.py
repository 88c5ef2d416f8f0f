"""Pass-and-play privacy on a frame about to be shown: no tile of a hidden hand may be on it.
Shared by driver.py (watch_privacy) and monkey.py (every frame of every run); MicroPython only.
Called on every board.show(): on a banded colour board (boards/_base.py) the buffer holds one band
of the frame (screen rows board.y0 ..), and each band is checked as it is shown, so every pixel of
every frame is. last_band(board) tells whether a show ends a frame (for counting frames).

check(app, board) -> (kind, bad):
  kind 0  nothing to check (a hand is face up, or the round is over and every hand is revealed, or
          the line view: the table's tiles only, ui/lineview.py)
       1  the curtain: no tile pixel anywhere (mono, where a tile's pixels look like a text's: the
          frame is the curtain's own drawing and nothing else, _foreign)
       2  the table with no hand face up: no tile pixel in the hand area (mono: only the compact
          128x64 table, whose hand area holds nothing else)
       3  another screen opened while the hands are face down (the game menu from the curtain, its
          score sheet, rules help): no tile pixel anywhere (colour screens only)
  bad    how many bytes of the frame buffer hold a tile-face or pip pixel where none may be.

Holder: who holds the device in a pass-and-play game, worked out from the keys alone (never from
what the firmware decided), and a check that no frame shows a hand to anyone else. Passing the
device takes at least HANDOFF_MS: the player a curtain names takes it with the first press on that
curtain that starts HANDOFF_MS after the curtain appeared and after every earlier key activity (a
press, a release, a key held); every other press is the holder's. Until that press nobody holds it
(a new or resumed match). A table frame with a hand face up that is not the holder's is `wrong`,
as a double tap once did (A twice quickly: the move, then the next player's curtain).
"""
HANDOFF_MS = 500
_lut = [None, 0, 0]      # byte -> 1 when one of its two 4-bit pixels is a tile face or a pip
_copy = [None]           # mono: the frame shown, kept while the curtain draws itself again


def ready(board):
    """Take the heap the checks need now (a harness that weighs its own bytes at boot calls this
    first, so that a check later takes nothing from the firmware's share)."""
    if board.mono:
        _copy[0] = bytearray(len(board.buf))


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


def _foreign(app, board):
    """Mono curtain: bytes of the frame shown that the curtain's own drawing does not put there.
    Its texts may reach the rows a hand takes on the table (Russian, on 128x64), so no rows can be
    required dark; instead the curtain draws itself again on a blank buffer (Curtain.draw fills
    the screen and draws only text) and the two are compared: a tile left from the table, or
    drawn over the curtain, differs. The frame shown is put back."""
    buf = board.buf
    keep = _copy[0]
    if keep is None or len(keep) != len(buf):
        keep = _copy[0] = bytearray(len(buf))
    keep[:] = buf
    board.fb.fill(0)
    app.screen.draw(app.g)
    n = 0
    for i in range(len(buf)):
        if buf[i] != keep[i]:
            n += 1
    buf[:] = keep
    return n


def check(app, board, y0=0, y1=0x7FFF):
    """y0..y1: the screen rows being shown (a redraw of some regions sends only theirs: the rest of
    the buffer holds what an earlier band left there, never shown)."""
    sc = app.screen
    nm = type(sc).__name__
    t = app.table
    h = board.height
    y1 = min(y1 + 1, h)
    if nm == "Curtain":
        if board.mono:
            return 1, _foreign(app, board)
        return 1, _bad_bytes(board, y0, y1)
    if t is None or t.shown != 255 or nm in ("RoundEnd", "Message", "Screen", "MainMenu", "LineView"):
        return 0, 0                      # (LineView: the table's line, larger; every tile there is
                                         # face up on the table, and no hand is drawn)
    if nm == "Table":
        if board.mono:
            return 2, (_lit(board, t.hand_y, h) if t.compact else 0)
        return 2, _bad_bytes(board, max(t.hand_y, y0), y1)
    if board.mono:
        return 0, 0
    return 3, _bad_bytes(board, y0, y1)


class Holder:
    def __init__(self):
        self.seat = 255              # who holds the device (255: nobody handed it yet)
        self.keys = 0                # the key lines as last read
        self.quiet = -HANDOFF_MS     # the last key activity
        self.since = -HANDOFF_MS     # when the curtain up now first appeared
        self.up = False
        self.game = None
        self.wrong = 0               # frames that showed a hand to someone else
        self.handoffs = 0

    def read(self, app, now, state):
        """Every read of the key lines (the harness wraps the input's reader)."""
        if state != self.keys:
            if state & ~self.keys and type(app.screen).__name__ == "Curtain" and \
                    now - self.quiet >= HANDOFF_MS and now - self.since >= HANDOFF_MS:
                self.seat = app.screen.seat
                self.handoffs += 1
            self.keys = state
            self.quiet = now
        elif state:
            self.quiet = now

    def frame(self, app, now):
        """A frame about to be shown: 1 when it shows a hand to someone who does not hold it."""
        t = app.table
        if t is None:
            return 0
        if t.game is not self.game:          # a new or resumed match: handed to nobody yet
            self.game = t.game
            self.seat = 255
            self.up = False
        nm = type(app.screen).__name__
        if nm == "Curtain":
            if not self.up:
                self.up = True
                self.since = now
            return 0
        if nm == "Table" and t.game.humans > 1 and t.shown != 255:
            self.up = False
            if t.shown != self.seat:
                self.wrong += 1
                return 1
        return 0
