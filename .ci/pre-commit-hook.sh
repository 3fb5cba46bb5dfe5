#!/usr/bin/env bash
# Runs the hook of .pre-commit-hooks.yaml as a user's repository runs it:
# pre-commit itself (from PyPI, in a throwaway virtual environment) with a
# .pre-commit-config.yaml naming a clone of this repository pinned by
# `rev: vVERSION`, so pre-commit installs the hook (`language: python`:
# `pip install .` of the clone, whose pyproject.toml requires the
# snakeladder wheel) with no index and no Rust toolchain on the PATH: the
# wheel from SL_WHEELS (the one CI built), numpy and setuptools from
# SL_PYDEPS. A good board passes, a bad one fails with every problem at
# file:line:col, and a package.json is not checked.
# tests/integration/action_script.rs runs the hooks' entries without
# pre-commit. Called by .ci/run.
#
#   pre-commit-hook.sh --prepare DIR   only makes the virtual environment
#                                      at DIR (network-bound, so .ci/run does
#                                      it while cargo compiles)
#   SL_PRECOMMIT_VENV=DIR SL_WHEELS=DIR SL_PYDEPS=DIR pre-commit-hook.sh
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
if [ "${1:-}" = --prepare ]; then
    [ -n "${2:-}" ] || { echo "usage: pre-commit-hook.sh --prepare DIR" >&2; exit 2; }
    python3 -m venv "$2"
    "$2/bin/pip" install --quiet --disable-pip-version-check pre-commit
    exit 0
fi
: "${SL_WHEELS:?the directory of the snakeladder wheel}" "${SL_PYDEPS:?the directory of numpy and setuptools wheels}"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT

venv="${SL_PRECOMMIT_VENV:-$work/venv}"
if [ -z "${SL_PRECOMMIT_VENV:-}" ]; then
    python3 -m venv "$venv"
    "$venv/bin/pip" install --quiet --disable-pip-version-check pre-commit
fi
version="$(bash "$root/.ci/release-version.sh")"

# The hook's repository: a clone of this one, with the working tree's hook
# definition and installer (CI's tree is clean; a developer's may not be),
# tagged as the release.
hooks="$work/snakeladder"
git clone -q "$root" "$hooks"
cp "$root/.pre-commit-hooks.yaml" "$root/pyproject.toml" "$hooks/"
git -C "$hooks" add -A
git -C "$hooks" -c user.name=ci -c user.email=ci@localhost -c commit.gpgsign=false \
    commit -qm "the working tree's hook" --allow-empty
git -C "$hooks" tag -f "v$version" >/dev/null

repo="$work/repo"
mkdir -p "$repo/boards"
cp "$root/boards/milton-bradley.json" "$repo/boards/good.json"
# Two problems: a snake that climbs and a ladder that descends.
printf '{\n  "squares": 20,\n  "snakes": [[4, 9]],\n  "ladders": [[12, 3]]\n}\n' \
    >"$repo/boards/-bad.json"
printf '{\n  "name": "not-a-board",\n  "version": "1.0.0"\n}\n' >"$repo/package.json"
cat >"$repo/.pre-commit-config.yaml" <<YAML
repos:
  - repo: $hooks
    rev: v$version
    hooks:
      - id: snakeladder-validate
YAML
git -C "$repo" init -q
git -C "$repo" add .

# No toolchain: the system's directories less any with cargo or rustc.
clean=""
for dir in /usr/local/sbin /usr/local/bin /usr/sbin /usr/bin /sbin /bin; do
    [ -d "$dir" ] || continue
    [ -e "$dir/cargo" ] || [ -e "$dir/rustc" ] && continue
    clean="${clean:+$clean:}$dir"
done
cd "$repo"
run() {
    env -u CARGO -u RUSTC -u VIRTUAL_ENV PATH="$venv/bin:$clean" PRE_COMMIT_HOME="$work/cache" \
        PIP_NO_INDEX=1 PIP_FIND_LINKS="$SL_WHEELS $SL_PYDEPS" PIP_DISABLE_PIP_VERSION_CHECK=1 \
        "$venv/bin/pre-commit" run snakeladder-validate --files "$@"
}
started=$SECONDS
run boards/good.json package.json >"$work/good.log" 2>&1 || {
    cat "$work/good.log"
    echo "ci: the pre-commit hook failed a valid board (or checked package.json)" >&2
    exit 1
}
echo "ci: the hook installed from the wheel and passed a good board in $((SECONDS - started)) s"
if run package.json >"$work/other.log" 2>&1; then :; else
    cat "$work/other.log"
    echo "ci: the pre-commit hook checked package.json" >&2
    exit 1
fi
grep -q "no files to check" "$work/other.log" || {
    cat "$work/other.log"
    echo "ci: the pre-commit hook did not skip package.json" >&2
    exit 1
}
if run boards/good.json boards/-bad.json package.json >"$work/bad.log" 2>&1; then
    cat "$work/bad.log"
    echo "ci: the pre-commit hook passed an invalid board" >&2
    exit 1
fi
for problem in 'boards/-bad.json:3:14: snake_climbs' 'boards/-bad.json:4:15: ladder_descends'; do
    grep -qF "$problem" "$work/bad.log" || {
        cat "$work/bad.log"
        echo "ci: the pre-commit hook did not name $problem" >&2
        exit 1
    }
done
if grep -q "package.json" "$work/bad.log"; then
    cat "$work/bad.log"
    echo "ci: the pre-commit hook checked package.json" >&2
    exit 1
fi
echo "ci: the pre-commit hook (rev: v$version, from the wheel, no Rust toolchain) passes a good board, fails a bad one at each problem's file:line:col, and skips package.json"
