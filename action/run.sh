#!/usr/bin/env bash
# The layout review of the snakeladder GitHub Action (action.yml): validate
# every board with annotations (or a SARIF log), then write the diff of
# every board changed since the base revision into the job's summary.
# tests/integration/action_script.rs runs it in a simulated GitHub
# environment.
#
# Inputs, as environment variables (action.yml passes its inputs so):
#   INPUT_PATHS     board files or directories, one per line (default: boards)
#   INPUT_POLICY    a policy file for `validate --policy` (default: the
#                   nearest snakeladder.toml of each board)
#   INPUT_BASE      the revision to diff against (empty: no diff)
#   INPUT_FORMAT    github (annotations, the default), sarif or text
#   INPUT_FAIL_IF   `diff --fail-if` gates, one per line
#   SNAKELADDER     the command to run (default: snakeladder on the PATH)
#   GITHUB_STEP_SUMMARY, GITHUB_OUTPUT   files the runner provides
#   RUNNER_TEMP     where the SARIF log is written (default: the current
#                   directory)
#
# Outputs (appended to GITHUB_OUTPUT): valid=true|false, changed=N (boards
# diffed), sarif=PATH (with format sarif).
#
# Exit status: 1 when a board is invalid, breaks the policy, or a diff gate
# trips; every board is still checked and every diff written first. 2 for
# a bad input. Paths are passed after `--` and as `./NAME` when they start
# with `-`, so no file name is read as an option.
set -uo pipefail

bin="${SNAKELADDER:-snakeladder}"
summary="${GITHUB_STEP_SUMMARY:-/dev/null}"
outputs="${GITHUB_OUTPUT:-/dev/null}"
format="${INPUT_FORMAT:-github}"
policy="${INPUT_POLICY:-}"
base="${INPUT_BASE:-}"

fail() {
    printf 'snakeladder action: %s\n' "$1" >&2
    exit 2
}

# A path as an argument that cannot be an option: `-x` becomes `./-x`.
safe() {
    case "$1" in
        -*) printf './%s' "$1" ;;
        *) printf '%s' "$1" ;;
    esac
}

# A `|` in a Markdown table cell, and the backquotes of a code span, would
# break the summary's layout: write a path as a code span that holds any
# text.
code() {
    local text="${1//\`/\'}"
    text="${text//$'\n'/\\n}"
    printf '`%s`' "$text"
}

paths=()
while IFS= read -r line || [ -n "$line" ]; do
    # Blank lines and surrounding spaces of YAML block scalars are not
    # part of a path; a path with inner spaces is kept whole.
    line="${line#"${line%%[![:space:]]*}"}"
    line="${line%"${line##*[![:space:]]}"}"
    [ -n "$line" ] && paths+=("$(safe "$line")")
done <<<"${INPUT_PATHS:-boards}"
[ "${#paths[@]}" -gt 0 ] || fail "the input paths names no path"

case "$format" in
    github | sarif | text) ;;
    *) fail "format must be github, sarif or text, not '$format'" ;;
esac
case "$base" in
    -*) fail "base must be a revision, not '$base'" ;;
esac

validate=("$bin" validate --format "$format")
if [ -n "$policy" ]; then
    validate+=(--policy "$(safe "$policy")")
fi

status=0
valid=true
if [ "$format" = sarif ]; then
    sarif="${RUNNER_TEMP:-.}/snakeladder.sarif"
    "${validate[@]}" -- "${paths[@]}" >"$sarif" || { status=1; valid=false; }
    printf 'sarif=%s\n' "$sarif" >>"$outputs"
    printf 'snakeladder: the findings are in the SARIF log %s\n' "$sarif"
else
    log="$(mktemp)"
    trap 'rm -f "$log"' EXIT
    "${validate[@]}" -- "${paths[@]}" | tee "$log" || { status=1; valid=false; }
    # The tally (the last line) heads the summary too.
    printf '**snakeladder validate:** %s\n\n' "$(tail -n 1 "$log")" >>"$summary"
fi
printf 'valid=%s\n' "$valid" >>"$outputs"

changed=0
if [ -n "$base" ]; then
    git rev-parse --verify --quiet "$base^{commit}" >/dev/null ||
        fail "base '$base' is not a commit of this repository (fetch-depth: 0 fetches it)"
    printf '## Board changes since %s\n\n' "$(code "$base")" >>"$summary"
    gates=()
    while IFS= read -r gate || [ -n "$gate" ]; do
        [ -n "${gate//[[:space:]]/}" ] && gates+=(--fail-if "$gate")
    done <<<"${INPUT_FAIL_IF:-}"
    # NUL-separated status and path pairs, so any file name survives;
    # paths relative to the current directory (--relative), read from the
    # base as REV:./path.
    while IFS= read -r -d '' state && IFS= read -r -d '' file; do
        case "$file" in
            *.json) ;;
            *) continue ;;
        esac
        case "$state" in
            A) printf '### New board: %s\n\n' "$(code "$file")" >>"$summary" ;;
            D) printf '### Removed board: %s\n\n' "$(code "$file")" >>"$summary" ;;
            *)
                "$bin" diff --format markdown "${gates[@]}" -- "$base:./$file" "./$file" \
                    >>"$summary" || status=1
                changed=$((changed + 1))
                ;;
        esac
    done < <(git diff -z --relative --name-status --no-renames --diff-filter=ADM \
        "$base" -- "${paths[@]}")
fi
printf 'changed=%s\n' "$changed" >>"$outputs"
exit "$status"
