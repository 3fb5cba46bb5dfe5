"""Invalid boards and bad arguments raise exceptions carrying their problems."""

from __future__ import annotations

import pytest

import snakeladder as s

BAD = """{
  "squares": 10,
  "ladders": [[5, 3]],
  "snakes": [[4, 8]]
}"""


def test_an_invalid_board_raises_board_error_with_every_problem():
    with pytest.raises(s.BoardError) as caught:
        s.Board.from_json(BAD)
    err = caught.value
    assert isinstance(err, ValueError)
    kinds = sorted(p.kind for p in err.problems)
    assert kinds == ["ladder_descends", "snake_climbs"]
    by_field = {p.field: p for p in err.problems}
    assert by_field["ladders[0]"].line == 3
    assert by_field["snakes[0]"].line == 4
    assert by_field["snakes[0]"].column == 14
    for p in err.problems:
        assert p.message
        assert p.severity == "error"


def test_a_json_syntax_error_has_its_position():
    with pytest.raises(s.BoardError) as caught:
        s.Board.from_json('{\n  "squares": 10,\n  "snakes": [[4, 8]\n}')
    (problem,) = caught.value.problems
    assert problem.kind == "json"
    assert problem.line == 4


def test_a_dict_is_checked_like_a_file():
    with pytest.raises(s.BoardError) as caught:
        s.Board.from_json({"squares": 10, "snakes": [[4, 8]]})
    assert [p.kind for p in caught.value.problems] == ["snake_climbs"]
    assert caught.value.problems[0].file == "<dict>"


def test_an_unknown_key_is_refused():
    with pytest.raises(s.BoardError):
        s.Board.from_json({"squares": 10, "snaeks": []})


def test_a_missing_file_is_a_board_error(tmp_path):
    with pytest.raises(s.BoardError) as caught:
        s.Board.from_json(tmp_path / "missing.json")
    assert len(caught.value.problems) == 1


def test_validate_gives_positions_for_a_file(tmp_path):
    path = tmp_path / "bad.json"
    path.write_text(BAD)
    found = s.validate(path)
    assert not found.valid
    assert sorted((p.line, p.kind) for p in found.problems) == [
        (3, "ladder_descends"), (4, "snake_climbs"),
    ]
    assert all(p.file.endswith("bad.json") for p in found.problems)
    assert s.validate(BAD).problems[0].file == "<string>"


def test_a_valid_board_validates():
    assert s.Board.builtin().validate().valid
    assert s.validate(s.Board.builtin().to_dict())


def test_bad_arguments_are_value_errors():
    board = s.Board.builtin()
    with pytest.raises(ValueError):
        board.analyze(players=[0])
    with pytest.raises(ValueError):
        board.simulate(0)
    with pytest.raises(ValueError):
        board.tune(target=(5, 2))
    with pytest.raises(TypeError):
        s.Board.from_json(42)


def test_a_game_that_never_ends_is_refused_with_its_squares():
    # Every roll of a two-faced die from square 1 lands on a snake to 1.
    with pytest.raises(s.BoardError) as caught:
        s.Board.from_json(
            {"squares": 4, "snakes": [[2, 1], [3, 1]], "rules": {"dice": {"count": 1, "faces": 2}}}
        )
    (problem,) = caught.value.problems
    assert problem.kind == "unwinnable"
    assert "0, 1" in problem.message


def test_text_with_a_byte_order_mark_is_json_not_a_path(tmp_path):
    text = "\ufeff" + s.Board.builtin().to_json()
    assert s.Board.from_json(text) == s.Board.builtin()
    assert s.Board.from_json(text.encode("utf-8")) == s.Board.builtin()
    assert s.validate(text).valid
