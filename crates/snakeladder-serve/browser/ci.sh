#!/usr/bin/env bash
# Browser tests of the designer page: installs playwright-core (npm ci; no
# browser download) and Debian's chromium when it is missing, builds the
# binary (or takes $SL_BIN), serves the built-in board on a free loopback
# port, runs the tests, and stops the server; then the report tests
# (report.test.mjs).
# Screenshots go to docs/serve-390.png, docs/serve-1280.png and
# docs/report-*.png, docs/diff-*.png. Run from anywhere; `.ci/run` calls it.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
root="$(cd "$here/../../.." && pwd)"
cd "$here"
export PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD=1
# `ci.sh --prepare` only installs playwright-core (network-bound, so .ci/run
# does it while cargo compiles); SL_NPM_READY=1 then skips the install.
if [ "${1:-}" = --prepare ] || [ -z "${SL_NPM_READY:-}" ]; then
  npm ci --no-audit --no-fund
fi
[ "${1:-}" = --prepare ] && exit 0
if [ ! -x /usr/bin/chromium ]; then
  apt-get update
  apt-get install -y chromium
fi
cd "$root"
# SL_BIN: a binary already built (.ci/run passes the one `cargo test` made,
# so no cargo runs here while the Python step compiles beside it).
if [ -n "${SL_BIN:-}" ]; then
  bin="$SL_BIN"
else
  cargo build --bin snakeladder ${SL_PROFILE:+--profile "$SL_PROFILE"}
  bin="$root/target/${SL_PROFILE:-debug}/snakeladder"
  [ "${SL_PROFILE:-}" = dev ] && bin="$root/target/debug/snakeladder"
fi
port="$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1]); s.close()')"
log="$(mktemp)"
# Served from an empty directory: no snakeladder.toml applies.
work="$(mktemp -d)"
(cd "$work" && exec "$bin" serve --port "$port") >"$log" 2>&1 &
server=$!
trap 'kill "$server" 2>/dev/null || true; wait "$server" 2>/dev/null || true; rm -rf "$work" "$log"' EXIT
for _ in $(seq 1 100); do
  grep -q "http://" "$log" && break
  kill -0 "$server" 2>/dev/null || { cat "$log"; exit 1; }
  sleep 0.1
done
grep -q "http://" "$log" || { echo "the server did not start"; cat "$log"; exit 1; }
cd "$here"
SL_URL="http://127.0.0.1:$port" SL_BIN="$bin" SL_DOCS="$root/docs" node --test --test-concurrency=1 designer.test.mjs
# The HTML reports and the diff page (files, no server): every board's
# report, a 10,000-square board's and a diff, at 390 and 1280 px, light
# and dark. Screenshots go to docs/report-390.png, docs/diff-390.png...
SL_BIN="$bin" SL_DOCS="$root/docs" node --test --test-concurrency=1 report.test.mjs
