#!/usr/bin/env bash
# Coverage-guided fuzzing of agent-interface (fuzz/, cargo-fuzz + libFuzzer, pinned nightly).
#
#   scripts/fuzz.sh [SECONDS_PER_TARGET] [TARGET...]   build every target, then run each
#   scripts/fuzz.sh --build-only [TARGET...]             build only (every target compiles)
#   scripts/fuzz.sh --list                               list the targets
#
# SECONDS_PER_TARGET defaults to 15 (a smoke run). Each target runs from its working corpus
# (fuzz/corpus/<target>, kept between runs, not tracked), its checked-in seeds
# (fuzz/seeds/<target>), seeds made here from tests/golden (fuzz/corpus/<target>.golden) and its
# checked-in reproducers (fuzz/regressions/<target>). Per target it prints the executions and
# libFuzzer's final coverage (`cov`, `ft`). Any crash (a panic, a timeout over 10 s, more than
# 2 GiB) fails the script after every requested target has run, with the artifact's path printed.
# docs/decisions/fuzzing.md says what is fuzzed and what a crash means.
#
# Environment: FUZZ_SANITIZER (default `none`; `address` for ASan), FUZZ_JOBS (build jobs,
# default 2), FUZZ_PARALLEL (targets run at once, default one per core), FUZZ_CODEGEN_UNITS
# (default 1, cargo-fuzz's: the fastest binaries; 16 builds them in about 80% of the time,
# and they run about a quarter slower, which suits a smoke run).
set -euo pipefail
cd "$(dirname "$0")/.."
ROOT=$PWD

TOOLCHAIN=nightly-2026-10-30
CARGO_FUZZ_VERSION=0.13.2
SANITIZER=${FUZZ_SANITIZER:-none}
JOBS=${FUZZ_JOBS:-2}
CODEGEN_UNITS=${FUZZ_CODEGEN_UNITS:-1}
PARALLEL=${FUZZ_PARALLEL:-$(nproc 2>/dev/null || echo 1)}
if ! [[ "$PARALLEL" =~ ^[1-9][0-9]*$ ]]; then
    echo "FUZZ_PARALLEL must be a whole number of targets, 1 or more (got '$PARALLEL')" >&2
    exit 2
fi
SECONDS_PER_TARGET=15
BUILD_ONLY=0

step() {
    echo
    echo "==> $*"
}

# ---------------------------------------------------------------- arguments
case "${1:-}" in
--build-only)
    BUILD_ONLY=1
    shift
    ;;
--list)
    sed -n 's/^name = "\(.*\)"$/\1/p' fuzz/Cargo.toml | grep -v '^agent-interface-fuzz$'
    exit 0
    ;;
--help | -h)
    sed -n '2,19p' "$0" | sed 's/^# \{0,1\}//'
    exit 0
    ;;
esac
if [ $BUILD_ONLY -eq 0 ] && [[ "${1:-}" =~ ^[0-9]+$ ]]; then
    SECONDS_PER_TARGET=$1
    shift
fi
ALL_TARGETS=()
while IFS= read -r target; do ALL_TARGETS+=("$target"); done < <(
    sed -n 's/^name = "\(.*\)"$/\1/p' fuzz/Cargo.toml | grep -v '^agent-interface-fuzz$'
)
TARGETS=("$@")
if [ ${#TARGETS[@]} -eq 0 ]; then TARGETS=("${ALL_TARGETS[@]}"); fi
for target in "${TARGETS[@]}"; do
    if ! printf '%s\n' "${ALL_TARGETS[@]}" | grep -qx "$target"; then
        echo "unknown fuzz target '$target'; the targets are: ${ALL_TARGETS[*]}" >&2
        exit 2
    fi
done

# ---------------------------------------------------------------- setup
step "setup: $TOOLCHAIN and cargo-fuzz $CARGO_FUZZ_VERSION"
if ! rustup run "$TOOLCHAIN" rustc --version >/dev/null 2>&1; then
    rustup toolchain install "$TOOLCHAIN" --profile minimal
fi
if ! cargo fuzz --version 2>/dev/null | grep -q "$CARGO_FUZZ_VERSION"; then
    cargo "+$TOOLCHAIN" install cargo-fuzz --version "$CARGO_FUZZ_VERSION" --locked
fi
HOST=$(rustc "+$TOOLCHAIN" -vV | sed -n 's/^host: //p')
BIN_DIR="$ROOT/fuzz/target/$HOST/release"

# ---------------------------------------------------------------- build
step "build: ${#TARGETS[@]} target(s), release with debug assertions, $CODEGEN_UNITS codegen unit(s), sanitizer '$SANITIZER'"
BUILD_START=$SECONDS
build_args=()
if [ ${#TARGETS[@]} -eq 1 ]; then build_args+=("${TARGETS[0]}"); fi
CARGO_BUILD_JOBS=$JOBS cargo "+$TOOLCHAIN" fuzz build -O --debug-assertions \
    --codegen-units "$CODEGEN_UNITS" --sanitizer "$SANITIZER" "${build_args[@]}"
echo "built in $((SECONDS - BUILD_START))s"
if [ $BUILD_ONLY -eq 1 ]; then
    for target in "${TARGETS[@]}"; do
        test -x "$BIN_DIR/$target" || {
            echo "missing binary for $target" >&2
            exit 1
        }
    done
    echo "every target builds: ${TARGETS[*]}"
    exit 0
fi

# ---------------------------------------------------------------- seeds from tests/golden
# Small golden files only; regenerated every run so they follow the goldens.
golden_seeds() {
    local target=$1 dir="fuzz/corpus/$1.golden" file id
    rm -rf "$dir"
    mkdir -p "$dir"
    local small=(-type f -name '*.json' -size -64k)
    case "$target" in
    session_decode | record_store_load | sealed_load)
        for file in $(find tests/golden/session/records "${small[@]}" -name 'record_*' | sort); do
            id=$(grep -o '"id": *"[^"]*"' "$file" | head -1 | sed 's/.*"\([^"]*\)"$/\1/')
            case "$target" in
            session_decode) printf '%s\0{"schemaVersion":1,"record":%s}' "$id" "$(cat "$file")" ;;
            record_store_load) printf '{"schemaVersion":1,"record":%s}' "$(cat "$file")" ;;
            sealed_load) printf '\002\000\000\000{"schemaVersion":1,"record":%s}' "$(cat "$file")" ;;
            esac >"$dir/$(basename "$file" .json).bin"
        done
        ;;
    json_session_mobility)
        find tests/golden/session_mobility "${small[@]}" -exec cp {} "$dir/" \;
        ;;
    json_transport)
        find tests/golden/transport "${small[@]}" -exec cp {} "$dir/" \;
        ;;
    policy_rules)
        find tests/golden/policy "${small[@]}" -exec cp {} "$dir/" \;
        ;;
    session_protocol)
        find tests/golden/session/protocol "${small[@]}" -name 'client_*' -exec cp {} "$dir/" \;
        ;;
    admission)
        for file in tests/golden/transport/admission_runtime/claims*.json; do
            printf 'Bearer token\n%s' "$(cat "$file")" >"$dir/$(basename "$file" .json).txt"
        done
        ;;
    esac
}

# ---------------------------------------------------------------- run
# One target: its summary line in $LOG_DIR/<target>.line, and <target>.crash when it failed.
fuzz_one() {
    local target=$1 log="$LOG_DIR/$1.log" status=0 inputs extra execs final rate line artifact
    golden_seeds "$target"
    mkdir -p "fuzz/corpus/$target" "fuzz/artifacts/$target"
    inputs=("fuzz/corpus/$target")
    for extra in "fuzz/seeds/$target" "fuzz/corpus/$target.golden" "fuzz/regressions/$target"; do
        if [ -d "$extra" ] && [ -n "$(ls -A "$extra")" ]; then inputs+=("$extra"); fi
    done
    rm -f "$LOG_DIR/$target.crash"
    timeout $((SECONDS_PER_TARGET * 2 + 120)) "$BIN_DIR/$target" \
        -max_total_time="$SECONDS_PER_TARGET" -rss_limit_mb=2048 -timeout=10 \
        -print_final_stats=1 -artifact_prefix="fuzz/artifacts/$target/" \
        "${inputs[@]}" >"$log" 2>&1 || status=$?
    execs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log" | tail -1)
    final=$(grep -E '^#[0-9]+' "$log" | tail -1 | grep -oE 'cov: [0-9]+ ft: [0-9]+ corp: [^ ]+' || true)
    rate=$(sed -n 's/^stat::average_exec_per_sec: *//p' "$log" | tail -1)
    line=$(printf '%-24s execs %-9s %-9s exec/s  %s' "$target" "${execs:-?}" "${rate:-?}" "${final:-no coverage line}")
    if [ $status -ne 0 ]; then
        artifact=$(grep -oE "(Test unit written to|written to) [^ ]+" "$log" | tail -1 | awk '{print $NF}' || true)
        {
            echo "CRASH (exit $status): ${artifact:-no artifact written}"
            grep -m1 -A4 -E "panicked at|ERROR: libFuzzer" "$log" || true
            echo "log: $log"
        } >"$LOG_DIR/$target.crash"
        echo "$target ${artifact:-(see $log)}" >>"$LOG_DIR/$target.crash"
        line="$line  CRASH ${artifact:-}"
    fi
    echo "$line" >"$LOG_DIR/$target.line"
}

# FUZZ_PARALLEL targets at a time (default: one per core): each libFuzzer process is one
# thread, so on two cores two targets get their full time in half the wall-clock time.
LOG_DIR="$ROOT/fuzz/target/logs"
mkdir -p "$LOG_DIR"
step "fuzz ${#TARGETS[@]} target(s) for ${SECONDS_PER_TARGET}s each, $PARALLEL at a time"
running=0
for target in "${TARGETS[@]}"; do rm -f "$LOG_DIR/$target.line"; done
for target in "${TARGETS[@]}"; do
    if [ "$running" -ge "$PARALLEL" ]; then
        # A target that fails leaves no .line file (or a .crash one); its status is not needed.
        wait -n || true
        running=$((running - 1))
    fi
    echo "fuzz $target"
    fuzz_one "$target" &
    running=$((running + 1))
done
wait || true
FAILED=()
SUMMARY=()
for target in "${TARGETS[@]}"; do
    if [ ! -f "$LOG_DIR/$target.line" ]; then
        echo "no result for $target" >&2
        FAILED+=("$target (no result)")
        continue
    fi
    SUMMARY+=("$(cat "$LOG_DIR/$target.line")")
    if [ -f "$LOG_DIR/$target.crash" ]; then
        echo
        echo "==> $target"
        head -n -1 "$LOG_DIR/$target.crash"
        FAILED+=("$(tail -1 "$LOG_DIR/$target.crash")")
    fi
done

step "summary (${SECONDS_PER_TARGET}s per target)"
printf '%s\n' "${SUMMARY[@]}"
if [ ${#FAILED[@]} -gt 0 ]; then
    echo
    echo "crashes (reproduce: fuzz/target/$HOST/release/<target> <artifact>):" >&2
    printf '  %s\n' "${FAILED[@]}" >&2
    exit 1
fi
echo "no crash"
