# A fake `machine` module for running the board files under the MicroPython unix port (or
# CPython) without hardware. It records what the drivers do: SPI bytes (with the DC level of each
# write), I2C writes, PWM settings, pin levels and interrupt handlers. Tests poke it directly.

LOG = []          # SPI writes of up to 16 bytes (commands, parameters): (dc level, bytes)
BIG = [0]         # number of SPI writes longer than 16 bytes (pixel data; only counted)
BIG_DC0 = [0]     # ... of which were sent with DC low (command mode): should stay 0
SPI_BYTES = [0]   # total SPI bytes written
DC_PIN = [None]   # gpio number whose level is recorded as "dc" with each SPI write
I2C_DEVICES = [0x3C]
FREQ = [125000000, 48000000]   # clk_sys, clk_peri (MicroPython's rp2 port: clk_peri from the USB PLL)


def freq(*a):
    """machine.freq() as the rp2 port has it: the CPU's clock, or set it (and clk_peri: 48 MHz or
    the CPU's clock, else ValueError)."""
    if not a:
        return FREQ[0]
    if len(a) > 1 and a[1] not in (48000000, a[0]):
        raise ValueError("peripheral freq must be 48_000_000 or the same as the MCU freq")
    FREQ[0] = a[0]
    if len(a) > 1:
        FREQ[1] = a[1]


def reset():
    FREQ[0] = 125000000
    FREQ[1] = 48000000
    del LOG[:]
    SPI_BYTES[0] = 0
    BIG[0] = 0
    BIG_DC0[0] = 0
    Pin.levels.clear()
    Pin.handlers.clear()
    Pin.outputs.clear()
    PWM.all.clear()


class Pin:
    IN = 0
    OUT = 1
    PULL_UP = 1
    PULL_DOWN = 2
    IRQ_FALLING = 4
    IRQ_RISING = 8
    levels = {}    # gpio -> input level (default 1: released, pull-up)
    outputs = {}   # gpio -> last level written
    handlers = {}  # gpio -> irq handler

    def __init__(self, id, mode=-1, pull=-1, value=None):
        self.id = id
        self.mode = mode
        if value is not None:
            self.value(value)

    def value(self, v=None):
        if v is None:
            if self.mode == Pin.OUT:
                return Pin.outputs.get(self.id, 0)
            return Pin.levels.get(self.id, 1)
        Pin.outputs[self.id] = 1 if v else 0

    def __call__(self, v=None):
        return self.value(v)

    def on(self):
        self.value(1)

    def off(self):
        self.value(0)

    def irq(self, handler=None, trigger=0, hard=False):
        Pin.handlers[self.id] = (handler, self)


def set_input(gpio, level):
    """Change an input level and fire its interrupt handler, as an edge would."""
    old = Pin.levels.get(gpio, 1)
    Pin.levels[gpio] = level
    h = Pin.handlers.get(gpio)
    if h and old != level:
        h[0](h[1])


class SPI:
    def __init__(self, id, baudrate=1000000, polarity=0, phase=0, bits=8, sck=None, mosi=None,
                 miso=None):
        self.id = id
        self.baudrate = baudrate

    def write(self, buf):
        n = len(buf)
        SPI_BYTES[0] += n
        dc = Pin.outputs.get(DC_PIN[0], -1) if DC_PIN[0] is not None else -1
        if n <= 16:
            LOG.append((dc, bytes(buf)))
        else:
            BIG[0] += 1
            if dc == 0:
                BIG_DC0[0] += 1

    def init(self, *a, **k):
        pass


class I2C:
    def __init__(self, id, sda=None, scl=None, freq=400000):
        self.id = id
        self.nbytes = 0

    def scan(self):
        return list(I2C_DEVICES)

    def writeto(self, addr, buf, stop=True):
        if addr not in I2C_DEVICES:
            raise OSError(19)
        self.nbytes += len(buf)
        return 1

    def writevto(self, addr, bufs, stop=True):
        if addr not in I2C_DEVICES:
            raise OSError(19)
        for b in bufs:
            self.nbytes += len(b)
        return 1


class PWM:
    all = []

    def __init__(self, pin, freq=None, duty_u16=None):
        self.pin = pin
        self._freq = freq or 1000
        self._duty = duty_u16 or 0
        PWM.all.append(self)

    def freq(self, f=None):
        if f is None:
            return self._freq
        self._freq = f

    def duty_u16(self, d=None):
        if d is None:
            return self._duty
        self._duty = d

    def deinit(self):
        pass


class Timer:
    ONE_SHOT = 0
    PERIODIC = 1
    last = [None]

    def __init__(self, id=-1, **kw):
        self.callback = None
        if kw:
            self.init(**kw)

    def init(self, mode=0, period=0, freq=None, callback=None):
        self.mode = mode
        self.period = period
        self.callback = callback
        Timer.last[0] = self

    def fire(self):
        if self.callback:
            self.callback(self)

    def deinit(self):
        self.callback = None
