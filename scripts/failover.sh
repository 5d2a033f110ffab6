#!/usr/bin/env bash
# A PostgreSQL 15 pair under pg_auto_failover on this machine, for the
# failover drill (`make drill-failover`): a monitor and two data nodes, each
# a `pg_autoctl run` keeper with its PostgreSQL, all as the postgres user, in
# one directory that user can reach. Replication between the nodes is
# synchronous, as pg_auto_failover sets it up for one standby
# (number_sync_standbys 0, replication quorum on: synchronous_standby_names
# 'ANY 1 (…)' on the primary), so a commit the primary acknowledged is on
# the standby too.
#
#   scripts/failover.sh test -- CMD…   start the cluster in a temporary directory, run CMD
#                                      with DATABASE_URL set to the multi-host URL
#                                        postgres://postgres@127.0.0.1:P1,127.0.0.1:P2/commerce
#                                          ?sslmode=disable&target_session_attrs=read-write
#                                      and COMMERCE_FAILOVER_DIR to the cluster's directory,
#                                      stop and remove everything (COMMERCE_FAILOVER_KEEP=1
#                                      keeps the directory and its logs), exit with CMD's status
#   scripts/failover.sh failover DIR   fail the primary of the cluster in DIR over to the
#                                      standby (pg_autoctl perform failover) and wait until
#                                      the standby is primary
#   scripts/failover.sh kill DIR NODE  kill -9 every process of data node NODE (node1, node2):
#                                      its keeper, its postmaster and backends, as a machine
#                                      lost would; the monitor then promotes the other node
#   scripts/failover.sh state DIR      the monitor's view of the nodes
#
# The monitor checks the nodes every second and gives up on one after 5 s
# without a report (pg_auto_failover's defaults, 5 s and 20 s, suit a
# network; this is one machine). primary_demote_timeout keeps its default,
# 30 s: the time a primary that stops answering the monitor is given to
# demote itself before the standby takes writes. At 10 s a switchover under
# load once let the old primary take writes for 10 s after the standby's
# promotion (lost: see docs/decisions.md).
#
# pg_autoctl comes from Debian's postgresql-15-auto-failover, installed with
# apt when it is missing. Progress and errors go to stderr.
set -euo pipefail

export PATH="$PATH:/usr/sbin:/sbin"

PG_BIN="${PG_BIN:-/usr/lib/postgresql/15/bin}"
START_TIMEOUT=90 # seconds for the pair to reach primary + secondary

log() { echo "failover: $*" >&2; }
# shellcheck source=lib/common.sh
source "$(dirname "${BASH_SOURCE[0]}")/lib/common.sh"

ensure_installed() {
  if [ ! -x "$PG_BIN/postgres" ]; then
    apt_install postgresql-15
  fi
  if ! command -v pg_autoctl >/dev/null; then
    apt_install postgresql-15-auto-failover
  fi
  if is_root && ! id postgres >/dev/null 2>&1; then
    die "PostgreSQL cannot run as root and there is no postgres user (install the postgresql-15 package)"
  fi
}

# autoctl DIR ARGS…: pg_autoctl as the postgres user (when we are root), its
# configuration, state and sockets under DIR rather than the user's home.
autoctl() {
  local dir=$1
  shift
  local env=(env "PATH=$PG_BIN:/usr/bin:/bin" "XDG_CONFIG_HOME=$dir/xdg/config"
    "XDG_DATA_HOME=$dir/xdg/data" "XDG_RUNTIME_DIR=$dir/xdg/run")
  if is_root; then
    (cd / && runuser -u postgres -- "${env[@]}" pg_autoctl "$@")
  else
    (cd / && "${env[@]}" pg_autoctl "$@")
  fi
}

# node_state DIR NODE: the monitor's reported state of node NODE (node1, node2).
node_state() {
  "$PG_BIN/psql" -X -q -tA -h 127.0.0.1 -p "$(cat "$1/monitor.port")" -U autoctl_node -d pg_auto_failover \
    -c "SELECT current_group_state FROM pgautofailover.current_state('default') WHERE nodename = '$2'" 2>/dev/null
}

# wait_pair DIR TIMEOUT: wait until one node reports primary and the other
# secondary; print node1's and node2's states.
wait_pair() {
  local dir=$1 timeout=$2 deadline=$((SECONDS + $2)) a b
  while true; do
    a=$(node_state "$dir" node1 || true)
    b=$(node_state "$dir" node2 || true)
    if [ "$a/$b" = primary/secondary ] || [ "$a/$b" = secondary/primary ]; then
      echo "$a/$b"
      return 0
    fi
    if [ "$SECONDS" -ge "$deadline" ]; then
      autoctl "$dir" show state --pgdata "$dir/monitor" >&2 || true
      die "the nodes did not reach primary/secondary within ${timeout}s (node1 $a, node2 $b)"
    fi
    sleep 0.5
  done
}

# run_keeper DIR NAME: `pg_autoctl run` for DIR/NAME in the background, its
# output in DIR/NAME.log and its pid in DIR/NAME.pid.
run_keeper() {
  local dir=$1 name=$2
  autoctl "$dir" run --pgdata "$dir/$name" >>"$dir/$name.log" 2>&1 &
  echo $! >"$dir/$name.pid"
}

cmd_start() {
  local dir=$1
  ensure_installed
  mkdir -p "$dir/xdg/config" "$dir/xdg/data" "$dir/xdg/run"
  chmod 755 "$dir"
  if is_root; then
    chown -R postgres: "$dir"
  fi
  chmod 700 "$dir/xdg/run"

  local pm p1 p2
  pm=$(free_port)
  log "monitor on 127.0.0.1:$pm (in $dir)"
  autoctl "$dir" create monitor --pgdata "$dir/monitor" --pgport "$pm" --hostname 127.0.0.1 \
    --auth trust --no-ssl --pgctl "$PG_BIN/pg_ctl" >>"$dir/monitor.log" 2>&1 ||
    { tail -n 20 "$dir/monitor.log" >&2; die "pg_autoctl create monitor failed"; }
  echo "$pm" >"$dir/monitor.port"
  run_keeper "$dir" monitor
  local deadline=$((SECONDS + START_TIMEOUT))
  until "$PG_BIN/psql" -X -q -v ON_ERROR_STOP=1 -h 127.0.0.1 -p "$pm" -U postgres -d pg_auto_failover \
    -c "ALTER SYSTEM SET pgautofailover.health_check_period = 1000" \
    -c "ALTER SYSTEM SET pgautofailover.health_check_timeout = 2000" \
    -c "ALTER SYSTEM SET pgautofailover.health_check_max_retries = 1" \
    -c "ALTER SYSTEM SET pgautofailover.health_check_retry_delay = 1000" \
    -c "ALTER SYSTEM SET pgautofailover.node_considered_unhealthy_timeout = 5000" \
    -c "SELECT pg_reload_conf()" >/dev/null 2>&1; do
    [ "$SECONDS" -lt "$deadline" ] || { tail -n 20 "$dir/monitor.log" >&2; die "the monitor did not answer"; }
    sleep 0.5
  done
  local monitor="postgres://autoctl_node@127.0.0.1:$pm/pg_auto_failover?sslmode=disable"

  local i port
  for i in 1 2; do
    port=$(free_port)
    log "data node node$i on 127.0.0.1:$port"
    autoctl "$dir" create postgres --pgdata "$dir/node$i" --pgport "$port" --hostname 127.0.0.1 \
      --name "node$i" --dbname commerce --auth trust --no-ssl --pgctl "$PG_BIN/pg_ctl" \
      --monitor "$monitor" >>"$dir/node$i.log" 2>&1 ||
      { tail -n 20 "$dir/node$i.log" >&2; die "pg_autoctl create postgres node$i failed"; }
    echo "$port" >"$dir/node$i.port"
    run_keeper "$dir" "node$i"
    if [ "$i" = 1 ]; then
      # node2 is created as a standby of node1: node1 must be primary first.
      local deadline=$((SECONDS + START_TIMEOUT))
      until [ "$(node_state "$dir" node1 || true)" = single ]; do
        [ "$SECONDS" -lt "$deadline" ] || { tail -n 20 "$dir/node1.log" >&2; die "node1 did not become primary"; }
        sleep 0.5
      done
    fi
  done
  wait_pair "$dir" "$START_TIMEOUT" >/dev/null
  p1=$(cat "$dir/node1.port")
  p2=$(cat "$dir/node2.port")
  echo "postgres://postgres@127.0.0.1:$p1,127.0.0.1:$p2/commerce?sslmode=disable&target_session_attrs=read-write" >"$dir/database.url"
  log "pair up: node1 127.0.0.1:$p1 primary, node2 127.0.0.1:$p2 secondary (synchronous)"
}

cmd_stop() {
  local dir=$1 name pid
  for name in node2 node1 monitor; do
    [ -f "$dir/$name.pid" ] || continue
    autoctl "$dir" stop --pgdata "$dir/$name" --immediate >/dev/null 2>&1 || true
    pid=$(cat "$dir/$name.pid")
    for _ in $(seq 100); do
      kill -0 "$pid" 2>/dev/null || break
      sleep 0.1
    done
    kill -9 "$pid" 2>/dev/null || true
    rm -f "$dir/$name.pid"
  done
  # A postmaster left behind by a keeper that did not stop it.
  for name in node1 node2 monitor; do
    if [ -f "$dir/$name/postmaster.pid" ]; then
      if is_root; then
        (cd / && runuser -u postgres -- "$PG_BIN/pg_ctl" -D "$dir/$name" -m immediate -w stop >/dev/null 2>&1) || true
      else
        "$PG_BIN/pg_ctl" -D "$dir/$name" -m immediate -w stop >/dev/null 2>&1 || true
      fi
    fi
  done
}

cmd_failover() {
  local dir=$1
  autoctl "$dir" perform failover --pgdata "$dir/monitor" --wait 60 >&2
  wait_pair "$dir" 60
}

# descendants PID: PID's descendant processes, deepest last.
descendants() {
  local child
  for child in $(ps -o pid= --ppid "$1"); do
    echo "$child"
    descendants "$child"
  done
}

cmd_kill() {
  local dir=$1 name=$2 pids
  [ -f "$dir/$name.pid" ] || die "no keeper for $name in $dir"
  pids=$(descendants "$(cat "$dir/$name.pid")")
  [ -n "$pids" ] || die "$name has no processes"
  # shellcheck disable=SC2086 # one pid a word
  kill -9 $pids 2>/dev/null || true
  log "killed $name (kill -9 of $(echo $pids | wc -w) processes)"
}

TEST_DIR=""
cleanup_test() {
  if [ -n "$TEST_DIR" ]; then
    cmd_stop "$TEST_DIR"
    if [ -n "${COMMERCE_FAILOVER_KEEP:-}" ]; then
      log "kept $TEST_DIR"
    else
      rm -rf "$TEST_DIR"
    fi
  fi
}

cmd_test() {
  if [ "${1:-}" = "--" ]; then
    shift
  fi
  [ $# -gt 0 ] || die "usage: failover.sh test -- CMD [ARGS…]"
  trap cleanup_test EXIT
  trap 'exit 130' INT
  trap 'exit 143' TERM
  TEST_DIR=$(mktemp -d "${TMPDIR:-/tmp}/commerce-failover.XXXXXX")
  cmd_start "$TEST_DIR"
  DATABASE_URL=$(cat "$TEST_DIR/database.url")
  export DATABASE_URL COMMERCE_FAILOVER_DIR="$TEST_DIR"
  local status=0
  "$@" || status=$?
  exit "$status"
}

case "${1:-}" in
  test)
    shift
    cmd_test "$@"
    ;;
  failover)
    [ $# = 2 ] || die "usage: failover.sh failover DIR"
    cmd_failover "$2"
    ;;
  kill)
    [ $# = 3 ] || die "usage: failover.sh kill DIR NODE"
    cmd_kill "$2" "$3"
    ;;
  state)
    [ $# = 2 ] || die "usage: failover.sh state DIR"
    autoctl "$2" show state --pgdata "$2/monitor"
    ;;
  *)
    echo "usage: $0 test -- CMD… | failover DIR | kill DIR NODE | state DIR" >&2
    exit 2
    ;;
esac
