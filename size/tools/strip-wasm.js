// Copies a .wasm file without its custom sections of names, producers, target features and
// DWARF (what `wasm-opt --strip-debug --strip-producers --strip-target-features` drops), byte
// for byte otherwise, so the size report optimizes once (with names, for twiggy) and measures
// the shipped form without a second wasm-opt run.  Usage: node strip-wasm.js IN OUT
'use strict';
const fs = require('node:fs');
const [input, output] = process.argv.slice(2);
const bytes = fs.readFileSync(input);
const leb = (at) => {
  let value = 0, shift = 0, byte;
  do {
    byte = bytes[at++];
    value += (byte & 0x7f) * 2 ** shift;
    shift += 7;
  } while (byte & 0x80);
  return [value, at];
};
const dropped = (name) =>
  name === 'name' || name === 'producers' || name === 'target_features' || name.startsWith('.debug');
const kept = [bytes.subarray(0, 8)];
let at = 8;
while (at < bytes.length) {
  const start = at;
  const id = bytes[at++];
  const [size, body] = leb(at);
  const end = body + size;
  let drop = false;
  if (id === 0) {
    const [length, text] = leb(body);
    drop = dropped(bytes.subarray(text, text + length).toString('utf8'));
  }
  if (!drop) kept.push(bytes.subarray(start, end));
  at = end;
}
fs.writeFileSync(output, Buffer.concat(kept));
