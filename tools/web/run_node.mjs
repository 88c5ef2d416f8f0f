// Runs a host script under the browser build's own runtime and firmware, in Node (no browser):
//   node tools/web/run_node.mjs SITE_DIR SCRIPT.py [ARGS...]
// SITE_DIR is a `make web` output (its micropython.mjs and firmware.json); the firmware is installed
// at /fw and the repository's tools package (its .py files) at /repo, both on sys.path as the import
// roots are at home; the script runs as /script/<name> with sys.argv set, as
// `MICROPYPATH=firmware:. micropython SCRIPT.py ARGS...` would run it. host_tests/test_web_twins.py compares what it
// prints with CPython and the unix port. Exit status: the script's SystemExit code, 1 on an error.
import fs from "fs";
import path from "path";
import { pathToFileURL } from "url";

const [site, script, ...args] = process.argv.slice(2);
if (!site || !script) {
  console.error("usage: node run_node.mjs SITE_DIR SCRIPT.py [ARGS...]");
  process.exit(2);
}
const abs = path.resolve(site);
const { loadMicroPython } = await import(pathToFileURL(path.join(abs, "micropython.mjs")).href);
const { install } = await import(pathToFileURL(path.join(abs, "fsutil.mjs")).href);
const mp = await loadMicroPython({
  heapsize: 4 * 1024 * 1024,
  pystack: 16 * 1024,
  linebuffer: false,
  stdout: (b) => process.stdout.write(b),
  stderr: (b) => process.stderr.write(b),
});
const fw = JSON.parse(fs.readFileSync(path.join(abs, "firmware.json"), "utf8"));
install(mp.FS, fw.files, "/fw");
const repo = path.resolve(path.dirname(new URL(import.meta.url).pathname), "..", "..");
function copyPy(from, to) {      // the .py files of a folder, recursively (no node_modules)
  mp.FS.mkdir(to);
  for (const e of fs.readdirSync(from, { withFileTypes: true })) {
    if (e.isDirectory() && e.name !== "node_modules" && !e.name.startsWith(".")) {
      copyPy(path.join(from, e.name), to + "/" + e.name);
    } else if (e.isFile() && e.name.endsWith(".py")) {
      mp.FS.writeFile(to + "/" + e.name, fs.readFileSync(path.join(from, e.name)));
    }
  }
}
mp.FS.mkdir("/repo");
copyPy(path.join(repo, "tools"), "/repo/tools");
const name = "/script/" + path.basename(script);
mp.FS.mkdir("/script");
mp.FS.writeFile(name, fs.readFileSync(script));
mp.globals.set("_argv", JSON.stringify([name, ...args]));
let code = 0;
try {
  mp.runPython(`
import sys, json
sys.path[:0] = ["/fw", "/repo"]
sys.argv[:] = json.loads(_argv)
del _argv
with open(sys.argv[0]) as _f:
    _src = _f.read()
exec(compile(_src, sys.argv[0], "exec"), {"__name__": "__main__"})
`);
} catch (e) {
  if (e.name !== "PythonError") throw e;
  if (e.type === "SystemExit") {
    const m = /(\d+)\s*$/.exec(e.message);
    code = m ? +m[1] : 0;
  } else {
    process.stderr.write(e.message);
    code = 1;
  }
}
process.stdout.write("", () => process.exit(code));
