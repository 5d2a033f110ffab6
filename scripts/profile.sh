#!/usr/bin/env bash
# `make profile SCENARIO=name`: where one bench scenario's time goes.
#
#   scripts/profile.sh SCENARIO [SECONDS]      e.g. scripts/profile.sh purchase 20
#
# It runs the scenario of `make bench` alone for SECONDS (default 20) against
# a PostgreSQL that loads pg_stat_statements, and while it runs (after
# PROFILE_WAIT seconds of it, default 6, past its setup) it records, for 8 s:
#   - cpu.txt         the CPU each process used (cores): the service, PostgreSQL,
#                     Redis and the load generator share the machine's cores;
#   - service.pprof   the service's CPU profile (go tool pprof -top bin/commerce …);
#   - statements.txt  PostgreSQL's statements by total time (calls, ms, ms per call);
#   - perf.data       with PROFILE_PERF=1, `perf record -a -g` of every process.
# Everything goes to PROFILE_DIR (default .data/profile/SCENARIO). The
# scenario's own report line is printed as `make bench` prints it.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."

[ $# -ge 1 ] || { echo "usage: scripts/profile.sh SCENARIO [SECONDS]" >&2; exit 2; }
scenario=$1
seconds=${2:-20}
out=${PROFILE_DIR:-.data/profile/$scenario}
mkdir -p "$out"
out=$(cd "$out" && pwd)

if [ "${3:-}" = "--sample" ]; then
  # Inside the services (DATABASE_URL set), beside the running bench.
  pprof_addr=$4
  psql=(/usr/lib/postgresql/15/bin/psql "$DATABASE_URL" -X -q -v ON_ERROR_STOP=1)
  # The service starts after the scenario's build and migrations; give up
  # when the bench beside us (our parent's other child) is gone.
  until curl -s -o /dev/null "http://$pprof_addr/debug/pprof/"; do
    kill -0 "$PPID" 2>/dev/null || exit 1
    sleep 0.2
  done
  "${psql[@]}" -c "CREATE EXTENSION IF NOT EXISTS pg_stat_statements" >/dev/null
  sleep "${PROFILE_WAIT:-6}"
  "${psql[@]}" -c "SELECT pg_stat_statements_reset()" >/dev/null
  curl -s -o "$out/service.pprof" "http://$pprof_addr/debug/pprof/profile?seconds=8" &
  if [ -n "${PROFILE_PERF:-}" ]; then
    perf record -a -g -o "$out/perf.data" -- sleep 8 >/dev/null 2>&1 &
  fi
  # CPU ticks per command name over 8 s, from /proc/*/stat (utime + stime).
  ticks() {
    for f in /proc/[0-9]*/stat; do cat "$f" 2>/dev/null || true; echo; done |
      sed -n 's/^\([0-9]*\) (\([^)]*\)) [A-Za-z] \(.*\)$/\1 \2 \3/p' | tr -s ' ' | awk '{ print $1, $2, $13 + $14 }'
  }
  ticks >"$out/.ticks.a"
  sleep 8
  ticks >"$out/.ticks.b"
  hz=$(getconf CLK_TCK)
  awk -v hz="$hz" 'NR == FNR { a[$1] = $3; next }
    { d = $3 - ($1 in a ? a[$1] : 0); if (d > 0) c[$2] += d }
    END { for (k in c) if (c[k] / hz / 8 >= 0.005) printf "%-20s %5.2f cores\n", k, c[k] / hz / 8 }' \
    "$out/.ticks.a" "$out/.ticks.b" | sort -k2 -nr >"$out/cpu.txt"
  rm -f "$out/.ticks.a" "$out/.ticks.b"
  wait
  "${psql[@]}" -c "SELECT calls, round(total_exec_time::numeric, 1) AS ms,
      round((total_exec_time / calls)::numeric, 3) AS ms_per_call, rows,
      left(regexp_replace(query, '\s+', ' ', 'g'), 160) AS statement
    FROM pg_stat_statements ORDER BY total_exec_time DESC LIMIT 40" >"$out/statements.txt"
  exit 0
fi

go build -o bin/commerce ./cmd/commerce
go build -o bin/bench ./cmd/bench
pprof_addr="127.0.0.1:$((20000 + RANDOM % 12768))"
# The sampler runs inside the same throwaway services as the bench.
TEST_PG_PRELOAD=pg_stat_statements PPROF_ADDR=$pprof_addr BENCH_DURATION=$seconds \
  scripts/services.sh test -- bash -c '
    "$1" "$2" "$3" --sample "$4" & sampler=$!
    status=0
    "$5"/scripts/bench.sh --inside-services -only "$2" || status=$?
    wait "$sampler" || true
    exit "$status"' _ "$PWD/scripts/profile.sh" "$scenario" "$seconds" "$pprof_addr" "$PWD" |
  grep -E "^(scenario|$scenario) " || true
echo
echo "CPU by process ($out/cpu.txt):"
cat "$out/cpu.txt"
echo
echo "statements by total time: $out/statements.txt"
head -n 12 "$out/statements.txt" | cut -c1-200
echo
echo "service profile: go tool pprof -top bin/commerce $out/service.pprof"
