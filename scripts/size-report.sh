#!/usr/bin/env bash
# The size report: small consumer crates (size/consumers/*), each using one piece of
# agent-interface, built for wasm32-unknown-unknown (opt-level z, LTO, then binaryen's
# `wasm-opt -Oz`; bytes of the .wasm file) and thumbv7em-none-eabihf (opt-level z, LTO;
# `.text` + `.rodata`). Prints one table (bytes, budget, goal, OK/OVER), then the largest
# contributors of each build (twiggy for wasm, nm for thumb), and fails when any build is over
# its budget in size/budgets.txt. How to read it: docs/size-report.md.
#
#   scripts/size-report.sh                   build, report, check the budgets
#   scripts/size-report.sh --update-budgets  the same, then rewrite size/budgets.txt to the
#                                            measured sizes + 5% (goals and comments kept)
#   scripts/size-report.sh record_codec ...  only these consumers (no budget rewrite)
#
# Environment: CARGO_TARGET_DIR (default size/target), SIZE_REPORT_TOOLS (where binaryen and,
# if missing from PATH, twiggy are installed; default ~/.cache/agent-interface-size),
# SIZE_REPORT_TOP (contributors listed per build; default 15).
# On a fresh machine it first installs what it needs (idempotent).
set -euo pipefail
cd "$(dirname "$0")/../size"
SIZE_DIR=$PWD

BINARYEN_VERSION=132.0.0
TWIGGY_VERSION=0.8.0
TOOLS=${SIZE_REPORT_TOOLS:-$HOME/.cache/agent-interface-size}
TOP=${SIZE_REPORT_TOP:-15}
export CARGO_TARGET_DIR=${CARGO_TARGET_DIR:-$SIZE_DIR/target}
OUT=$CARGO_TARGET_DIR/size-report
BUDGETS=$SIZE_DIR/budgets.txt
START=$SECONDS

UPDATE=0
ONLY=()
for arg in "$@"; do
    case $arg in
        --update-budgets) UPDATE=1 ;;
        -*) echo "unknown option: $arg" >&2; exit 2 ;;
        *) ONLY+=("$arg") ;;
    esac
done
if [ "$UPDATE" -eq 1 ] && [ ${#ONLY[@]} -gt 0 ]; then
    echo "--update-budgets rewrites every budget: run it without consumer names" >&2
    exit 2
fi

step() {
    echo
    echo "==> [$((SECONDS - START))s] $*"
}

as_root() {
    if [ "$(id -u)" -eq 0 ]; then "$@"; else sudo "$@"; fi
}

# ---------------------------------------------------------------- setup
step "setup: rust targets, arm binutils, binaryen $BINARYEN_VERSION (npm), twiggy $TWIGGY_VERSION"
rustup target add wasm32-unknown-unknown thumbv7em-none-eabihf >/dev/null 2>&1
if ! command -v arm-none-eabi-size >/dev/null || ! command -v arm-none-eabi-nm >/dev/null; then
    as_root apt-get update -qq
    as_root env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends \
        binutils-arm-none-eabi
fi
WASM_OPT=$TOOLS/node_modules/.bin/wasm-opt
if ! "$WASM_OPT" --version 2>/dev/null | grep -q "version ${BINARYEN_VERSION%%.*} "; then
    command -v npm >/dev/null || {
        echo "npm is needed to install binaryen (apt-get install nodejs npm)" >&2
        exit 1
    }
    mkdir -p "$TOOLS"
    npm install --prefix "$TOOLS" --no-audit --no-fund --silent "binaryen@$BINARYEN_VERSION"
fi
if twiggy --version 2>/dev/null | grep -q " $TWIGGY_VERSION\$"; then
    TWIGGY=$(command -v twiggy)
else
    TWIGGY=$TOOLS/bin/twiggy
    if ! "$TWIGGY" --version 2>/dev/null | grep -q " $TWIGGY_VERSION\$"; then
        (cd "$TOOLS" && nice cargo install --quiet --locked twiggy --version "$TWIGGY_VERSION" --root "$TOOLS")
    fi
fi
echo "$("$WASM_OPT" --version), $("$TWIGGY" --version), $(rustc --version)"

# ---------------------------------------------------------------- budgets
# budgets.txt: `consumer target budget goal`, one build a line; `-` for none; `#` comments.
CONSUMERS=()
declare -A BUDGET GOAL
while read -r name target budget goal _; do
    [ -z "$name" ] && continue
    case $name in \#*) continue ;; esac
    BUDGET[$name/$target]=$budget
    GOAL[$name/$target]=${goal:--}
    if [[ " ${CONSUMERS[*]-} " != *" $name "* ]]; then CONSUMERS+=("$name"); fi
done <"$BUDGETS"
for dir in consumers/*/; do
    name=$(basename "$dir")
    if [[ " ${CONSUMERS[*]} " != *" $name "* ]]; then
        echo "size/consumers/$name has no line in size/budgets.txt" >&2
        exit 1
    fi
done
if [ ${#ONLY[@]} -gt 0 ]; then
    for name in "${ONLY[@]}"; do
        [ -n "${BUDGET[$name/wasm32]+x}" ] || { echo "no consumer '$name' in size/budgets.txt" >&2; exit 2; }
    done
    CONSUMERS=("${ONLY[@]}")
fi

# ---------------------------------------------------------------- build
# One cargo invocation per consumer and target, so each consumer's agent-interface is built with
# exactly its features (one invocation over several packages would unify their features).
rm -rf "$OUT"
mkdir -p "$OUT"
# wasm-opt (binaryen's node build) runs once per consumer, in the background while the next
# consumer compiles: `-Oz -g` keeps the names for twiggy, and size/tools/strip-wasm.js then drops
# the names, producers and target-features sections, giving byte for byte what
# `wasm-opt -Oz --strip-debug --strip-producers --strip-target-features` writes (the measured file).
optimize_wasm() {
    nice "$WASM_OPT" -Oz -g "$1" -o "$OUT/$2.named.wasm"
    node "$SIZE_DIR/tools/strip-wasm.js" "$OUT/$2.named.wasm" "$OUT/$2.wasm"
}
declare -A SIZE
for name in "${CONSUMERS[@]}"; do
    step "$name: thumbv7em-none-eabihf"
    nice cargo build --quiet --release --target thumbv7em-none-eabihf -p "size-$name" --bin "$name"
    elf=$CARGO_TARGET_DIR/thumbv7em-none-eabihf/release/$name
    cp "$elf" "$OUT/$name.elf"
    SIZE[$name/thumbv7em]=$(arm-none-eabi-size -A "$elf" |
        awk '$1==".text"||$1==".rodata"{n+=$2} END{print n+0}')

    step "$name: wasm32-unknown-unknown (wasm-opt -Oz follows in the background)"
    nice cargo rustc --quiet --release --target wasm32-unknown-unknown -p "size-$name" --lib \
        --crate-type cdylib
    cp "$CARGO_TARGET_DIR/wasm32-unknown-unknown/release/size_$name.wasm" "$OUT/$name.cargo.wasm"
    # At most two at once (each is a node process holding binaryen and the module).
    while [ "$(jobs -rp | wc -l)" -ge 2 ]; do wait -n || true; done
    optimize_wasm "$OUT/$name.cargo.wasm" "$name" &
done
step "waiting for wasm-opt"
wait || true
for name in "${CONSUMERS[@]}"; do
    # A failed wasm-opt leaves no measured file (its message is above).
    [ -s "$OUT/$name.wasm" ] || { echo "wasm-opt failed for $name" >&2; exit 1; }
    SIZE[$name/wasm32]=$(wc -c <"$OUT/$name.wasm")
done

# ---------------------------------------------------------------- report
step "size report (wasm32: .wasm bytes after wasm-opt -Oz; thumbv7em: .text + .rodata)"
kib() { awk -v b="$1" 'BEGIN{printf "%.1f KiB", b/1024}'; }
over=0
printf '\n%-16s %-10s %10s %12s %10s %12s  %s\n' consumer target bytes "" budget goal status
printf '%s\n' "-------------------------------------------------------------------------------------------"
for name in "${CONSUMERS[@]}"; do
    for target in wasm32 thumbv7em; do
        bytes=${SIZE[$name/$target]}
        budget=${BUDGET[$name/$target]}
        goal=${GOAL[$name/$target]}
        status=OK
        if [ "$budget" = - ]; then
            status="(no budget)"
        elif [ "$bytes" -gt "$budget" ]; then
            status="OVER by $((bytes - budget))"
            over=1
        fi
        if [ "$goal" != - ] && [ "$bytes" -gt "$goal" ]; then
            status="$status, goal missed by $(kib $((bytes - goal)))"
        fi
        printf '%-16s %-10s %10s %12s %10s %12s  %s\n' "$name" "$target" "$bytes" "($(kib "$bytes"))" \
            "$budget" "$goal" "$status"
    done
done

step "largest contributors (top $TOP each)"
for name in "${CONSUMERS[@]}"; do
    echo
    echo "--- $name, wasm32 (twiggy top over the -Oz build with names: bytes, % of the measured file, item)"
    "$TWIGGY" top -f json "$OUT/$name.named.wasm" | node "$SIZE_DIR/tools/twiggy-top.js" "$TOP" "${SIZE[$name/wasm32]}"
    echo
    echo "--- $name, thumbv7em (nm --size-sort over .text and .rodata: bytes, % of .text+.rodata, type, symbol)"
    # Only symbols inside the measured sections (not the vector table, .data or .bss).
    ranges=$(arm-none-eabi-size -A -d "$OUT/$name.elf" |
        awk '$1==".text"||$1==".rodata"{printf "%s %s ", $3, $3 + $2}')
    arm-none-eabi-nm --size-sort --reverse-sort -C --print-size --radix=d "$OUT/$name.elf" |
        awk -v top="$TOP" -v total="${SIZE[$name/thumbv7em]}" -v ranges="$ranges" '
            BEGIN { n_ranges = split(ranges, r, " ") }
            {
                addr = $1 + 0; size = $2 + 0; inside = 0
                for (i = 1; i < n_ranges; i += 2) if (addr >= r[i] && addr < r[i + 1]) inside = 1
                if (!inside || n >= top) next
                n++
                name = $4; for (i = 5; i <= NF; i++) name = name " " $i
                printf "%9d  %6.2f%%  %s  %s\n", size, 100 * size / total, $3, substr(name, 1, 150)
            }'
    echo
    echo "--- $name, thumbv7em by byte group (the first group whose pattern a symbol matches; % of .text+.rodata)"
    arm-none-eabi-nm -C --print-size --radix=d "$OUT/$name.elf" |
        awk -v total="${SIZE[$name/thumbv7em]}" -v ranges="$ranges" -f "$SIZE_DIR/tools/byte-groups.awk"
done

# ---------------------------------------------------------------- budgets
if [ "$UPDATE" -eq 1 ]; then
    step "rewriting size/budgets.txt: budget = measured + 5%, rounded up to 16 bytes"
    tmp=$(mktemp)
    while IFS= read -r line; do
        read -r name target budget goal _ <<<"$line" || true
        if [ -z "${name:-}" ] || [[ $name == \#* ]] || [ "$budget" = - ]; then
            printf '%s\n' "$line"
        else
            new=$(( (SIZE[$name/$target] * 105 / 100 + 15) / 16 * 16 ))
            printf '%-16s %-10s %8s %8s\n' "$name" "$target" "$new" "${goal:--}"
        fi
    done <"$BUDGETS" >"$tmp"
    mv "$tmp" "$BUDGETS"
    over=0
fi

echo
if [ "$over" -ne 0 ]; then
    echo "size report: over budget (see OVER above); shrink the piece, or raise its line in size/budgets.txt" \
        "with the reason in the commit ($((SECONDS - START))s)" >&2
    exit 1
fi
echo "size report: every build within its budget ($((SECONDS - START))s)"
