#!/bin/bash
# `analyze --format json` of every board in boards/, the built-in board and a few
# generated boards, by two builds, compared number by number: the largest relative
# difference of each file and the fields that are not bit for bit the same, failing
# past TOL (default 1e-12). The check that a change of algorithm left every figure
# within its promise (docs/performance.md).
# usage: tests/compare_json_numbers.sh OLD_BIN NEW_BIN [TOL]  (from the repository root)
old=$1; new=$2; tol=${3:-1e-12}
scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT
mkdir -p "$scratch/boards"
cp boards/*.json "$scratch/boards/"
# Generated boards: short and long games, small and large chains.
for spec in "100 12 8 1" "200 25 15 2" "150 40 3 3" "500 40 40 4" "64 5 5 5" "1000 60 60 6"; do
  set -- $spec
  "$old" generate --squares $1 --snakes $2 --ladders $3 --seed $4 -o "$scratch/boards/gen-$1-$4.json" || exit 2
done
failed=0
for b in "$scratch"/boards/*.json builtin; do
  name=$(basename "$b")
  args=(analyze "$b" --format json)
  [ "$b" = builtin ] && args=(analyze --format json)
  "$old" "${args[@]}" > "$scratch/old.json" 2>/dev/null
  "$new" "${args[@]}" > "$scratch/new.json" 2>/dev/null
  python3 - "$scratch/old.json" "$scratch/new.json" "$tol" "$name" <<'PY' || failed=1
import json, sys
def walk(a, b, path, out):
    if isinstance(a, dict) and isinstance(b, dict) and a.keys() == b.keys():
        for k in a: walk(a[k], b[k], f"{path}.{k}", out)
    elif isinstance(a, list) and isinstance(b, list) and len(a) == len(b):
        for i, (x, y) in enumerate(zip(a, b)): walk(x, y, f"{path}[{i}]", out)
    elif all(isinstance(v, (int, float)) and not isinstance(v, bool) for v in (a, b)):
        if a != b:
            out.append((path, abs(a - b) / max(abs(a), abs(b))))
    elif a != b:
        out.append((path, float("inf")))
old, new = (json.load(open(p)) for p in sys.argv[1:3])
tol, name = float(sys.argv[3]), sys.argv[4]
out = []
walk(old, new, "", out)
worst = max((r for _, r in out), default=0.0)
fields = sorted({p.split("[")[0] for p, _ in out})
print(f"{name}: {len(out)} numbers differ, largest relative difference {worst:.3g}; {' '.join(fields)}")
for p, r in [d for d in out if d[1] > tol][:5]:
    print(f"  over {tol}: {p} ({r:.3g})")
sys.exit(1 if worst > tol else 0)
PY
done
exit $failed
