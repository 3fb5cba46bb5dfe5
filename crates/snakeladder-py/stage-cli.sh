#!/usr/bin/env bash
# Puts the `snakeladder` command into the Python package's wheel: the real
# binary of the CLI (the root package, snakeladder-cli), copied to
# `snakeladder._native.data/scripts/`, which maturin packs as the wheel's
# `.data/scripts/` and pip installs on the PATH beside `python` (as ruff's
# and maturin's own wheels ship their binaries). The command is the binary
# itself, not a Python wrapper around it, so Ctrl-C, a closed pipe, exit
# codes and standard output behave exactly as with `cargo install`.
#
#   stage-cli.sh [--profile P] [--target TRIPLE]   build the binary with cargo
#                                                   (P: release by default)
#   stage-cli.sh --bin PATH                        stage a binary built already
#                                                   (CI: the one `cargo test` built)
#   stage-cli.sh --clean                           remove the staged binary
#
# The release recipe (build-wheel.sh; .github/workflows/release.yml's
# maturin-action steps) stages, then runs `maturin build` for the same
# target. The directory is maturin's default data directory for the module
# `snakeladder._native`: maturin includes it only when it exists, so a wheel
# built from the source alone (the sdist, `pip install ./crates/snakeladder-py`)
# is the module without the command, instead of a failed build.
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
root="$(cd "$here/../.." && pwd)"
data="$here/snakeladder._native.data"
profile=release
target=""
bin=""
while [ $# -gt 0 ]; do
    case "$1" in
        --profile) profile="$2"; shift 2 ;;
        --target) target="$2"; shift 2 ;;
        --bin) bin="$2"; shift 2 ;;
        --clean) rm -rf "$data"; exit 0 ;;
        *) echo "usage: stage-cli.sh [--profile P] [--target TRIPLE] | --bin PATH | --clean" >&2; exit 2 ;;
    esac
done

exe=""
case "${target:-$(rustc -vV 2>/dev/null | sed -n 's/^host: //p')}" in
    *windows*) exe=".exe" ;;
esac
if [ -z "$bin" ]; then
    args=(build --locked --profile "$profile" -p snakeladder-cli --bin snakeladder)
    [ -n "$target" ] && args+=(--target "$target")
    (cd "$root" && cargo "${args[@]}")
    dir="${CARGO_TARGET_DIR:-$root/target}"
    # cargo's directory for a profile: `dev` builds into debug/.
    out="$profile"
    [ "$profile" = dev ] && out=debug
    bin="$dir/${target:+$target/}$out/snakeladder$exe"
fi
[ -f "$bin" ] || { echo "stage-cli.sh: no binary at $bin" >&2; exit 1; }
rm -rf "$data"
mkdir -p "$data/scripts"
cp "$bin" "$data/scripts/snakeladder$exe"
chmod 755 "$data/scripts/snakeladder$exe"
echo "stage-cli.sh: staged $bin as the wheel's snakeladder$exe command"
