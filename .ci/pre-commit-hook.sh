#!/usr/bin/env bash
# Runs the hook of .pre-commit-hooks.yaml through pre-commit itself (from
# PyPI, in a throwaway virtual environment), with the snakeladder binary
# that `cargo test` built on the PATH: a valid board passes, an invalid one
# fails and is named. tests/integration/action_script.rs runs the hook's
# entry the same way without pre-commit. Called by .ci/run.
#
# `pre-commit-hook.sh --prepare DIR` only makes the virtual environment at
# DIR (network-bound, so .ci/run does it while cargo compiles);
# SL_PRECOMMIT_VENV=DIR then uses it.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
if [ "${1:-}" = --prepare ]; then
    [ -n "${2:-}" ] || { echo "usage: pre-commit-hook.sh --prepare DIR" >&2; exit 2; }
    python3 -m venv "$2"
    "$2/bin/pip" install --quiet --disable-pip-version-check pre-commit
    exit 0
fi
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT

venv="${SL_PRECOMMIT_VENV:-$work/venv}"
if [ -z "${SL_PRECOMMIT_VENV:-}" ]; then
    python3 -m venv "$venv"
    "$venv/bin/pip" install --quiet --disable-pip-version-check pre-commit
fi
export PATH="$root/target/debug:$PATH" PRE_COMMIT_HOME="$work/cache"

repo="$work/repo"
mkdir -p "$repo/boards"
cp "$root/boards/milton-bradley.json" "$repo/boards/good.json"
printf '{\n  "squares": 20,\n  "snakes": [[4, 9]]\n}\n' >"$repo/boards/-bad.json"
git -C "$repo" init -q
git -C "$repo" add .

cd "$repo"
try() {
    "$venv/bin/pre-commit" try-repo "$root" snakeladder-validate-system --files "$@"
}
try boards/good.json >"$work/good.log" 2>&1 || {
    cat "$work/good.log"
    echo "ci: the pre-commit hook failed a valid board" >&2
    exit 1
}
if try boards/good.json boards/-bad.json >"$work/bad.log" 2>&1; then
    cat "$work/bad.log"
    echo "ci: the pre-commit hook passed an invalid board" >&2
    exit 1
fi
grep -q 'boards/-bad.json:3:14: snake_climbs' "$work/bad.log" || {
    cat "$work/bad.log"
    echo "ci: the pre-commit hook did not name the problem" >&2
    exit 1
}
echo "ci: the pre-commit hook passes a valid board and fails an invalid one"
