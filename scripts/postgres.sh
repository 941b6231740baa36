#!/usr/bin/env bash
# Tests the PostgreSQL backends (backends/postgres) against a real, throwaway server.
#
# Installs PostgreSQL from Debian's packages when initdb/pg_ctl are missing, creates a cluster
# in a fresh temporary directory, starts it on a free loopback port, exports
#   AGENT_INTERFACE_PG      libpq-style connection parameters for the tests,
#   AGENT_INTERFACE_PG_CTL  a command that runs pg_ctl on that cluster (`$AGENT_INTERFACE_PG_CTL
#                           restart` restarts the server: the fault test uses it),
# runs clippy (-D warnings) and `cargo test` in backends/postgres, and always stops the server
# and removes the directory. `scripts/postgres.sh --bench` also runs the throughput bench.
set -euo pipefail
cd "$(dirname "$0")/.."
ROOT=$PWD
BENCH=0
for arg in "$@"; do
    case "$arg" in
        --bench) BENCH=1 ;;
        *) echo "usage: $0 [--bench]" >&2; exit 2 ;;
    esac
done

as_root() {
    if [ "$(id -u)" -eq 0 ]; then "$@"; else sudo "$@"; fi
}

# The newest installed server binary of that name, or nothing.
pg_bin() {
    local found
    found=$(ls -d /usr/lib/postgresql/*/bin/"$1" 2>/dev/null | sort -V | tail -n 1 || true)
    if [ -n "$found" ]; then
        echo "$found"
    else
        command -v "$1" 2>/dev/null || true
    fi
}

if [ -z "$(pg_bin initdb)" ] || [ -z "$(pg_bin pg_ctl)" ]; then
    echo "==> installing PostgreSQL from Debian's packages"
    as_root apt-get update -qq
    as_root env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends postgresql
fi
INITDB=$(pg_bin initdb)
PG_CTL=$(pg_bin pg_ctl)
if [ -z "$INITDB" ] || [ -z "$PG_CTL" ]; then
    echo "initdb/pg_ctl not found after installing postgresql" >&2
    exit 1
fi

DIR=$(mktemp -d "${TMPDIR:-/tmp}/agent-interface-pg.XXXXXX")
chmod 0755 "$DIR"

# PostgreSQL refuses to run as root: run the server as an unprivileged user.
RUN_AS=()
if [ "$(id -u)" -eq 0 ]; then
    if ! id aitest >/dev/null 2>&1; then
        useradd --system --no-create-home --shell /usr/sbin/nologin aitest
    fi
    chown aitest "$DIR"
    RUN_AS=(runuser -u aitest --)
fi

# A free loopback port: one nothing answers on.
PORT=
for _ in $(seq 1 50); do
    candidate=$((20000 + RANDOM % 30000))
    if ! (exec 3<>"/dev/tcp/127.0.0.1/$candidate") 2>/dev/null; then
        PORT=$candidate
        break
    fi
done
if [ -z "$PORT" ]; then
    echo "no free loopback port found" >&2
    exit 1
fi

# The one way the script and the tests drive the server.
CTL="$DIR/pg_ctl.sh"
cat >"$CTL" <<EOF
#!/usr/bin/env bash
# pg_ctl on the throwaway cluster of scripts/postgres.sh: \$1 is start, stop or restart.
exec ${RUN_AS[*]} "$PG_CTL" -D "$DIR/data" -l "$DIR/server.log" -w -t 60 -m fast \\
    -o "-c listen_addresses=127.0.0.1 -p $PORT -k $DIR" "\$@"
EOF
chmod 0755 "$CTL"

cleanup() {
    local status=$?
    if [ -f "$DIR/data/postmaster.pid" ]; then
        "$CTL" stop >/dev/null 2>&1 || true
    fi
    if [ "$status" -ne 0 ] && [ -f "$DIR/server.log" ]; then
        echo "==> server log (last 30 lines)" >&2
        tail -n 30 "$DIR/server.log" >&2 || true
    fi
    rm -rf "$DIR"
    exit "$status"
}
trap cleanup EXIT INT TERM

echo "==> a throwaway cluster in $DIR on 127.0.0.1:$PORT"
"${RUN_AS[@]}" "$INITDB" -D "$DIR/data" -A trust -U postgres -E UTF8 --locale=C >"$DIR/initdb.log" 2>&1 || {
    cat "$DIR/initdb.log" >&2
    exit 1
}
"$CTL" start >/dev/null

export AGENT_INTERFACE_PG="host=127.0.0.1 port=$PORT user=postgres dbname=postgres"
export AGENT_INTERFACE_PG_CTL="$CTL"

cd "$ROOT/backends/postgres"
echo "==> fmt, clippy -D warnings (backends/postgres)"
rustfmt --edition 2024 --check src/*.rs tests/*.rs benches/*.rs
cargo clippy --all-targets -- -D warnings
echo "==> cargo test (backends/postgres)"
cargo test
if [ "$BENCH" -eq 1 ]; then
    echo "==> cargo bench (backends/postgres)"
    cargo bench --bench throughput
fi
