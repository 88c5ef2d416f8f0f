# The simulator's link cable: the two named pipes (FIFOs) tools/link/wire.py makes, standing in for
# the UART0 TX/RX pair (docs/LINK.md). The same bytes a UART would carry; write() and a non-blocking
# readinto(), as machine.UART offers. Never deployed: only the simulator imports it.
import select


def _getenv(name):
    try:
        import os
        return os.getenv(name)
    except (ImportError, AttributeError):
        return None


class PipePort:
    def __init__(self, inp, out):
        """inp, out: paths of the FIFO this end reads and the one it writes. Opening blocks until
        the wire's relay has its ends open (it opens every end at once, so never for long)."""
        self._in = open(inp, "rb")
        self._out = open(out, "wb")
        self._poll = select.poll()
        self._poll.register(self._in, select.POLLIN)
        self._one = bytearray(1)

    def write(self, data):
        self._out.write(data)
        try:
            self._out.flush()     # (CPython buffers; MicroPython writes at once and its flush,
        except OSError:           # an fsync, is refused on a pipe)
            pass
        return len(data)

    def readinto(self, buf):
        """What has arrived, up to len(buf) bytes, without waiting: 0 when nothing has (a byte at a
        time: a file's readinto would wait to fill the buffer)."""
        n = 0
        one = self._one
        while n < len(buf):
            ready = False
            for _ in self._poll.ipoll(0):
                ready = True
            if not ready or not self._in.readinto(one):
                break
            buf[n] = one[0]
            n += 1
        return n


def from_env():
    """The port named by PICO_SIM_LINK_IN / PICO_SIM_LINK_OUT, or None when the simulator was not
    started with a link cable."""
    inp = _getenv("PICO_SIM_LINK_IN")
    out = _getenv("PICO_SIM_LINK_OUT")
    return PipePort(inp, out) if inp and out else None
