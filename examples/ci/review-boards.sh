#!/usr/bin/env bash
# Layout review of a pull request, as examples/ci/github-workflow.yml runs it:
# validate every board (annotations on the pull request, the layout policy
# of snakeladder.toml applied), then write the diff of every changed board
# into the step summary.
#
#   BASE                  the commit to compare with (e.g. the base branch)
#   GITHUB_STEP_SUMMARY   the file the summary is appended to
#   BOARDS                the directory of boards (default: boards)
#
# Exit status: 1 when a board is invalid, breaks the policy, or a diff gate
# trips; every board is still checked and every diff written first.
set -uo pipefail

boards="${BOARDS:-boards}"
base="${BASE:?set BASE to the commit to compare with}"
summary="${GITHUB_STEP_SUMMARY:?set GITHUB_STEP_SUMMARY}"
status=0

# A file name as a Markdown code span that holds any text: fenced by one
# more backquote than its longest run of them, a newline written `\n`.
code() {
    local text="${1//$'\n'/\\n}" fence='`' pad=''
    while [[ "$text" == *"$fence"* ]]; do fence="$fence\`"; done
    case "$text" in \`* | *\`) pad=' ' ;; esac
    printf '%s%s%s%s%s' "$fence" "$pad" "$text" "$pad" "$fence"
}

snakeladder validate --format github -- "$boards" || status=1

while IFS= read -r -d '' file; do
    if git cat-file -e "$base:$file" 2>/dev/null; then
        # After `--`: no file name is read as an option.
        snakeladder diff --format markdown --fail-if 'abs(mean_change) > 25%' \
            -- "$base:$file" "$file" >>"$summary" || status=1
    else
        printf '### New board: %s\n\n' "$(code "$file")" >>"$summary"
    fi
done < <(git diff -z --name-only --diff-filter=AM "$base" -- "$boards/*.json")

exit "$status"
