// Run the firmware's pure modules under real MicroPython (the WebAssembly port from npm).
//
//   node tests/mpy/run.mjs FIRMWARE_DIR CHECKS_PY VECTORS_JSON
//
// Copies every firmware/*.py except main.py (the only module that needs the board), the
// checks file and the vectors into MicroPython's virtual file system under /fw, then runs
// fwchecks.main() there. Prints what MicroPython prints; exits 1 if Python raised.
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

const here = path.dirname(fileURLToPath(import.meta.url));
const [firmwareDir, checksPy, vectorsJson] = process.argv.slice(2);
if (!firmwareDir || !checksPy || !vectorsJson) {
  console.error("usage: node run.mjs FIRMWARE_DIR CHECKS_PY VECTORS_JSON");
  process.exit(2);
}
const { loadMicroPython } = await import(
  path.join(here, "node_modules/@micropython/micropython-webassembly-pyscript/micropython.mjs")
);

let out = "";
const mp = await loadMicroPython({
  heapsize: 8 * 1024 * 1024,
  stdout: (line) => { out += line + "\n"; },
  stderr: (line) => { out += line + "\n"; },
});
mp.FS.mkdir("/fw");
const loaded = [];
for (const name of fs.readdirSync(firmwareDir).sort()) {
  if (name.endsWith(".py") && name !== "main.py") {
    mp.FS.writeFile("/fw/" + name, fs.readFileSync(path.join(firmwareDir, name)));
    loaded.push(name);
  }
}
mp.FS.writeFile("/fw/fwchecks.py", fs.readFileSync(checksPy));
mp.FS.writeFile("/fw/protocol.json", fs.readFileSync(vectorsJson));
out += "LOADED " + loaded.join(" ") + "\n";
let code = 0;
try {
  mp.runPython("import sys\nsys.path.insert(0, '/fw')\nimport fwchecks\nfwchecks.main('/fw/protocol.json')\n");
} catch (e) {
  out += "ERROR " + (e.message || e) + "\n";
  code = 1;
}
process.stdout.write(out);
process.exit(code);
