#!/usr/bin/env bash
# Installs the snakeladder binary for the GitHub Action (action.yml).
#
#   install.sh key       writes key=CACHE-KEY to GITHUB_OUTPUT: the release
#                        to install, or a hash of this action's own source,
#                        so a cached binary is reused only for the same code
#   install.sh install   the release binary for this runner, downloaded from
#                        the action's GitHub releases and checked against the
#                        release's SHA256SUMS; when no release matches, built
#                        with cargo install --locked (VERSION from crates.io,
#                        or the source this action was checked out at)
#   install.sh path      puts the install directory on the PATH of the steps
#                        that follow (GITHUB_PATH)
#
# Which release: VERSION when given; else the action's own version (the
# workspace's `version` in its Cargo.toml) when the action was used by the
# tag of that version (`uses: OWNER/REPO@v0.2.0`, or a shorter tag of it,
# `@v0.2`/`@v0`), since then its source is the release's. Used by a branch, a
# commit or as a vendored copy (`uses: ./path`), the action builds its own
# source: no release is known to be that code.
#
#   VERSION                a release such as 0.1.0 (empty: see above)
#   ACTION_REF             the ref the action was used at (github.action_ref)
#   ACTION_REPOSITORY      OWNER/REPO of the action (github.action_repository),
#                          whose releases hold the binaries
#   SNAKELADDER_RELEASES   where the releases are, instead of
#                          https://github.com/ACTION_REPOSITORY/releases/download
#                          (a mirror; any URL curl reads, file:// too), holding
#                          vVERSION/SHA256SUMS and vVERSION/ARCHIVE
#   SNAKELADDER_HOME       the install root (default ~/.snakeladder; the
#                          binary goes to its bin/)
#   GITHUB_ACTION_PATH     this action's checkout (default: the parent of
#                          this script's directory)
#   RUNNER_OS, RUNNER_ARCH the runner (default: read with uname)
#   CARGO                  the cargo to run (default: cargo)
set -euo pipefail

root="${GITHUB_ACTION_PATH:-$(cd "$(dirname "$0")/.." && pwd)}"
version="${VERSION:-}"
cargo="${CARGO:-cargo}"
home="${SNAKELADDER_HOME:-$HOME/.snakeladder}"
release_re='^[0-9]+\.[0-9]+\.[0-9]+([-+][0-9A-Za-z.-]+)?$'

fail() {
    printf 'snakeladder action: %s\n' "$1" >&2
    exit "${2:-1}"
}

if [ -n "$version" ] && ! [[ "$version" =~ $release_re ]]; then
    fail "$(printf 'version must be a release such as 0.1.0, not %q' "$version")" 2
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
    fail "no package with the snakeladder binary under $root" 2
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

# The version of this action's source: the workspace's.
own_version() {
    [ -f "$root/Cargo.toml" ] || return 0
    awk '/^\[/ { inside = ($0 == "[workspace.package]") ; next }
         inside && /^version *= *"/ { sub(/^version *= *"/, ""); sub(/".*/, ""); print; exit }' \
        "$root/Cargo.toml"
}

# The release to install: VERSION, or the action's own when its ref is a tag
# of that version. Empty when none.
release() {
    if [ -n "$version" ]; then
        printf '%s' "$version"
        return
    fi
    local ref="${ACTION_REF:-}" own
    own="$(own_version)"
    [ -n "$ref" ] && [[ "$own" =~ $release_re ]] || return 0
    if [ "$ref" = "v$own" ] || [[ "v$own" == "$ref".* && "$ref" =~ ^v[0-9]+(\.[0-9]+)?$ ]]; then
        printf '%s' "$own"
    fi
}

# The release's name of this runner's platform (a Rust target), or empty
# when the releases have no binary for it. Linux gets the static musl
# binary, which runs on any distribution.
platform() {
    local os="${RUNNER_OS:-}" arch="${RUNNER_ARCH:-}"
    if [ -z "$os" ]; then
        case "$(uname -s)" in
            Linux) os=Linux ;;
            Darwin) os=macOS ;;
            MINGW* | MSYS* | CYGWIN*) os=Windows ;;
        esac
    fi
    if [ -z "$arch" ]; then
        case "$(uname -m)" in
            x86_64 | amd64) arch=X64 ;;
            aarch64 | arm64) arch=ARM64 ;;
        esac
    fi
    case "$os/$arch" in
        Linux/X64) printf x86_64-unknown-linux-musl ;;
        Linux/ARM64) printf aarch64-unknown-linux-musl ;;
        macOS/X64) printf x86_64-apple-darwin ;;
        macOS/ARM64) printf aarch64-apple-darwin ;;
        Windows/X64) printf x86_64-pc-windows-msvc ;;
    esac
}

exe=""
case "$(platform)" in *windows*) exe=".exe" ;; esac

sha256() {
    if command -v sha256sum >/dev/null 2>&1; then
        sha256sum "$1" | cut -d' ' -f1
    else
        shasum -a 256 "$1" | cut -d' ' -f1
    fi
}

# Fetches URL to FILE. Exit status 0: fetched; 3: not there (HTTP 404, or
# no such file); anything else: the fetch failed.
fetch() {
    local url=$1 file=$2 code status=0
    code="$(curl --proto '=https,file' --tlsv1.2 -sSL --retry 3 -o "$file" -w '%{http_code}' "$url")" || status=$?
    case "$status/$code" in
        0/2?? | 0/000) return 0 ;;
        */404 | 37/*) return 3 ;;
        0/*) printf 'snakeladder action: %s answered HTTP %s\n' "$url" "$code" >&2; return 1 ;;
        *) return "$status" ;;
    esac
}

# Downloads and installs release $1 for platform $2. Exit status 3 when the
# release or its binary for this platform does not exist.
download() {
    local release=$1 target=$2 base archive dir expected actual status=0
    base="${SNAKELADDER_RELEASES:-https://github.com/${ACTION_REPOSITORY:-}/releases/download}"
    base="${base%/}/v$release"
    archive="snakeladder-$release-$target.tar.gz"
    [ -n "$exe" ] && archive="snakeladder-$release-$target.zip"
    dir="$(mktemp -d)"
    # shellcheck disable=SC2064 # the directory is known now
    trap "rm -rf '$dir'" RETURN
    fetch "$base/SHA256SUMS" "$dir/SHA256SUMS" || return $?
    expected="$(awk -v name="$archive" '$2 == name || $2 == "*" name { print $1; exit }' "$dir/SHA256SUMS")"
    [ -n "$expected" ] || return 3
    fetch "$base/$archive" "$dir/$archive" || return $?
    actual="$(sha256 "$dir/$archive")"
    if [ "$actual" != "$expected" ]; then
        fail "refusing $base/$archive: its SHA-256 is $actual, the release's SHA256SUMS says $expected"
    fi
    mkdir "$dir/x"
    if [ -n "$exe" ]; then
        unzip -q "$dir/$archive" -d "$dir/x" || status=$?
    else
        tar -xzf "$dir/$archive" -C "$dir/x" || status=$?
    fi
    [ "$status" = 0 ] || fail "cannot unpack $archive"
    local bin="$dir/x/snakeladder-$release-$target/snakeladder$exe"
    [ -f "$bin" ] || fail "$archive holds no snakeladder-$release-$target/snakeladder$exe"
    mkdir -p "$home/bin"
    install -m 755 "$bin" "$home/bin/snakeladder$exe"
    printf 'snakeladder action: installed release %s for %s (SHA-256 %s)\n' "$release" "$target" "$actual"
}

case "${1:-}" in
    key)
        release="$(release)"
        if [ -n "$release" ]; then
            key="snakeladder-${RUNNER_OS:-Linux}-${RUNNER_ARCH:-X64}-v$release"
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
            key="snakeladder-${RUNNER_OS:-Linux}-${RUNNER_ARCH:-X64}-src-$hash"
        fi
        if [ -n "${GITHUB_OUTPUT:-}" ]; then
            printf 'key=%s\n' "$key" >>"$GITHUB_OUTPUT"
        else
            printf 'key=%s\n' "$key"
        fi
        ;;
    install)
        release="$(release)"
        target="$(platform)"
        if [ -n "$release" ] && [ -z "$target" ]; then
            printf 'snakeladder action: the releases have no binary for this runner; building %s\n' \
                "$release"
        elif [ -n "$release" ] && [ -z "${SNAKELADDER_RELEASES:-}${ACTION_REPOSITORY:-}" ]; then
            printf 'snakeladder action: no repository to download release %s from; building it\n' \
                "$release"
        elif [ -n "$release" ]; then
            status=0
            download "$release" "$target" || status=$?
            [ "$status" = 0 ] && exit 0
            [ "$status" = 3 ] || fail "could not download release $release (curl exit $status)"
            printf 'snakeladder action: no release %s with a binary for %s; building it\n' \
                "$release" "$target"
        fi
        if [ -n "$version" ]; then
            "$cargo" install --locked --force --root "$home" "$(package_name)" --version "=$version"
        else
            "$cargo" install --locked --force --root "$home" --path "$(package_dir)"
        fi
        ;;
    path)
        if [ -n "${GITHUB_PATH:-}" ]; then
            printf '%s\n' "$home/bin" >>"$GITHUB_PATH"
        else
            printf '%s\n' "$home/bin"
        fi
        ;;
    *)
        printf 'usage: install.sh key|install|path\n' >&2
        exit 2
        ;;
esac
