// The page (docs/WEB.md): shows the firmware's frames on a canvas, pixel-exact at an integer scale
// or, with "Actual size", as many CSS millimetres wide as the real panel, and feeds it keys from the
// keyboard and the on-screen buttons. The firmware itself runs in a Web Worker (worker.js), so the
// page never waits for it. Saves live in localStorage; a link such as
// #deal=ABC-DEF&variant=fives opens a new game on that deal, and the end of a round offers one.
import { STORE, STORE_BAD, STORE_REPLACED, PREFS, readStore, closed, hasGame, parseLink, storeFiles,
  keep, readPref, writePref } from "./storage.mjs?v=%BUILD%";

const BUILD = "%BUILD%";
const K = { up: 0x001, down: 0x002, left: 0x004, right: 0x008, a: 0x010, b: 0x020, x: 0x040, y: 0x080,
  press: 0x100 };
const K_ALL = 0x1ff;
const KEYBOARD = { arrowup: "up", arrowdown: "down", arrowleft: "left", arrowright: "right",
  enter: "press", " ": "press", a: "a", b: "b", x: "x", y: "y" };
const BOARDS = [
  ["waveshare_lcd13", "Pico-LCD-1.3, 240×240"],
  ["pimoroni_pack", "Display Pack, 240×135"],
  ["pimoroni_pack2", "Display Pack 2.0, 320×240"],
  ["oled_diy", "OLED, 128×64"],
];
const storage = () => localStorage;     // touched only inside readPref/writePref's guard
const QUERY = new URLSearchParams(location.search);
const TEST = QUERY.has("test");         // the browser test drives the page (pico.run)
const NO_SAB = QUERY.has("nosab");      // keys by message only, as without cross-origin isolation

// The page's own words in the browser's language (navigator.language: "ru..." Russian, else English,
// as the firmware's first visit, boards/web.py); the firmware's screens speak its Settings' language.
const RU = /^ru\b/i.test(navigator.language || "");
const WORDS = {
  "pico-domino: play in your browser": "pico-domino: играть в браузере",
  "Board": "Плата",
  "Board to mimic": "Какую плату показать",
  "Actual size": "Настоящий размер",
  "The screen as big as the real panel (CSS millimetres: right where the browser knows this screen's size)":
    "Экран размером с настоящий (в миллиметрах CSS: точно там, где браузер знает размер экрана)",
  "the board's LED": "светодиод платы",
  "The handheld's screen": "Экран приставки",
  "up": "вверх", "down": "вниз", "left": "влево", "right": "вправо", "joystick press": "нажатие джойстика",
  "This round's deal:": "Раздача этого кона:",
  "Copy link": "Копировать ссылку",
  "(a friend who opens it plays the same tiles)": "(друг, открывший её, сыграет теми же костями)",
  "The same firmware as on the Pico, in MicroPython WebAssembly; saves stay in this browser.":
    "Та же прошивка, что на Pico, в MicroPython WebAssembly; сохранения остаются в этом браузере.",
  "Tap the buttons below the screen": "Нажимайте кнопки под экраном",
  "Tap the buttons beside the screen": "Нажимайте кнопки по сторонам экрана",
  " (X/Y: up/down, hold B + X/Y: left/right).": " (X/Y: вверх/вниз, B + X/Y: влево/вправо).",
  "Keys: A B X Y = the four buttons (X/Y: up/down, hold B + X/Y: left/right); arrows move too.":
    "Клавиши: A B X Y — четыре кнопки (X/Y: вверх/вниз, B + X/Y: влево/вправо); стрелки тоже.",
  "Keys: arrows = joystick, Enter/space = joystick press, A B X Y = buttons.":
    "Клавиши: стрелки — джойстик, Enter/пробел — нажатие джойстика, A B X Y — кнопки.",
  "This browser will not let the page read its storage ({0}): clean start, and the game cannot be saved.":
    "Браузер не даёт странице читать её хранилище ({0}): игра с чистого листа и не сохраняется.",
  "This browser refused to store the game ({0}): it is not saved. Free some site storage, or keep this page open.":
    "Браузер отказался сохранить игру ({0}): она не сохранена. Освободите место для сайта или не закрывайте страницу.",
  "The firmware stopped: {0}": "Прошивка остановилась: {0}",
  "The firmware could not start: {0}": "Прошивка не запустилась: {0}",
  "{0} The saved game, if any, goes on.": "{0} Сохранённая игра, если есть, продолжается.",
  "Replace the saved game with the deal {0}?": "Заменить сохранённую игру раздачей {0}?",
  "The link's deal was not opened: the saved game goes on.":
    "Раздача по ссылке не открыта: сохранённая игра продолжается.",
  "This game went on in another tab. Reload to play it here.":
    "Игра продолжилась в другой вкладке. Перезагрузите страницу, чтобы играть здесь.",
};
const T = (s, arg) => ((RU && WORDS[s]) || s).replace("{0}", () => (arg === undefined ? "{0}" : arg));

function localize() {
  // The page's fixed words (index.html: data-t on an element, its title and aria-label) in RU.
  document.documentElement.lang = RU ? "ru" : "en";
  for (const el of document.querySelectorAll("[data-t]")) el.textContent = T(el.textContent.trim());
  for (const el of document.querySelectorAll("[title]")) el.title = T(el.title);
  for (const el of document.querySelectorAll("[aria-label]")) el.setAttribute("aria-label", T(el.getAttribute("aria-label")));
}

const $ = (id) => document.getElementById(id);
const canvas = $("screen");
const ctx = canvas.getContext("2d");

// What the tests and the curious can read: window.pico.
const pico = window.pico = {
  hello: null, frames: 0, shots: {}, done: false, error: null, log: [], slow: [], deal: "",
  firstFrameMs: null, firstFrameAt: null, bootMs: null, busy: false, saved: 0, storageError: null,
  storageNotes: [], status: "", said: "", statuses: [],
  isolated: self.crossOriginIsolated,
};

let worker = null;
let hello = null;
let frame = null;               // the whole frame buffer, put together from the board's rows
let image = null;
let rgb = null;                 // palette as [r, g, b] triples
let dirty = [1e9, -1];          // frame byte range changed since the last render
let keysSab = null;
let held = 0;
let boardKeys = K_ALL;
let startedAt = 0;
let audio = null;
let resync = false;             // storage held a damaged entry: the first sync stores the cleaned set

// --- frames -------------------------------------------------------------------------------------
function onHello(textIn) {
  const f = textIn.split("\n");
  const fmt = f[4];
  hello = { name: f[0], profile: f[1], width: +f[2], height: +f[3], mono: fmt === "MONO_VLSB",
    palette: f[5], help: f[6], pitchUm: +f[7] || 0 };
  pico.hello = hello;
  rgb = f[5].split(",").map((c) => [0, 2, 4].map((i) => parseInt(c.substr(i, 2), 16)));
  const w = hello.width, h = hello.height;
  frame = new Uint8Array(hello.mono ? w * ((h + 7) >> 3) : ((w + 1) >> 1) * h);
  canvas.width = w;
  canvas.height = h;
  image = ctx.createImageData(w, h);
  $("help").textContent = hello.help;
  layout();
}

function onRows(off, rows, complete) {
  frame.set(rows, off);
  dirty[0] = Math.min(dirty[0], off);
  dirty[1] = Math.max(dirty[1], off + rows.length);
  if (complete) render();
}

function render() {
  // Only the rows that changed (the thinking wheel is a few rows) are turned into pixels.
  const w = hello.width, h = hello.height, px = image.data;
  let y0, y1;
  if (hello.mono) {
    y0 = 0;
    y1 = h;
    for (let y = 0; y < h; y++) {
      const base = (y >> 3) * w, bit = 1 << (y & 7);
      for (let x = 0; x < w; x++) {
        const c = rgb[frame[base + x] & bit ? 1 : 0], o = (y * w + x) * 4;
        px[o] = c[0]; px[o + 1] = c[1]; px[o + 2] = c[2]; px[o + 3] = 255;
      }
    }
  } else {
    const stride = (w + 1) >> 1;
    y0 = Math.floor(dirty[0] / stride);
    y1 = Math.min(h, Math.ceil(dirty[1] / stride));
    for (let y = y0; y < y1; y++) {
      for (let x = 0; x < w; x++) {
        const b = frame[y * stride + (x >> 1)];
        const c = rgb[x & 1 ? b & 15 : b >> 4], o = (y * w + x) * 4;
        px[o] = c[0]; px[o + 1] = c[1]; px[o + 2] = c[2]; px[o + 3] = 255;
      }
    }
  }
  dirty = [1e9, -1];
  if (y1 > y0) ctx.putImageData(image, 0, 0, 0, y0, w, y1 - y0);
  pico.frames += 1;
  if (pico.firstFrameMs === null) {
    pico.firstFrameMs = performance.now() - startedAt;    // from starting the worker
    pico.firstFrameAt = performance.now();                // from the page's navigation
  }
}

function layout() {
  // The largest integer scale (in device pixels) that fits the window beside (or, held upright,
  // above) the buttons and over the lines of text under it; or the panel's own size.
  if (!hello) return;
  const dpr = window.devicePixelRatio || 1;
  const mm = actualMm();
  $("actual-mm").textContent = mm ? mm[0].toFixed(1) + " × " + mm[1].toFixed(1) + " mm" : "";
  if (mm) {
    // CSS millimetres: 96 CSS pixels an inch, what the browser takes for this screen's; smoothed
    // when that is fewer device pixels than the frame has (a phone's 0.1 mm pixels are smaller
    // than most monitors' own), nearest-neighbour when more.
    canvas.style.width = mm[0] + "mm";
    canvas.style.height = mm[1] + "mm";
    canvas.classList.toggle("smooth", mm[0] / 25.4 * 96 * dpr < hello.width);
    return;
  }
  canvas.classList.remove("smooth");
  const portrait = window.matchMedia("(orientation: portrait)").matches;
  const left = $("left"), right = $("right");
  const sides = left.offsetWidth + right.offsetWidth + 56;
  const sideH = Math.max(left.offsetHeight, right.offsetHeight) + 8;
  const above = $("stage").getBoundingClientRect().top + window.scrollY;
  const wide = document.documentElement.clientWidth - 36 - (portrait ? 0 : sides);
  const room = window.innerHeight - above - 110 - (portrait ? sideH : 0);
  const fit = Math.min(wide * dpr / hello.width, room * dpr / hello.height);
  // pixel-exact at a whole scale, unless that would leave much of a small screen unused (a phone
  // held upright: 240 pixels on a 390-wide screen): then the whole width, pixels a little uneven
  let s = Math.max(1, Math.floor(fit));
  if (portrait && s < fit * 0.92) s = fit;
  canvas.style.width = hello.width * s / dpr + "px";
  canvas.style.height = hello.height * s / dpr + "px";
}

function actualMm() {
  // The panel's display area in mm ([width, height], from the pitch its board announced), when
  // "Actual size" is on; else null.
  if (!$("actual").checked || !hello || !hello.pitchUm) return null;
  return [hello.width * hello.pitchUm / 1000, hello.height * hello.pitchUm / 1000];
}

function keyLine(four) {
  // What the keyboard does for this board; on a touch screen without a keyboard, the buttons, where
  // the layout puts them (style.css: under the screen on a phone held upright, else beside it)
  const touch = window.matchMedia("(pointer: coarse)").matches && !window.matchMedia("(hover: hover)").matches;
  if (touch) {
    const below = window.matchMedia("(orientation: portrait)").matches;
    return T(below ? "Tap the buttons below the screen" : "Tap the buttons beside the screen") +
      (four ? T(" (X/Y: up/down, hold B + X/Y: left/right).") : ".");
  }
  if (four) return T("Keys: A B X Y = the four buttons (X/Y: up/down, hold B + X/Y: left/right); arrows move too.");
  return T("Keys: arrows = joystick, Enter/space = joystick press, A B X Y = buttons.");
}

// --- keys ---------------------------------------------------------------------------------------
function setKeys(next, pressed) {
  held = next;
  if (keysSab) {
    if (pressed) Atomics.or(keysSab, 2, pressed);
    Atomics.store(keysSab, 1, held);
    Atomics.add(keysSab, 0, 1);
  } else if (worker) {
    worker.postMessage({ t: "keys", held, pressed });
  }
}

function keyDown(name) {
  const bit = K[name];
  if (!bit) return;
  unlockAudio();
  setKeys(held | bit, bit);
}

function keyUp(name) {
  const bit = K[name];
  if (bit && held & bit) setKeys(held & ~bit, 0);
}

window.addEventListener("keydown", (e) => {
  if (e.ctrlKey || e.metaKey || e.altKey) return;
  if (e.target instanceof HTMLSelectElement || e.target instanceof HTMLInputElement) return;
  const name = KEYBOARD[e.key.toLowerCase()];
  if (!name) return;
  e.preventDefault();
  if (!e.repeat) keyDown(name);         // the firmware repeats held keys itself
});
window.addEventListener("keyup", (e) => {
  const name = KEYBOARD[e.key.toLowerCase()];
  if (name) keyUp(name);
});
window.addEventListener("blur", () => { if (held) setKeys(0, 0); });

function buildButtons() {
  // Laid out like the board: a joystick left of the screen and four keys right of it, or the
  // Display Packs' A over B on the left and X over Y on the right.
  const four = boardKeys !== K_ALL;
  $("device").className = four ? "four" : "pad";
  $("keyline").textContent = keyLine(four);
  const a = document.querySelector(".ka"), b = document.querySelector(".kb");
  const home = four ? $("left") : $("keys");
  home.append(a, b);
  layout();
}

for (const b of document.querySelectorAll(".side button")) {
  const name = b.dataset.key;
  const up = (e) => { e.preventDefault(); keyUp(name); b.classList.remove("down"); };
  b.addEventListener("pointerdown", (e) => {
    e.preventDefault();
    b.setPointerCapture(e.pointerId);
    b.classList.add("down");
    keyDown(name);
  });
  b.addEventListener("pointerup", up);
  b.addEventListener("pointercancel", up);
  b.addEventListener("lostpointercapture", up);
  b.addEventListener("contextmenu", (e) => e.preventDefault());
}

// --- sound, LED, brightness: what the simulator shows on its status line --------------------------
function unlockAudio() {
  if (!audio && window.AudioContext) {
    try { audio = new AudioContext(); } catch (e) { audio = null; }
  }
}

function onEvent(textIn) {
  const f = textIn.split(" ");
  if (f[0] === "beep" && audio) {
    const o = audio.createOscillator(), g = audio.createGain();
    o.type = "square";
    o.frequency.value = +f[1];
    g.gain.value = 0.05;
    o.connect(g).connect(audio.destination);
    o.start();
    o.stop(audio.currentTime + +f[2] / 1000);
  } else if (f[0] === "led") {
    $("led").style.background = "rgb(" + f[1] + "," + f[2] + "," + f[3] + ")";
  } else if (f[0] === "brightness") {
    canvas.style.filter = "brightness(" + (60 + 0.4 * +f[1]) + "%)";   // a backlight, not a dimmer
  }
}

// --- saves (storage.mjs: the closed file set, read-back after every store) -----------------------
function loadFiles() {
  // What storage holds for the firmware, read as store.py reads flash: a damaged entry set aside
  // (the entry as found kept under STORE_BAD, its bad files as <name>.bad), the rest used.
  let raw = null;
  try {
    raw = localStorage.getItem(STORE);
  } catch (e) {
    resync = false;
    pico.storageNotes = [T("This browser will not let the page read its storage ({0}): clean start, " +
      "and the game cannot be saved.", e.name)];
    say(pico.storageNotes[0]);
    return {};
  }
  const r = readStore(raw);
  pico.storageNotes = r.notes;
  resync = r.damaged;
  if (r.damaged) {
    keep(localStorage, STORE_BAD, raw);
    say(r.notes.join(" "));
  }
  return r.files;
}

function saveFiles(files, seq) {
  // One setItem (the whole data folder at once, never half of it), then read back: "saved" only
  // when storage holds what was sent. The answer goes to the worker at once through the shared
  // memory (the firmware waits for it: a save is through only when it is stored), else by message.
  const r = storeFiles(localStorage, closed(files));
  if (r.ok) {
    pico.saved += 1;
    if (pico.storageError !== null) $("warn").hidden = true;
    pico.storageError = null;
  } else {
    pico.storageError = r.name;
    say(T("This browser refused to store the game ({0}): it is not saved. Free some site storage, " +
      "or keep this page open.", r.name));
  }
  const errno = r.ok ? 0 : r.errno;
  if (keysSab) {
    Atomics.store(keysSab, 4, errno);
    Atomics.store(keysSab, 3, seq);
    Atomics.notify(keysSab, 3);
  }
  if (worker) worker.postMessage({ t: "stored", seq, errno });
}

function onDeal(info) {
  pico.deal = info;
  const box = $("share");
  if (!info) {
    box.hidden = true;
    return;
  }
  const [variant, players, teams, code] = info.split(" ");
  let hash = "#deal=" + code + "&variant=" + variant + "&players=" + players;
  if (teams === "1") hash += "&teams=1";
  const url = location.origin + location.pathname + hash;
  const a = $("share-link");
  a.href = url;
  a.textContent = code;
  box.hidden = false;
}

// --- the worker -----------------------------------------------------------------------------------
function start(opts) {
  if (worker) worker.terminate();
  hello = null;
  onDeal("");
  pico.done = false;
  pico.error = null;
  pico.shots = {};
  startedAt = performance.now();
  pico.firstFrameMs = null;
  keysSab = null;
  held = 0;
  let sab = null;
  if (self.crossOriginIsolated && typeof SharedArrayBuffer === "function" && !NO_SAB) {
    sab = new SharedArrayBuffer(32);     // [keys seq, held, pressed, stored seq, its errno]
    keysSab = new Int32Array(sab);
  }
  const me = worker = new Worker("worker.js?v=" + BUILD, { type: "module" });
  worker.onmessage = (e) => {
    if (worker !== me) return;            // a message from a worker since replaced
    const m = e.data;
    if (m.t === "rows") onRows(m.off, m.rows, m.frame);
    else if (m.t === "hello") onHello(m.text);
    else if (m.t === "event") onEvent(m.text);
    else if (m.t === "files") saveFiles(m.files, m.seq);
    else if (m.t === "deal") onDeal(m.info);
    else if (m.t === "shot") pico.shots[m.name] = canvas.toDataURL("image/png");
    else if (m.t === "slow") pico.slow.push({ ms: m.ms, ai: m.ai });
    else if (m.t === "busy") pico.busy = m.on;
    else if (m.t === "status") {
      [pico.status, pico.said] = m.text.split("\n");
      pico.statuses.push(m.text);
    }
    else if (m.t === "out") { pico.log.push(m.text); console.log("app:", m.text); }
    else if (m.t === "board") {
      boardKeys = m.keys;
      pico.bootMs = m.bootMs;
      buildButtons();
      if (m.note) say(m.note);
    } else if (m.t === "done") pico.done = true;
    else if (m.t === "error") {
      pico.error = m.text;
      say(T("The firmware stopped: {0}", m.text));
    }
  };
  worker.onerror = (e) => {
    if (worker !== me) return;
    pico.error = e.message || "worker failed";
    say(T("The firmware could not start: {0}", pico.error));
  };
  const files = loadFiles();
  worker.postMessage(Object.assign({ t: "start", build: BUILD, files, resync, keys: sab }, opts));
}

function say(textIn) {
  const w = $("warn");
  w.textContent = textIn;
  w.hidden = false;
}

function chosenBoard() {
  const fromUrl = new URLSearchParams(location.search).get("board");
  let b = fromUrl;
  b = b || readPref(storage, PREFS.board);
  b = b || BOARDS[0][0];
  return BOARDS.some((x) => x[0] === b) ? b : BOARDS[0][0];
}

function play() {
  // A deal link's values are checked before anything is touched; with a game saved it asks first
  // (the saves it replaces are kept under STORE_REPLACED). The address then loses its #..., so a
  // reload resumes instead of dealing again.
  const link = parseLink(location.hash);
  if (link) history.replaceState(null, "", location.pathname + location.search);
  let deal = null;
  if (link && link.error) {
    say(T("{0} The saved game, if any, goes on.", link.error));
  } else if (link) {
    deal = link.deal;
    let stored = null;
    try { stored = localStorage.getItem(STORE); } catch (e) { stored = null; }
    if (hasGame(readStore(stored).files)) {
      if (!window.confirm(T("Replace the saved game with the deal {0}?", deal.code))) {
        deal = null;
        say(T("The link's deal was not opened: the saved game goes on."));
      } else {
        keep(localStorage, STORE_REPLACED, stored);
      }
    }
  }
  start({ board: chosenBoard(), deal });
}

const select = $("board");
for (const [id, label] of BOARDS) select.add(new Option(label, id));
select.value = chosenBoard();
select.addEventListener("change", () => {
  writePref(storage, PREFS.board, select.value);     // refused: not remembered
  select.blur();
  start({ board: select.value });        // the game resumes on the other screen, as after a power cut
});
const actualBox = $("actual");
actualBox.checked = readPref(storage, PREFS.actual) === "1";
actualBox.addEventListener("change", () => {
  writePref(storage, PREFS.actual, actualBox.checked ? "1" : "0");     // refused: not remembered
  actualBox.blur();
  layout();
});
window.addEventListener("resize", () => {
  layout();
  if (hello) $("keyline").textContent = keyLine(boardKeys !== K_ALL);    // (turned: above or beside)
});
localize();
window.addEventListener("storage", (e) => {
  // Another tab of this site saved: two copies of one handheld would overwrite each other's saves.
  if (e.key !== STORE || !worker || TEST) return;
  worker.terminate();
  worker = null;
  say(T("This game went on in another tab. Reload to play it here."));
});
window.addEventListener("hashchange", () => { if (parseLink(location.hash)) play(); });
$("copy").addEventListener("click", () => {
  navigator.clipboard && navigator.clipboard.writeText($("share-link").href);
});

// Tests drive the page themselves: pico.run({board, seed, aiStep, script: {timeline, end}}).
pico.run = (opts) => start(opts);
pico.clearSaves = () => { try { localStorage.removeItem(STORE); } catch (e) { /* refused */ } };

async function isolate() {
  // A static host that sends no cross-origin isolation headers: sw.js adds them (then one reload),
  // so that keys reach the firmware while the AI thinks. Without it the page still plays.
  if (self.crossOriginIsolated || !("serviceWorker" in navigator) || !window.isSecureContext) return;
  try {
    await navigator.serviceWorker.register("sw.js");
    if (!navigator.serviceWorker.controller && !sessionStorage.getItem("pico-domino/reloaded")) {
      sessionStorage.setItem("pico-domino/reloaded", "1");
      await navigator.serviceWorker.ready;
      location.reload();
      return new Promise(() => {});
    }
  } catch (e) {
    console.log("no service worker:", e);
  }
}

if (!TEST) isolate().then(play);
