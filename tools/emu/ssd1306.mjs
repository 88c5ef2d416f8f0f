// A minimal SSD1306 on an I2C bus of the emulated Pico (rp2040js attaches no I2C device): it answers
// at its address, takes command and data streams (control byte 0x00/0x80 commands, 0x40 data), and
// keeps the 128 x 64 display RAM, 1 KB in the same layout as framebuf.MONO_VLSB (a byte is 8
// vertical pixels, LSB on top, page by page), with horizontal addressing as micropython-lib's
// ssd1306 driver sets it. Each byte takes its bit time on the bus (9 SCL periods).
// With its sda/scl GPIOs given it also answers on the wires: MicroPython's rp2 port sends
// zero-length writes (I2C.scan(), which the board file uses to find the panel) by bit-banging the
// pins, as the RP2040's I2C block cannot; the lines get pull-ups and the address byte its ACK.
//
//   const oled = new SSD1306(pico, { i2c: 0, addr: 0x3c, width: 128, height: 64, sda: 4, scl: 5 });
const ARGS = { 0x20: 1, 0x21: 2, 0x22: 2, 0x81: 1, 0x8d: 1, 0xa8: 1, 0xd3: 1, 0xd5: 1, 0xd9: 1, 0xda: 1, 0xdb: 1 };

export class SSD1306 {
  constructor(pico, { i2c = 0, addr = 0x3c, width = 128, height = 64, sda = -1, scl = -1 }) {
    this.pico = pico;
    this.addr = addr;
    this.width = width;
    this.height = height;
    this.pages = height >> 3;
    this.ram = new Uint8Array(width * this.pages);
    this.on = false;
    this.contrast = 0x7f;
    this.mode = 2;          // page addressing after reset
    this.col = [0, width - 1];
    this.page = [0, this.pages - 1];
    this.x = 0;
    this.p = 0;
    this.selected = false;
    this.first = false;     // the next byte is a control byte
    this.stream = 0;        // 0 commands, 1 data
    this.single = false;    // Co = 1: one byte, then a control byte again
    this.cmd = -1;
    this.args = [];
    this.lastByteNs = 0;
    this.bytes = 0;
    this.writes = [];       // {t0, t1, bytes}: each I2C data write
    this.current = null;
    this.problems = [];
    const bus = (this.bus = pico.mcu.i2c[i2c]);
    const byteNs = () => {
      const period = bus.sclLowPeriod + bus.sclHighPeriod;
      return period > 0 ? (9 * period * 1e9) / 125e6 : 22500; // clk_sys 125 MHz; else 400 kHz
    };
    const later = (fn) => pico.at(pico.nowNs() + byteNs(), fn);
    bus.onStart = () => later(() => bus.completeStart());
    bus.onConnect = (address, mode) => {
      this.selected = address === addr && mode === 0; // write only: reads are not needed
      this.first = true;
      later(() => bus.completeConnect(this.selected));
    };
    bus.onWriteByte = (v) => {
      if (this.selected) this.byte(v);
      later(() => bus.completeWrite(this.selected));
    };
    bus.onReadByte = () => later(() => bus.completeRead(0xff));
    bus.onStop = () => {
      this.selected = false;
      if (this.current) { this.writes.push(this.current); this.current = null; }
      later(() => bus.completeStop());
    };
    if (sda >= 0 && scl >= 0) this.wires(pico.mcu.gpio[sda], pico.mcu.gpio[scl]);
  }

  /** The bit-banged bus: open-drain lines with pull-ups (wired-AND of the Pico and this panel);
   * START, the address byte and its ACK, each later byte acked and taken like the I2C block's. */
  wires(sdaPin, sclPin) {
    const LOW = 0; // GPIOPinState.Low: the Pico drives the line low (its open-drain emulation)
    let pull = false; // this panel holds SDA low (an ACK)
    let sda = true, scl = true, bits = 0, v = 0, nth = -1;
    const update = () => {
      const nsda = sdaPin.value !== LOW && !pull;
      const nscl = sclPin.value !== LOW;
      sdaPin.setInputValue(nsda);
      sclPin.setInputValue(nscl);
      if (nscl && scl && nsda !== sda) {            // SDA moves while SCL is high
        if (!nsda) { nth = 0; bits = 0; v = 0; } // START (or repeated START)
        else { nth = -1; if (this.selected) { this.selected = false; } } // STOP
      } else if (nscl && !scl && nth >= 0) {          // SCL rises: a bit in
        if (bits < 8) { v = (v << 1) | (nsda ? 1 : 0); bits++; }
        else bits = 9;                                  // the ACK clock
      } else if (!nscl && scl && nth >= 0) {          // SCL falls
        if (bits === 8) {                               // after the 8th bit: ACK if it is ours
          if (nth === 0) { this.selected = v >> 1 === this.addr && !(v & 1); this.first = true; }
          else if (this.selected) this.byte(v);
          pull = this.selected;
        } else if (bits === 9) { pull = false; bits = 0; v = 0; nth++; }
      }
      sda = nsda; scl = nscl;
      const level = !pull && sdaPin.value !== LOW;
      if (level !== nsda) { sda = level; sdaPin.setInputValue(level); }
    };
    sdaPin.addListener(update);
    sclPin.addListener(update);
    update();
  }

  byte(v) {
    const now = this.pico.nowNs();
    this.lastByteNs = now;
    this.bytes++;
    if (this.first) {
      this.first = false;
      this.single = !!(v & 0x80);
      this.stream = v & 0x40 ? 1 : 0;
      return;
    }
    if (this.single) this.first = true;
    if (this.stream) this.data(v, now);
    else this.command(v);
  }

  command(c) {
    if (this.cmd >= 0) {
      this.args.push(c);
      if (this.args.length < ARGS[this.cmd]) return;
      const a = this.args;
      if (this.cmd === 0x20) this.mode = a[0] & 3;
      else if (this.cmd === 0x21) { this.col = [a[0] & 0x7f, a[1] & 0x7f]; this.x = this.col[0]; }
      else if (this.cmd === 0x22) { this.page = [a[0] & 7, a[1] & 7]; this.p = this.page[0]; }
      else if (this.cmd === 0x81) this.contrast = a[0];
      this.cmd = -1;
      return;
    }
    if (ARGS[c]) { this.cmd = c; this.args = []; return; }
    if (c === 0xae) this.on = false;
    else if (c === 0xaf) this.on = true;
    else if (c >= 0xb0 && c <= 0xb7) this.p = c & 7;              // page addressing mode
    else if (c < 0x10) this.x = (this.x & 0xf0) | c;
    else if (c < 0x20) this.x = (this.x & 0x0f) | ((c & 0x0f) << 4);
  }

  data(v, now) {
    if (!this.current) this.current = { t0: now, t1: now, bytes: 0 };
    this.current.t1 = now;
    this.current.bytes++;
    if (this.x < this.width && this.p < this.pages) this.ram[this.p * this.width + this.x] = v;
    if (this.mode === 2) { this.x = (this.x + 1) & 0x7f; return; }
    if (this.x < this.col[1]) { this.x++; return; }
    this.x = this.col[0];
    this.p = this.p < this.page[1] ? this.p + 1 : this.page[0];
  }

  /** The 1 KB display RAM (MONO_VLSB layout). */
  image() {
    return Buffer.from(this.ram);
  }

  state() {
    return { on: this.on, contrast: this.contrast, mode: this.mode };
  }
}
