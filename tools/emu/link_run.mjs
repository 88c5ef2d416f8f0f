#!/usr/bin/env node
// Two emulated Picos joined by a link cable (docs/LINK.md, docs/PICO_EMU.md): each boots its own
// flash (main.py as at power-on) with its own display decoder and buttons, UART0 TX of each is wired
// to the other's UART0 RX, and both clocks advance together (one loop steps both RP2040s in slices
// of SLICE_NS of device time, so neither runs ahead of the other by more than a slice). A byte is
// delivered at the wire's pace: 10 bits at the baud rate the sender programmed (115,200: 86.8 us),
// after the byte before it on that wire. tools/emu/link.py is the Python side.
//
// usage: node link_run.mjs CONFIG.json
// CONFIG: {
//   "devices": [{"name", "flash": IMG, "firmware": UF2, "fs": "OFFSET:BYTES", "high": [GPIO..], "st7789": SPEC|null,
//                "ssd1306": SPEC|null, "plan": [STEP..]}, x2],
//   "cable": {"cuts": [[AT_MS, FOR_MS]..],          bytes dropped both ways from AT for FOR ms
//             "garbage": [[AT_MS, DEVICE, [BYTE..]]..]}, bytes put on DEVICE's RX at AT (at wire pace)
//   "autoplay": {"keys": [GPIO of device 0, GPIO of device 1], "idle": MS, "hold": MS, "max": MS,
//                "presses": N, "until": TEXT},      after both plans: see below
//   "out": DIR, "timeout": WALL_S, "device_s": S}
// Plan steps are run.mjs's (wait, idle, down, up, press, shot, mark, console, end) plus
//   {"sync": LABEL}  wait until the other device's plan has passed {"mark": LABEL}.
// Autoplay: once both plans are done, until both consoles printed TEXT (or N presses and both
// displays still after the last, or a device time limit): wait until both displays have been still
// for MS (or the device to press for MS, the other drawing on for 3 s: its wheel, waiting for this
// one), then press the key on one device and the other in turn. A press on a device whose person is not to move is dropped by its table, so
// the match advances exactly one way whatever the emulators' speed; a shot of both displays is kept
// before each press ("auto N").
// Out: DIR/link.json: each device's report (as run.mjs's: console, marks, shots, display windows),
// the presses of the autoplay and every frame on the wire ([t_sent_first_ms, t_delivered_last_ms,
// hex bytes, dropped?]) per direction; DIR/shots-NAME.bin the pictures.
// Exit: 0 done, 124 wall timeout, 125 device-time limit, 126 a plan step's max ran out, 2 usage, 4 trouble.
import fs from 'fs';
import path from 'path';
import { Pico, FLASH_START, parseFs } from './pico.mjs';
import { SerialPort } from './usb.mjs';
import { fixUart, charBits } from './uart.mjs';
import { spec, st7789, ssd1306, ST7789_KEYS, SSD1306_KEYS } from './displays.mjs';

const SLICE_NS = 50e3;              // the two clocks never differ by more than this
const BATCH_NS = 20e6;              // device time between looks at the wall clock and timers

function usage(msg) {
  console.error(`link_run.mjs: ${msg}`);
  console.error('usage: node link_run.mjs CONFIG.json (see the head of this file)');
  process.exit(2);
}
if (process.argv.length !== 3 || !fs.existsSync(process.argv[2])) usage('one CONFIG.json');
const cfg = JSON.parse(fs.readFileSync(process.argv[2], 'utf8'));
if (!cfg.devices || cfg.devices.length !== 2) usage('two devices');
const cable = Object.assign({ cuts: [], garbage: [] }, cfg.cable || {});
const wall0 = Date.now();
let finished = false;

class Device {
  constructor(n, d) {
    this.n = n;
    this.name = d.name || String(n);
    this.pico = new Pico({ firmware: d.firmware, fs: parseFs(d.fs), flash: fs.readFileSync(d.flash) });
    for (const g of d.high || []) this.pico.setInput(g, true);
    const bad = (m) => usage(`${this.name}: ${m}`);
    this.lcd = d.st7789 ? st7789(this.pico, spec(d.st7789, ST7789_KEYS, bad)) : null;
    this.oled = d.ssd1306 ? ssd1306(this.pico, spec(d.ssd1306, SSD1306_KEYS, bad)) : null;
    this.display = this.lcd || this.oled;
    this.uart = fixUart(this.pico, 0);
    this.port = new SerialPort(this.pico);
    this.console = '';
    this.port.onData = (data) => {
      if (this.console.length < 1 << 20) this.console += Buffer.from(data).toString('latin1');
    };
    this.plan = d.plan || [];
    this.step = 0;
    this.planDone = false;
    this.marks = [];
    this.shots = [];
    this.shotBufs = [];
    this.shotBytes = 0;
    this.pico.onFatal = (why) => finish(4, `${this.name}: ${why}`);
  }

  nowNs() {
    return this.pico.nowNs();
  }

  shot(label) {
    const img = this.display.image();
    this.shots.push({ label, t: this.nowNs() / 1e6, offset: this.shotBytes, bytes: img.length,
      last_byte: this.display.lastByteNs / 1e6 });
    this.shotBufs.push(img);
    this.shotBytes += img.length;
  }

  next() {
    if (finished) return;
    const pico = this.pico;
    if (this.step >= this.plan.length) { this.planDone = true; return; }
    const s = this.plan[this.step++];
    const now = pico.nowNs();
    const go = () => this.next();
    if (s.wait !== undefined) { pico.at(now + s.wait * 1e6, go); return; }
    if (s.down) { for (const g of s.down) pico.setInput(g, false); this.marks.push({ label: `down ${s.down}`, t: now / 1e6 }); go(); return; }
    if (s.up) { for (const g of s.up) pico.setInput(g, true); go(); return; }
    if (s.press) {
      for (const g of s.press) pico.setInput(g, false);
      this.marks.push({ label: `down ${s.press}`, t: now / 1e6 });
      pico.at(now + (s.hold || 100) * 1e6, () => { for (const g of s.press) pico.setInput(g, true); go(); });
      return;
    }
    if (s.mark !== undefined) { this.marks.push({ label: s.mark, t: now / 1e6 }); go(); return; }
    if (s.shot !== undefined) { this.shot(s.shot); go(); return; }
    if (s.end) { this.planDone = true; this.step = this.plan.length; return; }
    const limit = now + (s.max || 60000) * 1e6;
    const poll = (ok, what) => {
      const check = () => {
        if (finished) return;
        if (ok()) { go(); return; }
        if (pico.nowNs() >= limit) { finish(126, `${this.name} plan step ${this.step - 1}: ${what}`); return; }
        pico.at(pico.nowNs() + 1e6, check);
      };
      check();
    };
    if (s.idle !== undefined) {
      poll(() => pico.nowNs() >= Math.max(this.display.lastByteNs, now) + s.idle * 1e6,
        `the display was never idle for ${s.idle} ms`);
      return;
    }
    if (s.console !== undefined) { poll(() => this.console.includes(s.console), `never printed ${JSON.stringify(s.console)}`); return; }
    if (s.sync !== undefined) {
      const other = devices[1 - this.n];
      poll(() => other.marks.some((m) => m.label === s.sync), `the other device never passed mark ${s.sync}`);
      return;
    }
    finish(2, `${this.name} plan step ${this.step - 1} not understood: ${JSON.stringify(s)}`);
  }

  report() {
    const d = this.display;
    return {
      name: this.name, console: this.console, marks: this.marks, shots: this.shots, plan_done: this.planDone,
      device_ms: this.nowNs() / 1e6, flash: this.pico.stats,
      display: d ? {
        kind: this.lcd ? 'st7789' : 'ssd1306', width: d.width, height: d.height, bytes: d.bytes,
        state: d.state(), problems: d.problems,
        windows: this.lcd ? this.lcd.windows.map((w) => [w.t0 / 1e6, w.t1 / 1e6, w.x0, w.y0, w.x1, w.y1, w.px])
          : [...this.oled.writes, ...(this.oled.current ? [this.oled.current] : [])].map((w) => [w.t0 / 1e6, w.t1 / 1e6, w.bytes]),
      } : null,
    };
  }
}

const devices = cfg.devices.map((d, n) => new Device(n, d));

// ---- the cable: each direction a wire carrying one byte at a time at the sender's baud rate
const cutAt = (ns) => cable.cuts.some(([at, dur]) => ns >= at * 1e6 && ns < (at + dur) * 1e6);
class Wire {
  constructor(from, to) {
    this.from = from;
    this.to = to;
    this.freeNs = 0;         // when the line is next free
    this.frames = [];        // [t_first_ms, t_last_ms, hex, dropped bytes]
    this.cur = null;
    this.bytes = 0;
    this.dropped = 0;
  }

  byteNs() {
    const uart = this.from.uart;
    const baud = uart.baudDivider ? uart.baudRate : 115200;
    return charBits(uart) * 1e9 / baud;
  }

  send(b, garbage = false) {
    const t0 = Math.max(garbage ? this.to.nowNs() : this.from.nowNs(), this.freeNs);
    const t1 = t0 + this.byteNs();
    this.freeNs = t1;
    this.bytes++;
    if (!this.cur) this.cur = { t0: t0 / 1e6, bytes: [], dropped: 0, garbage };
    const cur = this.cur;
    cur.bytes.push(b);
    if (b === 0 || cur.bytes.length >= 300) { this.log(t1); }
    if (!garbage) this.from.pico.at(t1, this.from.uart.txDone);
    this.to.pico.at(t1, () => {
      if (cutAt(t1)) { this.dropped++; cur.dropped++; return; }
      this.to.uart.feedByte(b);
    });
  }

  log(t1) {
    const c = this.cur;
    this.cur = null;
    if (this.frames.length < 200000) {
      this.frames.push([c.t0, t1 / 1e6, Buffer.from(c.bytes).toString('hex'), c.garbage ? 1 : 0]);
      this.frames[this.frames.length - 1].dropRef = c;
    }
  }
}
const wires = [new Wire(devices[0], devices[1]), new Wire(devices[1], devices[0])];
devices[0].uart.onByte = (b) => wires[0].send(b);
devices[1].uart.onByte = (b) => wires[1].send(b);
for (const [at, to, bytes] of cable.garbage) {
  const w = wires[1 - to];
  devices[to].pico.at(at * 1e6, () => { for (const b of bytes) w.send(b, true); if (w.cur) w.log(w.freeNs); });
}

// ---- autoplay: one device's key, then the other's, each once both displays are still
const auto = cfg.autoplay || null;
const presses = [];
let turn = 0;
let stillSince = null;
const LONELY_MS = 3000;
function autoplay() {
  if (!auto || finished || !devices.every((d) => d.planDone)) return;
  const now = Math.max(...devices.map((d) => d.nowNs()));
  if (auto.until && devices.every((d) => d.console.includes(auto.until))) { finish(0, 'both printed ' + auto.until); return; }
  const last = Math.max(...devices.map((d) => d.display.lastByteNs));
  if (stillSince === null) stillSince = now;
  // The device to press still while the other keeps drawing for LONELY_MS: the other waits for it
  // with its wheel turning (the host's AI seat leads a round the host has not dealt: its person is
  // still on the round-end pages). Pressed then, as a person would.
  const own = now - Math.max(devices[turn].display.lastByteNs, stillSince) >= auto.idle * 1e6;
  const lonely = own && now - stillSince >= (auto.lonely || LONELY_MS) * 1e6;
  if (now - Math.max(last, stillSince) < auto.idle * 1e6 && !lonely) {
    if (now - stillSince > (auto.max || 60000) * 1e6) finish(126, `autoplay: the displays were never still for ${auto.idle} ms`);
    return;
  }
  stillSince = null;
  if (auto.presses !== undefined && presses.length >= auto.presses) { finish(0, `${presses.length} presses`); return; }
  const d = devices[turn];
  const g = auto.keys[turn];
  for (const dev of devices) dev.shot(`auto ${presses.length}`);
  presses.push([turn, d.nowNs() / 1e6]);
  d.pico.setInput(g, false);
  d.pico.at(d.nowNs() + (auto.hold || 100) * 1e6, () => d.pico.setInput(g, true));
  turn = 1 - turn;
}

// ---- the end
function finish(code, why) {
  if (finished) return;
  finished = true;
  const wall = (Date.now() - wall0) / 1000;
  const devMs = devices[0].nowNs() / 1e6;
  if (!cfg.quiet) process.stderr.write(`[link_run] ${why}; wall ${wall.toFixed(1)} s, device ${(devMs / 1000).toFixed(2)} s, exit ${code}\n`);
  if (cfg.out) {
    fs.mkdirSync(cfg.out, { recursive: true });
    for (const d of devices) if (d.display) d.shot('end');
    const rep = {
      exit: code, why, wall_s: wall, device_ms: devMs, presses,
      devices: devices.map((d) => d.report()),
      wires: wires.map((w) => ({ bytes: w.bytes, dropped: w.dropped,
        frames: w.frames.map((f) => [f[0], f[1], f[2], f[3], f.dropRef.dropped]) })),
    };
    fs.writeFileSync(path.join(cfg.out, 'link.json'), JSON.stringify(rep));
    for (const d of devices) fs.writeFileSync(path.join(cfg.out, `shots-${d.name}.bin`), Buffer.concat(d.shotBufs));
    if (cfg.save_flash) for (const d of devices) fs.writeFileSync(path.join(cfg.out, `flash-${d.name}.img`), d.pico.fsImage());
  }
  process.exit(code);
}

// ---- one loop steps both RP2040s, a slice of device time each in turn
function runTo(dev, target) {
  const { mcu, clock } = dev.pico;
  const core = mcu.core;
  const cycleNs = 1e9 / 125e6;
  while (clock.nanos < target && !finished) {
    if (core.waiting) {
      const n = clock.nanosToNextAlarm;
      clock.tick(Math.min(n > 0 ? n : target - clock.nanos, target - clock.nanos));
    } else {
      clock.tick(core.executeInstruction() * cycleNs);
    }
  }
}

let t = 0;
const limitNs = cfg.device_s ? cfg.device_s * 1e9 : Infinity;
function batch() {
  if (finished) return;
  const end = t + BATCH_NS;
  while (t < end && !finished) {
    t += SLICE_NS;
    for (const d of devices) runTo(d, t);
    autoplay();
  }
  if (t >= limitNs) { finish(125, `device time limit of ${cfg.device_s} s reached`); return; }
  if (!auto && devices.every((d) => d.planDone)) { finish(0, 'plans done'); return; }
  setImmediate(batch);
}

setTimeout(() => finish(124, `TIMEOUT after ${cfg.timeout || 600} s of wall time`), (cfg.timeout || 600) * 1000).unref();
for (const d of devices) { d.pico.mcu.core.PC = FLASH_START; d.next(); }
setImmediate(batch);
