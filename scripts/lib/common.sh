# Helpers shared by the service scripts (services.sh, cluster.sh, failover.sh,
# pgbouncer.sh, bench.sh). Source it after defining log(), which prefixes messages with
# the script's name.

die() {
  log "error: $*"
  exit 1
}

is_root() { [ "$(id -u)" = 0 ]; }

# apt_install PACKAGE…: install with apt, refreshing the package lists when the
# first attempt fails (a fresh machine has none).
apt_install() {
  local sudo=()
  is_root || sudo=(sudo)
  export DEBIAN_FRONTEND=noninteractive
  log "installing $* with apt-get"
  if ! "${sudo[@]}" apt-get install -y -q "$@" >&2; then
    "${sudo[@]}" apt-get update -q >&2
    "${sudo[@]}" apt-get install -y -q "$@" >&2
  fi
}

# free_port: a random port in 20000-32767 (below the usual ephemeral range) on
# which nothing answers on 127.0.0.1 right now. A concurrent run may still take
# it first; the callers then try another.
free_port() {
  local port
  while true; do
    port=$((20000 + RANDOM % 12768))
    if ! (: >"/dev/tcp/127.0.0.1/$port") 2>/dev/null; then
      echo "$port"
      return 0
    fi
  done
}
