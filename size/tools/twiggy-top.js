// Prints the largest items of `twiggy top -f json` (on stdin) as a table, leaving out the
// sections the measured file does not have (names, producers, target features), with each
// item's share of the measured file.  Usage: twiggy top -n ALL -f json F | node twiggy-top.js N BYTES
'use strict';
const [top, measured] = process.argv.slice(2).map(Number);
const items = JSON.parse(require('node:fs').readFileSync(0, 'utf8'));
const stripped = /^("function names" subsection|"local names" subsection|.*names" subsection|custom section '(name|producers|target_features)')$/;
const shown = items.filter((item) => !stripped.test(item.name)).slice(0, top);
for (const item of shown) {
  const share = ((100 * item.shallow_size) / measured).toFixed(2).padStart(6);
  console.log(`${String(item.shallow_size).padStart(9)}  ${share}%  ${item.name.slice(0, 160)}`);
}
