#!/bin/bash
# Every command on every shipped board, run by two builds, output compared byte
# for byte (stdout, stderr and exit code): the check that a refactoring left
# what users see unchanged. tune prints its own timing, so one line of it differs.
# usage: tests/compare_outputs.sh OLD_BIN NEW_BIN  (from the repository root)
old=$1; new=$2; diffs=0; n=0
# Private scratch files: several checkouts may run this at once.
scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT
run() { # name, args...
  local name=$1; shift
  "$old" "$@" > $scratch/cmp-old.out 2>$scratch/cmp-old.err; local oc=$?
  "$new" "$@" > $scratch/cmp-new.out 2>$scratch/cmp-new.err; local nc=$?
  n=$((n+1))
  if ! cmp -s $scratch/cmp-old.out $scratch/cmp-new.out || ! cmp -s $scratch/cmp-old.err $scratch/cmp-new.err || [ $oc != $nc ]; then
    diffs=$((diffs+1)); echo "DIFF: $name ($oc vs $nc)"; diff $scratch/cmp-old.out $scratch/cmp-new.out | head -5; diff $scratch/cmp-old.err $scratch/cmp-new.err | head -5
  fi
}
for b in boards/*.json; do
  run "analyze $b" analyze "$b"
  run "analyze json $b" analyze "$b" --format json
  run "analyze players $b" analyze "$b" --players 2,3,4,5
  run "analyze exact $b" analyze "$b" --exact
  run "simulate $b" simulate "$b" --games 20000 --seed 3 --threads 1
  run "check $b" check "$b" --games 20000 --seed 3 --threads 1
  run "report md $b" report "$b" --format markdown
  run "report html $b" report "$b" --format html
  run "sensitivity $b" analyze "$b" --sensitivity
done
for f in tests/invalid/*.json; do run "validate $f" validate "$f"; run "analyze invalid $f" analyze "$f"; done
run "validate boards" validate boards/
run "validate sarif" validate boards/ tests/invalid --format sarif
run "validate github" validate boards/ tests/invalid --format github
run "validate json" validate boards/ tests/invalid --format json
run "diff" diff boards/milton-bradley.json boards/althoen-1993.json
run "diff md" diff boards/milton-bradley.json boards/althoen-1993.json --format markdown
run "diff json" diff boards/milton-bradley.json boards/althoen-1993.json --format json
run "diff html" diff boards/milton-bradley.json boards/althoen-1993.json --format html
run "generate" generate --squares 300 --snakes 20 --ladders 20 --seed 5
run "play" play --players Ana,Bo --seed 42
run "tune" tune boards/milton-bradley.json --target-turns 30:32 --max-changes 2
for k in analyze simulate check validate diff board record; do run "schema $k" schema $k; done
run "help" --help
for c in analyze simulate check report validate diff generate play tune schema; do run "help $c" $c --help; done
"$old" generate --squares 10000 --snakes 300 --ladders 100 --seed 7 -o $scratch/long.json 2>/dev/null
"$old" generate --squares 2000 --snakes 80 --ladders 60 --seed 11 -o $scratch/mid.json 2>/dev/null
"$old" generate --squares 1000000 --snakes 400 --ladders 300 --seed 2 -o $scratch/huge.json 2>/dev/null
for b in $scratch/long.json $scratch/mid.json $scratch/huge.json; do run "analyze json $b" analyze "$b" --format json; run "analyze $b" analyze "$b"; done
echo "$n commands compared, $diffs differ"
