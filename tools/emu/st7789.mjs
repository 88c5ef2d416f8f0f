// An ST7789 panel on an SPI bus of the emulated Pico: every byte the firmware sends is decoded (CASET,
// RASET, RAMWR with RGB565 pixels, the set-up commands), into the panel's RAM. What a player would
// see is `image()`: the visible width x height window at the board's offsets, RGB565, big-endian
// as sent. Each RAMWR is logged as a window (rows, columns, device times of its first and last
// byte), so a test can tell when a frame or a part of one was sent.
//
//   const lcd = new ST7789(pico, { spi: 1, dc: 8, cs: 9, width: 240, height: 240, xoff: 0, yoff: 0 });
const CMD_ARGS = { 0x2a: 4, 0x2b: 4, 0x36: 1, 0x3a: 1 };
const RAM_W = 320; // the controller's RAM is 240 x 320; addressed either way round by MADCTL
const RAM_H = 320;

export class ST7789 {
  constructor(pico, { spi, dc, cs, width, height, xoff = 0, yoff = 0 }) {
    this.pico = pico;
    this.width = width;
    this.height = height;
    this.xoff = xoff;
    this.yoff = yoff;
    this.dcPin = pico.mcu.gpio[dc];
    this.csPin = pico.mcu.gpio[cs];
    this.ram = new Uint16Array(RAM_W * RAM_H);
    this.cmd = -1;
    this.args = [];
    this.win = [0, 0, RAM_W - 1, RAM_H - 1];
    this.x = 0;
    this.y = 0;
    this.hi = -1;
    this.colmod = 0;
    this.madctl = 0;
    this.awake = false;      // SLPOUT seen
    this.on = false;         // DISPON seen
    this.inverted = false;
    this.windows = [];       // {t0, t1, x0, y0, x1, y1, px}
    this.current = null;
    this.lastByteNs = 0;
    this.bytes = 0;
    this.problems = [];      // protocol errors a real panel would show as garbage
    this.onWindowEnd = null; // fn(window) when a RAMWR's last pixel lands
    pico.spiListeners[spi].push((v) => this.byte(v));
  }

  problem(text) {
    if (this.problems.length < 20) this.problems.push(`${(this.pico.nowNs() / 1e6).toFixed(3)} ms: ${text}`);
  }

  byte(v) {
    if (this.csPin.outputValue) return; // not selected
    const now = this.pico.nowNs();
    this.lastByteNs = now;
    this.bytes++;
    if (!this.dcPin.outputValue) { this.command(v, now); return; }
    const need = CMD_ARGS[this.cmd];
    if (need) {
      this.args.push(v);
      if (this.args.length === need) this.done(this.cmd, this.args);
      return;
    }
    if (this.cmd < 0) { this.problem(`data byte 0x${v.toString(16)} with no command`); return; }
    if (this.cmd !== 0x2c) return; // the arguments of a set-up command this decoder does not need
    if (this.hi < 0) { this.hi = v; return; }
    this.pixel((this.hi << 8) | v, now);
    this.hi = -1;
  }

  command(c, now) {
    this.endWindow();
    this.cmd = c;
    this.args = [];
    this.hi = -1;
    if (c === 0x01) { this.awake = false; this.on = false; this.colmod = 0; this.madctl = 0; this.inverted = false; }
    else if (c === 0x11) this.awake = true;
    else if (c === 0x10) this.awake = false;
    else if (c === 0x29) this.on = true;
    else if (c === 0x28) this.on = false;
    else if (c === 0x21) this.inverted = true;
    else if (c === 0x20) this.inverted = false;
    else if (c === 0x2c) {
      if (!this.awake) this.problem('RAMWR before SLPOUT');
      if (this.colmod !== 0x55) this.problem(`RAMWR with COLMOD 0x${this.colmod.toString(16)} (want 0x55, 16 bits)`);
      const [x0, y0, x1, y1] = this.win;
      this.x = x0;
      this.y = y0;
      this.current = { t0: now, t1: now, x0: x0 - this.xoff, y0: y0 - this.yoff, x1: x1 - this.xoff, y1: y1 - this.yoff, px: 0 };
    }
  }

  done(c, a) {
    // (the command stays current: more bytes are its data, taken and dropped)
    if (c === 0x2a) { this.win[0] = (a[0] << 8) | a[1]; this.win[2] = (a[2] << 8) | a[3]; }
    else if (c === 0x2b) { this.win[1] = (a[0] << 8) | a[1]; this.win[3] = (a[2] << 8) | a[3]; }
    else if (c === 0x36) this.madctl = a[0];
    else if (c === 0x3a) this.colmod = a[0];
    this.cmd = 0x100; // arguments complete: further data bytes are dropped
  }

  pixel(p, now) {
    const [x0, , x1, y1] = this.win;
    if (this.x < RAM_W && this.y < RAM_H) this.ram[this.y * RAM_W + this.x] = p;
    const w = this.current;
    w.t1 = now;
    w.px++;
    if (++this.x > x1) {
      this.x = x0;
      if (++this.y > y1) {
        this.y = this.win[1];
        this.endWindow();
      }
    }
  }

  endWindow() {
    const w = this.current;
    if (!w) return;
    this.current = null;
    if (!w.px) return;
    if (this.windows.length < 200000) this.windows.push(w);
    if (this.onWindowEnd) this.onWindowEnd(w);
  }

  /** The visible picture: width x height RGB565 values, big-endian bytes as the panel got them. */
  image() {
    const out = Buffer.alloc(this.width * this.height * 2);
    let o = 0;
    for (let y = 0; y < this.height; y++) {
      const row = (y + this.yoff) * RAM_W + this.xoff;
      for (let x = 0; x < this.width; x++) {
        const p = this.ram[row + x];
        out[o++] = p >> 8;
        out[o++] = p & 0xff;
      }
    }
    return out;
  }

  state() {
    return { awake: this.awake, on: this.on, inverted: this.inverted, colmod: this.colmod, madctl: this.madctl };
  }
}
