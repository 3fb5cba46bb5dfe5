"""Every numeric argument: Python and numpy numbers taken alike, anything
else refused with an error naming the argument; the text of every message;
the default limits, the command's."""

from __future__ import annotations

import re
import subprocess
from datetime import timedelta

import numpy as np
import pytest

import snakeladder as s

BOARD = s.Board.builtin()
SMALL = s.Board.from_json({"squares": 20, "ladders": [[3, 11]], "snakes": [[17, 4]]})

#: Every integer argument of every function, as (name, a call with it).
INTEGERS = [
    ("games", lambda v: BOARD.simulate(v)),
    ("seed", lambda v: BOARD.simulate(100, seed=v)),
    ("players", lambda v: BOARD.simulate(100, players=v)),
    ("threads", lambda v: BOARD.simulate(100, threads=v)),
    ("max_memory", lambda v: BOARD.simulate(100, max_memory=v)),
    ("games", lambda v: BOARD.check(v)),
    ("seed", lambda v: BOARD.check(100, seed=v)),
    ("players", lambda v: BOARD.analyze(players=v)),
    ("players", lambda v: BOARD.analyze(players=[2, v])),
    ("max_memory", lambda v: BOARD.analyze(max_memory=v)),
    ("max_memory", lambda v: SMALL.diff(BOARD, max_memory=v)),
    ("max_changes", lambda v: BOARD.tune(max_changes=v)),
    ("seed", lambda v: BOARD.tune(seed=v)),
    ("keep", lambda v: BOARD.tune(keep=[(48, v)])),
    ("max_memory", lambda v: BOARD.tune(max_memory=v)),
    ("squares", lambda v: s.generate(v)),
    ("snakes", lambda v: s.generate(60, v)),
    ("ladders", lambda v: s.generate(60, 5, v)),
    ("seed", lambda v: s.generate(60, seed=v)),
    ("max_length", lambda v: s.generate(60, max_length=v)),
    ("max_memory", lambda v: s.generate(60, target=(5, 50), max_memory=v)),
]

#: Every real-number argument, as (name, a call with it).
REALS = [
    ("max_work", lambda v: BOARD.analyze(max_work=v)),
    ("max_work", lambda v: SMALL.diff(BOARD, max_work=v)),
    ("max_work", lambda v: BOARD.tune(max_work=v)),
    ("max_work", lambda v: s.generate(60, target=(5, 50), max_work=v)),
    ("time_limit", lambda v: BOARD.tune(time_limit=v)),
    ("time_limit", lambda v: s.generate(60, target=(5, 50), time_limit=v)),
    ("target", lambda v: BOARD.tune(target=(v, 32))),
    ("target", lambda v: s.generate(60, target=(30, v))),
    ("max_first_seat_advantage", lambda v: BOARD.tune(max_first_seat_advantage=v)),
    (
        "max_first_seat_advantage",
        lambda v: s.generate(60, target=(5, 50), max_first_seat_advantage=v),
    ),
]


@pytest.mark.parametrize("name, call", INTEGERS)
@pytest.mark.parametrize("bad", [-1, 2**70])
def test_a_negative_or_huge_integer_is_a_value_error_naming_its_argument(name, call, bad):
    # Before, an OverflowError from the native module that named nothing.
    with pytest.raises(ValueError, match=re.escape(name)):
        call(bad)


@pytest.mark.parametrize("name, call", INTEGERS)
@pytest.mark.parametrize("bad", [2.0, "3", True, np.bool_(True), 2.5j])
def test_an_integer_argument_refuses_other_types_naming_it(name, call, bad):
    # Before, players=True was one player and players="23" two counts.
    with pytest.raises(TypeError, match=re.escape(name)):
        call(bad)


@pytest.mark.parametrize("name, call", REALS)
@pytest.mark.parametrize("bad", ["30", True, np.bool_(False), [1.0]])
def test_a_real_argument_refuses_other_types_naming_it(name, call, bad):
    with pytest.raises(TypeError, match=re.escape(name)):
        call(bad)


@pytest.mark.parametrize(
    "name, call",
    [
        ("max_work", lambda: BOARD.analyze(max_work=-1.0)),
        ("max_work", lambda: BOARD.tune(max_work=float("inf"))),
        ("max_work", lambda: BOARD.analyze(max_work=10**400)),
        ("time_limit", lambda: BOARD.tune(time_limit=0)),
        ("time_limit", lambda: BOARD.tune(time_limit=float("nan"))),
        ("time_limit", lambda: s.generate(60, target=(5, 50), time_limit=-3)),
        ("max_memory", lambda: BOARD.analyze(max_memory=0)),
        ("max_first_seat_advantage", lambda: BOARD.tune(max_first_seat_advantage=2.0)),
        ("max_length", lambda: s.generate(60, max_length=0)),
        ("target", lambda: BOARD.tune(target=(30, 32, 34))),
    ],
)
def test_an_out_of_range_number_is_a_value_error_naming_its_argument(name, call):
    with pytest.raises(ValueError, match=re.escape(name)):
        call()


def test_numpy_numbers_and_arrays_in_a_board_dict_are_read_as_numbers():
    plain = {"squares": 100, "ladders": [[1, 38], [4, 14]], "snakes": [[16, 6], [48, 26]]}
    from_numpy = {
        "squares": np.int64(100),
        "ladders": np.array([[1, 38], [4, 14]]),
        "snakes": [[np.int32(16), np.uint8(6)], (np.int64(48), 26)],
        "rules": {"dice": {"count": np.int16(1), "faces": np.uint64(6)}},
    }
    assert s.Board.from_json(from_numpy) == s.Board.from_json(plain)
    assert s.validate(from_numpy).valid
    # A float where a float belongs (a numpy float is a float; a 32-bit one
    # goes through __float__).
    assert s.Board.from_json({"squares": np.int64(20), "limits": {"max_mean_turns": np.float32(500)}})


def test_a_bool_in_a_board_dict_is_never_read_as_one():
    for flag in (True, np.bool_(True)):
        with pytest.raises(s.BoardError) as caught:
            s.Board.from_json({"squares": 10, "snakes": [[flag, 1]]})
        assert "true" in str(caught.value)


def test_numpy_numbers_as_arguments_give_what_python_numbers_give():
    assert BOARD.simulate(
        np.int64(2000), seed=np.uint64(3), players=np.int32(2), threads=np.int8(1),
        max_memory=np.int64(1 << 30),
    ) == BOARD.simulate(2000, seed=3, players=2, threads=1, max_memory=1 << 30)
    a = BOARD.analyze(players=np.int64(2), max_work=np.float32(1e9))
    assert list(a.players) == [2]
    assert list(BOARD.analyze(players=np.array([2, 3])).players) == [2, 3]
    tuned = BOARD.tune(target=(np.float64(30), np.int64(32)), max_changes=np.int64(3), seed=np.uint8(0))
    assert tuned.board == BOARD.tune(target=(30, 32), max_changes=3).board
    made = s.generate(np.int64(60), np.int32(5), np.int16(5), seed=np.uint8(11), max_length=np.int64(20))
    assert made == s.generate(60, 5, 5, seed=11, max_length=20)
    ruled = s.generate(60, 5, 5, rules={"dice": {"count": np.int64(1), "faces": np.int64(4)}})
    assert ruled.rules["dice"] == {"count": 1, "faces": 4}
    assert BOARD.tune(time_limit=timedelta(minutes=5)).mean_turns <= 32


CONTROL = re.compile(r"[\x00-\x1f\x7f\x80-\x9f\u202e]")


def test_messages_escape_control_characters_in_user_text(tmp_path):
    raised = []
    for source in (
        {"squares": 10, "x\x1b[31m\n": 1},
        {"squares": 10, "name": "a\nb\u202e", "snakes": [[4, 8]]},
        str(tmp_path / "no\x1b[31m\nfile.json"),
    ):
        with pytest.raises(s.BoardError) as caught:
            s.Board.from_json(source)
        raised.append(caught.value)
    with pytest.raises(ValueError) as caught:
        BOARD.analyze().report("p\x1b[2J\n")
    raised.append(caught.value)
    with pytest.raises(TypeError) as caught:
        s.Board.from_json({"squares": 10, "name": type("a\x1b[31m", (), {})()})
    raised.append(caught.value)
    for e in raised:
        text = str(e)
        assert not CONTROL.search(text), repr(text)
        for p in getattr(e, "problems", []):
            assert not CONTROL.search(str(p)), repr(str(p))
    # Written as the command writes them on a terminal.
    assert r"x\u{1b}[31m\n" in str(raised[0])
    assert r"no\u{1b}[31m\nfile.json" in str(raised[2])


def test_messages_name_keyword_arguments_not_the_commands_flags():
    with pytest.raises(s.LimitError) as caught:
        BOARD.analyze(max_memory=1000)
    with pytest.raises(s.LimitError) as simulated:
        BOARD.simulate(100, max_memory=1000)
    with pytest.raises(s.DesignError) as worked:
        BOARD.tune(target=(1, 1.01), max_changes=3, max_work=1)
    with pytest.raises(s.DesignError) as ran:
        s.generate(100, 8, 8, target=(1, 1.01), time_limit=0.001)
    with pytest.raises(ValueError) as fair:
        BOARD.tune(max_first_seat_advantage=float("nan"))
    for e, keyword in (
        (caught, "max_memory="), (simulated, "max_memory="), (worked, "max_work="),
        (ran, "time_limit="), (fair, "max_first_seat_advantage"),
    ):
        text = str(e.value)
        assert keyword in text, text
        assert "--" not in text and "first-seat" not in text, text


def over_the_limit(text: str) -> str:
    found = re.search(r"over the limit of ([0-9.]+ [KMGT]?i?B)", text)
    assert found, text
    return found[1]


def test_the_default_memory_limit_is_the_commands(cli, tmp_path):
    # Refused before any work: 1,000 jumps on a million squares need tens
    # of GiB for the search's vectors, more than half of any test machine.
    big = s.generate(1_000_000, 500, 500, seed=1)
    path = tmp_path / "big.json"
    path.write_text(big.to_json(pretty=False))
    run = subprocess.run(
        [str(cli), "tune", str(path), "--target-turns", "30:32"],
        capture_output=True, text=True, timeout=120,
    )
    assert run.returncode == 3, run.stderr
    theirs = over_the_limit(run.stderr)
    with pytest.raises(s.DesignError) as tuned:
        big.tune(target=(30, 32))
    # Before, the package's default was the core's 4 GiB, the command's
    # half the machine's memory.
    assert over_the_limit(str(tuned.value)) == theirs
    run = subprocess.run(
        [str(cli), "generate", "--squares", "1000000", "--snakes", "500", "--ladders", "500",
         "--target-turns", "30:32"],
        capture_output=True, text=True, timeout=120,
    )
    assert run.returncode == 3, run.stderr
    with pytest.raises(s.DesignError) as made:
        s.generate(1_000_000, 500, 500, target=(30, 32))
    assert over_the_limit(str(made.value)) == over_the_limit(run.stderr) == theirs
