#!/usr/bin/env bash
# Refreshes the API reference's files in server/apidocs/vendor/ from the npm
# registry, exactly as scripts/graphiql.sh does for the GraphQL IDE: `npm
# pack` fetches Redoc at the version pinned below, the tarball's sha512 is
# checked against the pinned integrity, and only the standalone bundle and
# the licence are copied out. The result, with manifest.json (version,
# integrity, sha256 of every file), is committed and embedded in the binary;
# nothing is fetched at run time and no page loads anything from a CDN.
#   scripts/apidocs.sh          (make apidocs; needs npm, node, openssl)
#
# To move to another version: change the version, run the script once to
# see the new integrity it reports (it refuses to continue), check that
# value with `npm view redoc@VERSION dist.integrity`, pin it, run again, and
# look at /docs/api in a browser (its CSP: the bundle's styled-components
# reads the nonce from <meta property="csp-nonce">; its search runs in a
# blob: worker).
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."

# name version integrity files (paths inside the package; the licence last)
packages=(
  "redoc 3.0.1 sha512-KDfoKaYW19LCl4YStgBnwlaNjYEFfs5zCNt1s1WZ2YM5u8d26Yuzd2l43fZO851ZsgIMe/D640fDJkD8eaRQKQ== bundles/redoc.standalone.js LICENSE"
)

# Redoc's sidebar shows Redocly's logo from cdn.redoc.ly. The page's CSP
# refuses it, but the browser still makes the request: the only reference to
# another host in the bundle. It becomes an empty data: image (allowed by the
# CSP, nothing shown); each URL must be found exactly once, so an upgrade
# that moves it fails here instead of loading from the CDN.
unlogo() {
  node - "$1/redoc/redoc.standalone.js" <<'JS'
const fs = require("fs");
const file = process.argv[2];
let js = fs.readFileSync(file, "utf8");
const empty = "data:image/svg+xml,%3Csvg xmlns=%22http://www.w3.org/2000/svg%22/%3E";
for (const url of ["https://cdn.redoc.ly/redoc/logo-mini-full.svg", "https://cdn.redoc.ly/redoc/logo-mini.svg"]) {
  const n = js.split(url).length - 1;
  if (n !== 1) {
    console.error(`apidocs: redoc.standalone.js names ${url} ${n} times, expected once`);
    process.exit(1);
  }
  js = js.replace(url, empty);
}
if (js.includes("https://cdn.redoc.ly/")) {
  console.error("apidocs: redoc.standalone.js still refers to https://cdn.redoc.ly/");
  process.exit(1);
}
fs.writeFileSync(file, js);
JS
  echo "apidocs: redoc.standalone.js: Redocly's logo URLs replaced by an empty data: image" >&2
}

# shellcheck source=scripts/lib/npm-vendor.sh
. scripts/lib/npm-vendor.sh
npm_vendor apidocs server/apidocs/vendor \
  "redoc.standalone.js is patched: Redocly's logo URLs (cdn.redoc.ly) are an empty data: image." \
  unlogo "${packages[@]}"
