#!/usr/bin/env bash
# CI for the Python package: on a machine with only Rust and CPython (3.9 or
# later, with pip), a fresh virtual environment gets maturin, numpy, pandas,
# pytest and hypothesis from PyPI, then `pip install` builds and installs
# this package as a user would; the example and the tests run against it.
# The CLI-agreement test needs the `snakeladder` command of this workspace:
# the debug build `cargo test` at the root already made (built here when
# missing), or $SNAKELADDER_BIN.
# Exit status: non-zero on any failure, and when pytest ran no test.
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
root="$(cd "$here/../.." && pwd)"
python="${PYTHON:-python3}"
start=$SECONDS

# `ci.sh --prepare DIR` only makes the fresh venv at DIR with the packages
# from PyPI (network-bound, so .ci/run does it while cargo compiles);
# `SNAKELADDER_PY_VENV=DIR ci.sh` then tests in that venv.
pypi_packages=(maturin numpy pandas pytest hypothesis)
if [ "${1:-}" = --prepare ]; then
    [ -n "${2:-}" ] || { echo "usage: ci.sh --prepare DIR" >&2; exit 2; }
    "$python" -m venv "$2"
    "$2/bin/python" -m pip install -q --disable-pip-version-check "${pypi_packages[@]}"
    echo "py-ci: venv with ${pypi_packages[*]} ready in $((SECONDS - start)) s"
    exit 0
fi

work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
if [ -n "${SNAKELADDER_PY_VENV:-}" ]; then
    py="$SNAKELADDER_PY_VENV/bin/python"
    echo "py-ci: $("$py" --version) in the venv ci.sh --prepare made"
else
    "$python" -m venv "$work/venv"
    py="$work/venv/bin/python"
    echo "py-ci: $("$py" --version) in a fresh venv"
    "$py" -m pip install -q --disable-pip-version-check "${pypi_packages[@]}"
fi
# pip's verbose log carries cargo's lines: on failure it is shown whole;
# otherwise only the crates cargo compiled are named.
if ! "$py" -m pip install -v --disable-pip-version-check "$here" >"$work/pip.log" 2>&1; then
    cat "$work/pip.log"
    exit 1
fi
compiled="$(sed -n 's/^ *Compiling \([^ ]*\) v.*/\1/p' "$work/pip.log" | tr '\n' ' ')"
echo "py-ci: installed; cargo compiled: ${compiled:-nothing}"
# With the `workspace-features` feature (.ci/run), the build should reuse
# the core `cargo test` compiled; if it compiled it again, the feature list
# has drifted from the workspace's (see Cargo.toml). Only time is lost.
case "${MATURIN_PEP517_ARGS:-}" in
*workspace-features*)
    if [[ " $compiled " == *" snakeladder "* ]]; then
        echo "py-ci: warning: the core library was compiled again; update the" \
            "workspace-features feature in crates/snakeladder-py/Cargo.toml" >&2
    fi
    ;;
esac

if [ -z "${SNAKELADDER_BIN:-}" ]; then
    (cd "$root" && cargo build -q --bin snakeladder)
    export SNAKELADDER_BIN="$root/target/debug/snakeladder"
fi

# From a directory outside the source tree, so `import snakeladder` finds
# the installed package and not python/snakeladder.
cd "$work"
"$py" -c "import snakeladder as s; print(s.Board.builtin().analyze().mean)"
"$py" "$here/examples/notebook.py" >/dev/null
echo "py-ci: example ran"
set +e
"$py" -m pytest -q -p no:cacheprovider "$here/tests"
code=$?
set -e
if [ "$code" -eq 5 ]; then
    echo "py-ci: pytest collected no test" >&2
    exit 1
fi
echo "py-ci: done in $((SECONDS - start)) s (pytest exit $code)"
exit "$code"
