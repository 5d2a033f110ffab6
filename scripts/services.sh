#!/usr/bin/env bash
# Local PostgreSQL 15 and Redis for `make run` and `make test`.
#
#   scripts/services.sh dev            start the development services if they are not
#                                      running (data in .data/), then print on stdout:
#                                        DATABASE_URL=postgres://postgres@127.0.0.1:55432/commerce?sslmode=disable
#                                        REDIS_URL=redis://127.0.0.1:56379/0
#   scripts/services.sh stop           stop the development services
#   scripts/services.sh test -- CMD…   start throwaway services on free ports in a temporary
#                                      directory, run CMD with DATABASE_URL and REDIS_URL
#                                      exported, remove everything, exit with CMD's status
#
# A DATABASE_URL or REDIS_URL already set in the environment is used as it is and
# the matching service is not started. Missing software is installed with apt
# (redis-server; postgresql-15 when its binaries are absent; for `test`, Debian's
# chromium for the console's browser tests, pgbouncer for the tests through
# it, prometheus for promtool). PostgreSQL refuses
# to run as root, so as root its programs run as the postgres user. Progress and
# errors go to stderr; stdout carries only the two lines of `dev`.
set -euo pipefail

# runuser lives in /usr/sbin, which a non-login PATH may lack.
export PATH="$PATH:/usr/sbin:/sbin"

REPO="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
PG_BIN="${PG_BIN:-/usr/lib/postgresql/15/bin}"
DEV_DIR="$REPO/.data"
# The development ports; COMMERCE_DEV_PG_PORT / COMMERCE_DEV_REDIS_PORT move
# them (the services check of `make test` uses free ones).
DEV_PG_PORT="${COMMERCE_DEV_PG_PORT:-55432}"
DEV_REDIS_PORT="${COMMERCE_DEV_REDIS_PORT:-56379}"
START_TIMEOUT=30 # seconds to wait for a service to answer

log() { echo "services: $*" >&2; }
# shellcheck source=lib/common.sh
source "$(dirname "${BASH_SOURCE[0]}")/lib/common.sh"

# ---------------------------------------------------------------------------
# Installation

# ensure_installed: the software for the services this run will start.
ensure_installed() {
  if [ -z "${REDIS_URL:-}" ]; then
    if ! command -v redis-server >/dev/null || ! command -v redis-cli >/dev/null; then
      apt_install redis-server
    fi
  fi
  if [ -z "${DATABASE_URL:-}" ]; then
    if [ ! -x "$PG_BIN/postgres" ]; then
      apt_install postgresql-15
    fi
    if is_root && ! id postgres >/dev/null 2>&1; then
      die "PostgreSQL cannot run as root and there is no postgres user (install the postgresql-15 package)"
    fi
  fi
}

# wait_for DESCRIPTION COMMAND…: retry COMMAND until it succeeds, for at most
# START_TIMEOUT seconds.
wait_for() {
  local what=$1
  shift
  local deadline=$((SECONDS + START_TIMEOUT))
  until "$@" >/dev/null 2>&1; do
    if [ "$SECONDS" -ge "$deadline" ]; then
      die "$what did not answer within ${START_TIMEOUT}s"
    fi
    sleep 0.1
  done
}

# ---------------------------------------------------------------------------
# PostgreSQL

# as_pg COMMAND…: run a PostgreSQL program, as the postgres user when we are
# root. It runs from / so that an unreadable working directory does not matter.
as_pg() {
  if is_root; then
    (cd / && runuser -u postgres -- "$@")
  else
    (cd / && "$@")
  fi
}

# pg_init DATADIR [SETTING…]: create a cluster in DATADIR (once) with trust
# authentication for the superuser postgres, TCP on 127.0.0.1 only and no unix
# socket (so no socket directory permissions or path length limits); each
# SETTING ("name = value") is appended to its postgresql.conf.
pg_init() {
  local dir=$1
  shift
  if [ -f "$dir/PG_VERSION" ]; then
    return 0
  fi
  mkdir -p "$dir"
  if is_root; then
    chown postgres: "$dir"
  fi
  chmod 700 "$dir"
  if ! as_pg test -w "$dir"; then
    die "the postgres user cannot write $dir (is a parent directory closed to it?)"
  fi
  if ! as_pg "$PG_BIN/initdb" -D "$dir" -U postgres --auth=trust -E UTF8 --locale=C.UTF-8 --no-sync \
    >"$dir.initdb.log" 2>&1; then
    cat "$dir.initdb.log" >&2
    die "initdb failed for $dir"
  fi
  {
    echo "# added by scripts/services.sh"
    echo "listen_addresses = '127.0.0.1'"
    echo "unix_socket_directories = ''"
    local setting
    for setting in "$@"; do
      echo "$setting"
    done
  } | as_pg tee -a "$dir/postgresql.conf" >/dev/null
}

# pg_start DATADIR PORT: start the cluster on PORT and wait until it answers.
# It fails (without exiting) when the server does not start, e.g. the port is taken.
pg_start() {
  local dir=$1 port=$2
  if ! as_pg "$PG_BIN/pg_ctl" -D "$dir" -l "$dir/server.log" -o "-p $port" -w -t "$START_TIMEOUT" start >/dev/null; then
    tail -n 5 "$dir/server.log" >&2 || true
    return 1
  fi
  wait_for "PostgreSQL on 127.0.0.1:$port" "$PG_BIN/pg_isready" -q -h 127.0.0.1 -p "$port"
}

# pg_stop DATADIR MODE: stop the cluster if it runs (MODE fast or immediate).
pg_stop() {
  local dir=$1 mode=$2
  if [ -f "$dir/postmaster.pid" ]; then
    as_pg "$PG_BIN/pg_ctl" -D "$dir" -m "$mode" -w stop >/dev/null 2>&1 || true
  fi
}

pg_answers() { "$PG_BIN/pg_isready" -q -h 127.0.0.1 -p "$1" >/dev/null 2>&1; }

# psql_run PORT DATABASE SQL: run SQL as postgres, printing unaligned results.
psql_run() {
  "$PG_BIN/psql" -X -q -v ON_ERROR_STOP=1 -h 127.0.0.1 -p "$1" -U postgres -d "$2" -tAc "$3"
}

# ---------------------------------------------------------------------------
# Redis

# redis_start DIR PORT [OPTION…]: start a daemonized Redis on 127.0.0.1:PORT with
# its pidfile and log (new each start) in DIR and wait until it answers. It fails
# (without exiting) when that Redis does not come up, e.g. the port is taken;
# checking that the Redis on PORT works in DIR makes sure it is this one.
redis_start() {
  local dir=$1 port=$2
  shift 2
  mkdir -p "$dir"
  rm -f "$dir/redis.pid"
  : >"$dir/redis.log"
  redis-server --port "$port" --bind 127.0.0.1 --dir "$dir" --daemonize yes \
    --pidfile "$dir/redis.pid" --logfile "$dir/redis.log" "$@" >/dev/null
  local real_dir deadline=$((SECONDS + START_TIMEOUT))
  real_dir=$(cd "$dir" && pwd -P) # what Redis reports as its dir
  until [ "$(redis-cli -h 127.0.0.1 -p "$port" config get dir 2>/dev/null | tail -n 1)" = "$real_dir" ]; do
    if [ "$SECONDS" -ge "$deadline" ] || grep -q "aborting" "$dir/redis.log"; then
      tail -n 5 "$dir/redis.log" >&2 || true
      redis_stop "$dir"
      return 1
    fi
    sleep 0.1
  done
  wait_for "Redis on 127.0.0.1:$port" redis-cli -h 127.0.0.1 -p "$port" ping
}

# redis_stop DIR: stop the Redis of DIR if it runs (its pidfile names a live
# redis-server).
redis_stop() {
  local dir=$1 pid
  if [ -f "$dir/redis.pid" ]; then
    pid=$(cat "$dir/redis.pid")
    if [ "$(cat "/proc/$pid/comm" 2>/dev/null)" = redis-server ]; then
      kill "$pid" 2>/dev/null || true
      # Wait (at most 10s) for it to exit, so that its directory can go.
      for _ in $(seq 100); do
        kill -0 "$pid" 2>/dev/null || break
        sleep 0.1
      done
    fi
    rm -f "$dir/redis.pid"
  fi
}

redis_answers() { [ "$(redis-cli -h 127.0.0.1 -p "$1" ping 2>/dev/null)" = PONG ]; }

# ---------------------------------------------------------------------------
# dev: long-lived services for `make run`, data in .data/

# dev_pg_dir: the development cluster's directory, .data/pg, which the
# postgres user must reach. As root, .data is opened for traversal (o+x, no
# listing: a umask such as 027 closes it); when a parent of the checkout is
# still closed to postgres, the cluster lives outside it, in a directory named
# after the checkout under /var/tmp.
dev_pg_dir() {
  local dir="$DEV_DIR/pg"
  if is_root; then
    chmod o+x "$DEV_DIR"
    if ! as_pg test -x "$DEV_DIR"; then
      dir="/var/tmp/commerce-pg-$(printf %s "$REPO" | sha256sum | cut -c1-12)"
      log "the postgres user cannot reach $DEV_DIR (a parent directory is closed to it): PostgreSQL's data goes to $dir"
    fi
  fi
  echo "$dir"
}

cmd_dev() {
  ensure_installed
  mkdir -p "$DEV_DIR"
  local pg_dir
  pg_dir="$(dev_pg_dir)"

  if [ -n "${DATABASE_URL:-}" ]; then
    log "using the given DATABASE_URL"
  else
    if pg_answers "$DEV_PG_PORT"; then
      log "PostgreSQL is already running on 127.0.0.1:$DEV_PG_PORT"
    else
      log "starting PostgreSQL on 127.0.0.1:$DEV_PG_PORT (data in $pg_dir, log in $pg_dir/server.log)"
      pg_init "$pg_dir"
      pg_start "$pg_dir" "$DEV_PG_PORT" || die "PostgreSQL did not start (see $pg_dir/server.log)"
    fi
    if [ -z "$(psql_run "$DEV_PG_PORT" postgres "SELECT 1 FROM pg_database WHERE datname = 'commerce'")" ]; then
      log "creating the database commerce"
      psql_run "$DEV_PG_PORT" postgres "CREATE DATABASE commerce"
    fi
    DATABASE_URL="postgres://postgres@127.0.0.1:$DEV_PG_PORT/commerce?sslmode=disable"
  fi

  if [ -n "${REDIS_URL:-}" ]; then
    log "using the given REDIS_URL"
  else
    if redis_answers "$DEV_REDIS_PORT"; then
      log "Redis is already running on 127.0.0.1:$DEV_REDIS_PORT"
    else
      log "starting Redis on 127.0.0.1:$DEV_REDIS_PORT (data and log in $DEV_DIR/redis)"
      redis_start "$DEV_DIR/redis" "$DEV_REDIS_PORT" || die "Redis did not start (see $DEV_DIR/redis/redis.log)"
    fi
    REDIS_URL="redis://127.0.0.1:$DEV_REDIS_PORT/0"
  fi

  echo "DATABASE_URL=$DATABASE_URL"
  echo "REDIS_URL=$REDIS_URL"
}

cmd_stop() {
  pg_stop "$(dev_pg_dir)" fast
  redis_stop "$DEV_DIR/redis"
  log "development PostgreSQL and Redis stopped"
}

# ---------------------------------------------------------------------------
# test: throwaway services around one command

TEST_DIR=""
TEST_PG_STARTED=""
TEST_REDIS_STARTED=""

# cleanup_test: stop the throwaway services and remove their directory; it runs
# on every exit of `test` (trap EXIT).
cleanup_test() {
  if [ -n "$TEST_PG_STARTED" ]; then
    pg_stop "$TEST_DIR/pg" immediate
  fi
  if [ -n "$TEST_REDIS_STARTED" ]; then
    redis_stop "$TEST_DIR/redis"
  fi
  if [ -n "$TEST_DIR" ]; then
    rm -rf "$TEST_DIR"
  fi
}

# start_test_pg: a PostgreSQL tuned for speed over durability, on a free port
# (another port is tried when a concurrent run took it first).
start_test_pg() {
  pg_init "$TEST_DIR/pg" \
    "fsync = off" \
    "synchronous_commit = off" \
    "full_page_writes = off" \
    "max_connections = 300" \
    "shared_buffers = 256MB" \
    "shared_preload_libraries = '${TEST_PG_PRELOAD:-}'"
  local port attempt
  for attempt in 1 2 3; do
    port=$(free_port)
    TEST_PG_STARTED=yes
    if pg_start "$TEST_DIR/pg" "$port"; then
      export DATABASE_URL="postgres://postgres@127.0.0.1:$port/postgres?sslmode=disable"
      log "throwaway PostgreSQL on 127.0.0.1:$port"
      return 0
    fi
    log "PostgreSQL did not start on port $port (attempt $attempt)"
  done
  die "PostgreSQL did not start"
}

start_test_redis() {
  local port attempt
  for attempt in 1 2 3; do
    port=$(free_port)
    TEST_REDIS_STARTED=yes
    if redis_start "$TEST_DIR/redis" "$port" --save '' --appendonly no; then
      export REDIS_URL="redis://127.0.0.1:$port/0"
      log "throwaway Redis on 127.0.0.1:$port"
      return 0
    fi
    log "Redis did not start on port $port (attempt $attempt)"
  done
  die "Redis did not start"
}

# ensure_browser: Debian's chromium for the console's browser tests
# (console/browser_test.go drives it with Playwright; Playwright downloads no
# browser of its own). Node and npm are not installed here: the test names
# them when they are missing.
ensure_browser() {
  if [ ! -x "${CHROMIUM:-/usr/bin/chromium}" ]; then
    apt_install chromium
  fi
}

# ensure_pgbouncer: Debian's PgBouncer (1.18) for the tests that run the
# service behind it in transaction mode (testkit.PgBouncer starts one).
ensure_pgbouncer() {
  if [ ! -x /usr/sbin/pgbouncer ]; then
    apt_install pgbouncer
  fi
}

# ensure_promtool: Prometheus's promtool (Debian's prometheus package, without
# its recommended node exporter), which checks and unit-tests the alerting
# rules and the dashboard's queries (deploy/deploy_test.go). Nothing of it
# runs as a service here.
ensure_promtool() {
  if ! command -v promtool >/dev/null; then
    apt_install --no-install-recommends prometheus
  fi
}

cmd_test() {
  if [ "${1:-}" = "--" ]; then
    shift
  fi
  [ $# -gt 0 ] || die "usage: services.sh test -- CMD [ARGS…]"
  ensure_installed
  # COMMERCE_NO_BROWSER=1: the command runs no browser tests (scripts/cluster.sh).
  if [ "${COMMERCE_NO_BROWSER:-}" != 1 ]; then
    ensure_browser
  fi
  ensure_pgbouncer
  ensure_promtool

  trap cleanup_test EXIT
  trap 'exit 130' INT
  trap 'exit 143' TERM
  TEST_DIR=$(mktemp -d "${TMPDIR:-/tmp}/commerce-test.XXXXXX")
  chmod 755 "$TEST_DIR" # the postgres user must reach its data directory inside

  if [ -z "${DATABASE_URL:-}" ]; then
    start_test_pg
  else
    log "using the given DATABASE_URL"
  fi
  if [ -z "${REDIS_URL:-}" ]; then
    start_test_redis
  else
    log "using the given REDIS_URL"
  fi

  local status=0
  "$@" || status=$?
  exit "$status"
}

case "${1:-}" in
  dev) cmd_dev ;;
  stop) cmd_stop ;;
  test)
    shift
    cmd_test "$@"
    ;;
  *)
    echo "usage: $0 dev | stop | test -- CMD [ARGS…]" >&2
    exit 2
    ;;
esac
