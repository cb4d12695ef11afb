#!/usr/bin/env bash
# Downloads the published SARIF 2.1.0 JSON schema to DEST (once; checked by its sha256), for the
# test that validates `check --format sarif`. Not kept in the repository: it is OASIS's file.
# Source: the npm registry's package @microsoft/jest-sarif 1.0.0-beta.0 (MIT), which carries
# schemastore.org's sarif-2.1.0.json unchanged. Usage: fetch-sarif-schema.sh DEST
set -euo pipefail
dest=$1
sha=2d99159ae54a3eea97f81781cff48780548657c35949f4b7f25e99a2ba4de4f8
url=https://registry.npmjs.org/@microsoft/jest-sarif/-/jest-sarif-1.0.0-beta.0.tgz
member=package/lib/schemas/sarif-2.1.0-rtm.5.json
if [ -f "$dest" ] && echo "$sha  $dest" | sha256sum --check --status; then
    exit 0
fi
mkdir -p "$(dirname "$dest")"
tmp=$(mktemp)
trap 'rm -f "$tmp"' EXIT
if ! curl -fsSL --retry 3 "$url" | tar -xzO "$member" >"$tmp"; then
    echo "fetch-sarif-schema: cannot download $url (the npm registry)" >&2
    exit 1
fi
if ! echo "$sha  $tmp" | sha256sum --check --status; then
    echo "fetch-sarif-schema: $url: $member does not have sha256 $sha" >&2
    exit 1
fi
mv "$tmp" "$dest"
