"""Python names every figure as the command's JSON does: each key a
JSON-backed result gives (a dict's keys, an analysis's attributes, the
fields and columns inside them) is a key of `snakeladder ... --format json`
of the same call, read from the built command, not from a list here."""

from __future__ import annotations

import json
import subprocess
import warnings
from typing import Any, Dict, Iterable, List, Mapping, Optional, Set, Tuple

import pytest

import snakeladder as s

#: Python's own groupings, not keys of the JSON, and the JSON object whose
#: keys they hold (each of those is checked): `quantiles` is the tuple of
#: `turns`' min, mode, median, p90 and p99; a diff's `same_board` asks
#: whether the two fingerprints (`old`, `new`) are equal.
PYTHON_GROUPINGS: Dict[str, Optional[str]] = {"quantiles": "turns", "same_board": None}


def run_json(cli, *args: str) -> Dict[str, Any]:
    run = subprocess.run(
        [str(cli), *args, "--format", "json"], capture_output=True, text=True, timeout=300
    )
    assert run.returncode == 0, run.stderr
    return json.loads(run.stdout)


def paths(value: Any, prefix: Tuple[str, ...] = ()) -> Set[Tuple[str, ...]]:
    """Every key path of a JSON value, a list's entries all under `[]`."""
    found: Set[Tuple[str, ...]] = set()
    if isinstance(value, Mapping):
        for key, item in value.items():
            found.add(prefix + (key,))
            found |= paths(item, prefix + (key,))
    elif isinstance(value, (list, tuple)):
        for item in value:
            found |= paths(item, prefix + ("[]",))
    return found


def subtrees(value: Any, name: str) -> List[Any]:
    """Every value held under the key `name`, at any depth."""
    found: List[Any] = []
    if isinstance(value, Mapping):
        for key, item in value.items():
            if key == name:
                found.append(item)
            found += subtrees(item, name)
    elif isinstance(value, list):
        for item in value:
            found += subtrees(item, name)
    return found


def names(value: Any) -> Set[str]:
    """Every key at any depth of a JSON value."""
    return {path[-1] for path in paths(value) if path[-1] != "[]"}


def inner_keys(value: Any) -> Set[str]:
    """The keys Python gives inside an attribute's value: a named tuple's
    fields, a mapping's (or columns') string keys, those of the entries of a
    list or of a mapping keyed by number (`players`), at any depth."""
    keys: Set[str] = set()
    if isinstance(value, tuple) and hasattr(value, "_fields"):
        for field in value._fields:
            keys.add(field)
            keys |= inner_keys(getattr(value, field))
    elif isinstance(value, Mapping):
        for key, item in value.items():
            if isinstance(key, str):
                keys.add(key)
            keys |= inner_keys(item)
    elif isinstance(value, list):
        for item in value:
            keys |= inner_keys(item)
    return keys


def public_attributes(obj: Any) -> Iterable[Tuple[str, Any]]:
    """The attributes a user reads (not methods), each read once; those
    that warn of their deprecation (old names, kept working) are left out."""
    for name in dir(type(obj)):
        if name.startswith("_") or callable(getattr(type(obj), name)):
            continue
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            value = getattr(obj, name)
        if any(issubclass(w.category, DeprecationWarning) for w in caught):
            continue
        yield name, value


def assert_attributes_are_keys(obj: Any, theirs: Dict[str, Any], skip: Set[str] = frozenset()):
    checked = 0
    for name, value in public_attributes(obj):
        if name in skip:
            continue
        if name in PYTHON_GROUPINGS:
            parent = PYTHON_GROUPINGS[name]
            under = subtrees(theirs, parent) if parent else []
        else:
            assert name in names(theirs), f"{type(obj).__name__}.{name} is not a key of the JSON"
            under = subtrees(theirs, name)
        inside = inner_keys(value)
        allowed = set().union(*(names(u) for u in under)) if under else set()
        assert inside <= allowed, (
            f"{type(obj).__name__}.{name} gives keys the JSON has not under {name!r}: "
            f"{sorted(inside - allowed)}"
        )
        checked += 1
    assert checked > 0


def assert_paths_within(ours: Any, theirs: Dict[str, Any], what: str):
    extra = paths(ours) - paths(theirs)
    assert not extra, f"{what}: keys Python gives that the command's JSON has not: {sorted(extra)}"


def test_an_analysis_names_its_figures_as_analyze_does(cli):
    theirs = run_json(cli, "analyze", "--players", "2,3", "--exact")
    a = s.Board.builtin().analyze(players=(2, 3), exact=True)
    assert_paths_within(a.to_dict(), theirs, "analyze")
    # `board` is the Board analysed (the JSON's `board` names it).
    assert_attributes_are_keys(a, theirs, skip={"board"})


def test_the_old_names_still_read_with_a_deprecation_warning():
    a = s.Board.builtin().analyze(players=(2,), exact=True)
    with pytest.warns(DeprecationWarning, match="players"):
        assert a.seat_odds[2].win_probability.tolist() == a.players[2].win_probability.tolist()
    with pytest.warns(DeprecationWarning, match="shortest"):
        assert a.shortest_game == a.shortest
    with pytest.warns(DeprecationWarning, match="exact.mean_turns"):
        assert a.exact_mean == a.exact.mean_turns
    with pytest.warns(DeprecationWarning, match="mean_error_bound"):
        assert a.error_bounds == {"mean": a.mean_error_bound, "variance": a.variance_error_bound}
    tuned = s.Board.builtin().tune(target=(30, 32), max_changes=3)
    with pytest.warns(DeprecationWarning, match="mean_turns_before"):
        assert tuned.mean_before == tuned["mean_before"] == tuned.mean_turns_before
    assert "mean_before" not in tuned


def test_a_simulation_names_its_figures_as_simulate_does(cli):
    theirs = run_json(cli, "simulate", "--games", "20000", "--seed", "5", "--players", "2")
    ours = s.Board.builtin().simulate(20_000, seed=5, players=2)
    assert_paths_within(ours, theirs, "simulate")


def test_a_check_names_its_figures_as_check_does(cli):
    theirs = run_json(cli, "check", "--games", "20000", "--seed", "5", "--players", "2")
    ours = s.Board.builtin().check(20_000, seed=5, players=2)
    assert_paths_within(ours, theirs, "check")


def test_a_diff_names_its_figures_as_diff_does(cli, boards):
    old, new = boards / "althoen-1993.json", boards / "milton-bradley.json"
    theirs = run_json(cli, "diff", str(old), str(new))
    d = s.Board.from_json(old).diff(s.Board.from_json(new))
    assert_paths_within(d.to_dict(), theirs, "diff")
    assert_attributes_are_keys(d, theirs)


def test_a_tuning_names_its_figures_as_tune_does(cli):
    theirs = run_json(cli, "tune", "--target-turns", "30:32", "--max-changes", "3")
    ours = dict(s.Board.builtin().tune(target=(30, 32), max_changes=3))
    # `board` is the tuned Board (the JSON's `board` names the board tuned,
    # its `board_file` holds the tuned one).
    ours.pop("board")
    assert_paths_within(ours, theirs, "tune")
