"""Terminal view of the simulator: half-block characters with 24-bit colour, one character cell =
one pixel wide, two pixels high. Pixel-exact when the terminal is large enough, else scaled down
(box filter), which no one can read: the top line then says the terminal size a readable picture
needs and how to get it, and so does a line left on the screen after the simulator quits. Keys
come from the terminal, which reports presses and never releases: every key press is one tap
(TermKeys), however fast they come, and a key held down (the terminal's auto-repeat) is held until
~150 ms after its last repeat.
"""
import os
import select
import signal
import sys
import termios
import time
import tty

from tools import cli
from tools.sim.display import has_display
from tools.sim.link import (K_A, K_B, K_DOWN, K_LEFT, K_PRESS, K_RIGHT, K_UP, K_X, K_Y, Reader, Sim,
                      frame_image, report)

REPEAT_GAP = 0.07   # s: the same key again this soon is the terminal's auto-repeat (a person taps
#                     at ~10 a second at most; terminals repeat at 25-40 a second)
REPEAT_HOLD = 0.15  # s a key stays down after an auto-repeat
KEYMAP_TEXT = "arrows=joystick  Enter/space=press  a b x y=buttons  q/Esc=quit"
TOP, BOTTOM = 1, 3  # text lines above / below the picture

_ARROWS = {ord("A"): K_UP, ord("B"): K_DOWN, ord("C"): K_RIGHT, ord("D"): K_LEFT}
_LETTERS = {ord("a"): K_A, ord("b"): K_B, ord("x"): K_X, ord("y"): K_Y,
            ord("\r"): K_PRESS, ord("\n"): K_PRESS, ord(" "): K_PRESS}


def parse_keys(data):
    """Terminal input bytes -> (list of key bits pressed, quit reason or None)."""
    keys = []
    i = 0
    n = len(data)
    while i < n:
        c = data[i]
        if c == 0x1B:
            if i + 2 < n and data[i + 1] in (ord("["), ord("O")):
                j = i + 2
                while j < n and 0x30 <= data[j] <= 0x3F:  # CSI parameters (e.g. ESC [1;5A)
                    j += 1
                if j < n:
                    k = _ARROWS.get(data[j])
                    if k:
                        keys.append(k)
                i = j + 1
                continue
            if i + 1 == n:
                return keys, "quit"
            i += 2
            continue
        if c == 3:
            return keys, "interrupted"
        if c in (ord("q"), ord("Q")):
            return keys, "quit"
        k = _LETTERS.get(c) or _LETTERS.get(c | 0x20)
        if k:
            keys.append(k)
        i += 1
    return keys, None


class TermKeys:
    """Terminal key presses -> the link: a press is one tap (`Sim.send_tap`: the board presses and
    releases it by itself, one after the other, so each is one step on the device, whatever the
    interval); a run of auto-repeats holds the key down (`Sim.send_keys`) until REPEAT_HOLD after
    the last one, for the firmware's own auto-repeat."""

    def __init__(self, sim):
        self.sim = sim
        self.last = {}           # key bit -> time of its last press
        self.held = {}           # key bit -> when it goes up
        self.sent = 0

    def press(self, k, now):
        prev = self.last.get(k)
        self.last[k] = now
        if prev is not None and now - prev < REPEAT_GAP:
            self.held[k] = now + REPEAT_HOLD
        else:
            self.sim.send_tap(k)

    def tick(self, now):
        for k in [k for k, t in self.held.items() if t <= now]:
            del self.held[k]
        mask = 0
        for k in self.held:
            mask |= k
        if mask != self.sent:
            self.sim.send_keys(mask)
            self.sent = mask


def layout(w, h, cols, rows):
    """Scale divisor s and picture size in cells for a w x h frame in a cols x rows terminal."""
    avail = max(1, rows - TOP - BOTTOM)
    s = 1
    while (w + s - 1) // s > cols or (h + s - 1) // s > 2 * avail:
        s += 1
    return s, (w + s - 1) // s, ((h + s - 1) // s + 1) // 2


def needed(w, h):
    """The terminal size (columns, rows) that shows a w x h frame pixel-exact, one pixel a
    half-cell: the smallest that can be read (scaled down, the text's strokes blur together)."""
    return w, (h + 1) // 2 + TOP + BOTTOM


def too_small(w, h, cols, rows, window=None):
    """None when a w x h frame fits this terminal pixel-exact, else (the top line, the line left after
    quitting) saying the terminal size a readable picture needs, and the window view when there is a
    display (window None: ask tools.sim.main). The top line is cut at the terminal's width: what to
    do comes first."""
    s, _pw, _prow = layout(w, h, cols, rows)
    if s == 1:
        return None
    if window is None:
        window = has_display()
    nc, nr = needed(w, h)
    alt = ", or " + cli.option("--view", "window") if window else ""
    how = "a larger window or a smaller font"
    return ("sim: 1/%d scale, unreadable: needs a %dx%d terminal%s (this one: %dx%d; %s)"
            % (s, nc, nr, alt, cols, rows, how),
            "sim: this %dx%d terminal showed the %dx%d screen at 1/%d, too small to read: a readable "
            "picture needs %dx%d (%s)%s" % (cols, rows, w, h, s, nc, nr, how, alt))


def render_rows(rgb, pw, ph):
    """RGB bytes of pw x ph -> list of strings, one per text row (half blocks)."""
    out = []
    for r in range((ph + 1) // 2):
        y0 = 2 * r
        parts = []
        fg = bg = None
        for x in range(pw):
            i = (y0 * pw + x) * 3
            top = rgb[i:i + 3]
            if y0 + 1 < ph:
                j = i + pw * 3
                bot = rgb[j:j + 3]
            else:
                bot = b"\x00\x00\x00"
            if top == bot:
                if bg != top:
                    parts.append("\x1b[48;2;%d;%d;%dm" % (top[0], top[1], top[2]))
                    bg = top
                parts.append(" ")
            else:
                if fg != top:
                    parts.append("\x1b[38;2;%d;%d;%dm" % (top[0], top[1], top[2]))
                    fg = top
                if bg != bot:
                    parts.append("\x1b[48;2;%d;%d;%dm" % (bot[0], bot[1], bot[2]))
                    bg = bot
                parts.append("\u2580")
        parts.append("\x1b[0m")
        out.append("".join(parts))
    return out


class Screen:
    def __init__(self, out):
        self.out = out
        self.prev = {}
        self.size = None
        self.small = None       # the too-small line of the last picture drawn, else None

    def write(self, s):
        self.out.write(s)

    def draw(self, sim, status):
        cols, rows = os.get_terminal_size(self.out.fileno())
        if (cols, rows) != self.size:
            self.size = (cols, rows)
            self.prev = {}
            self.write("\x1b[0m\x1b[2J")
        hello = sim.hello
        lines = {}
        if hello is None or sim.frame is None:
            lines[1] = "pico-domino sim: starting MicroPython..."
        else:
            w, h = hello.width, hello.height
            s, pw, prow = layout(w, h, cols, rows)
            im = frame_image(hello, sim.frame).convert("RGB")
            self.small = too_small(w, h, cols, rows)
            if s > 1:
                from PIL import Image
                im = im.resize((pw, (h + s - 1) // s), Image.BOX)
                title = self.small[0]          # what it needs first: the line is cut at cols
            else:
                title = "sim: %s %dx%d%s  pixel-exact" % (hello.profile, w, h, " mono" if hello.mono else "")
            lines[1] = title[:cols]
            x0 = max(0, (cols - pw) // 2) + 1
            for r, row in enumerate(render_rows(im.tobytes(), im.width, im.height)):
                lines[TOP + 1 + r] = "\x1b[%dG%s" % (x0, row)
            lines[rows - 2] = KEYMAP_TEXT[:cols]
            lines[rows - 1] = ("board: " + hello.key_help)[:cols]
        lines[rows] = status[:cols]
        for y, text in lines.items():
            if self.prev.get(y) != text:
                self.write("\x1b[%d;1H\x1b[2K%s" % (y, text))
                self.prev[y] = text
        self.out.flush()


def run(args):
    if not (sys.stdin.isatty() and sys.stdout.isatty()):
        print("sim: the terminal view needs a terminal (headless: tools/sim/main.py --keys ...)")
        return 2
    try:
        background = os.tcgetpgrp(sys.stdin.fileno()) != os.getpgrp()
    except OSError:
        background = False
    if background:  # raw mode would stop us (SIGTTOU), e.g. under `timeout` without --foreground
        print("sim: the terminal view must run in the foreground process group "
              "(timeout: use --foreground)")
        return 2
    sim = Sim(args.board, args.size, args.app, virtual=False, heap=args.heap,
              micropython=args.micropython, data_dir=args.data,
              source=args.source)
    reader = Reader(sim)
    reader.start()
    fd = sys.stdin.fileno()
    old = termios.tcgetattr(fd)
    out = sys.stdout
    reason = None
    stop = []

    def on_signal(signum, frame):
        stop.append("interrupted" if signum == signal.SIGINT else "terminated")

    old_handlers = {s: signal.signal(s, on_signal) for s in (signal.SIGTERM, signal.SIGHUP,
                                                             signal.SIGINT)}
    screen = Screen(out)
    try:
        tty.setraw(fd)
        out.write("\x1b[?1049h\x1b[?25l")
        keys = TermKeys(sim)
        drawn = -1
        last_size = None
        while not stop:
            r, _, _ = select.select([fd], [], [], 1 / 60)
            now = time.monotonic()
            if r:
                pressed, reason = parse_keys(os.read(fd, 256))
                for k in pressed:
                    keys.press(k, now)
                if reason:
                    break
            keys.tick(now)
            if reader.ended:
                reason = "ended"
                break
            size = os.get_terminal_size(out.fileno())
            if reader.changed.is_set() or size != last_size or drawn != sim.frame_no:
                reader.changed.clear()
                last_size = size
                drawn = sim.frame_no
                status = sim.stdout[-1] if sim.stdout else (sim.events[-1] if sim.events else "")
                screen.draw(sim, status)
        if stop:
            reason = stop[0]
    finally:
        sim.close_input()
        try:
            out.write("\x1b[0m\x1b[?25h\x1b[?1049l")
            out.flush()
        except OSError:
            pass
        termios.tcsetattr(fd, termios.TCSADRAIN, old)
        for s, h in old_handlers.items():
            signal.signal(s, h)
        rc = sim.stop()
    if screen.small:             # left on the normal screen, to act on
        print(screen.small[1])
    return report(sim, reason, rc)
