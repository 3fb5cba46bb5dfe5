"""Simulation, check, diff, tune, generate, reports and notebook display."""

from __future__ import annotations

import numpy as np
import pytest

import snakeladder as s


def test_a_simulation_agrees_with_the_exact_mean():
    board = s.Board.builtin()
    sim = board.simulate(200_000, seed=7)
    exact = board.analyze().mean
    assert sim.games == 200_000
    assert abs(sim.turns.mean - exact) <= 5 * sim.turns.std_error
    # The same seed, the same figures.
    assert board.simulate(200_000, seed=7, threads=1) == sim


def test_a_simulation_of_players_has_seat_estimates():
    sim = s.Board.builtin().simulate(50_000, seed=1, players=3)
    (game,) = sim.players
    assert len(game.win_probability) == 3
    assert sum(game.win_probability) == pytest.approx(1.0)


def test_check_passes_on_a_correct_engine():
    report = s.Board.builtin().check(100_000, seed=3)
    assert report.passed is True
    assert report.comparisons


def test_diff_of_two_boards(boards):
    old = s.Board.from_json(boards / "althoen-1993.json")
    new = s.Board.builtin()
    d = old.diff(new)
    assert not d.same_board
    text = d.text()
    assert "39.2251" in text and "39.5984" in text
    assert "mean" in d.to_dict()["figures"][0]["name"] or d.to_dict()
    assert "<svg" in d.html()
    assert old.diff(old).same_board


def test_tune_reaches_its_target():
    tuned = s.Board.builtin().tune(target=(30, 32), max_changes=3)
    assert 30 <= tuned.mean_turns <= 32
    assert isinstance(tuned.board, s.Board)
    assert tuned.board.analyze().mean == pytest.approx(tuned.mean_turns, rel=1e-12)
    assert 1 <= len(tuned.changes) <= 3


def test_generate_is_seeded():
    a = s.generate(60, 5, 5, seed=11)
    b = s.generate(60, 5, 5, seed=11)
    assert a == b
    assert a.squares == 60
    assert len(a.snakes) == 5 and len(a.ladders) == 5
    assert s.generate(60, 5, 5, seed=12) != a
    assert s.Board.from_json(a.to_json()) == a


def test_generate_to_a_target():
    board = s.generate(100, 8, 8, seed=2, target=(30, 40))
    assert 30 <= board.analyze().mean <= 40


def test_reports_as_strings_and_files(tmp_path):
    a = s.Board.builtin().analyze()
    page = a.report("html")
    assert page.lstrip().lower().startswith("<!doctype html")
    assert "39.5984" in page
    markdown = a.report("markdown")
    assert "39.5984" in markdown
    written = a.write_report(tmp_path / "board.md")
    assert "39.5984" in written.read_text()
    assert list(tmp_path.glob("board-*.svg")), "the Markdown report's charts"
    html_path = a.write_report(tmp_path / "board.html")
    assert html_path.read_text() == page
    with pytest.raises(ValueError):
        a.report("pdf")


def test_notebook_display():
    board = s.Board.builtin()
    shown = board._repr_html_()
    assert "<svg" in shown and "<table>" in shown
    a = board.analyze(exact=True)
    shown = a._repr_html_()
    assert "39.5984" in shown and "<svg" in shown
    assert str(a.exact.mean_turns) in shown
    assert "<table>" in a.squares._repr_html_()


def test_board_values_are_plain_python():
    board = s.Board.builtin()
    assert board.squares == 100
    assert ("ladder", 1, 38) in board.jumps
    assert (48, 26) in board.snakes
    assert isinstance(board.rules, dict)
    assert board.rules["overshoot"] in ("stay", "bounce", "win")
    assert s.Board.from_json(board.to_dict()) == board
    assert [list(p) for p in board.to_dict()["snakes"]][0] == [16, 6]
    assert np.isclose(board.mean_turns(), board.analyze().mean)
