#!/usr/bin/env bash
# Runs a command in scale mode: a throwaway PostgreSQL cluster, Redis and Mosquitto (with its
# dynamic-security plugin, which the server feeds device credentials), all on loopback, then
# removes them. DATABASE_URL, REDIS_URL and MQTT_URL are set for the command.
# One Redis and one Mosquitto per test worker (SCALE_WORKERS, the cores by default), on consecutive
# ports from REDIS_PORT and MQTT_TEST_PORT: a server hears every device on its broker and every
# publish on its Redis, so two test files on one pair would count each other's traffic.
# REDIS_URLS and MQTT_URLS list them (space-separated, in worker order); REDIS_URL and MQTT_URL are
# the first. vitest.config.ts runs as many workers as there are pairs and
# apps/server/test/scale-worker.ts points each at its own. PostgreSQL is one cluster for all: each
# test server has its own database in it.
# Usage: scripts/ci/with-services.sh <command...>
set -euo pipefail
bin=$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -n 1)
[ -n "$bin" ] || { echo "PostgreSQL server binaries not found (apt-get install postgresql)" >&2; exit 1; }
command -v redis-server >/dev/null || { echo "redis-server not found (apt-get install redis-server)" >&2; exit 1; }
mosquitto=$(command -v mosquitto || echo /usr/sbin/mosquitto)
[ -x "$mosquitto" ] || { echo "mosquitto not found (apt-get install mosquitto)" >&2; exit 1; }
dynsec=$(find /usr/lib -name mosquitto_dynamic_security.so 2>/dev/null | head -n 1)
[ -n "$dynsec" ] || { echo "Mosquitto's dynamic-security plugin not found (apt-get install mosquitto)" >&2; exit 1; }
# Below the ephemeral range (32768+), so no client connection can hold them.
pg_port=${PG_PORT:-25432}
redis_port=${REDIS_PORT:-26379}
mqtt_port=${MQTT_TEST_PORT:-21883}
workers=${SCALE_WORKERS:-$(nproc)}
[[ "$workers" =~ ^[1-9][0-9]?$ ]] || { echo "SCALE_WORKERS must be 1 to 99, not '$workers'" >&2; exit 1; }
mqtt_password=$(head -c 18 /dev/urandom | base64 | tr -d '/+=')
dir=$(mktemp -d /tmp/fleet-services-XXXXXX)
mkdir -p "$dir/sock"
chmod 755 "$dir" # PostgreSQL and Mosquitto run as their own users
as_pg=()
# initdb refuses root: run the cluster as the postgres user then.
if [ "$(id -u)" = 0 ]; then chown -R postgres:postgres "$dir/sock"; chown postgres "$dir"; as_pg=(runuser -u postgres --); fi
cleanup() {
  "${as_pg[@]}" "$bin/pg_ctl" -D "$dir/data" -m immediate stop >/dev/null 2>&1 || true
  for pid in "$dir"/redis-*.pid "$dir"/mqtt-*/mosquitto.pid; do
    [ -f "$pid" ] && kill "$(cat "$pid")" 2>/dev/null || true
  done
  rm -rf "$dir"
}
trap cleanup EXIT

"${as_pg[@]}" "$bin/initdb" -D "$dir/data" -U postgres -A trust --no-sync >/dev/null
"${as_pg[@]}" "$bin/pg_ctl" -D "$dir/data" -l "$dir/sock/pg.log" -w \
  -o "-p $pg_port -k $dir/sock -c listen_addresses=127.0.0.1 -c max_connections=200 -c fsync=off" start >/dev/null
echo "PostgreSQL $("$bin/postgres" --version | awk '{print $3}') on 127.0.0.1:$pg_port"

# Worker $1 (from 0): Redis on redis_port + $1.
start_redis() {
  local port=$((redis_port + $1))
  redis-server --bind 127.0.0.1 --port "$port" --save '' --appendonly no --daemonize yes \
    --pidfile "$dir/redis-$1.pid" --logfile "$dir/redis-$1.log" --dir "$dir"
  for _ in $(seq 1 50); do redis-cli -p "$port" ping >/dev/null 2>&1 && break; sleep 0.1; done
  redis_urls+=("redis://127.0.0.1:$port")
}

# Worker $1 (from 0): Mosquitto on mqtt_port + $1, its files in $dir/mqtt-$1.
# The server's own account is the dynamic-security admin: it creates one client per device.
# No queue limits: a burst of commands must not be dropped.
start_mosquitto() {
  local port=$((mqtt_port + $1)) d="$dir/mqtt-$1"
  mkdir -p "$d"
  mosquitto_ctrl dynsec init "$d/dynsec.json" fleet-server "$mqtt_password" >/dev/null
  cat >"$d/mosquitto.conf" <<EOF
listener $port 127.0.0.1
allow_anonymous false
persistence false
max_queued_messages 0
max_inflight_messages 0
# Mosquitto's packet limit is global: it must fit the server's own largest publish (an allocation
# carries dataview content), so it is looser than the embedded broker's (docs/operations.md).
max_packet_size 4194304
plugin $dynsec
plugin_opt_config_file $d/dynsec.json
log_dest file $d/mosquitto.log
pid_file $d/mosquitto.pid
EOF
  # Started as root, Mosquitto switches to its own user, which must be able to write the plugin's file.
  if [ "$(id -u)" = 0 ] && id mosquitto >/dev/null 2>&1; then chown -R mosquitto "$d"; fi
  "$mosquitto" -c "$d/mosquitto.conf" -d
  for _ in $(seq 1 50); do (exec 3<>"/dev/tcp/127.0.0.1/$port") 2>/dev/null && break; sleep 0.1; done
  # The server's account also needs the role that lets it publish commands (docs/operations.md).
  local ctl=(mosquitto_ctrl -h 127.0.0.1 -p "$port" -u fleet-server -P "$mqtt_password" dynsec)
  "${ctl[@]}" createRole fleet-server 2>/dev/null
  "${ctl[@]}" addRoleACL fleet-server publishClientSend 'fleet/+/cmd' allow 2>/dev/null
  "${ctl[@]}" addRoleACL fleet-server publishClientSend 'fleet/+/+/cmd' allow 2>/dev/null
  "${ctl[@]}" addClientRole fleet-server fleet-server 2>/dev/null
  mqtt_urls+=("mqtt://fleet-server:$mqtt_password@127.0.0.1:$port")
}

redis_urls=()
mqtt_urls=()
for ((i = 0; i < workers; i++)); do
  start_redis "$i"
  start_mosquitto "$i"
done
echo "Redis $(redis-server --version | awk '{print $3}' | cut -d= -f2) and Mosquitto \
$("$mosquitto" -h 2>/dev/null | head -n 1 | awk '{print $3}'): $workers of each, from 127.0.0.1:$redis_port and :$mqtt_port"

DATABASE_URL="postgres://postgres@127.0.0.1:$pg_port/postgres" REDIS_URL="${redis_urls[0]}" MQTT_URL="${mqtt_urls[0]}" \
  REDIS_URLS="${redis_urls[*]}" MQTT_URLS="${mqtt_urls[*]}" "$@"
