// Serves browser/www on loopback, opens it in a headless Chromium (playwright-core driving
// Debian's /usr/bin/chromium) and checks what the page found. Exits non-zero on any mismatch.
// Usage: node browser/run.mjs <dir with node_modules holding playwright-core>
import { createServer } from "node:http";
import { readFile } from "node:fs/promises";
import { createRequire } from "node:module";
import { extname, join, normalize } from "node:path";
import { fileURLToPath } from "node:url";
import assert from "node:assert/strict";

const require = createRequire(join(process.argv[2] ?? ".", "package.json"));
const { chromium } = require("playwright-core");
const root = join(fileURLToPath(new URL(".", import.meta.url)), "www");
const types = { ".html": "text/html", ".js": "text/javascript", ".wasm": "application/wasm" };

const server = createServer(async (request, response) => {
  const path = normalize(new URL(request.url, "http://x").pathname).replace(/^\/+/, "");
  const file = path || "index.html";
  try {
    const body = await readFile(join(root, file));
    response.writeHead(200, { "content-type": types[extname(file)] ?? "application/octet-stream" });
    response.end(body);
  } catch {
    response.writeHead(404).end();
  }
});
await new Promise((resolve) => server.listen(0, "127.0.0.1", resolve));
const url = `http://127.0.0.1:${server.address().port}/`;

const browser = await chromium.launch({
  executablePath: process.env.CHROMIUM ?? "/usr/bin/chromium",
  args: ["--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
    "--disable-background-networking", "--disable-component-update", "--disable-sync"],
});
try {
  const page = await browser.newPage();
  const errors = [];
  page.on("pageerror", (error) => errors.push(String(error)));
  await page.goto(url);
  const status = await page.waitForSelector("#result[data-status]", { timeout: 20000 })
    .then((element) => element.getAttribute("data-status"));
  const text = await page.textContent("#result");
  assert.equal(status, "done", `the page failed: ${text}`);
  assert.deepEqual(errors, []);
  const found = JSON.parse(text);
  console.log("page found:", text);
  assert.deepEqual(found.valid, { status: "valid", id: "sess-1", name: "browser demo" });
  assert.equal(found.corrupt.status, "corrupt");
  assert.ok(found.corrupt.paths.includes("record.createdAt"), `located: ${found.corrupt.paths}`);
  assert.deepEqual(found.deliveries, [[], [], [], [], ["frames", "come", "back", "in", "order"]]);
  assert.equal(found.held, 0);
  assert.match(found.refused ?? "", /channel frame/);
  for (const key of ["duplicate", "unknownChannel", "badName"]) {
    assert.equal(typeof found[key], "string", `${key} throws`);
    assert.ok(found[key].length > 0, `${key} says why`);
  }
  assert.deepEqual(found.after, ["still open"]);
  console.log("browser example: ok in", await browser.version());
} finally {
  await browser.close();
  server.close();
}
