#!/usr/bin/env bash
# PgBouncer (Debian's 1.18) in transaction pooling mode in front of a PostgreSQL,
# for `make bench` and anything else that wants the service behind a pooler.
#
#   scripts/pgbouncer.sh start DIR DATABASE_URL [POOL_SIZE]
#       writes DIR/pgbouncer.ini (every database of DATABASE_URL's server, trust
#       authentication for its user, pool_mode = transaction, POOL_SIZE server
#       connections per database, default 20), starts PgBouncer in the background
#       on a free loopback port and prints on stdout DATABASE_URL with its host
#       and port replaced by PgBouncer's
#   scripts/pgbouncer.sh stop DIR
#       stops the PgBouncer started in DIR
#
# PgBouncer refuses to run as root: as root it runs as the postgres user (DIR is
# made readable to it). It is installed with apt when missing.
set -euo pipefail
export PATH="$PATH:/usr/sbin:/sbin"

log() { echo "pgbouncer: $*" >&2; }
# shellcheck source=lib/common.sh
source "$(dirname "${BASH_SOURCE[0]}")/lib/common.sh"

as_bouncer() {
  if is_root; then
    (cd / && runuser -u postgres -- "$@")
  else
    (cd / && "$@")
  fi
}

cmd_start() {
  local dir=$1 url=$2 size=${3:-20}
  if ! command -v pgbouncer >/dev/null; then
    apt_install pgbouncer
  fi
  # postgres://user@host:port/db?params
  local rest=${url#*://} userinfo hostport path
  if [[ $rest == *@* ]]; then
    userinfo=${rest%%@*}
    rest=${rest#*@}
  else
    userinfo=postgres
  fi
  hostport=${rest%%/*}
  path=${rest#"$hostport"}
  local user=${userinfo%%:*} host=${hostport%:*} port=${hostport##*:}
  [ "$host" != "$hostport" ] || port=5432
  mkdir -p "$dir"
  chmod 777 "$dir"
  local listen
  listen=$(free_port)
  cat >"$dir/pgbouncer.ini" <<INI
[databases]
* = host=$host port=$port

[pgbouncer]
listen_addr = 127.0.0.1
listen_port = $listen
unix_socket_dir =
auth_type = trust
auth_file = $dir/userlist.txt
pool_mode = transaction
default_pool_size = $size
max_client_conn = 5000
ignore_startup_parameters = extra_float_digits
; the console's SHOW commands (scripts/cluster.sh's tests read SHOW STATS)
admin_users = $user
logfile = $dir/pgbouncer.log
pidfile = $dir/pgbouncer.pid
INI
  printf '"%s" ""\n' "$user" >"$dir/userlist.txt"
  chmod 644 "$dir/pgbouncer.ini" "$dir/userlist.txt"
  as_bouncer pgbouncer -d "$dir/pgbouncer.ini" >&2
  local deadline=$((SECONDS + 10))
  until (: >"/dev/tcp/127.0.0.1/$listen") 2>/dev/null; do
    [ "$SECONDS" -lt "$deadline" ] || {
      tail -n 5 "$dir/pgbouncer.log" >&2 || true
      die "PgBouncer did not answer on 127.0.0.1:$listen"
    }
    sleep 0.05
  done
  log "transaction pooling on 127.0.0.1:$listen (pool size $size) in front of $host:$port"
  echo "postgres://$userinfo@127.0.0.1:$listen$path"
}

cmd_stop() {
  local dir=$1
  if [ -s "$dir/pgbouncer.pid" ]; then
    kill -TERM "$(cat "$dir/pgbouncer.pid")" 2>/dev/null || true
  fi
}

case "${1:-}" in
  start)
    [ $# -ge 3 ] || die "usage: $0 start DIR DATABASE_URL [POOL_SIZE]"
    cmd_start "$2" "$3" "${4:-20}"
    ;;
  stop)
    [ $# -ge 2 ] || die "usage: $0 stop DIR"
    cmd_stop "$2"
    ;;
  *)
    echo "usage: $0 start DIR DATABASE_URL [POOL_SIZE] | stop DIR" >&2
    exit 2
    ;;
esac
