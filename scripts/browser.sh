#!/usr/bin/env bash
# The browser example (browser/): the crate compiled to wasm32-unknown-unknown with wasm-bindgen,
# loaded by a web page in a real headless Chromium, which decodes a session record and
# reassembles shuffled channel frames; browser/run.mjs checks what the page found.
#
# Installs what it needs on a fresh machine: Debian's chromium (apt), wasm-bindgen-cli at the
# version browser/Cargo.lock pins (cargo install), playwright-core (npm), all cached in $TOOLS.
set -euo pipefail
cd "$(dirname "$0")/.."

TOOLS=${BROWSER_TOOLS:-$HOME/.cache/agent-interface-browser}
PLAYWRIGHT_VERSION=1.65.2
WASM_BINDGEN_VERSION=$(awk '/^name = "wasm-bindgen"$/{getline; gsub(/version = |"/, ""); print}' browser/Cargo.lock)

step() { printf '\n==> %s\n' "$*"; }
as_root() {
    if [ "$(id -u)" -eq 0 ]; then "$@"; else sudo "$@"; fi
}

step "setup: chromium (apt), wasm-bindgen-cli $WASM_BINDGEN_VERSION, playwright-core $PLAYWRIGHT_VERSION (npm)"
rustup target add wasm32-unknown-unknown >/dev/null 2>&1
if ! command -v chromium >/dev/null; then
    as_root apt-get update -qq
    as_root env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends chromium
fi
WASM_BINDGEN=$TOOLS/bin/wasm-bindgen
if ! "$WASM_BINDGEN" --version 2>/dev/null | grep -q " $WASM_BINDGEN_VERSION\$"; then
    # Not --locked: the CLI's own lock file pins a webpki-roots release the index no longer has.
    nice cargo install --quiet wasm-bindgen-cli --version "$WASM_BINDGEN_VERSION" --root "$TOOLS"
fi
if [ "$(node -p "require('$TOOLS/node_modules/playwright-core/package.json').version" 2>/dev/null)" != "$PLAYWRIGHT_VERSION" ]; then
    mkdir -p "$TOOLS"
    npm install --prefix "$TOOLS" --no-audit --no-fund --silent "playwright-core@$PLAYWRIGHT_VERSION"
fi
echo "$("$WASM_BINDGEN" --version), $(chromium --version)"

step "build: the page's module (wasm32-unknown-unknown, release, opt-level z) and its bindings"
(
    cd browser
    cargo clippy --quiet --release --target wasm32-unknown-unknown --target-dir target -- -D warnings
    cargo build --quiet --release --target wasm32-unknown-unknown --target-dir target
)
"$WASM_BINDGEN" --target web --out-dir browser/www/pkg \
    browser/target/wasm32-unknown-unknown/release/agent_interface_browser.wasm
# Budget: the module as measured (559,833 bytes, mostly the record decoder: see the size
# report's record_codec attribution) plus headroom for growth that a review should see.
MODULE_BUDGET=600000
MODULE=$(stat -c %s browser/www/pkg/agent_interface_browser_bg.wasm)
echo "module: $MODULE bytes of wasm (budget $MODULE_BUDGET)"
if [ "$MODULE" -gt "$MODULE_BUDGET" ]; then
    echo "the browser example's module is over its budget" >&2
    exit 1
fi

step "run: the page in headless Chromium, checked by browser/run.mjs"
timeout 120 node browser/run.mjs "$TOOLS"
