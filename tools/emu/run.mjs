#!/usr/bin/env node
// Run stock MicroPython on an emulated Pico (rp2040js) with a littlefs filesystem, optional devices
// on its buses and buttons driven at chosen device times; see docs/PICO_EMU.md. tools/emu/harness.py
// is the Python side (it builds the flash image, writes the plan, reads the results).
//
// usage: node run.mjs [SCRIPT.py | --run CODE] --flash IMG --fs OFFSET:BYTES [--firmware F.uf2] [--gpio-high N,M,..]
//          [--st7789 spi=1,dc=8,cs=9,w=240,h=240,x=0,y=0] [--ssd1306 i2c=0,addr=60,w=128,h=64,sda=4,scl=5]
//          [--plan PLAN.json] [--out DIR] [--save-flash IMG] [--flash-timing]
//          [--timeout WALL_S] [--device-s S] [--quiet]
//
//   SCRIPT       run over the raw REPL once MicroPython is up (stdout -> stdout, traceback ->
//                stderr, exit 1); --run CODE: that line instead (e.g. `import script`, compiled
//                into the flash image: no compiler in the heap); without either, the device
//                runs /main.py (if the image has one) as a Pico does and the run ends with the plan.
//   --flash      the littlefs image (emu.py), placed at the filesystem's offset
//   --fs         where the firmware's filesystem lives in flash (emu.py reads it from the .uf2)
//   --firmware   the MicroPython .uf2 (default firmware.uf2 here: RPI_PICO)
//   --gpio-high  inputs driven high from reset (rp2040js models no pull-ups: an undriven input
//                reads 0, so active-low buttons read as pressed unless driven; 24 = VBUS sense)
//   --plan       JSON list of steps run in device time (below)
//   --out DIR    report.json (times, display windows, shots, console) and shots.bin (images)
//   --save-flash the filesystem region after the run (a later --flash keeps what the device wrote)
//   --flash-timing  erases and page programs take a W25Q16's typical time (else none)
//
// Plan steps (times in device ms):
//   {"wait": MS}                      let MS pass
//   {"idle": MS, "max": MS2}          until the display has had no byte for MS (at most MS2 more)
//   {"idle": MS, "answer": MS3, ...}  and, for at most MS3, until the picture differs from the one
//                                     when the last key went down: the app has answered the key (a
//                                     screen that loads without drawing is not taken as an answer)
//   {"console": "TEXT", "max": MS2}   until the device has printed TEXT (at most MS2)
//   {"down": [GPIO..]} {"up": [..]}   drive buttons low (pressed) / high (released)
//   {"press": [GPIO..], "hold": MS}   down, MS later up (the plan goes on after the hold)
//   {"shot": "LABEL"}                 keep the display's picture now
//   {"mark": "LABEL"}                 note the time
//   {"end": true}                     finish now
// Exit: 0 ok, 1 the script raised, 124 wall timeout, 125 device-time limit, 126 a plan step's max
// ran out, 2 usage, 3/4 harness trouble.
import fs from 'fs';
import path from 'path';
import { fileURLToPath } from 'url';
import { Pico, parseFs } from './pico.mjs';
import { SerialPort, runRaw } from './usb.mjs';
import { spec, st7789, ssd1306, ST7789_KEYS, SSD1306_KEYS } from './displays.mjs';

const HERE = path.dirname(fileURLToPath(import.meta.url));

function usage(msg) {
  if (msg) console.error(`run.mjs: ${msg}`);
  console.error('usage: node run.mjs [SCRIPT.py | --run CODE] --flash IMG --fs OFFSET:BYTES [--firmware F.uf2] [--gpio-high N,..] [--st7789 SPEC] [--ssd1306 SPEC] [--plan F] [--out DIR] [--save-flash F] [--flash-timing] [--timeout S] [--device-s S] [--quiet]');
  process.exit(2);
}

const a = { script: null, run: null, flash: null, fs: null, firmware: path.join(HERE, 'firmware.uf2'), high: [],
  st7789: null, ssd1306: null, plan: [], out: null, saveFlash: null, flashTiming: false, timeout: 600,
  deviceS: 0, quiet: false };
const argv = process.argv.slice(2);
for (let i = 0; i < argv.length; i++) {
  const o = argv[i];
  const val = () => { if (i + 1 >= argv.length) usage(`${o} needs a value`); return argv[++i]; };
  if (o === '--flash') a.flash = val();
  else if (o === '--run') a.run = val();
  else if (o === '--firmware') a.firmware = val();
  else if (o === '--fs') { const v = val(); a.fs = parseFs(v); if (!a.fs) usage(`bad --fs ${v}`); }
  else if (o === '--gpio-high') a.high = val().split(',').filter((s) => s).map(Number);
  else if (o === '--st7789') a.st7789 = spec(val(), ST7789_KEYS, usage);
  else if (o === '--ssd1306') a.ssd1306 = spec(val(), SSD1306_KEYS, usage);
  else if (o === '--plan') a.plan = JSON.parse(fs.readFileSync(val(), 'utf8'));
  else if (o === '--out') a.out = val();
  else if (o === '--save-flash') a.saveFlash = val();
  else if (o === '--flash-timing') a.flashTiming = true;
  else if (o === '--timeout') a.timeout = Number(val());
  else if (o === '--device-s') a.deviceS = Number(val());
  else if (o === '--quiet') a.quiet = true;
  else if (o === '-h' || o === '--help') usage();
  else if (o.startsWith('--')) usage(`unknown option ${o}`);
  else if (a.script == null) a.script = o;
  else usage(`extra argument ${o}`);
}
if (a.script && a.run) usage('SCRIPT or --run, not both');
if (a.script && !fs.existsSync(a.script)) usage(`no such file: ${a.script}`);
if (!a.flash || !fs.existsSync(a.flash)) usage('--flash IMG (a littlefs image from emu.py) is needed');
if (!a.fs) usage('--fs OFFSET:BYTES (the firmware\'s filesystem, from emu.py) is needed');
if (!fs.existsSync(a.firmware)) usage(`no firmware ${a.firmware} (make pico-emu copies it)`);
if (!(a.timeout > 0)) usage('bad --timeout');
if (a.high.some((n) => !(n >= 0 && n < 30))) usage('bad --gpio-high');

process.stdout.on('error', (e) => { if (e.code === 'EPIPE') process.exit(0); throw e; });
const note = (m) => { if (!a.quiet) process.stderr.write(`[pico_emu] ${m}\n`); };
const wall0 = Date.now();

const pico = new Pico({ firmware: a.firmware, fs: a.fs, flash: fs.readFileSync(a.flash), flashTiming: a.flashTiming });
for (const n of a.high) pico.setInput(n, true);
const lcd = a.st7789 ? st7789(pico, a.st7789) : null;
const oled = a.ssd1306 ? ssd1306(pico, a.ssd1306) : null;
const display = lcd || oled;
const port = new SerialPort(pico);

const ms = () => pico.nowNs() / 1e6;
let console_ = '';
const shots = [];
const marks = [];
const shotBufs = [];
let shotBytes = 0;
let runStart = null;
let finished = false;
let scriptErr = '';

function finish(code, why) {
  if (finished) return;
  finished = true;
  pico.stop();
  const wall = (Date.now() - wall0) / 1000;
  if (why) note(why);
  note(`wall ${wall.toFixed(2)} s, device ${(ms() / 1000).toFixed(3)} s (${(ms() / 1000 / wall).toFixed(3)}x real time), exit ${code}`);
  if (a.saveFlash) fs.writeFileSync(a.saveFlash, pico.fsImage());
  if (a.out) {
    fs.mkdirSync(a.out, { recursive: true });
    const rep = {
      exit: code, why: why || '', device_ms: ms(), wall_s: wall, run_start_ms: runStart, console: console_,
      script_error: scriptErr, marks, shots, plan_done: planDone,
      flash: pico.stats,
      // [t0_ms, t1_ms] of each flash erase or program
      flash_ops: pico.flashOps.map((o) => [o[0] / 1e6, o[1] / 1e6]),
      display: display ? {
        kind: lcd ? 'st7789' : 'ssd1306', width: display.width, height: display.height, bytes: display.bytes,
        state: display.state(), problems: display.problems,
        // [t0_ms, t1_ms, x0, y0, x1, y1, pixels] for each RAMWR, or [t0_ms, t1_ms, bytes] for each I2C data write
        windows: lcd ? lcd.windows.map((w) => [w.t0 / 1e6, w.t1 / 1e6, w.x0, w.y0, w.x1, w.y1, w.px])
          : [...oled.writes, ...(oled.current ? [oled.current] : [])].map((w) => [w.t0 / 1e6, w.t1 / 1e6, w.bytes]),
      } : null,
    };
    fs.writeFileSync(path.join(a.out, 'report.json'), JSON.stringify(rep));
    fs.writeFileSync(path.join(a.out, 'shots.bin'), Buffer.concat(shotBufs));
  }
  process.stdout.write('', () => process.exit(code));
}
pico.onFatal = (why) => finish(4, why);

// ---- the plan, in device time
let planDone = false;
let step = 0;
let before = null;   // the display's picture when the current key went down (idle steps' "answer")
function nextStep() {
  if (finished) return;
  if (step >= a.plan.length) {
    planDone = true;
    if (!a.script && !a.run) finish(0, 'plan done');
    return;
  }
  const s = a.plan[step++];
  const now = pico.nowNs();
  if (s.wait !== undefined) { pico.at(now + s.wait * 1e6, nextStep); return; }
  if (s.down) {
    if (display && !before) before = display.image();   // the picture the key's answer changes
    for (const g of s.down) pico.setInput(g, false);
    nextStep();
    return;
  }
  if (s.up) { for (const g of s.up) pico.setInput(g, true); nextStep(); return; }
  if (s.press) {
    for (const g of s.press) pico.setInput(g, false);
    pico.at(now + (s.hold || 100) * 1e6, () => { for (const g of s.press) pico.setInput(g, true); nextStep(); });
    return;
  }
  if (s.mark !== undefined) { marks.push({ label: s.mark, t: now / 1e6 }); nextStep(); return; }
  if (s.shot !== undefined) {
    if (!display) { finish(2, 'a shot step needs --st7789 or --ssd1306'); return; }
    const img = display.image();
    shots.push({ label: s.shot, t: now / 1e6, offset: shotBytes, bytes: img.length, last_byte: display.lastByteNs / 1e6 });
    shotBufs.push(img);
    shotBytes += img.length;
    nextStep();
    return;
  }
  if (s.end) { finish(0, 'plan ended'); return; }
  const limit = now + (s.max || 60000) * 1e6;
  if (s.idle !== undefined) {
    if (!display) { finish(2, 'an idle step needs a display'); return; }
    const answerEnd = now + (s.answer || 0) * 1e6;
    const check = () => {
      const due = Math.max(display.lastByteNs, now) + s.idle * 1e6;
      const t = pico.nowNs();
      if (t >= due) {
        if (!before || t >= answerEnd || !display.image().equals(before)) { before = null; nextStep(); return; }
        pico.at(Math.min(t + s.idle * 1e6, answerEnd), check);   // still the picture before the key
        return;
      }
      if (t >= limit) { finish(126, `plan step ${step - 1}: the display was never idle for ${s.idle} ms`); return; }
      pico.at(Math.min(due, limit), check);
    };
    check();
    return;
  }
  if (s.console !== undefined) {
    const check = () => {
      if (console_.includes(s.console)) { nextStep(); return; }
      if (pico.nowNs() >= limit) { finish(126, `plan step ${step - 1}: the device never printed ${JSON.stringify(s.console)}`); return; }
      pico.at(pico.nowNs() + 1e6, check);
    };
    check();
    return;
  }
  finish(2, `plan step ${step - 1} not understood: ${JSON.stringify(s)}`);
}

// ---- what runs: the script over the raw REPL, or main.py as at power-on
const keep = (data) => {
  const t = Buffer.from(data).toString('latin1');
  if (console_.length < 1 << 20) console_ += t;
  return t;
};
if (a.script || a.run) {
  const cmd = a.run || `exec(compile(${JSON.stringify(fs.readFileSync(a.script, 'latin1'))}, ${JSON.stringify(path.basename(a.script))}, 'exec'))`;
  port.onConnect = () => {
    runRaw(port, cmd, {
      onOut: (d) => { process.stdout.write(d); keep(d); },
      onErr: (t) => { process.stderr.write(t); },
      onStart: () => { runStart = ms(); },
    }).then(({ err }) => {
      scriptErr = err;
      finish(err ? 1 : 0);
    });
  };
} else {
  port.onData = (d) => { process.stdout.write(keep(d)); };
}
nextStep();

setTimeout(() => finish(124, `TIMEOUT after ${a.timeout} s of wall time`), a.timeout * 1000).unref();
if (a.deviceS > 0) pico.at(a.deviceS * 1e9, () => finish(125, `device time limit of ${a.deviceS} s reached`));
pico.start();
