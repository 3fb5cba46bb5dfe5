#!/usr/bin/env bash
# The wheel as a user without Rust gets it: installs the wheel file into a
# fresh virtual environment with no cargo or rustc on the PATH and no index
# (its dependency, numpy, from a local directory of wheels), and fails when
# that takes 10 s of CPU or more. Then, still without a toolchain, the `snakeladder`
# command the wheel put on the PATH must be the CLI's binary itself (not a
# wrapper, so signals, exit codes and output are the real CLI's): it
# analyses, validates boards/, exits 1 on invalid boards and 2 on misuse,
# ends quietly when its reader goes away, serves the designer and stops on
# Ctrl-C; and `import snakeladder` works.
#
#   wheel-check.sh --prepare DIR     downloads the wheels of the wheel's
#                                    dependencies (and setuptools, for the
#                                    pre-commit hook's installer) into DIR
#                                    (network-bound; .ci/run does it while
#                                    cargo compiles)
#   wheel-check.sh WHEEL DIR [BIN]   the check; BIN, when given, is the
#                                    binary the wheel must carry
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
root="$(cd "$here/../.." && pwd)"
python="${PYTHON:-python3}"
if [ "${1:-}" = --prepare ]; then
    [ -n "${2:-}" ] || { echo "usage: wheel-check.sh --prepare DIR" >&2; exit 2; }
    deps="$("$python" -c '
import sys, tomllib
print("\n".join(tomllib.load(open(sys.argv[1], "rb"))["project"]["dependencies"]))' \
        "$here/pyproject.toml")"
    mapfile -t deps <<<"$deps"
    "$python" -m pip download -q --disable-pip-version-check --only-binary :all: -d "$2" \
        "${deps[@]}" "setuptools>=61"
    exit 0
fi
[ $# -ge 2 ] || { echo "usage: wheel-check.sh WHEEL DIR [BIN]" >&2; exit 2; }
wheel="$(cd "$(dirname "$1")" && pwd)/$(basename "$1")"
deps="$(cd "$2" && pwd)"
bin="${3:-}"
work="$(mktemp -d)"
server=""
trap '[ -z "$server" ] || kill "$server" 2>/dev/null || true; rm -rf "$work"' EXIT
fail() { echo "wheel-check: $*" >&2; exit 1; }

# The interpreter itself, not a shim that may need a PATH entry.
py="$("$python" -c 'import sys; print(sys.executable)')"
# The system's directories, less any that holds a Rust toolchain.
clean=""
for dir in /usr/local/sbin /usr/local/bin /usr/sbin /usr/bin /sbin /bin; do
    [ -d "$dir" ] || continue
    [ -e "$dir/cargo" ] || [ -e "$dir/rustc" ] && continue
    clean="${clean:+$clean:}$dir"
done
if PATH="$clean" command -v cargo >/dev/null || PATH="$clean" command -v rustc >/dev/null; then
    fail "a Rust toolchain is still on the PATH"
fi
export PATH="$work/venv/bin:$clean"
unset CARGO RUSTC RUSTUP_TOOLCHAIN VIRTUAL_ENV PYTHONPATH

"$py" -m venv "$work/venv"
# The install's wall time is printed; the limit holds its CPU time (pip and
# everything it ran), which, unlike the wall time, does not depend on what
# else the machine runs: in .ci/run this lane shares 2 cores with `cargo
# test` at the lowest priority. An install that builds anything takes
# minutes of CPU.
times="$("$py" - "$work/venv/bin/python" -m pip install -q --disable-pip-version-check \
    --no-index --find-links "$deps" "$wheel" <<'PY'
import resource, subprocess, sys, time
start = time.monotonic()
subprocess.run(sys.argv[1:], check=True)
wall = time.monotonic() - start
usage = resource.getrusage(resource.RUSAGE_CHILDREN)
print(f"{wall:.2f} {usage.ru_utime + usage.ru_stime:.2f}")
PY
)"
read -r wall cpu <<<"$times"
echo "wheel-check: $(basename "$wheel") installed into a fresh venv without cargo or rustc in" \
    "$wall s ($cpu s of CPU)"
"$py" -c 'import sys; sys.exit(float(sys.argv[1]) >= 10)' "$cpu" ||
    fail "installing the wheel took $cpu s of CPU, 10 or more"

cmd="$(command -v snakeladder)" || fail "the wheel put no snakeladder command on the PATH"
[ "$cmd" = "$work/venv/bin/snakeladder" ] || fail "snakeladder is $cmd, not the venv's"
[ "$(head -c 4 "$cmd" | od -An -c | tr -d ' ')" = '177ELF' ] ||
    fail "the venv's snakeladder is not a native binary: $(head -c 40 "$cmd")"
if [ -n "$bin" ]; then
    cmp -s "$cmd" "$bin" || fail "the venv's snakeladder is not the binary staged ($bin)"
fi
version="$(sed -n 's/^Version: //p' "$work"/venv/lib/python3*/site-packages/snakeladder-*.dist-info/METADATA)"
snakeladder --version | grep -qx "snakeladder $version" ||
    fail "snakeladder --version is not $version: $(snakeladder --version)"

cd "$root"
out="$(snakeladder analyze)"
grep -q "Milton Bradley" <<<"$out" || fail "snakeladder analyze: $out"
out="$(snakeladder validate boards/)" || fail "snakeladder validate boards/ failed: $out"
grep -q "boards checked" <<<"$out" || fail "snakeladder validate boards/: $out"
status=0
snakeladder validate tests/invalid >/dev/null || status=$?
[ "$status" = 1 ] || fail "validate of invalid boards exited $status, not 1"
status=0
snakeladder analyze --no-such-flag >/dev/null 2>&1 || status=$?
[ "$status" = 2 ] || fail "a bad flag exited $status, not 2"
# A reader that stops early: the command ends without an error message.
err="$( { snakeladder analyze --help | head -n 1 >/dev/null; } 2>&1)"
[ -z "$err" ] || fail "snakeladder wrote to stderr when its reader went away: $err"
"$work/venv/bin/python" -c 'import snakeladder as s; print("wheel-check: import snakeladder:", s.Board.builtin().analyze().mean)'

# The designer, served from the wheel's binary on a free loopback port,
# answers, then stops on Ctrl-C (SIGINT) with status 0.
snakeladder serve --port 0 >"$work/serve.log" 2>&1 &
server=$!
url=""
for _ in $(seq 1 100); do
    url="$(grep -o 'http://[0-9.:]*' "$work/serve.log" | head -n 1 || true)"
    [ -n "$url" ] && break
    kill -0 "$server" 2>/dev/null || fail "serve exited: $(cat "$work/serve.log")"
    sleep 0.1
done
[ -n "$url" ] || fail "serve printed no address: $(cat "$work/serve.log")"
"$work/venv/bin/python" -c 'import sys, urllib.request; page = urllib.request.urlopen(sys.argv[1], timeout=10).read(); assert b"<html" in page.lower(), page[:200]' "$url/" ||
    fail "serve did not answer at $url"
kill -INT "$server"
status=0
wait "$server" || status=$?
server=""
[ "$status" = 0 ] || fail "serve exited $status on Ctrl-C: $(cat "$work/serve.log")"
echo "wheel-check: the wheel's snakeladder analyses, validates, serves and stops on Ctrl-C; import snakeladder works"
