#!/usr/bin/env bash
# Refreshes the GraphQL IDE's files in server/graphiql/vendor/ from the npm
# registry: `npm pack` fetches each package at the version pinned below, the
# tarball's sha512 is checked against the pinned integrity, and only the
# files the page loads (plus each package's licence) are copied out. The
# result, with manifest.json (versions, integrity, sha256 of every file), is
# committed and embedded in the binary; nothing is fetched at run time.
#   scripts/graphiql.sh          (make graphiql; needs npm, node, openssl)
#
# To move to another version: change the version, run the script once to
# see the new integrity it reports (it refuses to continue), check that
# value with `npm view NAME@VERSION dist.integrity`, pin it, run again, and
# look at /graphql in a browser. graphiql 4.x is the last line with a UMD
# build that runs without a bundler; it needs React 18's UMD builds (React 19
# ships none).
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."

# name version integrity files (paths inside the package; the licence last)
packages=(
  "graphiql 4.1.2 sha512-rNlzQIAzm6i2KBXmVQWBgLvt0TloxFVB2d18bukvdsvjEuFDHsKx5IVOomL1W1o5WW+tE54+ioHb2AEKzO2cUg== graphiql.min.js graphiql.min.css LICENSE"
  "react 18.3.1 sha512-wS+hAgJShR0KhEvPJArfuPVN1+Hz1t0Y6n5jLrGQbkb4urgPE/0Rve+1kMB1v/oWgHgm4WIcV+i7F2pTVj+2iQ== umd/react.production.min.js LICENSE"
  "react-dom 18.3.1 sha512-5m4nQKp+rZRb09LNH59GM4BxTh9251/ylbKIbpe7TpGxfJ+9kv6BLkLBXIjjspbgbnIBNqlI23tRnTWT0snUIw== umd/react-dom.production.min.js LICENSE"
  "graphql-ws 6.4.2 sha512-wxhPhhOGJo8PbGDkBYVE76sZLDrS+GkyrR4bZECSLVbo0pZZNKs0HtBh2Ip/uaUuiVUxwO9ssI9R92buQfNSqQ== umd/graphql-ws.min.js LICENSE.md"
)

# shellcheck source=scripts/lib/npm-vendor.sh
. scripts/lib/npm-vendor.sh
npm_vendor graphiql server/graphiql/vendor "" "" "${packages[@]}"
