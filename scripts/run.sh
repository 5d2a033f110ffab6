#!/usr/bin/env bash
# `make run`: development services, build, migrate, a development account, serve.
#
# Environment: DATABASE_URL / REDIS_URL (use these instead of the development
# services), LISTEN_ADDR (default :8080), BASE_URL (default http://localhost:8080,
# or http://localhost:PORT when only LISTEN_ADDR is set), GO (default go); every
# other variable is passed to the server as it is. ALLOW_PRIVATE_TARGETS
# defaults to true, so webhooks may target this machine.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."

GO="${GO:-go}"
EMAIL="dev@localhost"

# 1. PostgreSQL and Redis: the two lines DATABASE_URL=… and REDIS_URL=….
services=$(scripts/services.sh dev)
while IFS= read -r line; do
  case "$line" in
    DATABASE_URL=* | REDIS_URL=*) export "${line?}" ;;
  esac
done <<<"$services"

# 2. Build and migrate.
echo "run: building bin/commerce" >&2
"$GO" build -o bin/commerce ./cmd/commerce
bin/commerce migrate up >&2

# 3. The development account and its key, kept in .data/dev-api-key: a later
# start prints the same key while it works (a new one only when it was
# revoked, expired or the database is new).
mkdir -p .data
account=$(bin/commerce accounts create --email "$EMAIL" --reuse --key-file .data/dev-api-key)
key=$(sed -n 's/^api_key=//p' <<<"$account")
if [ -z "$key" ]; then
  echo "run: error: 'commerce accounts create' printed no api_key line" >&2
  exit 1
fi

# 4. Where the server will be.
if [ -z "${BASE_URL:-}" ] && [ -n "${LISTEN_ADDR:-}" ]; then
  export BASE_URL="http://localhost:${LISTEN_ADDR##*:}"
fi
base="${BASE_URL:-http://localhost:8080}"
base="${base%/}"
console="${CONSOLE_URL:-$base/console}"
console="${console%/}/"
export ALLOW_PRIVATE_TARGETS="${ALLOW_PRIVATE_TARGETS:-true}"

cat <<BANNER

  commerce (development)
    Console       $console
    API           $base/v1
    API reference $base/docs/api
    GraphQL       $base/graphql
    Sandbox mail  $base/sandbox/mail

    API key (development account $EMAIL): $key

    curl -H "Authorization: Bearer $key" $base/v1/api-keys

  Stop with Ctrl-C; PostgreSQL and Redis keep running (make services-stop).

BANNER

# 5. Serve.
exec bin/commerce serve
