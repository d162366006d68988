#!/usr/bin/env bash
# Runs a command against a throwaway PostgreSQL cluster on loopback, then removes the cluster.
# Usage: scripts/ci/with-postgres.sh <command...>   (DATABASE_URL is set for the command)
set -euo pipefail
bin=$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -n 1)
[ -n "$bin" ] || { echo "PostgreSQL server binaries not found (apt-get install postgresql)" >&2; exit 1; }
port=${PG_PORT:-55432}
dir=$(mktemp -d /tmp/fleet-pg-XXXXXX)
sock="$dir/sock"
mkdir -p "$sock"
as_pg=()
# initdb refuses root: run the cluster as the postgres user then.
if [ "$(id -u)" = 0 ]; then chown -R postgres:postgres "$dir"; as_pg=(runuser -u postgres --); fi
cleanup() {
  "${as_pg[@]}" "$bin/pg_ctl" -D "$dir/data" -m immediate stop >/dev/null 2>&1 || true
  rm -rf "$dir"
}
trap cleanup EXIT
"${as_pg[@]}" "$bin/initdb" -D "$dir/data" -U postgres -A trust --no-sync >/dev/null
"${as_pg[@]}" "$bin/pg_ctl" -D "$dir/data" -l "$dir/log" -w \
  -o "-p $port -k $sock -c listen_addresses=127.0.0.1 -c max_connections=200 -c fsync=off" start >/dev/null
echo "PostgreSQL $("$bin/postgres" --version | awk '{print $3}') on 127.0.0.1:$port"
DATABASE_URL="postgres://postgres@127.0.0.1:$port/postgres" "$@"
