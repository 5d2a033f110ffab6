#!/usr/bin/env bash
# `make cluster` and `make cluster-test`: the service as several processes
# behind nginx, the way docs/operations.md deploys it.
#
#   scripts/cluster.sh run     N `commerce serve --no-worker` and M `commerce worker`
#                              processes behind nginx (round robin), PgBouncer in
#                              transaction mode in front of PostgreSQL, and Redis;
#                              prints the URL and a key, runs until Ctrl-C, then
#                              stops everything (the data goes with it)
#   scripts/cluster.sh test    the same on free ports, then the end-to-end tests of
#                              ./cluster/ through nginx (REST, GraphQL with a
#                              subscription, MCP, the console's API, revocation
#                              across processes, the proxy's kill -9 drill), then
#                              stops everything; exits with the tests' status
#
# Environment: SERVERS (serving processes, default 2), WORKERS (worker
# processes, default 1), CLUSTER_PORT (nginx's port for `run`, default 8080;
# `test` takes a free one), CLUSTER_DB (pgbouncer: the processes' DATABASE_URL
# is PgBouncer and DATABASE_DIRECT_URL PostgreSQL, the default; direct: both
# PostgreSQL),
# GO (default go). Every other variable reaches the processes as it is.
#
# PostgreSQL and Redis are throwaway ones (scripts/services.sh test); nginx
# (Debian's nginx) and PgBouncer (Debian's pgbouncer) are installed with apt
# when missing and run as unprivileged processes from a temporary directory:
# nginx with deploy/nginx/commerce.conf, filled with the ports. As root,
# nginx runs as nobody and PgBouncer as postgres (neither runs as root).
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
export PATH="$PATH:/usr/sbin:/sbin"

GO="${GO:-go}"
PG_BIN="${PG_BIN:-/usr/lib/postgresql/15/bin}"
SERVERS="${SERVERS:-2}"
WORKERS="${WORKERS:-1}"
READY_TIMEOUT=60 # seconds for a process to answer /readyz

log() { echo "cluster: $*" >&2; }
# shellcheck source=lib/common.sh
source "$(dirname "${BASH_SOURCE[0]}")/lib/common.sh"

mode="${1:-}"
case "$mode" in
  run | test) ;;
  --inside) ;;
  *)
    echo "usage: $0 run | test" >&2
    exit 2
    ;;
esac
[[ "$SERVERS" =~ ^[1-9][0-9]*$ ]] || die "SERVERS must be a positive number"
[[ "$WORKERS" =~ ^[0-9]+$ ]] || die "WORKERS must be a number"

# ---------------------------------------------------------------------------
# outer: software, the build, then the rest inside throwaway services.
if [ "$mode" != "--inside" ]; then
  missing=()
  command -v nginx >/dev/null || missing+=(nginx)
  command -v pgbouncer >/dev/null || missing+=(pgbouncer)
  command -v curl >/dev/null || missing+=(curl)
  if [ ${#missing[@]} -gt 0 ]; then
    apt_install "${missing[@]}"
  fi
  log "building bin/commerce"
  "$GO" build -o bin/commerce ./cmd/commerce
  # Throwaway PostgreSQL and Redis always (a DATABASE_URL or REDIS_URL of
  # the environment is not used); no browser tests: services.sh need not
  # install chromium.
  exec env -u DATABASE_URL -u REDIS_URL COMMERCE_NO_BROWSER=1 \
    scripts/services.sh test -- "$PWD/scripts/cluster.sh" --inside "$mode"
fi
shift
mode="$1"

# ---------------------------------------------------------------------------
# inside: DATABASE_URL (the server's postgres database) and REDIS_URL are
# exported by services.sh.
: "${DATABASE_URL:?}" "${REDIS_URL:?}"

work=$(mktemp -d "${TMPDIR:-/tmp}/commerce-cluster.XXXXXX")
chmod 755 "$work" # nginx (nobody) and PgBouncer (postgres) reach their directories inside
pids=()  # every process started, stopped in reverse order
names=() # their names, for the messages

# stop PID NAME: SIGTERM, at most 20 s to drain, then SIGKILL.
stop() {
  local pid=$1 name=$2
  kill -0 "$pid" 2>/dev/null || return 0
  kill -TERM "$pid" 2>/dev/null || true
  for _ in $(seq 200); do
    kill -0 "$pid" 2>/dev/null || break
    sleep 0.1
  done
  if kill -0 "$pid" 2>/dev/null; then
    log "$name did not stop within 20 s; killing it"
    kill -KILL "$pid" 2>/dev/null || true
  fi
  wait "$pid" 2>/dev/null || true
}
# shellcheck disable=SC2317 # run by the EXIT trap
stop_all() {
  local i
  [ ${#pids[@]} -gt 0 ] || return 0
  log "stopping the cluster"
  for ((i = ${#pids[@]} - 1; i >= 0; i--)); do
    stop "${pids[i]}" "${names[i]}"
  done
  pids=()
  names=()
}
# shellcheck disable=SC2317 # run by the EXIT trap
cleanup() {
  stop_all
  if [ -n "${bouncer_started:-}" ]; then
    scripts/pgbouncer.sh stop "$bouncer_dir"
  fi
  if [ "${CLUSTER_KEEP:-}" = 1 ]; then
    log "logs kept in $work"
  else
    rm -rf "$work"
  fi
}
trap cleanup EXIT
trap 'exit 130' INT
trap 'exit 143' TERM

# as USER COMMAND…: COMMAND as USER when we are root (nginx and PgBouncer
# refuse or should not run as root), from / (a closed working directory
# does not matter).
as() {
  local user=$1
  shift
  if is_root; then
    (cd / && exec runuser -u "$user" -- "$@")
  else
    (cd / && exec "$@")
  fi
}

# start_as USER OUTPUT COMMAND…: as, in the background, output to OUTPUT;
# the pid is in $! (runuser's, which passes SIGTERM on, or the program's:
# exec, no subshell left between).
start_as() {
  local user=$1 out=$2
  shift 2
  if is_root; then
    exec runuser -u "$user" -- "$@" >"$out" 2>&1
  else
    exec "$@" >"$out" 2>&1
  fi
}

# wait_ready NAME URL PID: until URL answers 200, at most READY_TIMEOUT.
wait_ready() {
  local name=$1 url=$2 pid=$3 logf=$4
  local deadline=$((SECONDS + READY_TIMEOUT))
  until [ "$(curl -s -o /dev/null -w '%{http_code}' "$url" 2>/dev/null)" = 200 ]; do
    if ! kill -0 "$pid" 2>/dev/null; then
      tail -n 20 "$logf" >&2 || true
      die "$name exited before it was ready"
    fi
    if [ "$SECONDS" -ge "$deadline" ]; then
      tail -n 20 "$logf" >&2 || true
      die "$name was not ready within ${READY_TIMEOUT}s"
    fi
    sleep 0.1
  done
}

# with_param URL NAME=VALUE: URL with one more query parameter.
with_param() {
  case "$1" in
    *\?*) echo "$1&$2" ;;
    *) echo "$1?$2" ;;
  esac
}

# 1. PostgreSQL: the database commerce. services.sh gives the URL of the
# server's postgres database.
admin_url="$DATABASE_URL"
hostport="${admin_url#*@}"
hostport="${hostport%%/*}"
pg_host="${hostport%:*}"
pg_port="${hostport##*:}"
"$PG_BIN/psql" -X -q -v ON_ERROR_STOP=1 "$admin_url" -c "CREATE DATABASE commerce" >/dev/null
direct_url="postgres://postgres@$pg_host:$pg_port/commerce?sslmode=disable"

# 2. PgBouncer in transaction mode in front of it (scripts/pgbouncer.sh:
# as postgres when root, daemonized, stopped on exit).
bouncer_dir="$work/pgbouncer"
bouncer_started=yes # stop is a no-op when it did not start
bouncer_url=$(scripts/pgbouncer.sh start "$bouncer_dir" "$direct_url" 40)
deadline=$((SECONDS + 30))
until "$PG_BIN/psql" -X -q "$bouncer_url" -c "SELECT 1" >/dev/null 2>&1; do
  [ "$SECONDS" -lt "$deadline" ] || {
    cat "$bouncer_dir/pgbouncer.log" >&2 2>/dev/null || true
    die "PgBouncer did not answer within 30 s"
  }
  sleep 0.1
done

# The processes' database: the request path through PgBouncer (pgx then
# keeps no named prepared statement: db.OpenDirect), LISTEN, River and the
# migrations on PostgreSQL directly (DATABASE_DIRECT_URL).
CLUSTER_DB="${CLUSTER_DB:-pgbouncer}"
case "$CLUSTER_DB" in
  pgbouncer) service_url="$bouncer_url" ;;
  direct) service_url="$direct_url" ;;
  *) die "CLUSTER_DB must be pgbouncer or direct" ;;
esac

# 3. Migrations: once, before any process starts, on the direct connection.
DATABASE_URL="$direct_url" LOG_LEVEL=warn bin/commerce migrate up >"$work/migrate.log" 2>&1 ||
  {
    cat "$work/migrate.log" >&2
    die "migrate up failed"
  }

# 4. The processes. nginx's port first: BASE_URL names it.
if [ "$mode" = run ]; then
  nginx_port="${CLUSTER_PORT:-8080}"
  if (: >"/dev/tcp/127.0.0.1/$nginx_port") 2>/dev/null; then
    die "something already answers on 127.0.0.1:$nginx_port (set CLUSTER_PORT)"
  fi
else
  nginx_port=$(free_port)
fi
base="http://127.0.0.1:$nginx_port"
if [ "$mode" = run ] && [ -z "${CLUSTER_PORT:-}" ]; then base="http://localhost:$nginx_port"; fi
mkdir -p "$work/files"

common_env=(
  "DATABASE_DIRECT_URL=$direct_url"
  "REDIS_URL=$REDIS_URL"
  "BASE_URL=$base"
  "TRUSTED_PROXIES=127.0.0.1/32"
  "FILE_STORAGE_URL=file://$work/files"
  "ALLOW_PRIVATE_TARGETS=${ALLOW_PRIVATE_TARGETS:-true}"
  "LOG_FORMAT=json"
  "LOG_LEVEL=${LOG_LEVEL:-warn}"
)
server_list=()   # name=pid@host:port
upstream_lines=""
for i in $(seq "$SERVERS"); do
  port=$(free_port)
  name="serve-$i"
  env "${common_env[@]}" "DATABASE_URL=$(with_param "$service_url" "application_name=commerce-$name")" \
    "LISTEN_ADDR=127.0.0.1:$port" \
    bin/commerce serve --no-worker >"$work/$name.log" 2>&1 &
  pid=$!
  pids+=("$pid")
  names+=("$name")
  wait_ready "$name" "http://127.0.0.1:$port/readyz" "$pid" "$work/$name.log"
  server_list+=("$name=$pid@127.0.0.1:$port")
  upstream_lines+="        server 127.0.0.1:$port max_fails=1 fail_timeout=10s;"$'\n'
  log "$name (pid $pid) on 127.0.0.1:$port"
done
worker_list=()
for i in $(seq "$WORKERS"); do
  name="worker-$i"
  env "${common_env[@]}" "DATABASE_URL=$(with_param "$service_url" "application_name=commerce-$name")" \
    bin/commerce worker >"$work/$name.log" 2>&1 &
  pid=$!
  pids+=("$pid")
  names+=("$name")
  worker_list+=("$name=$pid")
  log "$name (pid $pid)"
done

# 5. nginx with the repository's configuration.
nginx_dir="$work/nginx"
mkdir -p "$nginx_dir/tmp"
sed -e "s|__DIR__|$nginx_dir|g" -e "s|__LISTEN__|127.0.0.1:$nginx_port|g" deploy/nginx/commerce.conf |
  awk -v servers="${upstream_lines%$'\n'}" '$1 == "__SERVERS__" { print servers; next } { print }' >"$nginx_dir/nginx.conf"
if is_root; then chown -R nobody: "$nginx_dir"; fi
as nobody nginx -t -q -p "$nginx_dir" -e "$nginx_dir/error.log" -c "$nginx_dir/nginx.conf" ||
  die "nginx refused its configuration ($nginx_dir/nginx.conf)"
(cd / && start_as nobody "$work/nginx.out" nginx -p "$nginx_dir" -e "$nginx_dir/error.log" -c "$nginx_dir/nginx.conf" -g 'daemon off;') &
pids+=($!)
names+=(nginx)
wait_ready nginx "$base/readyz" "${pids[-1]}" "$nginx_dir/error.log"
log "nginx (pid ${pids[-1]}) on $base, in front of $SERVERS serving process(es); $WORKERS worker(s); database $CLUSTER_DB"

export COMMERCE_CLUSTER_URL="$base"
export COMMERCE_CLUSTER_SERVERS="${server_list[*]}"
export COMMERCE_CLUSTER_WORKERS="${worker_list[*]}"
export COMMERCE_CLUSTER_DATABASE_URL="$direct_url"
export COMMERCE_CLUSTER_DB="$CLUSTER_DB"
export COMMERCE_CLUSTER_PGBOUNCER_URL="$bouncer_url"
export COMMERCE_CLUSTER_LOGS="$work"

# ---------------------------------------------------------------------------
if [ "$mode" = run ]; then
  account=$(DATABASE_URL="$direct_url" LOG_LEVEL=warn bin/commerce accounts create --email dev@localhost)
  key=$(sed -n 's/^api_key=//p' <<<"$account")
  cat <<BANNER

  commerce cluster: $SERVERS × serve --no-worker, $WORKERS × worker, nginx, PgBouncer, PostgreSQL, Redis (requests: CLUSTER_DB=$CLUSTER_DB)
    URL           $base
    Console       $base/console/
    GraphQL       $base/graphql
    API key       $key
    Logs          $work
    nginx config  $nginx_dir/nginx.conf

  Ctrl-C stops everything (PostgreSQL's and Redis's data go with it).

BANNER
  # Say when a process ends; keep the rest running.
  declare -A reported=()
  while sleep 1; do
    for i in "${!pids[@]}"; do
      if [ -z "${reported[$i]:-}" ] && ! kill -0 "${pids[i]}" 2>/dev/null; then
        reported[$i]=1
        log "${names[i]} (pid ${pids[i]}) has exited; its log: $work/${names[i]}.log"
      fi
    done
  done
fi

# test: the end-to-end tests through nginx, then the drills.
status=0
started=$SECONDS
COMMERCE_CLUSTER=1 "$GO" test -count=1 -timeout 5m -v ./cluster/ || status=$?
log "cluster tests: $((SECONDS - started)) s (status $status)"
if [ "$status" != 0 ]; then
  for f in "$work"/serve-*.log "$work"/worker-*.log "$nginx_dir/error.log"; do
    [ -s "$f" ] || continue
    log "--- the end of $f"
    tail -n 15 "$f" >&2
  done
fi
stop_all

# The leader-kill drill (drill/leader_test.go, `make drill-leader`), when
# this tree has it and `make drill` (which .ci/run calls) does not run it
# already: it starts processes of its own (a database of its own in the
# same PostgreSQL, the same Redis). CLUSTER_LEADER_DRILL=1 runs it anyway,
# =0 never.
leader_drill="${CLUSTER_LEADER_DRILL:-}"
if [ -z "$leader_drill" ]; then
  leader_drill=0
  if grep -qs '^func TestKillLeader(' drill/*_test.go; then
    if sed -n '/^drill:/,/^$/p' Makefile | grep -q TestKillLeader; then
      log "the leader-kill drill runs in \`make drill\`, not here"
    else
      leader_drill=1
    fi
  fi
fi
if [ "$leader_drill" = 1 ]; then
  drill_started=$SECONDS
  drill_status=0
  COMMERCE_DRILL=1 "$GO" test -count=1 -timeout 5m -run 'TestKillLeader$' -v ./drill/ || drill_status=$?
  log "leader-kill drill: $((SECONDS - drill_started)) s (status $drill_status)"
  if [ "$status" = 0 ]; then status=$drill_status; fi
fi
exit "$status"
