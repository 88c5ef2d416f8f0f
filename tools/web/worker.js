// The Web Worker that runs the firmware (docs/WEB.md). MicroPython's WebAssembly port loads the
// device's own modules (firmware.json) and boards/web.py; the board talks to this worker through two
// devices in the runtime's file system, in the simulator's link protocol (docs/SIM.md):
//   /dev/pico_out  board -> here: H hello, B/F frame rows, E events, S sleep requests
//   /dev/pico_in   here -> board: K keys held, T the answer to a sleep (keys and the new time)
// The worker calls app.step() once a frame. A sleep request is answered at once: with the page's
// real time (then the worker waits that long before the next step, so nothing busy-waits), or in a
// test with the times of a key script, exactly as tools/sim/main.py's headless runs do. Keys reach the
// board while a step runs (an AI move, 0.25-4 s) through a SharedArrayBuffer the page writes, when
// the page is cross-origin isolated; otherwise between steps, by message.
import { loadMicroPython } from "./micropython.mjs?v=%BUILD%";
import { install, latin1, unlatin1 } from "./fsutil.mjs?v=%BUILD%";
import { known } from "./storage.mjs?v=%BUILD%";

const MSG_HELLO = 0x48, MSG_BAND = 0x42, MSG_FRAME = 0x46, MSG_EVENT = 0x45, MSG_SLEEP = 0x53;
const MSG_KEYS = 0x4b, MSG_TIME = 0x54, MSG_SYNC = 0x59;
const STORED_WAIT_MS = 3000;    // the page's answer to a store, at most (then: not confirmed, EIO)
const HEAP = 256 * 1024;        // a Pico has ~200 KB free; this port's objects are 32-bit as there
const PYSTACK = 16 * 1024;      // Python stack, in words (the endgame solver recurses)
const DATA = "/data";
const SLOW_STEP_MS = 100;       // steps longer than this (AI moves, hints) are reported to the page

let mp = null;
let FS = null;
let app = null;
let step = null;
let roundEnd = null;
let status = null;
let lastStatus = "";
let aiStats = null;
let keysSab = null;             // Int32Array [seq, held, pressed] written by the page
let lastSeq = 0;
let msgKeys = null;             // {held, pressed} from messages (no SharedArrayBuffer)
let held = 0;
let now = 0;                    // the link's clock, ms
let origin = 0;                 // performance.now() at link time 0
let stopped = false;
let script = null;              // {timeline: [[t, "keys"|"shot", arg]], end, i}
let fileCache = {};
let stepStart = 0;              // performance.now() when the running step began
let busy = false;               // told the page that this step is a long one (the AI thinks)
let lastDeal = "";
let storeSeq = 0;               // the last snapshot of the data folder sent to the page
let storedSeq = 0;              // ... and the last one it answered, with its errno (0: stored)
let storedErrno = 0;

const post = (m, transfer) => self.postMessage(m, transfer || []);

// --- the link: board -> worker --------------------------------------------------------------
const inbuf = { data: new Uint8Array(65536), len: 0 };

function linkWrite(bytes) {
  if (inbuf.len + bytes.length > inbuf.data.length) {
    const bigger = new Uint8Array(Math.max(inbuf.data.length * 2, inbuf.len + bytes.length));
    bigger.set(inbuf.data.subarray(0, inbuf.len));
    inbuf.data = bigger;
  }
  inbuf.data.set(bytes, inbuf.len);
  inbuf.len += bytes.length;
  let p = 0;
  while (inbuf.len - p >= 4) {
    const d = inbuf.data;
    const n = d[p + 1] | (d[p + 2] << 8) | (d[p + 3] << 16);
    if (inbuf.len - p < 4 + n) break;
    message(d[p], d.subarray(p + 4, p + 4 + n));
    p += 4 + n;
  }
  if (p) {
    inbuf.data.copyWithin(0, p, inbuf.len);
    inbuf.len -= p;
  }
}

const text = (bytes) => new TextDecoder().decode(bytes);

function message(kind, payload) {
  if (kind === MSG_BAND || kind === MSG_FRAME) {
    const off = payload[0] | (payload[1] << 8) | (payload[2] << 16) | (payload[3] << 24);
    const rows = payload.slice(4);
    post({ t: "rows", off, rows, frame: kind === MSG_FRAME }, [rows.buffer]);
  } else if (kind === MSG_SLEEP) {
    sleep(payload[0] | (payload[1] << 8) | (payload[2] << 16) | (payload[3] << 24));
  } else if (kind === MSG_HELLO) {
    post({ t: "hello", text: helloIn(text(payload)) });
  } else if (kind === MSG_EVENT) {
    post({ t: "event", text: text(payload) });
  } else if (kind === MSG_SYNC) {
    send(MSG_SYNC, held, syncStored());    // the board reads the answer before it goes on
  }
}

let pageLang = "en";            // the page's language: the board's key help line is shown in it

function helloIn(hello) {
  // The hello with its key help line (its 7th) in the page's language: the firmware's own
  // catalogue (lang/<code>.txt, "English<TAB>translation" lines) has every board's line.
  if (pageLang === "en") return hello;
  const f = hello.split("\n");
  try {
    const lines = new TextDecoder().decode(FS.readFile("/fw/lang/" + pageLang + ".txt")).split("\n");
    const hit = lines.find((ln) => ln.startsWith(f[6] + "\t"));
    if (hit) f[6] = hit.slice(f[6].length + 1);
  } catch (e) { /* no catalogue: the English line */ }
  return f.join("\n");
}

// --- the link: worker -> board --------------------------------------------------------------
const outq = [];                // 8-byte messages waiting to be read

function send(kind, keys, value) {
  const m = new Uint8Array(8);
  const v = new DataView(m.buffer);
  m[0] = kind;
  v.setUint16(2, keys & 0xffff, true);
  v.setUint32(4, value >>> 0, true);
  outq.push(m);
}

function sendKeys(h, pressed) {
  // The board latches a key that goes down between two messages: a tap (down and up again since
  // the last poll) is sent as its release, its press and the keys held now.
  if (pressed) {
    send(MSG_KEYS, h & ~pressed, 0);
    send(MSG_KEYS, h | pressed, 0);
  }
  send(MSG_KEYS, h, 0);
  held = h;
}

function pollKeys() {
  if (script) return;
  if (keysSab) {
    const seq = Atomics.load(keysSab, 0);
    if (seq === lastSeq) return;
    lastSeq = seq;
    const pressed = Atomics.exchange(keysSab, 2, 0);
    sendKeys(Atomics.load(keysSab, 1), pressed);
  } else if (msgKeys) {
    sendKeys(msgKeys.held, msgKeys.pressed);
    msgKeys = null;
  }
}

function sleep(ms) {
  if (!script) {
    pollKeys();
    const wall = Math.floor(performance.now() - origin);
    now = Math.max(now + ms, wall);
    send(MSG_TIME, held, now);
    return;
  }
  // A key script (tools/sim/link.py parse_script, run as tools/sim/main.py run_script runs it).
  const target = now + ms;
  const tl = script.timeline;
  while (script.i < tl.length && tl[script.i][0] <= target) {
    const [t, what, arg] = tl[script.i];
    if (what === "keys") {
      held = arg;
      send(MSG_KEYS, arg, 0);
    } else {
      post({ t: "shot", name: arg, at: t });
    }
    script.i += 1;
  }
  now = target;
  if (script.i >= tl.length && now >= script.end) {
    stopped = true;             // no answer: the board reads the end of its input and exits
    return;
  }
  send(MSG_TIME, held, now);
}

function registerLink() {
  const dev = FS.makedev(64, 0);
  FS.registerDevice(dev, {
    open() {},
    close() {},
    read(stream, buffer, offset, length) {
      let n = 0;
      while (outq.length && n + 8 <= length) {
        buffer.set(outq.shift(), offset + n);
        n += 8;
      }
      return n;                 // 0: the end of the link (the board quits)
    },
    write(stream, buffer, offset, length) {
      linkWrite(new Uint8Array(buffer.buffer, buffer.byteOffset + offset, length));
      return length;
    },
    poll() {
      if (!busy && !script && performance.now() - stepStart > SLOW_STEP_MS) {
        busy = true;            // a long step polls the keys (ui/table.py on_tick): the AI thinks
        post({ t: "busy", on: true });
      }
      pollKeys();
      return outq.length ? 1 : 0;   // POLLIN
    },
  });
  FS.mkdev("/dev/pico_out", dev);
  FS.mkdev("/dev/pico_in", dev);
}

// --- files: the flash is the page's localStorage ---------------------------------------------
function syncFiles(force) {
  // The data folder as it stands goes to the page when anything changed, which stores it in one
  // piece and reads it back (storage.mjs). Only the firmware's own file names: the set is closed.
  // Called after every step (whole writes and renames only: the app is between two steps) and by
  // the board after every save (boards/web.py: a save is through once it is stored). Returns the
  // snapshot's number, or 0 when nothing changed (force: sent again all the same).
  const snap = {};
  let changed = false;
  let count = 0;
  for (const name of FS.readdir(DATA)) {
    if (!known(name)) continue;
    const path = DATA + "/" + name;
    if (!FS.isFile(FS.stat(path).mode)) continue;
    const s = latin1(FS.readFile(path));
    snap[name] = s;
    count += 1;
    if (fileCache[name] !== s) changed = true;
  }
  if (force || changed || count !== Object.keys(fileCache).length) {
    fileCache = snap;
    storeSeq += 1;
    post({ t: "files", files: snap, seq: storeSeq });
    return storeSeq;
  }
  return 0;
}

function syncStored() {
  // For the board, after a save: the data folder sent to the page and its answer awaited (the page
  // writes it into the shared memory): 0 stored and read back, 28 the quota (a full flash), 5
  // anything else or no answer in time. Without shared memory the last answer that came by message.
  // After a refusal the folder is sent again even unchanged: every save tries again.
  syncFiles(storedErrno !== 0);
  if (keysSab && storedSeq < storeSeq) {
    const until = performance.now() + STORED_WAIT_MS;
    for (;;) {
      const got = Atomics.load(keysSab, 3);
      if (got >= storeSeq) {
        storedSeq = got;
        storedErrno = Atomics.load(keysSab, 4);
        break;
      }
      const left = until - performance.now();
      if (left <= 0) return 5;
      Atomics.wait(keysSab, 3, got, left);
    }
  }
  if (storedSeq >= storeSeq) return storedErrno;
  return keysSab ? 5 : storedErrno;
}

// --- the firmware ----------------------------------------------------------------------------
function checkDeal() {
  const st = status(app);
  if (st !== lastStatus) {
    lastStatus = st;
    post({ t: "status", text: st });
  }
  const d = roundEnd(app);
  if (d !== lastDeal) {
    lastDeal = d;
    post({ t: "deal", info: d });
  }
}

function finish() {
  // The board quit (the end of a key script: the link's input ended). Shots the script still
  // holds are of the last frame, as tools/sim/main.py takes them.
  if (script) {
    for (const [t, what, arg] of script.timeline.slice(script.i)) {
      if (what === "shot") post({ t: "shot", name: arg, at: t });
    }
  }
  post({ t: "done" });
}

function runStep() {
  const t0 = stepStart = performance.now();
  try {
    step();
  } catch (e) {
    stopped = true;             // app.step() never raises but SystemExit (the link ended)
    if (e.type !== "SystemExit") post({ t: "error", text: String(e.message || e) });
    else finish();
  }
  const ms = performance.now() - t0;
  if (ms > SLOW_STEP_MS && !script) {
    let ai = "";
    try { ai = aiStats(); } catch (e) { /* no AI loaded */ }
    post({ t: "slow", ms, ai });
  }
  if (busy) {
    busy = false;
    post({ t: "busy", on: false });
  }
  syncFiles();
  checkDeal();
}

function loop() {
  if (stopped) return;
  if (script) {
    const t0 = performance.now();         // as fast as it goes, a breath for messages now and then
    while (!stopped && performance.now() - t0 < 40) runStep();
    if (!stopped) setTimeout(loop, 0);
    return;
  }
  runStep();
  setTimeout(loop, Math.max(0, origin + now - performance.now()));
}

// The browser's language, which a first visit plays in (boards/web.py start: "ru..." Russian, else
// English); a worker has navigator too. Where there is none (an old runtime), English.
function browserLanguage() {
  try {
    return (typeof navigator !== "undefined" && navigator.language) || "en";
  } catch (e) {
    return "en";
  }
}

async function start(c) {
  const t0 = performance.now();
  mp = await loadMicroPython({
    heapsize: HEAP,
    pystack: PYSTACK,
    stdout: (line) => post({ t: "out", text: line }),
    stderr: (line) => post({ t: "out", text: line }),
  });
  FS = mp.FS;
  const fw = await (await fetch("firmware.json?v=" + c.build)).json();
  install(FS, fw.files, "/fw");
  FS.mkdir(DATA);
  fileCache = c.resync ? { "": "" } : {};     // storage held damage: stored again, set aside
  for (const [name, s] of Object.entries(c.files || {})) {
    if (!known(name) || typeof s !== "string") continue;   // (the page sends only these)
    FS.writeFile(DATA + "/" + name, unlatin1(s));
    fileCache[name] = s;
  }
  registerLink();
  if (c.script) script = { timeline: c.script.timeline, end: c.script.end, i: 0 };
  if (c.keys) keysSab = new Int32Array(c.keys);
  origin = performance.now();
  pageLang = /^ru/i.test(c.lang || browserLanguage()) ? "ru" : "en";
  mp.runPython("import sys\nsys.path.insert(0, '/fw')");
  const web = mp.pyimport("boards.web");
  roundEnd = web.round_end;
  status = web.status;
  aiStats = web.ai_stats;
  try {
    const d = c.deal || {};
    app = web.start(c.board, c.size || null, c.seed === undefined ? null : c.seed, c.aiStep || 0,
      d.code || null, d.variant || null, d.players || 0, d.teams === undefined ? -1 : d.teams,
      d.level || null, c.lang || browserLanguage());
  } catch (e) {
    post({ t: "error", text: String(e.message || e) });
    return;
  }
  post({ t: "board", keys: app.board.KEYS, bootMs: performance.now() - t0, note: web.note });
  step = app.step;
  syncFiles();
  loop();
}

self.onmessage = (e) => {
  const m = e.data;
  if (m.t === "start") {
    start(m).catch((err) => post({ t: "error", text: String(err && err.stack || err) }));
  } else if (m.t === "stored") {        // the page's answer, when no shared memory carried it
    if (m.seq >= storedSeq) {
      storedSeq = m.seq;
      storedErrno = m.errno;
    }
  } else if (m.t === "keys") {
    msgKeys = { held: m.held, pressed: (msgKeys ? msgKeys.pressed : 0) | m.pressed };
  }
};
