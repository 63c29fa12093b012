// Runs Python on the real MicroPython interpreter (WebAssembly port) for the MicroPython lane.
//   node runner.mjs [--heap BYTES] --lib DIR [--lib DIR ...] --tests DIR (--module NAME | --import NAME ...)
// Each --lib DIR is copied (its .py and .json files, recursively) to /lib/<basename of DIR>; --tests DIR
// to /tests. --module runs every test_* function of that module (sorted by name) and prints
// one marker line per function; --import imports each named module. The Python side prints
// MicroPython's own tracebacks, which pytest shows on failure.
import fs from "node:fs";
import path from "node:path";
import { loadMicroPython } from "@micropython/micropython-webassembly-pyscript";

const args = process.argv.slice(2);
const libs = [], imports = [];
let testsDir = null, moduleName = null, heap = 256 * 1024, code = null, bounded = false;
for (let i = 0; i < args.length; i++) {
  const a = args[i];
  if (a === "--lib") libs.push(args[++i]);
  else if (a === "--tests") testsDir = args[++i];
  else if (a === "--module") moduleName = args[++i];
  else if (a === "--import") imports.push(args[++i]);
  else if (a === "--heap") heap = parseInt(args[++i], 10);
  else if (a === "--code") code = args[++i];
  else if (a === "--bounded") bounded = true;
  else { console.error("runner: unknown argument " + a); process.exit(2); }
}

let out = [];
if (bounded) {
  // Emscripten reports each refused growth on console.error: the MemoryError says enough.
  const error = console.error;
  console.error = (...a) => { if (!/grow(Memory| the heap)/.test(String(a[0]))) error(...a); };
}
const mp = await loadMicroPython({
  heapsize: heap,
  stdout: (s) => out.push(s),
  stderr: (s) => out.push(s),
});

// --bounded: the port's collector adds heap areas from malloc when the heap is full
// (MICROPY_GC_SPLIT_HEAP_AUTO), so --heap alone bounds nothing. Refuse wasm memory growth and
// take every free malloc block of 32 KB or more: the heap then stays at --heap bytes and a
// bigger need is a MemoryError, as on a Pico. (runPython's own small mallocs still fit.)
if (bounded) {
  WebAssembly.Memory.prototype.grow = function () { throw new RangeError("bounded heap"); };
  for (let sz = 1 << 26; sz >= 32768; sz >>= 1) while (mp._module._malloc(sz));
}

function copyTree(src, dst) {
  mp.FS.mkdirTree(dst);
  for (const name of fs.readdirSync(src).sort()) {
    const s = path.join(src, name);
    const st = fs.statSync(s);
    if (st.isDirectory()) {
      if (name !== "__pycache__") copyTree(s, dst + "/" + name);
    } else if (name.endsWith(".py") || name.endsWith(".json")) {  // .json: the games' descriptors
      mp.FS.writeFile(dst + "/" + name, fs.readFileSync(s));
    }
  }
}
mp.FS.mkdirTree("/lib");
for (const lib of libs) {
  const st = fs.statSync(lib);
  if (st.isDirectory()) copyTree(lib, "/lib/" + path.basename(lib));
  else mp.FS.writeFile("/lib/" + path.basename(lib), fs.readFileSync(lib));
}
if (testsDir) copyTree(testsDir, "/tests");

const driver = `
import sys
sys.path.insert(0, '/tests')
sys.path.insert(0, '/lib')
import gc
def _run_module(name):
    try:
        mod = __import__(name)
    except BaseException as e:
        print('@@IMPORTFAIL', name)
        sys.print_exception(e)
        print('@@END')
        return
    names = sorted([n for n in dir(mod) if n.startswith('test_')])
    if not names:
        print('@@EMPTY', name)
    for n in names:
        gc.collect()
        try:
            getattr(mod, n)()
            print('@@PASS', n)
        except BaseException as e:
            print('@@FAIL', n)
            sys.print_exception(e)
            print('@@END')
def _import(name):
    try:
        __import__(name)
        print('@@PASS', name)
    except BaseException as e:
        print('@@FAIL', name)
        sys.print_exception(e)
        print('@@END')
`;
let status = 0;
try {
  mp.runPython(driver);
  if (moduleName) mp.runPython(`_run_module(${JSON.stringify(moduleName)})`);
  for (const name of imports) mp.runPython(`_import(${JSON.stringify(name)})`);
  if (code !== null) mp.runPython(code);
} catch (e) {
  out.push("@@CRASH " + (e && e.message ? e.message : String(e)));
  status = 3;
}
// exit once the output is flushed: process.exit() right after write() cuts a pipe at 64 KB
process.stdout.write(out.join("\n") + "\n", () => process.exit(status));
