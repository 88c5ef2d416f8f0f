// The browser's flash (docs/WEB.md, "Saves"): what localStorage may hold for the firmware, read as
// store.py reads a file from flash. Shared by the page (page.js), the worker (worker.js) and the
// Node tests (host_tests/test_web_storage.py through run_node.mjs).
//
// The stored file set is closed: only the names the firmware itself writes are read or written,
// each a string of bytes (latin-1) under a size budget. Anything else in storage is never handed to
// the firmware (a key "../fw/ui/app.py" would land on its code): a damaged entry is set aside as
// <name>.bad, the way store.py sets a damaged file aside on flash, with a message, and the rest is
// used (a good game.bak beside a damaged game.txt still resumes).

export const STORE = "pico-domino/files";           // {name: latin-1 string}
export const STORE_BAD = "pico-domino/files.bad";   // the whole entry as found, when it was damaged
export const STORE_REPLACED = "pico-domino/files.replaced";  // the saves a deal link replaced

const BASE = ["game.txt", "game.bak", "settings.json", "stats.json", "events.log", "events.old"];
export const NAMES = new Set(BASE.concat(BASE.map((n) => n + ".tmp"), BASE.map((n) => n + ".bad")));
export const FILE_MAX = 65536;      // characters of one entry (game.txt's budget is 32,768 bytes)
const SHOWN = 24;                   // characters of a stranger's name put in a message

export const known = (name) => typeof name === "string" && NAMES.has(name);

function shown(name) {
  const s = JSON.stringify(String(name));
  return s.length > SHOWN ? s.slice(0, SHOWN) + "..." : s;
}

function bytesOnly(v) {
  for (let i = 0; i < v.length; i++) if (v.charCodeAt(i) > 0xff) return false;
  return true;
}

// The stored text (localStorage.getItem's answer) -> {files, notes, damaged}: the files to hand the
// firmware, what to tell the player, and whether the entry as found must be kept aside.
export function readStore(raw) {
  const out = { files: {}, notes: [], damaged: false };
  if (raw === null || raw === undefined) return out;
  let d;
  try {
    d = JSON.parse(raw);
  } catch (e) {
    d = undefined;
  }
  if (!d || typeof d !== "object" || Array.isArray(d)) {
    out.damaged = true;
    out.notes.push("The stored saves were damaged: set aside, clean start.");
    return out;
  }
  for (const name of Object.keys(d)) {
    const v = d[name];
    if (!known(name)) {
      out.damaged = true;
      out.notes.push("Stored entry " + shown(name) + " is not one of the game's files: set aside.");
      continue;
    }
    if (typeof v !== "string" || v.length > FILE_MAX || !bytesOnly(v)) {
      out.damaged = true;
      const why = typeof v !== "string" ? (v === null ? "null" : typeof v) :
        (v.length > FILE_MAX ? "too big" : "not bytes");
      if (!name.endsWith(".bad")) {
        let keep = typeof v === "string" ? v : JSON.stringify(v);
        keep = String(keep).slice(0, FILE_MAX);
        let bytes = "";
        for (let i = 0; i < keep.length; i++) bytes += String.fromCharCode(keep.charCodeAt(i) & 0xff);
        out.files[name + ".bad"] = bytes;
      }
      out.notes.push("Stored " + name + " was damaged (" + why + "): set aside as " + name + ".bad.");
      continue;
    }
    if (out.files[name] === undefined) out.files[name] = v;
  }
  return out;
}

// The files the worker sends to be stored -> only the known ones, each a string within budget.
export function closed(files) {
  const out = {};
  if (!files || typeof files !== "object") return out;
  for (const name of Object.keys(files)) {
    const v = files[name];
    if (known(name) && typeof v === "string" && v.length <= FILE_MAX) out[name] = v;
  }
  return out;
}

// Whether a saved game is stored (a deal link asks before replacing it).
export function hasGame(files) {
  return !!(files && (files["game.txt"] || files["game.bak"]));
}

// A deal link's values (the URL's #...), checked before anything is touched: {deal} or {error}.
export function parseLink(hash) {
  let p;
  try {
    p = new URLSearchParams(String(hash || "").replace(/^#/, ""));
  } catch (e) {
    return { error: "This link is not a deal link." };
  }
  if (!p.has("deal")) return null;
  const code = (p.get("deal") || "").trim();
  if (code.length > 16 || !/^[A-Za-z0-9]{3}[- ]?[A-Za-z0-9]{3}$/.test(code)) {
    return { error: "Not a deal code: " + shown(code) + " (six letters and digits, like ABC-DEF)." };
  }
  const d = { code: code.toUpperCase() };
  const variant = p.get("variant");
  if (variant !== null) {
    if (!/^[a-z_]{1,16}$/.test(variant)) return { error: "Unknown variant: " + shown(variant) + "." };
    d.variant = variant;
  }
  const players = p.get("players");
  if (players !== null) {
    if (!/^[2-4]$/.test(players)) {
      return { error: "players=" + shown(players) + ": a game has 2, 3 or 4 players." };
    }
    d.players = +players;
  }
  const teams = p.get("teams");
  if (teams !== null) {
    if (!/^[01]$/.test(teams)) return { error: "teams=" + shown(teams) + ": 0 or 1." };
    d.teams = +teams;
  }
  const ai = p.get("ai");
  if (ai !== null) {
    if (!/^(easy|medium|hard)$/.test(ai)) {
      return { error: "ai=" + shown(ai) + ": easy, medium or hard." };
    }
    d.level = ai;
  }
  return { deal: d };
}

// Store `files` (already closed) and read them back: {ok: true} only when storage holds exactly
// them; else {ok: false, name, errno} (28: the quota, as ENOSPC on a full flash; 5: any other).
export function storeFiles(storage, files) {
  const text = JSON.stringify(files);
  try {
    storage.setItem(STORE, text);
  } catch (e) {
    const name = (e && e.name) || "Error";
    return { ok: false, name, errno: /quota/i.test(name) ? 28 : 5 };
  }
  let back = null;
  try {
    back = storage.getItem(STORE);
  } catch (e) {
    return { ok: false, name: (e && e.name) || "Error", errno: 5 };
  }
  if (back !== text) return { ok: false, name: "ReadBackMismatch", errno: 5 };
  return { ok: true };
}

// The page's own preferences (the board it mimics, the screen at actual size): keys of their own
// beside the files, never names in the firmware's file set, so the firmware never sees them and a
// damaged one cannot set a save aside. A browser that refuses storage (private modes, a quota, a
// SecurityError as soon as localStorage is touched) only makes the page forget them: `getStorage`
// is called inside the guard for that last case.
export const PREFS = { board: "pico-domino/board", actual: "pico-domino/actual" };

export function readPref(getStorage, key) {
  try {
    const v = getStorage().getItem(key);
    return typeof v === "string" ? v : null;
  } catch (e) {
    return null;
  }
}

export function writePref(getStorage, key, value) {
  try {
    getStorage().setItem(key, String(value));
    return true;
  } catch (e) {
    return false;
  }
}

// Keep a copy under `key` (the entry as found, the saves a link replaced); false when refused.
export function keep(storage, key, text) {
  try {
    storage.setItem(key, text);
    return true;
  } catch (e) {
    return false;
  }
}
