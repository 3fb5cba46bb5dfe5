"""Python and the `snakeladder` command give the same figures: both call the
same core, so every float must be identical, not merely close."""

from __future__ import annotations

import json
import subprocess

from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as st

import snakeladder as s


@st.composite
def boards(draw):
    """Random board dicts, mostly valid (ladders up, snakes down, starts
    apart), sometimes not (both sides must then refuse)."""
    n = draw(st.integers(min_value=6, max_value=60))
    starts = draw(st.lists(st.integers(min_value=1, max_value=n - 1), unique=True, max_size=8))
    ladders, snakes = [], []
    for start in starts:
        end = draw(st.integers(min_value=0, max_value=n).filter(lambda e, s=start: e != s))
        (ladders if end > start else snakes).append([start, end])
    if draw(st.integers(min_value=0, max_value=9)) == 0:
        # A jump the wrong way round, or onto another's start.
        bad = [draw(st.integers(1, n - 1)), draw(st.integers(1, n - 1))]
        snakes.append(sorted(bad))
    spec = {"squares": n, "ladders": ladders, "snakes": snakes}
    if draw(st.booleans()):
        spec["rules"] = {
            "overshoot": draw(st.sampled_from(["stay", "bounce", "win"])),
            "dice": {"count": 1, "faces": draw(st.integers(min_value=2, max_value=8))},
        }
    return spec


def plain(value):
    """The value as JSON would give it back: tuples (serde's fixed-size
    arrays) as lists. Floats are left alone: they must be identical."""
    if isinstance(value, dict):
        return {k: plain(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [plain(v) for v in value]
    return value


def cli_analysis(cli, path):
    run = subprocess.run(
        [str(cli), "analyze", str(path), "--format", "json", "--players", "2,3"],
        capture_output=True, text=True, timeout=120,
    )
    return run.returncode, run.stdout, run.stderr


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(spec=boards())
def test_python_and_the_cli_agree_on_random_boards(cli, tmp_path, spec):
    path = tmp_path / "board.json"
    path.write_text(json.dumps(spec))
    code, out, err = cli_analysis(cli, path)
    try:
        board = s.Board.from_json(path)
    except s.BoardError as e:
        assert code == 1, f"the CLI accepted a board Python refused: {e}"
        event("invalid board")
        return
    event("valid board")
    try:
        ours = board.analyze(players=(2, 3))
    except s.AnalysisError:
        assert code != 0, "the CLI analysed a board Python could not"
        return
    assert code == 0, err
    theirs = json.loads(out)
    assert ours.mean == theirs["turns"]["mean"]
    assert ours.variance == theirs["turns"]["variance"]
    assert ours.pmf.tolist() == theirs["turns"]["pmf"]
    assert ours.cdf.tolist() == theirs["turns"]["cdf"]
    assert ours.quantiles.median == theirs["turns"]["median"]
    assert ours.squares.expected_rests.tolist() == [
        q["expected_rests"] for q in theirs["squares"]
    ]
    assert ours.jumps.use_probability.tolist() == [
        j["use_probability"] for j in theirs["jumps"]
    ]
    for count, players in zip((2, 3), theirs["players"]):
        assert players["count"] == count
        assert ours.players[count].win_probability.tolist() == players["win_probability"]
    # And the whole dict, key for key ("schema" is the version of the
    # command's JSON output, not a figure).
    assert theirs.pop("schema") == 1
    assert plain(ours.to_dict()) == theirs
