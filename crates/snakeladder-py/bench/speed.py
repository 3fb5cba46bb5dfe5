"""Speed of the package, measured in one Python process.

1. The mean of the built-in board through the package (board already
   built) against `numpy.linalg.solve(I - Q, ones)` on a matrix of the same
   size built in advance: the notebook's hand-rolled solve.
2. The full analysis through the package against the Rust call alone
   (`snakeladder._native.Board.analyze`, which returns the core's analysis
   without converting a figure), and the Rust figure of the criterion bench
   `cargo bench -p snakeladder --bench analysis` when given as
   `--criterion-us`.

Each timing is the fastest of rounds interleaved with its baseline (the
round least disturbed by other processes), so load that changes during the
run moves both alike; medians are printed too. numpy's BLAS is held to one
thread, as the core's solve of a board this size runs on one.

    python bench/speed.py [--rounds 30] [--criterion-us 41.2]
"""

from __future__ import annotations

import argparse
import os
import statistics
import time
from typing import Callable, List

for _var in ("OPENBLAS_NUM_THREADS", "OMP_NUM_THREADS", "MKL_NUM_THREADS"):
    os.environ.setdefault(_var, "1")

import numpy as np  # noqa: E402

import snakeladder as s  # noqa: E402


def per_call(f: Callable[[], object], seconds: float = 0.05) -> float:
    """Seconds per call of f, over about `seconds` of calls."""
    n = 1
    while True:
        t = time.perf_counter()
        for _ in range(n):
            f()
        elapsed = time.perf_counter() - t
        if elapsed >= seconds:
            return elapsed / n
        n *= 2


def interleaved(fs: List[Callable[[], object]], rounds: int) -> List[List[float]]:
    times: List[List[float]] = [[] for _ in fs]
    for _ in range(rounds):
        for i, f in enumerate(fs):
            times[i].append(per_call(f))
    return times


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=30)
    parser.add_argument("--criterion-us", type=float, default=None,
                        help="criterion's full-analysis time of the same build, in microseconds")
    args = parser.parse_args()

    board = s.Board.builtin()
    a = board.analyze()
    # A matrix the size of the built-in board's chain (its transient
    # states: the squares a token can rest on, start included), built in
    # advance as a notebook would: Q from the rest probabilities is not
    # needed, only the same shape and a solvable I - Q.
    states = a.to_dict()["board"]["states"]
    rng = np.random.default_rng(0)
    q = rng.random((states, states))
    q *= 0.9 / q.sum(axis=1, keepdims=True)
    i_minus_q = np.eye(states) - q
    ones = np.ones(states)

    mean = lambda: board.mean_turns()  # noqa: E731
    numpy_solve = lambda: np.linalg.solve(i_minus_q, ones)  # noqa: E731
    native = board._native
    full = lambda: board.analyze(players=(2, 3, 4, 5, 6))  # noqa: E731
    rust = lambda: native.analyze([2, 3, 4, 5, 6], False, None, None)  # noqa: E731

    times = interleaved([mean, numpy_solve, full, rust], args.rounds)
    print(f"built-in board, {states} transient states, {args.rounds} interleaved rounds")
    for label, pick in (("fastest", min), ("median", statistics.median)):
        t_mean, t_numpy, t_full, t_rust = (pick(t) for t in times)
        print(f"{label}:")
        print(f"  mean through the package      {t_mean * 1e6:9.1f} us")
        print(f"  numpy.linalg.solve(I - Q, 1)  {t_numpy * 1e6:9.1f} us")
        print(f"  ratio                         {t_mean / t_numpy:9.3f}x   (target <= 0.5x)")
        print(f"  full analysis, package        {t_full * 1e6:9.1f} us")
        print(f"  full analysis, native call    {t_rust * 1e6:9.1f} us")
        print(f"  ratio                         {t_full / t_rust:9.3f}x   (target <= 1.3x)")
    t_full, t_rust = min(times[2]), min(times[3])
    if args.criterion_us:
        print(f"  vs criterion {args.criterion_us:.1f} us      {t_full * 1e6 / args.criterion_us:9.3f}x")
    # Reading every figure once (the conversions the analysis defers).
    def read_all() -> None:
        x = board.analyze(players=(2, 3, 4, 5, 6))
        x.pmf, x.cdf, x.squares, x.jumps, x.players, x.shortest, x.quantiles
    t_all = per_call(read_all, 0.2)
    print(f"  full analysis, every figure read  {t_all * 1e6:9.1f} us ({t_all / t_rust:.3f}x)")


if __name__ == "__main__":
    main()
