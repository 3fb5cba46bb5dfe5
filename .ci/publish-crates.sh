#!/usr/bin/env bash
# Publishes the workspace's crates to crates.io in dependency order, each
# after the ones it depends on (cargo publish waits until a crate is in the
# index before it returns, so the next one resolves it). A crate whose
# version is already published is skipped, so a release whose publishing
# stopped halfway can be run again. The Python package (snakeladder-py,
# `publish = false`) goes to PyPI instead.
#
#   publish-crates.sh                          publish (CARGO_REGISTRY_TOKEN)
#   publish-crates.sh --dry-run [--no-verify]  pack every crate, in one
#       `cargo package` of all of them: a crate that depends on another of
#       the workspace's at a version crates.io does not have yet resolves it
#       from the others' archives (cargo's local overlay of the packages being
#       packed), which `cargo publish --dry-run -p CRATE` of one crate cannot.
#       Without --no-verify each archive is also compiled alone, as crates.io
#       users will compile it.
#
# tests/integration/packaging.rs checks that CRATES is every published
# member, each after its dependencies.
set -euo pipefail
cd "$(dirname "$0")/.."
CRATES=(absorbing snakeladder snakeladder-render snakeladder-serve snakeladder-cli)

if [ "${1:-}" = --dry-run ]; then
    shift
    args=()
    for crate in "${CRATES[@]}"; do args+=(-p "$crate"); done
    cargo package --locked "${args[@]}" "$@"
    exit 0
fi
[ $# = 0 ] || { echo "usage: publish-crates.sh [--dry-run [--no-verify]]" >&2; exit 2; }
for crate in "${CRATES[@]}"; do
    echo "publish-crates.sh: $crate"
    if ! out="$(cargo publish --locked -p "$crate" 2>&1)"; then
        if grep -Eq "already (exists|uploaded)" <<<"$out"; then
            echo "publish-crates.sh: $crate is published already"
            continue
        fi
        echo "$out" >&2
        exit 1
    fi
    echo "$out"
done
