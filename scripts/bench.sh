#!/usr/bin/env bash
# `make bench`: load benchmarks of the service (cmd/bench) against throwaway
# PostgreSQL and Redis.
#
#   scripts/bench.sh [BENCH FLAGS…]     e.g. scripts/bench.sh -only baseline,api-keys -concurrency 64
#
# It builds bin/commerce and bin/bench, starts throwaway services
# (scripts/services.sh test), migrates, creates the account bench@example.com,
# starts `commerce serve` on a free port with RATE_LIMIT_SCALE=1000000 (every
# limit is checked, none refuses), LOG_LEVEL=error, FILE_STORAGE_URL in a
# temporary directory (the uploads' gigabytes go with it), ALLOW_PRIVATE_TARGETS=true
# and WEBHOOK_RETRY_SCHEDULE of 7 × 100ms (the webhooks scenario's loopback
# receiver), waits for /readyz, starts a second `commerce serve --no-worker`
# whose DATABASE_URL goes through PgBouncer in transaction mode
# (scripts/pgbouncer.sh; DATABASE_DIRECT_URL is PostgreSQL) for the
# -pgbouncer scenarios, runs bin/bench against them, stops them with SIGTERM
# and lets services.sh tear down.
#
# Environment: BENCH_DURATION (measured time per scenario: a Go duration or
# whole seconds, default 10s), BENCH_WARMUP (default 2s), GO (default go);
# OTEL_TRACES_EXPORTER=memory measures with tracing on (docs/operations.md, "Tracing").
# The exit status is bench's: 0 even when a target fails (targets are
# reported), non-zero when something broke.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."

GO="${GO:-go}"
EMAIL="bench@example.com"
READY_TIMEOUT=30 # seconds for the service to answer /readyz

log() { echo "bench: $*" >&2; }
# die, free_port
# shellcheck source=lib/common.sh
source scripts/lib/common.sh

# as_duration VALUE: VALUE as a Go duration ("10" → "10s").
as_duration() {
  case "$1" in
    *[!0-9]*) echo "$1" ;;
    *) echo "${1}s" ;;
  esac
}

command -v curl >/dev/null || die "curl is needed (apt-get install curl)"

# outer: build, then run the rest inside throwaway services.
if [ "${1:-}" != "--inside-services" ]; then
  log "building bin/commerce and bin/bench"
  "$GO" build -o bin/commerce ./cmd/commerce
  "$GO" build -o bin/bench ./cmd/bench
  exec scripts/services.sh test -- "$PWD/scripts/bench.sh" --inside-services "$@"
fi
shift

# inside: DATABASE_URL and REDIS_URL are exported by services.sh.
: "${DATABASE_URL:?}" "${REDIS_URL:?}"
export LOG_LEVEL=error LOG_FORMAT=json

bin/commerce migrate up >&2
account=$(bin/commerce accounts create --email "$EMAIL")
key=$(sed -n 's/^api_key=//p' <<<"$account")
[ -n "$key" ] || die "'commerce accounts create' printed no api_key line"

work=$(mktemp -d "${TMPDIR:-/tmp}/commerce-bench.XXXXXX")
service_log="$work/service.log"
port=$(free_port)
base="http://127.0.0.1:$port"
pid=""

# stop_service [PID]: SIGTERM, then wait (at most 15 s) for the service
# (default $pid) to drain.
stop_service() {
  local p=${1:-$pid}
  if [ -n "$p" ] && kill -0 "$p" 2>/dev/null; then
    kill -TERM "$p" 2>/dev/null || true
    for _ in $(seq 150); do
      kill -0 "$p" 2>/dev/null || break
      sleep 0.1
    done
    if kill -0 "$p" 2>/dev/null; then
      log "the service did not stop within 15 s; killing it"
      kill -KILL "$p" 2>/dev/null || true
    fi
    wait "$p" 2>/dev/null || true
  fi
  [ -n "${1:-}" ] || pid=""
}
# The -pgbouncer scenarios' service: DATABASE_URL through PgBouncer, whose
# files are in a directory of their own (PgBouncer runs as postgres).
bouncer_pid=""
bouncer_dir=$(mktemp -d "${TMPDIR:-/tmp}/commerce-bench-pgbouncer.XXXXXX")
# shellcheck disable=SC2317 # run by the EXIT trap
cleanup() {
  stop_service
  [ -z "$bouncer_pid" ] || stop_service "$bouncer_pid"
  scripts/pgbouncer.sh stop "$bouncer_dir"
  rm -rf "$work" "$bouncer_dir"
}
trap cleanup EXIT
trap 'exit 130' INT
trap 'exit 143' TERM

log "starting the service on $base"
started=$(date +%s%N)
# The webhooks scenario posts to a receiver on loopback (ALLOW_PRIVATE_TARGETS)
# and retries its failing receiver's attempts within a second.
LISTEN_ADDR="127.0.0.1:$port" BASE_URL="$base" RATE_LIMIT_SCALE=1000000 \
  FILE_STORAGE_URL="file://$work/files" ALLOW_PRIVATE_TARGETS=true \
  WEBHOOK_RETRY_SCHEDULE=100ms,100ms,100ms,100ms,100ms,100ms,100ms \
  bin/commerce serve >"$service_log" 2>&1 &
pid=$!

deadline=$((SECONDS + READY_TIMEOUT))
until [ "$(curl -s -o /dev/null -w '%{http_code}' "$base/readyz" 2>/dev/null)" = 200 ]; do
  if ! kill -0 "$pid" 2>/dev/null; then
    tail -n 20 "$service_log" >&2 || true
    pid=""
    die "the service exited before it was ready"
  fi
  if [ "$SECONDS" -ge "$deadline" ]; then
    tail -n 20 "$service_log" >&2 || true
    die "the service was not ready within ${READY_TIMEOUT}s"
  fi
  sleep 0.005
done
cold_ms=$((($(date +%s%N) - started) / 1000000))

# The same service behind PgBouncer in transaction mode (as many server
# connections as the service's pool), LISTEN and River on PostgreSQL (set
# before DATABASE_URL: a prefix assignment sees the ones before it); it
# works no jobs (the first one does).
bouncer_port=$(free_port)
bouncer_base="http://127.0.0.1:$bouncer_port"
bouncer_url=$(scripts/pgbouncer.sh start "$bouncer_dir" "$DATABASE_URL" 20)
log "starting the service behind PgBouncer on $bouncer_base"
LISTEN_ADDR="127.0.0.1:$bouncer_port" BASE_URL="$bouncer_base" RATE_LIMIT_SCALE=1000000 \
  FILE_STORAGE_URL="file://$work/files" ALLOW_PRIVATE_TARGETS=true \
  DATABASE_DIRECT_URL="$DATABASE_URL" DATABASE_URL="$bouncer_url" \
  bin/commerce serve --no-worker >"$work/service-pgbouncer.log" 2>&1 &
bouncer_pid=$!
deadline=$((SECONDS + READY_TIMEOUT))
until [ "$(curl -s -o /dev/null -w '%{http_code}' "$bouncer_base/readyz" 2>/dev/null)" = 200 ]; do
  if ! kill -0 "$bouncer_pid" 2>/dev/null || [ "$SECONDS" -ge "$deadline" ]; then
    tail -n 20 "$work/service-pgbouncer.log" >&2 || true
    die "the service behind PgBouncer was not ready within ${READY_TIMEOUT}s"
  fi
  sleep 0.05
done

status=0
bin/bench -url "$base" -key "$key" -pid "$pid" -cold-start "${cold_ms}ms" \
  -pgbouncer-url "$bouncer_base" -pgbouncer-pid "$bouncer_pid" \
  -database-url "$DATABASE_URL" -redis-url "$REDIS_URL" \
  -duration "$(as_duration "${BENCH_DURATION:-10s}")" -warmup "$(as_duration "${BENCH_WARMUP:-2s}")" \
  "$@" || status=$?

stop_service
if [ -s "$work/service-pgbouncer.log" ]; then
  log "the service behind PgBouncer logged $(wc -l <"$work/service-pgbouncer.log") line(s) at level error or above; the last ones:"
  tail -n 10 "$work/service-pgbouncer.log" >&2
fi
if [ -s "$service_log" ]; then
  log "the service logged $(wc -l <"$service_log") line(s) at level error or above; the last ones:"
  tail -n 10 "$service_log" >&2
fi
exit "$status"
