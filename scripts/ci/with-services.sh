#!/usr/bin/env bash
# Runs a command in scale mode: a throwaway PostgreSQL cluster and a throwaway Redis, both on
# loopback, then removes them. DATABASE_URL and REDIS_URL are set for the command.
# Usage: scripts/ci/with-services.sh <command...>
set -euo pipefail
bin=$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -n 1)
[ -n "$bin" ] || { echo "PostgreSQL server binaries not found (apt-get install postgresql)" >&2; exit 1; }
command -v redis-server >/dev/null || { echo "redis-server not found (apt-get install redis-server)" >&2; exit 1; }
pg_port=${PG_PORT:-55432}
redis_port=${REDIS_PORT:-56379}
dir=$(mktemp -d /tmp/fleet-services-XXXXXX)
mkdir -p "$dir/sock"
as_pg=()
# initdb refuses root: run the cluster as the postgres user then.
if [ "$(id -u)" = 0 ]; then chown -R postgres:postgres "$dir"; as_pg=(runuser -u postgres --); fi
cleanup() {
  "${as_pg[@]}" "$bin/pg_ctl" -D "$dir/data" -m immediate stop >/dev/null 2>&1 || true
  [ -f "$dir/redis.pid" ] && kill "$(cat "$dir/redis.pid")" 2>/dev/null || true
  rm -rf "$dir"
}
trap cleanup EXIT

"${as_pg[@]}" "$bin/initdb" -D "$dir/data" -U postgres -A trust --no-sync >/dev/null
"${as_pg[@]}" "$bin/pg_ctl" -D "$dir/data" -l "$dir/pg.log" -w \
  -o "-p $pg_port -k $dir/sock -c listen_addresses=127.0.0.1 -c max_connections=200 -c fsync=off" start >/dev/null
echo "PostgreSQL $("$bin/postgres" --version | awk '{print $3}') on 127.0.0.1:$pg_port"

redis-server --bind 127.0.0.1 --port "$redis_port" --save '' --appendonly no --daemonize yes \
  --pidfile "$dir/redis.pid" --logfile "$dir/redis.log" --dir "$dir"
for _ in $(seq 1 50); do redis-cli -p "$redis_port" ping >/dev/null 2>&1 && break; sleep 0.1; done
echo "Redis $(redis-server --version | awk '{print $3}' | cut -d= -f2) on 127.0.0.1:$redis_port"

DATABASE_URL="postgres://postgres@127.0.0.1:$pg_port/postgres" REDIS_URL="redis://127.0.0.1:$redis_port" "$@"
