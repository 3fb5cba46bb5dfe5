#!/usr/bin/env bash
# Installs the snakeladder binary for the GitHub Action (action.yml).
#
#   install.sh key       writes key=CACHE-KEY to GITHUB_OUTPUT: the version
#                        asked for, or a hash of this action's own source,
#                        so a cached binary is reused only for the same code
#   install.sh install   cargo install --locked: VERSION from crates.io, or
#                        the source this action was checked out at
#
#   VERSION              a release such as 0.1.0 (empty: this source)
#   GITHUB_ACTION_PATH   this action's checkout (default: the parent of
#                        this script's directory)
#   CARGO                the cargo to run (default: cargo)
set -euo pipefail

root="${GITHUB_ACTION_PATH:-$(cd "$(dirname "$0")/.." && pwd)}"
version="${VERSION:-}"
cargo="${CARGO:-cargo}"

if [ -n "$version" ] && ! [[ "$version" =~ ^[0-9]+\.[0-9]+\.[0-9]+([-+][0-9A-Za-z.-]+)?$ ]]; then
    printf 'snakeladder action: version must be a release such as 0.1.0, not %q\n' "$version" >&2
    exit 2
fi

# The directory of the package that builds the `snakeladder` binary: the
# root, or a member of a workspace under crates/.
package_dir() {
    local dir
    for dir in "$root" "$root"/crates/*; do
        [ -f "$dir/Cargo.toml" ] || continue
        # A manifest that is a symbolic link out of the action's checkout
        # is not read: its text would reach the log.
        case "$(realpath -e -- "$dir/Cargo.toml")/" in
            "$(realpath -- "$root")"/*) ;;
            *)
                printf 'snakeladder action: %q is a symbolic link to a file outside %q; not read\n' \
                    "$dir/Cargo.toml" "$root" >&2
                continue
                ;;
        esac
        if awk '/^\[\[bin\]\]/ { bin = 1; next } /^\[/ { bin = 0 }
                bin && /^name *= *"snakeladder"/ { found = 1 } END { exit !found }' \
            "$dir/Cargo.toml"; then
            printf '%s' "$dir"
            return
        fi
    done
    printf 'snakeladder action: no package with the snakeladder binary under %s\n' "$root" >&2
    exit 2
}

# The name of that package, as crates.io knows it (`snakeladder` there is
# the library, which has no binary to install).
package_name() {
    local dir
    dir="$(package_dir)"
    awk '/^\[package\]/ { inside = 1; next } /^\[/ { inside = 0 }
         inside && /^name *= *"/ { sub(/^name *= *"/, ""); sub(/".*/, ""); print; exit }' \
        "$dir/Cargo.toml"
}

case "${1:-}" in
    key)
        if [ -n "$version" ]; then
            key="snakeladder-${RUNNER_OS:-Linux}-v$version"
        else
            # Every file that can go into the build, in a stable order: the
            # manifests and every file of the sources, not only the Rust
            # ones, since the binary embeds others (the built-in board's
            # JSON, the designer's page, the report's script and styles).
            sources=()
            for path in Cargo.toml Cargo.lock src crates; do
                [ -e "$root/$path" ] && sources+=("$path")
            done
            hash="$(cd "$root" && find "${sources[@]}" \
                \( -name target -o -name node_modules -o -name __pycache__ -o -name '.?*' \) -prune \
                -o -type f -print0 |
                LC_ALL=C sort -z | xargs -0 sha256sum | sha256sum | cut -c1-16)"
            key="snakeladder-${RUNNER_OS:-Linux}-src-$hash"
        fi
        if [ -n "${GITHUB_OUTPUT:-}" ]; then
            printf 'key=%s\n' "$key" >>"$GITHUB_OUTPUT"
        else
            printf 'key=%s\n' "$key"
        fi
        ;;
    install)
        if [ -n "$version" ]; then
            name="$(package_name)"
            "$cargo" install --locked --force "$name" --version "=$version"
        else
            "$cargo" install --locked --force --path "$(package_dir)"
        fi
        ;;
    *)
        printf 'usage: install.sh key|install\n' >&2
        exit 2
        ;;
esac
