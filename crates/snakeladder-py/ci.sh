#!/usr/bin/env bash
# CI for the Python package: on a machine with only Rust and CPython (3.9 or
# later, with pip), a fresh virtual environment gets maturin, numpy, pandas,
# pytest and hypothesis from PyPI, then `pip install` builds and installs
# this package as a user would; the example and the tests run against it.
# scipy is only for the tests of `Chain` from scipy.sparse matrices: the
# package itself never imports it.
# The CLI-agreement test needs the `snakeladder` command of this workspace:
# the debug build `cargo test` at the root already made (built here when
# missing), or $SNAKELADDER_BIN.
# Exit status: non-zero on any failure, and when pytest ran no test.
#
# The floors: `ci.sh --prepare-floor DIR` makes a venv at DIR with the
# oldest CPython that `requires-python` allows and the oldest numpy and
# pandas the package declares (`>=X.Y` read as `==X.Y.*`); then
# `SNAKELADDER_PY_VENV=DIR SNAKELADDER_PY_PREBUILT=1 ci.sh` installs the
# abi3 wheel an earlier run left in $SNAKELADDER_PY_WHEELS, unchanged, and
# runs the same example and tests there. Without that CPython on the
# machine (only 3.11 is promised; pyenv's are found too) no venv is made,
# and DIR/why says so.
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
root="$(cd "$here/../.." && pwd)"
python="${PYTHON:-python3}"
start=$SECONDS

# `ci.sh --prepare DIR` only makes the fresh venv at DIR with the packages
# from PyPI (network-bound, so .ci/run does it while cargo compiles);
# `SNAKELADDER_PY_VENV=DIR ci.sh` then tests in that venv.
pypi_packages=(maturin numpy pandas pytest hypothesis scipy)
if [ "${1:-}" = --prepare ]; then
    [ -n "${2:-}" ] || { echo "usage: ci.sh --prepare DIR" >&2; exit 2; }
    "$python" -m venv "$2"
    "$2/bin/python" -m pip install -q --disable-pip-version-check "${pypi_packages[@]}"
    echo "py-ci: venv with ${pypi_packages[*]} ready in $((SECONDS - start)) s"
    exit 0
fi
if [ "${1:-}" = --prepare-floor ]; then
    [ -n "${2:-}" ] || { echo "usage: ci.sh --prepare-floor DIR" >&2; exit 2; }
    mkdir -p "$2"
    # The oldest CPython allowed, then each dependency pinned to its floor.
    floor_script='
import re, sys, tomllib
project = tomllib.load(open(sys.argv[1], "rb"))["project"]
requires = project["requires-python"]
m = re.fullmatch(r">=(\d+\.\d+)", requires)
if not m:
    sys.exit(f"py-ci: requires-python {requires!r} is not >=X.Y")
print(m[1])
for req in project["dependencies"] + project["optional-dependencies"]["pandas"]:
    m = re.fullmatch(r"([A-Za-z0-9_.-]+)>=(\d+\.\d+)", req)
    if not m:
        sys.exit(f"py-ci: cannot pin {req!r} to its floor")
    print(f"{m[1]}=={m[2]}.*")
'
    floor="$("$python" -c "$floor_script" "$here/pyproject.toml")"
    mapfile -t floor <<<"$floor"
    version="${floor[0]}"
    oldest=""
    for candidate in "python$version" "${PYENV_ROOT:-$HOME/.pyenv}"/versions/"$version".*/bin/python3; do
        # Found and runs as that version (pyenv's shims exist for versions
        # that are not selected, and fail).
        if [ "$("$candidate" -c 'import sys; print("%d.%d" % sys.version_info[:2])' \
            2>/dev/null)" = "$version" ]; then
            oldest="$(command -v "$candidate")"
            break
        fi
    done
    if [ -z "$oldest" ]; then
        echo "no CPython $version on this machine (python$version, or pyenv's)" >"$2/why"
        echo "py-ci: $(cat "$2/why"): the floors are not checked"
        exit 0
    fi
    "$oldest" -m venv "$2"
    "$2/bin/python" -m pip install -q --disable-pip-version-check \
        "${floor[@]:1}" pytest hypothesis
    echo "py-ci: venv of $("$2/bin/python" --version) with ${floor[*]:1} ready in" \
        "$((SECONDS - start)) s"
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
# The package is built as one abi3 wheel, as users get it, and installed
# from that file. pip's verbose log carries cargo's lines: on failure it is
# shown whole; otherwise only the crates cargo compiled are named.
wheels="${SNAKELADDER_PY_WHEELS:-$work/wheels}"
compiled=""
if [ -z "${SNAKELADDER_PY_PREBUILT:-}" ]; then
    rm -f "$wheels"/snakeladder-*.whl
    if ! "$py" -m pip wheel -v --no-deps --disable-pip-version-check -w "$wheels" "$here" \
        >"$work/pip.log" 2>&1; then
        cat "$work/pip.log"
        exit 1
    fi
    compiled="$(sed -n 's/^ *Compiling \([^ ]*\) v.*/\1/p' "$work/pip.log" | tr '\n' ' ')"
fi
wheel=("$wheels"/snakeladder-*.whl)
[ -f "${wheel[0]}" ] || { echo "py-ci: no wheel in $wheels" >&2; exit 1; }
# Over any earlier install in a reused venv; its dependencies must already
# be there (nothing is fetched), as `pip check` confirms.
"$py" -m pip install -q --disable-pip-version-check --no-index --no-deps --force-reinstall \
    "${wheel[0]}"
if ! check="$("$py" -m pip check --disable-pip-version-check 2>&1)"; then
    echo "py-ci: the venv does not satisfy the wheel's requirements: $check" >&2
    exit 1
fi
if [ -n "${SNAKELADDER_PY_PREBUILT:-}" ]; then
    echo "py-ci: installed $(basename "${wheel[0]}"), built by an earlier run"
else
    echo "py-ci: installed $(basename "${wheel[0]}"); cargo compiled: ${compiled:-nothing}"
fi
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
