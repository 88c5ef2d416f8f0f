#!/usr/bin/env node
// A Pico plugged into a PC: stock MicroPython in rp2040js (pico.mjs), its USB serial (the CDC,
// usb.mjs) on this process's stdin/stdout, its flash kept in a file. tools/emu/usb_pty.py puts
// a pseudo-terminal in front, so the real mpremote talks to it as to /dev/ttyACM0 (docs/PICO_EMU.md).
//
// usage: node usb_pty.mjs --flash FILE --fs OFFSET:BYTES [--firmware F.uf2] [--gpio-high N,M,..]
//          [--st7789 SPEC | --ssd1306 SPEC] [--shots DIR] [--idle-ms MS] [--flash-timing]
//          [--events-fd N]
//
//   stdin        the bytes the PC sends; dropped while the device is not enumerated (a real port is
//                gone then)
//   stdout       the bytes the device sends
//   --events-fd  (default 3) one JSON object a line: {"ev":"up"} when the CDC is enumerated (the
//                port appears), {"ev":"reset"} when the chip resets (machine.reset(), the watchdog:
//                the port goes, the chip starts again from the same flash), {"ev":"shot","n":N,
//                "file":F} when the display (--st7789/--ssd1306, wiring as run.mjs takes it) has
//                drawn and then been still for --idle-ms of device time (F: its picture, as
//                ST7789.image() / SSD1306.image() give it)
//   --fs         where the firmware's filesystem lives in flash (emu.py reads it from the .uf2: RPI_PICO
//                1408 KiB at 0xA0000, RPI_PICO_W 848 KiB at 0x12C000)
//   --flash      the filesystem region of the flash. Every erase and program
//                is written through to the file at once, as a flash chip keeps it, so killing this
//                process mid-write leaves what pulling the plug would. A missing file is a Pico
//                fresh from its UF2: erased, and MicroPython formats it on first boot.
//
// Exit: when stdin ends (the PC side went away) or on SIGTERM; 2 usage.
import fs from 'fs';
import path from 'path';
import { fileURLToPath } from 'url';
import { Pico, parseFs } from './pico.mjs';
import { SerialPort } from './usb.mjs';
import { spec, st7789, ssd1306, ST7789_KEYS, SSD1306_KEYS } from './displays.mjs';

const HERE = path.dirname(fileURLToPath(import.meta.url));
const BK_ERASE = 0x71; // pico.mjs's BKPT numbers for the ROM's flash_range_erase / _program
const BK_PROG = 0x72;
const WATCHDOG = 0x40058;

function usage(msg) {
  if (msg) console.error(`usb_pty.mjs: ${msg}`);
  console.error('usage: node usb_pty.mjs --flash FILE --fs OFFSET:BYTES [--firmware F.uf2] [--gpio-high N,..] [--st7789 SPEC | --ssd1306 SPEC] [--shots DIR] [--idle-ms MS] [--flash-timing] [--events-fd N]');
  process.exit(2);
}

const a = { flash: null, fs: null, firmware: path.join(HERE, 'firmware.uf2'), high: [], st7789: null, ssd1306: null,
  shots: null, idleMs: 300, flashTiming: false, eventsFd: 3 };
const argv = process.argv.slice(2);
for (let i = 0; i < argv.length; i++) {
  const o = argv[i];
  const val = () => { if (i + 1 >= argv.length) usage(`${o} needs a value`); return argv[++i]; };
  if (o === '--flash') a.flash = val();
  else if (o === '--firmware') a.firmware = val();
  else if (o === '--fs') { const v = val(); a.fs = parseFs(v); if (!a.fs) usage(`bad --fs ${v}`); }
  else if (o === '--gpio-high') a.high = val().split(',').filter((s) => s).map(Number);
  else if (o === '--st7789') a.st7789 = spec(val(), ST7789_KEYS, usage);
  else if (o === '--ssd1306') a.ssd1306 = spec(val(), SSD1306_KEYS, usage);
  else if (o === '--shots') a.shots = val();
  else if (o === '--idle-ms') a.idleMs = Number(val());
  else if (o === '--flash-timing') a.flashTiming = true;
  else if (o === '--events-fd') a.eventsFd = Number(val());
  else usage(`unknown argument ${o}`);
}
if (!a.flash) usage('--flash FILE is needed');
if (!a.fs) usage('--fs OFFSET:BYTES (the firmware\'s filesystem, from emu.py) is needed');
const FS_OFFSET = a.fs.offset;
const FS_BYTES = a.fs.bytes;
if (!fs.existsSync(a.firmware)) usage(`no firmware ${a.firmware} (make pico-emu copies it)`);
if (a.high.some((n) => !(n >= 0 && n < 30))) usage('bad --gpio-high');
if (a.st7789 && a.ssd1306) usage('one display');
if (!(a.idleMs > 0)) usage('bad --idle-ms');
if (a.shots) fs.mkdirSync(a.shots, { recursive: true });

// rp2040js reports MicroPython's reads of the inter-core FIFO status on every soft reset.
const warn = console.warn;
console.warn = (...args) => { if (!/invalid SIO address: 5[08]\b/.test(String(args[0]))) warn(...args); };

// The flash file: made erased (0xff) when missing, FS_BYTES long.
if (!fs.existsSync(a.flash) || fs.statSync(a.flash).size !== FS_BYTES) {
  const img = Buffer.alloc(FS_BYTES, 0xff);
  if (fs.existsSync(a.flash)) fs.readFileSync(a.flash).copy(img, 0, 0, FS_BYTES);
  fs.writeFileSync(a.flash, img);
}
const flashFd = fs.openSync(a.flash, 'r+');

const event = (obj) => {
  try { fs.writeSync(a.eventsFd, JSON.stringify(obj) + '\n'); } catch (e) { /* nobody listens */ }
};

let pico = null;
let port = null;
let boots = 0;
let shots = 0;
const written = { erase: 0, prog: 0 };

function boot() {
  boots++;
  const p = (pico = new Pico({ firmware: a.firmware, fs: a.fs, flash: fs.readFileSync(a.flash), flashTiming: a.flashTiming }));
  const mcu = p.mcu;
  p.onFatal = (why) => { event({ ev: 'fatal', why }); process.exit(4); };
  for (const n of a.high) p.setInput(n, true);
  // Every erase/program goes through to the file (r0..r2 still hold the range when pico.mjs's
  // handler has done the work in the flash array).
  const romCall = mcu.onBreak;
  mcu.onBreak = (code) => {
    const r = mcu.core.registers;
    const off = r[0] >>> 0;
    const count = (code === BK_ERASE ? r[1] : r[2]) >>> 0;
    romCall(code);
    if ((code === BK_ERASE || code === BK_PROG) && off >= FS_OFFSET && off + count <= FS_OFFSET + FS_BYTES) {
      fs.writeSync(flashFd, mcu.flash, off, count, off - FS_OFFSET);
      if (code === BK_ERASE) written.erase += count; else written.prog += count;
    }
  };
  // machine.reset() and a watchdog timeout: a new chip, the same flash file (the port goes and
  // comes back, as the Pico re-enumerates on USB).
  mcu.peripherals[WATCHDOG].onWatchdogTrigger = () => {
    if (p !== pico) return;
    p.stop();
    port = null;
    event({ ev: 'reset', boot: boots, t_ms: p.nowNs() / 1e6, flash: { ...written } });
    setImmediate(boot);
  };
  const serial = (port = new SerialPort(p));
  serial.onConnect = () => event({ ev: 'up', boot: boots, t_ms: p.nowNs() / 1e6 });
  serial.onData = (d) => process.stdout.write(d);
  const display = a.st7789 ? st7789(p, a.st7789) : a.ssd1306 ? ssd1306(p, a.ssd1306) : null;
  if (display && a.shots) watchDisplay(p, display);
  pacedExecute(p.simulator);
  p.start();
}

// A shot each time the display has taken bytes and then been still for idleMs of device time.
function watchDisplay(p, display) {
  let seen = 0;
  p.every((a.idleMs * 1e6) / 4, () => {
    if (p !== pico) return false;
    if (display.bytes !== seen && p.nowNs() - display.lastByteNs >= a.idleMs * 1e6 && !display.current) {
      seen = display.bytes;
      const file = path.join(a.shots, `shot${String(shots).padStart(4, '0')}.bin`);
      fs.writeFileSync(file, display.image());
      event({ ev: 'shot', n: shots++, file, boot: boots, t_ms: p.nowNs() / 1e6, last_byte_ms: display.lastByteNs / 1e6,
        w: display.width, h: display.height, problems: display.problems });
    }
    return true;
  });
}

// rp2040js's Simulator.execute runs 1,000,000 steps, then yields with setTimeout(0) (>= 1 ms in
// Node), and while the core sleeps (WFI) it jumps straight to the next alarm. For a device a PC
// talks to, both matter: the PC's bytes are read only between slices (mpremote's mount protocol
// makes hundreds of round trips), and a device waiting for the PC would see its clock race ahead
// (seconds of ticks_ms per wall second). Here: slices of CHUNK steps with setImmediate (stdin is
// read after each), and a sleeping core's clock does not run ahead of the wall clock since boot, as
// a real Pico's would not; a busy core runs flat out (the emulator is slower than real time).
const CHUNK = 100000;
function pacedExecute(sim) {
  const { rp2040: mcu, clock } = sim;
  const core = mcu.core;
  const cycleNs = 1e9 / 125e6;
  let wall0 = null;
  const run = () => {
    if (sim.stopped) return;
    const wallNs = (performance.now() - wall0) * 1e6;
    for (let i = 0; i < CHUNK && !sim.stopped; i++) {
      if (core.waiting) {
        const ns = clock.nanosToNextAlarm;
        if (clock.nanos + ns > wallNs) {
          setTimeout(run, Math.min(5, (clock.nanos + ns - wallNs) / 1e6));
          return;
        }
        clock.tick(ns);
        i += ns / cycleNs;
      } else {
        clock.tick(core.executeInstruction() * cycleNs);
      }
    }
    setImmediate(run);
  };
  sim.execute = () => {
    sim.stopped = false;
    if (wall0 === null) wall0 = performance.now() - clock.nanos / 1e6;
    run();
  };
  sim.stop = () => { sim.stopped = true; };
}

process.stdin.on('data', (buf) => { if (port && port.connected) port.write(buf); });
process.stdin.on('end', () => process.exit(0));
process.stdout.on('error', (e) => { if (e.code === 'EPIPE') process.exit(0); throw e; });
process.on('SIGTERM', () => process.exit(0));
boot();
