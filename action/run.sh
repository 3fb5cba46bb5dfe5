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
# a bad input (the action's or a command's: a missing policy file, a
# malformed gate), 3 when a board could not be checked. Paths are passed after `--` and as `./NAME` when they start
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

# An input's value inside a message: shell-quoted when it holds anything
# but plain characters (`$'a\n::error::x'`), so no newline or escape of it
# reaches the log, where a line starting with `::` is a workflow command.
quoted() {
    case "$1" in
        *[![:alnum:]_./~^@{}+-]* | '') printf '%q' "$1" ;;
        *) printf '%s' "$1" ;;
    esac
}

# A path as an argument that cannot be an option: `-x` becomes `./-x`.
safe() {
    case "$1" in
        -*) printf './%s' "$1" ;;
        *) printf '%s' "$1" ;;
    esac
}

# A path as a Markdown code span that holds any text: fenced by one more
# backquote than its longest run of them (CommonMark), padded by a space
# when it starts or ends with one; a newline or a carriage return is
# written `\n` or `\r`, as either would end the heading the span is in. A
# code span links nothing, so a name such as `@octocat #1` mentions no one.
code() {
    local text="${1//$'\n'/\\n}" fence='`' pad=''
    text="${text//$'\r'/\\r}"
    while [[ "$text" == *"$fence"* ]]; do fence="$fence\`"; done
    case "$text" in \`* | *\`) pad=' ' ;; esac
    printf '%s%s%s%s%s' "$fence" "$pad" "$text" "$pad" "$fence"
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
    *) fail "format must be github, sarif or text, not $(quoted "$format")" ;;
esac
case "$base" in
    -*) fail "base must be a revision, not $(quoted "$base")" ;;
esac

# The repository under review. A committed symbolic link can lead to any
# file of the runner; what the commands print of a file reaches the public
# log and annotations, so no file whose real path leaves the repository is
# read: validate refuses it (--confine, reported as unreadable), and a
# changed board that leads out is not diffed.
workspace="$(git rev-parse --show-toplevel 2>/dev/null || pwd)"
workspace="$(realpath -- "$workspace")"

# Whether a path's real path is inside the repository (a path that does
# not resolve is left to the command, which reports it).
inside() {
    local real
    real="$(realpath -e -- "$1" 2>/dev/null)" || return 0
    case "$real/" in
        "$workspace"/*) return 0 ;;
    esac
    return 1
}

validate=("$bin" validate --format "$format" --confine "$workspace")
if [ -n "$policy" ]; then
    validate+=(--policy "$(safe "$policy")")
fi

# The action's status: the highest exit status of the commands it ran (1 a
# finding or a tripped gate, 2 a bad input, 3 a board that could not be
# checked), so a bad input is not reported as an invalid board.
status=0
worse() {
    [ "$1" -gt "$status" ] && status=$1
    return 0
}
valid=true
if [ "$format" = sarif ]; then
    sarif="${RUNNER_TEMP:-.}/snakeladder.sarif"
    "${validate[@]}" -- "${paths[@]}" >"$sarif" || { worse $?; valid=false; }
    printf 'sarif=%s\n' "$sarif" >>"$outputs"
    printf 'snakeladder: the findings are in the SARIF log %s\n' "$sarif"
else
    log="$(mktemp)"
    trap 'rm -f "$log"' EXIT
    "${validate[@]}" -- "${paths[@]}" | tee "$log" || { worse $?; valid=false; }
    # The tally (the last line) heads the summary too; past exit 1 there is
    # none, and the summary says so.
    if [ "$status" -le 1 ]; then
        printf '**snakeladder validate:** %s\n\n' "$(tail -n 1 "$log")" >>"$summary"
    else
        printf '**snakeladder validate:** the boards could not be checked (exit %s); the error is in the log\n\n' \
            "$status" >>"$summary"
    fi
fi
printf 'valid=%s\n' "$valid" >>"$outputs"

changed=0
if [ -n "$base" ]; then
    git rev-parse --verify --quiet "$base^{commit}" >/dev/null ||
        fail "base $(quoted "$base") is not a commit of this repository (fetch-depth: 0 fetches it)"
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
                if ! inside "./$file"; then
                    printf '### Changed board: %s\n\nNot compared: it is a symbolic link to a file outside the repository, which the action does not read.\n\n' \
                        "$(code "$file")" >>"$summary"
                    printf 'snakeladder action: %s: not diffed: a symbolic link to a file outside the repository\n' \
                        "$(quoted "$file")" >&2
                    worse 1
                    changed=$((changed + 1))
                    continue
                fi
                # A board that no longer reads (or a diff that failed) still
                # gets its heading, so the summary does not hide it.
                diff_md="$(mktemp)"
                "$bin" diff --format markdown "${gates[@]}" -- "$base:./$file" "./$file" \
                    >"$diff_md" || worse $?
                if [ -s "$diff_md" ]; then
                    cat "$diff_md" >>"$summary"
                else
                    printf '### Changed board: %s\n\nIt could not be compared with the base; the error is in the log.\n\n' \
                        "$(code "$file")" >>"$summary"
                fi
                rm -f "$diff_md"
                changed=$((changed + 1))
                ;;
        esac
    done < <(git diff -z --relative --name-status --no-renames --diff-filter=ADM \
        "$base" -- "${paths[@]}")
fi
printf 'changed=%s\n' "$changed" >>"$outputs"
exit "$status"
