#!/usr/bin/env bash
# The release's version: the workspace's (`[workspace.package] version` in
# Cargo.toml), which every crate, the Python package (through maturin) and
# the pre-commit hook's pin (pyproject.toml) share.
#
#   release-version.sh               prints it
#   release-version.sh check TAG     fails unless TAG is vVERSION, CHANGELOG.md
#                                    has a section for VERSION, and the hook
#                                    pins snakeladder==VERSION
#   release-version.sh notes         prints CHANGELOG.md's section of VERSION
#                                    (the GitHub release's notes)
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
version="$(awk '/^\[/ { inside = ($0 == "[workspace.package]"); next }
    inside && /^version *= *"/ { sub(/^version *= *"/, ""); sub(/".*/, ""); print; exit }' \
    "$root/Cargo.toml")"
[ -n "$version" ] || { echo "release-version.sh: no [workspace.package] version in Cargo.toml" >&2; exit 1; }
notes() {
    awk -v v="$version" '/^## / { if (inside) exit; inside = (index($0, "## [" v "]") == 1) ; next }
        inside' "$root/CHANGELOG.md"
}
case "${1:-}" in
    "") echo "$version" ;;
    notes) notes ;;
    check)
        [ "${2:-}" = "v$version" ] || { echo "release-version.sh: tag ${2:-(none)} is not v$version, the workspace's version" >&2; exit 1; }
        [ -n "$(notes | tr -d '[:space:]')" ] || { echo "release-version.sh: CHANGELOG.md has no section ## [$version]" >&2; exit 1; }
        grep -q "\"snakeladder==$version\"" "$root/pyproject.toml" ||
            { echo "release-version.sh: pyproject.toml (the pre-commit hook) does not pin snakeladder==$version" >&2; exit 1; }
        echo "release-version.sh: v$version is ready"
        ;;
    *) echo "usage: release-version.sh [check TAG | notes]" >&2; exit 2 ;;
esac
