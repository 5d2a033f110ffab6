#!/usr/bin/env bash
# Refreshes emailpolicy/disposable_domains.txt from the npm registry's
# disposable-email-domains package (index.json and wildcard.json).
#   scripts/refresh-disposable-domains.sh [VERSION]
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
pkg="disposable-email-domains${1:+@$1}"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
(cd "$work" && npm pack --silent "$pkg" >/dev/null && tar xzf disposable-email-domains-*.tgz)
version=$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["version"])' "$work/package/package.json")
python3 - "$work/package" "$version" >emailpolicy/disposable_domains.txt <<'PY'
import json, sys
d, version = sys.argv[1], sys.argv[2]
domains = set(json.load(open(d + "/index.json"))) | set(json.load(open(d + "/wildcard.json")))
domains = sorted(x.strip().lower() for x in domains if x.strip())
print(f"# disposable-email-domains {version} (npm): index.json and wildcard.json. Refresh: make refresh-disposable-domains")
print("\n".join(domains))
PY
echo "emailpolicy/disposable_domains.txt: $(($(wc -l <emailpolicy/disposable_domains.txt) - 1)) domains from disposable-email-domains $version"
