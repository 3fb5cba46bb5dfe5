#!/bin/sh
# Cross-check false alarms (issue 13): 200 seeded `check` runs of 20,000
# games on small boards with a correct engine. Each run's family-wise false
# alarm rate is 1e-4 (docs/cross-check.md §6), so 200 runs should fail
# about 0.02 times: more than one failure is evidence of a wrong threshold.
#   usage: tests/false_alarms.sh [path/to/snakeladder]   (from the repository root)
bin=${1:-target/release/snakeladder}
runs=0
failed=0
for board in seed-four-by-four seed-ten-squares seed-twenty-bounce variant-extra-turn variant-two-dice; do
    seed=1
    while [ "$seed" -le 40 ]; do
        "$bin" check --games 20000 --seed "$seed" --threads 1 "boards/$board.json" >/dev/null
        code=$?
        runs=$((runs + 1))
        if [ "$code" -ne 0 ]; then
            failed=$((failed + 1))
            echo "failed (exit $code): $board seed $seed"
        fi
        seed=$((seed + 1))
    done
done
echo "$failed of $runs runs failed (expected about $runs x 1e-4 = 0.02)"
