#!/usr/bin/env bash
# The release recipe of the Python package: the `snakeladder` binary staged
# into the wheel (stage-cli.sh), then `maturin build` of the abi3 wheel for
# the same target and profile, into DIR (default target/wheels). maturin must
# be on the PATH (`pip install maturin`). The release workflow runs the same
# two steps through maturin-action, which builds Linux wheels inside the
# manylinux and musllinux containers.
#
#   build-wheel.sh [--profile P] [--target TRIPLE] [--out DIR] [--bin PATH] [-- MATURIN-ARGS...]
#
# P is release by default; --bin stages a binary built already instead of
# building one (it must be of the same target).
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
root="$(cd "$here/../.." && pwd)"
profile=release
target=""
out="$root/target/wheels"
stage=()
while [ $# -gt 0 ]; do
    case "$1" in
        --profile) profile="$2"; stage+=(--profile "$2"); shift 2 ;;
        --target) target="$2"; stage+=(--target "$2"); shift 2 ;;
        --bin) stage+=(--bin "$2"); shift 2 ;;
        --out) out="$2"; shift 2 ;;
        --) shift; break ;;
        *) echo "usage: build-wheel.sh [--profile P] [--target TRIPLE] [--out DIR] [--bin PATH] [-- MATURIN-ARGS...]" >&2; exit 2 ;;
    esac
done
# The staged binary is removed afterwards, so that a later build from the
# source alone does not pack a stale one.
trap 'bash "$here/stage-cli.sh" --clean' EXIT
bash "$here/stage-cli.sh" ${stage[@]+"${stage[@]}"}
args=(build --locked --manifest-path "$here/Cargo.toml" --profile "$profile" --out "$out")
[ -n "$target" ] && args+=(--target "$target")
maturin "${args[@]}" "$@"
