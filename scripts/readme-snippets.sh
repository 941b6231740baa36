#!/usr/bin/env bash
# Builds and runs each Rust snippet of the README as a downstream crate of its own, depending on
# agent-interface with exactly the features the snippet names in its `#[cfg(...)]` line and no
# others (as doctests do not: they build with every feature the test run has). A snippet that
# reaches past its features fails here with the compiler's own error.
set -euo pipefail
cd "$(dirname "$0")/.."
root=$PWD
work=target/readme-snippets
rm -rf "$work/crates"
mkdir -p "$work/crates"

# One file per ```rust block (not `rust,ignore`), hidden lines ("# …") shown.
awk -v out="$work/crates" '
    /^```rust$/ { n++; inside = 1; file = out "/snippet-" n ".rs"; next }
    /^```/ && inside { inside = 0; close(file); next }
    inside { line = $0; if (line == "#") line = ""; else sub(/^# /, "", line); print line > file }
' README.md

count=0
for snippet in "$work"/crates/snippet-*.rs; do
    name=$(basename "$snippet" .rs)
    first=$(head -n 1 "$snippet")
    if ! grep -q '^#\[cfg(' <<<"$first"; then
        echo "README $name: its first line names no features (#[cfg(feature = ...)] {)" >&2
        exit 1
    fi
    features=$(grep -o 'feature = "[^"]*"' <<<"$first" | sed 's/feature = "\(.*\)"/"\1"/' | paste -sd, -)
    crate="$work/crates/$name"
    mkdir -p "$crate/src"
    # The block minus its cfg line and the brace that closes it, as the body of `main`.
    { echo "fn main() {"; sed '1d;$d' "$snippet"; echo "}"; } > "$crate/src/main.rs"
    cat > "$crate/Cargo.toml" <<TOML
[package]
name = "readme-$name"
version = "0.0.0"
edition = "2024"
publish = false

[workspace]

[dependencies]
agent-interface = { path = "$root", default-features = false, features = [$features] }
embassy-futures = "0.1.2"
critical-section = { version = "1.2.0", features = ["std"] }
TOML
    cp Cargo.lock "$crate/Cargo.lock"
    echo "README $name with features [$features]"
    CARGO_TARGET_DIR="$root/$work/target" RUSTFLAGS="-D warnings" \
        cargo run --quiet --manifest-path "$crate/Cargo.toml"
    count=$((count + 1))
done
[ "$count" -gt 0 ] || { echo "no Rust snippet found in the README" >&2; exit 1; }
echo "$count README snippets built and ran with only their own features"
