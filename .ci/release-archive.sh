#!/usr/bin/env bash
# Packs one release binary as the GitHub release asset the Action downloads
# (action/install.sh): `snakeladder-VERSION-TARGET.tar.gz` (`.zip` for
# Windows) holding `snakeladder-VERSION-TARGET/` with the binary, the README
# and the licences, and beside it `ARCHIVE.sha256` in sha256sum's format. The
# release workflow joins every `.sha256` into the release's SHA256SUMS.
#
#   release-archive.sh TARGET BINARY OUTDIR
#
# VERSION is the workspace's (.ci/release-version.sh).
set -euo pipefail
[ $# = 3 ] || { echo "usage: release-archive.sh TARGET BINARY OUTDIR" >&2; exit 2; }
target=$1 binary=$2 out=$3
root="$(cd "$(dirname "$0")/.." && pwd)"
version="$(bash "$root/.ci/release-version.sh")"
name="snakeladder-$version-$target"
exe=""
case "$target" in *windows*) exe=".exe" ;; esac
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
mkdir -p "$work/$name" "$out"
cp "$binary" "$work/$name/snakeladder$exe"
chmod 755 "$work/$name/snakeladder$exe"
cp "$root/README.md" "$root/LICENSE-MIT" "$root/LICENSE-APACHE" "$work/$name/"
out="$(cd "$out" && pwd)"
if [ -n "$exe" ]; then
    archive="$name.zip"
    (cd "$work" && 7z a -tzip -bd "$out/$archive" "$name" >/dev/null 2>&1 || zip -qr "$out/$archive" "$name")
else
    archive="$name.tar.gz"
    tar -C "$work" -czf "$out/$archive" "$name"
fi
(cd "$out" && if command -v sha256sum >/dev/null 2>&1; then sha256sum "$archive"; else shasum -a 256 "$archive"; fi) \
    >"$out/$archive.sha256"
echo "release-archive.sh: $out/$archive"
