#!/usr/bin/env bash
# Runs the hook of .pre-commit-hooks.yaml through pre-commit itself (from
# PyPI, in a throwaway virtual environment), with the snakeladder binary
# that `cargo test` built on the PATH: a valid board passes, an invalid one
# fails and is named. tests/integration/action_script.rs runs the hook's
# entry the same way without pre-commit. Called by .ci/run.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT

python3 -m venv "$work/venv"
"$work/venv/bin/pip" install --quiet pre-commit
export PATH="$root/target/debug:$PATH" PRE_COMMIT_HOME="$work/cache"

repo="$work/repo"
mkdir -p "$repo/boards"
cp "$root/boards/milton-bradley.json" "$repo/boards/good.json"
printf '{\n  "squares": 20,\n  "snakes": [[4, 9]]\n}\n' >"$repo/boards/-bad.json"
git -C "$repo" init -q
git -C "$repo" add .

cd "$repo"
try() {
    "$work/venv/bin/pre-commit" try-repo "$root" snakeladder-validate-system --files "$@"
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
