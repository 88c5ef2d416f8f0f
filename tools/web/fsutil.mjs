// The firmware bundle in the runtime's file system, and bytes as latin-1 strings (JSON-safe):
// shared by the worker (worker.js) and the Node runner of the tests (run_node.mjs).
export function latin1(bytes) {
  let s = "";
  for (let i = 0; i < bytes.length; i += 8192) {
    s += String.fromCharCode.apply(null, bytes.subarray(i, i + 8192));
  }
  return s;
}

export function unlatin1(s) {
  const b = new Uint8Array(s.length);
  for (let i = 0; i < s.length; i++) b[i] = s.charCodeAt(i) & 0xff;
  return b;
}

// firmware.json's {path: base64} under `root`, folders made as needed.
export function install(FS, files, root) {
  const made = new Set();
  const mkdirs = (dir) => {
    if (!dir || made.has(dir)) return;
    mkdirs(dir.slice(0, dir.lastIndexOf("/")));
    try { FS.mkdir(dir); } catch (e) { /* it exists */ }
    made.add(dir);
  };
  for (const [rel, b64] of Object.entries(files)) {
    const path = root + "/" + rel;
    mkdirs(path.slice(0, path.lastIndexOf("/")));
    FS.writeFile(path, unlatin1(atob(b64)));
  }
}
