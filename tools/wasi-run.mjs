// Runs a wasm32-wasip1 test binary under Node's built-in WASI (cargo's target runner).
// Usage: node --no-warnings tools/wasi-run.mjs <module.wasm> [args...]
import { readFile } from 'node:fs/promises';
import { WASI } from 'node:wasi';
import process from 'node:process';

const [modulePath, ...args] = process.argv.slice(2);
const wasi = new WASI({
  version: 'preview1',
  args: [modulePath, ...args],
  env: process.env,
  preopens: { '.': process.cwd() },
  returnOnExit: true,
});
const module = await WebAssembly.compile(await readFile(modulePath));
const instance = await WebAssembly.instantiate(module, wasi.getImportObject());
process.exitCode = wasi.start(instance);
