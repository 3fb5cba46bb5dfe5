"""A notebook's session with snakeladder, as a script (each block is a cell).

Run it with `python examples/notebook.py` after `pip install .`; the
package's tests run it too.
"""

from pathlib import Path
import tempfile

import snakeladder as s

# %% A board: the built-in one, or any JSON file, text or dict.
board = s.Board.builtin()
print(board)
print("snakes:", board.snakes)

# %% Every exact figure at once.
a = board.analyze(players=(2, 3, 4), exact=True)
print(f"mean {a.mean:.4f} turns, std dev {a.std_dev:.4f}")
print("exact mean:", a.exact.mean_turns)
print("quantiles:", a.quantiles)
print("shortest game:", a.shortest.turns, "turns")
for count, odds in a.players.items():
    print(f"{count} players:", [f"{p:.4%}" for p in odds.win_probability])

# %% The distribution as numpy arrays: P(T = t) is a.pmf[t - 1].
print("P(T <= 50) =", float(a.cdf[49]))

# %% Per-square and per-jump figures as columns, or pandas frames.
try:
    frame = a.jumps.to_pandas()
    print(frame.sort_values("expected_uses", ascending=False).head(3))
except ImportError:
    print(a.jumps.to_dict())

# %% An invalid board names every problem, with its line and column.
try:
    s.Board.from_json('{"squares": 10,\n "ladders": [[5, 3]],\n "snakes": [[4, 8]]}')
except s.BoardError as e:
    for p in e.problems:
        print(f"line {p.line}, column {p.column}: {p.kind}: {p.message}")

# %% A simulation: every estimate with its standard error.
sim = board.simulate(100_000, seed=1)
print(f"simulated mean {sim.turns.mean:.3f} ± {sim.turns.std_error:.3f}")

# %% A shorter game: move at most two jumps.
tuned = board.tune(target=(30, 32), max_changes=2)
print(f"tuned mean {tuned.mean_turns:.4f}")
print(board.diff(tuned.board).text())

# %% A report file (HTML, or Markdown for a .md path).
with tempfile.TemporaryDirectory() as d:
    path = a.write_report(Path(d) / "report.html")
    print("report:", path.name, path.stat().st_size, "bytes")
