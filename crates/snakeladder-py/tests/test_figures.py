"""Published figures, exact fractions, dtypes and shapes."""

from __future__ import annotations

from fractions import Fraction

import numpy as np
import pytest

import snakeladder as s


def test_the_1993_board_has_its_published_mean(boards):
    a = s.Board.from_json(boards / "althoen-1993.json").analyze()
    assert f"{a.mean:.4f}" == "39.2251"


def test_the_builtin_board_has_its_published_mean():
    a = s.Board.builtin().analyze()
    assert f"{a.mean:.4f}" == "39.5984"
    assert a.median == 33
    assert a.mode == 22


def test_the_exact_mean_is_a_fraction_agreeing_with_the_float_mean():
    a = s.Board.builtin().analyze(exact=True)
    exact = a.exact.mean_turns
    assert isinstance(exact, Fraction)
    assert exact.denominator > 1
    assert abs(float(exact) - a.mean) <= 1e-9 * a.mean
    # The CLI's text of the same fraction.
    assert f"{exact.numerator}/{exact.denominator}" == a.to_dict()["exact"]["mean_turns"]
    assert s.Board.builtin().analyze().exact is None


def test_a_hand_derived_board_has_an_exact_integer_mean():
    # Two squares, a two-faced die, overshooting wins: a 2 finishes at
    # once, a 1 reaches square 1, from which any roll finishes. So T is 1
    # or 2 with probability 1/2 each, and the mean is 3/2.
    board = s.Board.from_json(
        {"squares": 2, "rules": {"overshoot": "win", "dice": {"count": 1, "faces": 2}}}
    )
    a = board.analyze(exact=True)
    assert a.exact.mean_turns == Fraction(3, 2)
    assert a.pmf.tolist() == [0.5, 0.5]


def test_the_distribution_is_float64_arrays_of_one_length():
    a = s.Board.builtin().analyze()
    for arr in (a.pmf, a.cdf):
        assert isinstance(arr, np.ndarray)
        assert arr.dtype == np.float64
        assert arr.ndim == 1
    assert a.pmf.shape == a.cdf.shape
    assert len(a.pmf) >= a.quantiles.p99
    assert np.all(np.diff(a.cdf) >= 0)
    assert a.pmf.sum() + a.tail == pytest.approx(1.0, abs=1e-12)
    assert a.cdf[-1] == pytest.approx(1.0 - a.tail, abs=1e-12)
    # pmf[t - 1] = P(T = t): the mode is where it peaks.
    assert int(np.argmax(a.pmf)) + 1 == a.mode


def test_per_square_and_per_jump_figures_are_columns():
    board = s.Board.builtin()
    a = board.analyze()
    sq = a.squares
    assert set(sq) == {"square", "expected_rests", "rest_probability", "turns_left"}
    assert sq["square"].dtype == np.int64
    assert sq.expected_rests.dtype == np.float64
    assert len({len(c) for c in sq.values()}) == 1
    # Every square a token can rest on: the start 0 and squares 1..N-1
    # except the starts of jumps (N ends the game).
    assert sq.rows == board.squares - len(board.jumps)
    assert sq["square"][0] == 0
    j = a.jumps
    assert j.rows == len(board.jumps)
    assert list(zip(j["kind"], j["from"].tolist(), j["to"].tolist())) == board.jumps
    assert j.use_probability.dtype == np.float64
    assert np.all((j.use_probability >= 0) & (j.use_probability <= 1))


def test_columns_become_data_frames():
    pd = pytest.importorskip("pandas")
    a = s.Board.builtin().analyze()
    frame = a.squares.to_pandas()
    assert isinstance(frame, pd.DataFrame)
    assert frame.shape == (a.squares.rows, 4)
    assert frame["expected_rests"].dtype == np.float64
    jumps = a.jumps.to_pandas()
    assert list(jumps.columns) == [
        "kind", "from", "to", "expected_uses", "use_probability", "mean_turns_without",
    ]


def test_seat_odds_per_player_count():
    a = s.Board.builtin().analyze(players=(2, 3, 4))
    assert sorted(a.players) == [2, 3, 4]
    for count, odds in a.players.items():
        assert odds.win_probability.shape == (count,)
        assert odds.win_probability.sum() == pytest.approx(1.0, abs=1e-9)
    two = a.players[2].win_probability
    assert f"{two[0]:.6f}" == "0.507803"
    assert s.Board.builtin().analyze(players=()).players == {}


def test_the_shortest_game_and_other_figures():
    a = s.Board.builtin().analyze()
    assert a.shortest.turns == a.quantiles.min == 7
    assert a.std_dev == pytest.approx(a.variance ** 0.5)
    assert a.solver in ("dense", "sparse")
    assert a.rolls["mean"] == pytest.approx(a.mean, rel=1e-12)  # no extra-roll rule
    assert len(a.fingerprint) > 8


def test_analysis_keys_are_those_of_the_cli():
    d = s.Board.builtin().analyze().to_dict()
    for key in ("board", "fingerprint", "rules", "turns", "rolls", "squares", "jumps",
                "shortest", "players", "solver", "skipped", "warnings"):
        assert key in d


def test_limits_skip_optional_figures():
    a = s.Board.builtin().analyze(max_work=10)
    assert a.skipped, "a tiny max_work must skip the optional figures"
    assert len(a.pmf) == 0
    with pytest.raises(s.LimitError):
        s.Board.builtin().analyze(max_memory=1000)


def test_a_notebook_shows_a_board_too_large_to_draw_without_raising():
    board = s.Board.from_json({"squares": 3000, "ladders": [[2, 2999]]})
    for shown in (board._repr_html_(), board.analyze(players=())._repr_html_()):
        assert "more than the 2500 a drawing shows" in shown


def test_a_long_table_shows_its_ends_in_a_notebook():
    squares = s.Board.from_json({"squares": 3000}).analyze(players=()).squares
    shown = squares._repr_html_()
    assert shown.count("<tr>") == 1 + squares.HTML_ROWS + 1  # head, rows, the gap
    assert f"{squares.rows} rows" in shown


def test_columns_copy_and_pickle():
    import copy
    import pickle

    jumps = s.Board.builtin().analyze().jumps
    for other in (copy.copy(jumps), copy.deepcopy(jumps), pickle.loads(pickle.dumps(jumps))):
        assert list(other) == list(jumps)
        assert np.array_equal(other["from"], jumps["from"])


def test_every_array_an_analysis_gives_is_read_only():
    # The attributes are cached: a write to one of their arrays would
    # change the figure for every later reader (the integer columns, the
    # kinds and the seat odds were writable).
    a = s.Board.builtin().analyze(players=(2, 3))
    arrays = {"pmf": a.pmf, "cdf": a.cdf}
    arrays.update({f"squares.{k}": v for k, v in a.squares.items()})
    arrays.update({f"jumps.{k}": v for k, v in a.jumps.items()})
    arrays.update({f"players[{n}]": o.win_probability for n, o in a.players.items()})
    assert len(arrays) == 2 + 4 + 6 + 2
    for name, array in arrays.items():
        assert isinstance(array, np.ndarray), name
        assert not array.flags.writeable, name
        with pytest.raises(ValueError):
            array[0] = array[1]
    assert a.squares.square is a.squares.square
    # A copy, or a pandas frame, is the user's to change.
    frame = a.squares.to_pandas()
    frame.loc[0, "square"] = -1
    assert a.squares.square[0] == 0
    assert a.players[2].win_probability.copy().flags.writeable


# `error_bounds`, renamed, still gives a dict: checked with the rest.
@pytest.mark.filterwarnings("ignore::DeprecationWarning")
def test_an_edit_to_a_dict_an_analysis_gave_never_reaches_the_next_read():
    # The dicts and lists were cached too: an edit to one changed what
    # every later reader saw.
    board = s.Board.from_json(
        '{"squares": 30, "ladders": [[3, 11]], "snakes": [[17, 4]], "rules": {"overshoot": "bounce"}}'
    )
    a = board.analyze(players=(2,), max_work=1e3)
    assert a.skipped, "the tight work limit leaves figures out"
    first = {
        "rules": a.rules,
        "skipped": a.skipped,
        "warnings": a.warnings,
        "shortest": a.shortest,
        "error_bounds": a.error_bounds,
        "rolls": a.rolls,
        "players": a.players,
    }
    expected = {name: repr(value) for name, value in first.items()}
    first["rules"]["overshoot"] = "edited"
    first["skipped"].append("edited")
    first["skipped"][0]["figure"] = "edited"
    first["warnings"].append("edited")
    if first["shortest"] is not None:
        first["shortest"]["turns"] = -1
    first["error_bounds"]["mean"] = -1.0
    first["rolls"]["mean"] = -1.0
    first["players"].clear()
    again = {name: repr(getattr(a, name)) for name in first}
    assert again == expected


def test_an_exact_mean_past_python_s_digit_limit_is_a_fraction():
    # Six nearly equal prime weights make each square's equation carry a
    # six-digit denominator: 700 squares give an exact mean of about 4,700
    # digits, past the 4,300 Python converts from decimal text.
    weights = [999983, 999979, 999961, 999959, 999953, 999931]
    board = s.Board.from_json(
        {
            "squares": 700,
            "snakes": [[695, 10]],
            "ladders": [[3, 40]],
            "rules": {"dice": {"weights": weights}},
        }
    )
    a = board.analyze(exact=True)
    exact = a.exact.mean_turns
    assert isinstance(exact, Fraction)
    assert exact.denominator.bit_length() > 4300 * 3.32
    assert abs(float(exact) - a.mean) <= 1e-9 * a.mean
    # The JSON's text, compared without converting the fraction to text.
    numerator, denominator = a.to_dict()["exact"]["mean_turns"].split("/")
    assert len(numerator) > 4300
    assert exact == Fraction(_int_of_text(numerator), _int_of_text(denominator))
    assert "digits over" in a._repr_html_()
    assert "digits over" in repr(a.exact)


def _int_of_text(text: str) -> int:
    """A decimal text of any length as an int, a chunk of digits at a time
    (each chunk far below Python's limit)."""
    n = 0
    for start in range(0, len(text), 1000):
        chunk = text[start : start + 1000]
        n = n * 10 ** len(chunk) + int(chunk)
    return n
