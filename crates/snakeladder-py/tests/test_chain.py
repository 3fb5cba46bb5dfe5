"""`snakeladder.Chain`: any absorbing chain, checked against closed forms,
across every way of giving it, against the command's JSON, and with every
malformed input named whole."""

from __future__ import annotations

import json
import math
import subprocess
import sys
import textwrap
from fractions import Fraction
from pathlib import Path
from typing import Any, Dict, List, Tuple

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import snakeladder as s

# ---------------------------------------------------------------------------
# Chains with known answers.


def gamblers_ruin(p: Fraction, n: int) -> List[Tuple[int, int, Fraction]]:
    """States 0..n: win a unit with chance p, lose one otherwise; 0 and n
    absorb."""
    q = 1 - p
    triplets = [(0, 0, Fraction(1)), (n, n, Fraction(1))]
    for i in range(1, n):
        triplets += [(i, i + 1, p), (i, i - 1, q)]
    return triplets


def ruin_reach(p: Fraction, n: int, i: int) -> Fraction:
    """The chance of reaching n before 0 from i."""
    if p == Fraction(1, 2):
        return Fraction(i, n)
    r = (1 - p) / p
    return (1 - r**i) / (1 - r**n)


def ruin_duration(p: Fraction, n: int, i: int) -> Fraction:
    """The expected steps until 0 or n from i."""
    if p == Fraction(1, 2):
        return Fraction(i * (n - i))
    q = 1 - p
    return Fraction(i) / (q - p) - Fraction(n) / (q - p) * ruin_reach(p, n, i)


#: The Knuth–Yao die: fair coin flips until a face is settled (states 7 to
#: 12 are the faces).
KNUTH_YAO = [
    (0, 1), (0, 2), (1, 3), (1, 4), (2, 5), (2, 6),
    (3, 1), (3, 7), (4, 8), (4, 9), (5, 10), (5, 11), (6, 12), (6, 2),
]  # fmt: skip
FACES = list(range(7, 13))


def knuth_yao(value: Any = Fraction(1, 2)) -> List[Tuple[int, int, Any]]:
    return [(a, b, value) for a, b in KNUTH_YAO] + [(f, f, 1) for f in FACES]


def tra_text(triplets: List[Tuple[int, int, Any]], states: int) -> str:
    lines = [f"{states} {len(triplets)}"] + [f"{a} {b} {p}" for a, b, p in sorted(triplets)]
    return "\n".join(lines) + "\n"


def within(value: float, truth: Fraction, bound: float) -> bool:
    """`value` is within its certified bound of the truth (the truth
    compared in fractions, so the check itself does not round)."""
    return abs(Fraction(value) - truth) <= Fraction(bound)


@pytest.mark.parametrize("p", [Fraction(1, 2), Fraction(2, 5), Fraction(3, 5)])
def test_gamblers_ruin_reach_probability_matches_the_closed_form(p):
    n = 10
    chain = s.Chain(gamblers_ruin(p, n), initial=3, target=[n])
    a = chain.answer(exact=True)
    for i in range(n + 1):
        truth = ruin_reach(p, n, i)
        assert within(a.reach_probabilities[i], truth, a.reach_probabilities_error_bounds[i]), i
        assert a.reach_probabilities[i] == pytest.approx(float(truth), abs=1e-14)
    assert a.exact.reach_probability == ruin_reach(p, n, 3)
    assert within(a.reach_probability, ruin_reach(p, n, 3), a.reach_probability_error_bound)
    # Ruin (state 0) is absorbing and misses the target: the steps are
    # infinite, and the reason names it.
    assert a.expected_steps == math.inf
    assert a.exact.expected_steps is None
    assert list(a.never_reaching) == [0]
    assert "never reach" in a.expected_steps_infinite_because
    assert list(np.flatnonzero(np.isinf(a.expected_steps_from))) == list(range(0, n))


@pytest.mark.parametrize("p", [Fraction(1, 2), Fraction(2, 5)])
def test_gamblers_ruin_duration_matches_the_closed_form(p):
    n = 10
    chain = s.Chain(gamblers_ruin(p, n), initial=4, target=[0, n])
    a = chain.answer(exact=True)
    for i in range(n + 1):
        truth = ruin_duration(p, n, i)
        assert within(a.expected_steps_from[i], truth, a.expected_steps_from_error_bounds[i]), i
        assert a.expected_steps_from[i] == pytest.approx(float(truth), rel=1e-13)
    assert a.exact.expected_steps == ruin_duration(p, n, 4)
    if p == Fraction(1, 2):
        assert a.exact.expected_steps == 4 * 6
    assert a.exact.reach_probability == 1
    assert a.expected_steps_infinite_because is None
    assert a.reach_probability == 1.0
    # The steps' distribution sums to the mean it gives.
    d = a.distribution
    assert d.tail < 1e-12
    mean = float(np.sum(np.arange(d.pmf.size) * d.pmf))
    assert mean == pytest.approx(float(a.exact.expected_steps), rel=1e-9)


def test_the_knuth_yao_die_takes_eleven_thirds_flips_exactly():
    chain = s.Chain(knuth_yao(), initial=0, target=FACES)
    a = chain.answer(exact=True)
    assert a.exact.expected_steps == Fraction(11, 3)
    assert a.exact.reach_probability == 1
    assert within(a.expected_steps, Fraction(11, 3), a.expected_steps_error_bound)
    assert a.distribution.pmf[0] == 0 and a.distribution.pmf[3] == pytest.approx(0.75)
    assert a.distribution.median == 3
    # One face as the target: 1/6; the other faces, and the nodes of the
    # tree that cannot lead to it (2, 4, 5, 6), never reach it.
    one = s.Chain(knuth_yao(), initial=0, target=[7]).answer(exact=True)
    assert one.exact.reach_probability == Fraction(1, 6)
    assert one.expected_steps == math.inf
    assert list(one.never_reaching) == [2, 4, 5, 6] + FACES[1:]


def test_a_closed_class_that_never_reaches_the_target_makes_the_steps_infinite():
    # 0 -> 1 or 2; 1 <-> 3 is a closed class; 2 is the target.
    half = Fraction(1, 2)
    chain = s.Chain(
        [(0, 1, half), (0, 2, half), (1, 3, 1), (3, 1, 1), (2, 2, 1)], initial=0, target=[2]
    )
    a = chain.answer(exact=True)
    assert a.reach_probability == 0.5 and a.exact.reach_probability == half
    assert a.expected_steps == math.inf and a.variance == math.inf
    assert a.expected_steps_error_bound == 0.0
    assert a.exact.expected_steps is None and a.exact.variance is None
    assert list(a.never_reaching) == [1, 3]
    because = a.expected_steps_infinite_because
    assert "probability 0.5 < 1" in because and "2 states that never reach it: 1, 3" in because
    assert list(a.expected_steps_from) == [math.inf, math.inf, 0.0, math.inf]
    assert list(a.reach_probabilities) == [0.5, 0.0, 1.0, 0.0]
    assert a.distribution.never == pytest.approx(0.5)
    # Expected visits before the end: the start once, nothing else live.
    assert list(a.visits) == [1.0, 0.0, 0.0, 0.0]


def test_rewards_and_an_initial_distribution():
    # From 0 or 1 (half each): 0 -> 1 -> 2, rewards 3 and 5 per step.
    chain = s.Chain(
        [(0, 1, 1), (1, 2, 1), (2, 2, 1)],
        initial={0: "1/2", 1: Fraction(1, 2)},
        target=np.array([False, False, True]),
        rewards=[3, 5, 100],
    )
    a = chain.answer(exact=True)
    assert a.exact.expected_steps == Fraction(3, 2)
    assert a.exact.expected_reward == Fraction(3 + 5 + 5, 2)
    assert a.exact.variance == Fraction(1, 4)
    assert a.expected_reward == pytest.approx(6.5)
    assert list(a.visits) == [0.5, 1.0, 0.0]
    without = s.Chain([(0, 1, 1), (1, 1, 1)], initial=0, target=1).answer(exact=True)
    assert without.expected_reward is None and without.exact.expected_reward is None


# ---------------------------------------------------------------------------
# Every way of giving the same chain gives the same answers.


def random_chain(n: int, seed: int) -> List[Tuple[int, int, Fraction]]:
    rng = np.random.default_rng(seed)
    triplets = []
    for i in range(n - 1):
        cols = sorted(set(rng.choice(n, size=4, replace=False).tolist()) - {i} | {i + 1})
        weights = [int(w) for w in rng.integers(1, 9, size=len(cols))]
        total = sum(weights)
        triplets += [(i, j, Fraction(w, total)) for j, w in zip(cols, weights)]
    triplets.append((n - 1, n - 1, Fraction(1)))
    return triplets


def same(a: s.ChainAnswers, b: s.ChainAnswers) -> None:
    for name in (
        "reach_probability",
        "reach_probability_error_bound",
        "expected_steps",
        "expected_steps_error_bound",
        "variance",
        "variance_error_bound",
    ):
        assert getattr(a, name) == getattr(b, name), name
    for name in (
        "reach_probabilities",
        "reach_probabilities_error_bounds",
        "expected_steps_from",
        "expected_steps_from_error_bounds",
        "visits",
        "visits_error_bounds",
        "never_reaching",
    ):
        assert np.array_equal(getattr(a, name), getattr(b, name)), name
    assert np.array_equal(a.distribution.pmf, b.distribution.pmf)


def test_numpy_scipy_and_fraction_triplets_give_the_same_answers():
    n = 30
    triplets = random_chain(n, seed=7)
    dense = np.zeros((n, n))
    for i, j, p in triplets:
        dense[i, j] = float(p)
    by_fractions = s.Chain(triplets, initial=0, target=[n - 1]).answer(exact=True)
    by_text = s.Chain([(i, j, f"{p.numerator}/{p.denominator}") for i, j, p in triplets], 0, [n - 1])
    by_numpy = s.Chain(dense, initial=0, target=[n - 1]).answer()
    same(by_fractions, by_numpy)
    same(by_text.answer(), by_numpy)
    assert by_text.answer(exact=True).exact == by_fractions.exact
    # A matrix of Fractions (numpy's object arrays) is exact too.
    objects = np.zeros((n, n), dtype=object)
    for i, j, p in triplets:
        objects[i, j] = p
    assert s.Chain(objects, 0, [n - 1]).answer(exact=True).exact == by_fractions.exact
    mask = np.zeros(n, dtype=bool)
    mask[n - 1] = True
    sparse = pytest.importorskip("scipy.sparse")
    for kind in ("csr_matrix", "csc_matrix", "coo_matrix", "lil_matrix", "dok_matrix", "csr_array"):
        m = getattr(sparse, kind)(dense)
        same(s.Chain(m, initial=0, target=mask).answer(), by_numpy)
    # Duplicate COO coordinates add up, as they do in scipy.
    rows, cols = np.nonzero(dense)
    vals = dense[rows, cols]
    doubled = sparse.coo_matrix(
        (np.concatenate([vals / 2, vals / 2]), (np.tile(rows, 2), np.tile(cols, 2))), shape=(n, n)
    )
    assert s.Chain(doubled, 0, [n - 1]).answer().reach_probability == pytest.approx(
        by_numpy.reach_probability, abs=1e-15
    )


def test_floats_refuse_exact_answers_and_say_why():
    chain = s.Chain(np.array([[0.5, 0.5], [0.0, 1.0]]), initial=0, target=[1])
    assert not chain.is_exact
    with pytest.raises(s.ChainError) as e:
        chain.answer(exact=True)
    assert e.value.problems[0].kind == "not_exact"
    assert "float" in str(e.value)


# ---------------------------------------------------------------------------
# Malformed input: every problem, at once.


def test_every_problem_of_triplets_is_named_at_once():
    with pytest.raises(s.ChainError) as e:
        s.Chain(
            [
                (0, 1, 0.5),  # row 0 sums to 0.75
                (0, 2, 0.25),
                (1, 1, -1),  # negative
                (1, 2, "abc"),  # not a number
                (2, "x", 1),  # not a state
                (-1, 0, 1),  # negative state
                (3, 3),  # not a triplet
            ],
            initial={0: 1},
            target=[2, 9],
            states=3,
        )
    err = e.value
    assert isinstance(err, s.SnakeladderError) and isinstance(err, ValueError)
    kinds = sorted(p.kind for p in err.problems)
    assert kinds == sorted(
        [
            "row_sum",
            "negative_transition",
            "not_a_number",
            "not_a_state",
            "not_a_state",
            "not_a_triplet",
            "state_out_of_range",
        ]
    ), [str(p) for p in err.problems]
    text = str(err)
    assert text.startswith(f"{len(err.problems)} problems:")
    for p in err.problems:
        assert str(p) in text
    where = {p.kind: p.location for p in err.problems}
    assert where["negative_transition"] == "transitions[2]"
    assert where["not_a_triplet"] == "transitions[6]"
    assert where["state_out_of_range"] == "target[1]"
    # Row 1's sum is not named: its "abc" is.
    assert [p for p in err.problems if p.kind == "row_sum"][0].message.startswith(
        "the transitions out of state 0 sum to 0.75"
    )


def test_every_problem_of_a_matrix_is_named_by_row_and_column():
    m = np.array([[0.5, float("nan"), 0.0], [0.0, 0.25, 0.5], [0.0, 0.0, 1.0]])
    with pytest.raises(s.ChainError) as e:
        s.Chain(m, initial=[0.5, 0.25, 0.0], target=[False, False, True], rewards=[1, -2, 0])
    by_kind = {p.kind: p for p in e.value.problems}
    assert by_kind["transition_not_finite"].location == "matrix[0, 1]"
    assert by_kind["transition_not_finite"].index == (0, 1)
    assert "state 1" in by_kind["row_sum"].message
    assert by_kind["row_sum"].location == "matrix[1, :]"
    assert by_kind["initial_sum"].message.startswith("the initial")
    assert by_kind["negative_reward"].location == "rewards[1]"
    # Row 0's sum is not named: its NaN is.
    assert len(e.value.problems) == 4, [str(p) for p in e.value.problems]


@pytest.mark.parametrize(
    "args, kind",
    [
        ((np.ones((2, 3)) / 3, 0, [1]), "matrix_shape"),
        ((np.eye(2), 0, np.array([True, False, True])), "mask_length"),
        ((np.eye(2), None, [1]), "not_an_initial"),
        ((np.eye(2), 0, [1], [1, 2, 3]), "reward_count"),
        ((np.eye(2), 0, []), "no_target"),
        ((42, 0, [1]), "not_a_matrix"),
        (([(0, 1, True), (1, 1, 1)], 0, [1]), "not_a_number"),
    ],
)
def test_each_malformed_argument_is_a_chain_problem(args, kind):
    with pytest.raises(s.ChainError) as e:
        s.Chain(*args)
    assert kind in [p.kind for p in e.value.problems], str(e.value)


def test_a_problem_of_a_file_names_its_line_and_column(tmp_path):
    tra = tmp_path / "bad.tra"
    tra.write_text("3 4\n0 1 0.5\n0 2 0.4\n1 1 1\n2 2 x\n")
    with pytest.raises(s.ChainError) as e:
        s.Chain.from_explicit(tra)
    found = {(p.kind, p.line, p.column) for p in e.value.problems}
    assert ("bad_number", 5, 5) in found, str(e.value)
    assert any(p.kind == "row_sum" for p in e.value.problems)
    assert all(p.file == str(tra) for p in e.value.problems if p.line is not None)
    with pytest.raises(s.ChainError) as e:
        s.Chain.from_explicit(tmp_path / "missing.tra")
    assert e.value.problems[0].kind == "io"
    with pytest.raises(s.ChainError) as e:
        s.Chain.from_json('{"states": 2, "transitions": [[0, 1, "1/2"]], "initial": 0, "target": [1]}')
    assert "the transitions out of state 0 sum to 1/2" in str(e.value)


def test_more_than_a_hundred_problems_are_counted():
    with pytest.raises(s.ChainError) as e:
        s.Chain([(i, i, -1) for i in range(150)], initial=0, target=[0])
    assert len(e.value.problems) == 100 and e.value.omitted > 0
    assert str(e.value).endswith(f"and {e.value.omitted} more")
    # Problems found before the engine's are bounded alike, and the rows
    # left without a transition by them are not counted as deadlocks.
    with pytest.raises(s.ChainError) as e:
        s.Chain([(i, i, "x") for i in range(1000)], initial=0, target=[0])
    assert len(e.value.problems) == 100 and e.value.omitted == 900
    assert str(e.value).startswith("1000 problems:")


# ---------------------------------------------------------------------------
# Files, JSON and the command.


def write_die(tmp_path: Path) -> Tuple[Path, Path, Path]:
    tra = tmp_path / "die.tra"
    tra.write_text(tra_text(knuth_yao("1/2"), 13))
    lab = tmp_path / "die.lab"
    lab.write_text('0="init" 1="done" 2="six"\n0: 0\n' + "".join(f"{f}: 1\n" for f in FACES[:-1]) + "12: 1 2\n")
    srew = tmp_path / "die.srew"
    srew.write_text("13 2\n0 1\n3 1/2\n")
    return tra, lab, srew


def test_explicit_files_and_json_read_the_same_chain(tmp_path):
    tra, lab, srew = write_die(tmp_path)
    chain = s.Chain.from_explicit(tra, labels=lab, state_rewards=srew, target="done")
    assert (chain.states, chain.transitions, chain.targets) == (13, 20, 6)
    a = chain.answer(exact=True)
    assert a.exact.expected_steps == Fraction(11, 3)
    six = s.Chain.from_explicit(tra, labels=lab, target="six").answer(exact=True)
    assert six.exact.reach_probability == Fraction(1, 6)
    again = s.Chain.from_json(chain.to_json()).answer(exact=True)
    assert again.exact == a.exact
    path = tmp_path / "die.json"
    path.write_text(chain.to_json())
    assert s.Chain.from_json(path).answer(exact=True).exact == a.exact
    assert s.Chain.from_json(json.loads(chain.to_json())).answer(exact=True).exact == a.exact
    # The faces are the absorbing states.
    by_hand = s.Chain(knuth_yao(), initial=0, target="absorbing")
    assert by_hand.targets == 6 and list(np.flatnonzero(by_hand.target_mask)) == FACES
    with pytest.raises(ValueError, match="labels"):
        s.Chain.from_explicit(tra, target="done")


#: The command's keys that are the chain's (its size) or describe how it
#: was chosen, or the output's version (`schema`), not answers; and
#: `tail_beyond_listed`, the distribution's mass past the terms the JSON
#: lists (Python lists every term).
NOT_ANSWERS = {"schema", "states", "transitions", "targets", "initial", "target"}
PYTHON_ONLY = {
    "reach_probabilities",
    "reach_probabilities_error_bounds",
    "expected_steps_from",
    "expected_steps_from_error_bounds",
    "visits",
    "visits_error_bounds",
}


def run_chain(cli, *args: Any) -> Dict[str, Any]:
    run = subprocess.run(
        [str(cli), "chain", *map(str, args), "--format", "json"],
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert run.returncode == 0, run.stderr
    return json.loads(run.stdout)


def agree(cli_json: Dict[str, Any], chain: s.Chain, a: s.ChainAnswers) -> None:
    # Keys the command leaves out when they have no value: the reason for
    # finite steps, the reward without rewards.
    optional = {"expected_steps_infinite_because", "expected_reward", "expected_reward_error_bound"}
    for name in set(a.__dataclass_fields__) - PYTHON_ONLY:
        assert name in cli_json or (name in optional and getattr(a, name) is None), name
    for key, value in cli_json.items():
        if key in NOT_ANSWERS:
            assert key in ("schema", "initial", "target") or getattr(chain, key) == value, key
            continue
        got = getattr(a, key)
        if key == "never_reaching":
            assert list(got[:10]) == value
        elif key == "distribution":
            d = got
            for k in ("median", "p90", "p99", "tail", "never", "error_bound"):
                assert getattr(d, k) == value[k], k
            assert d.pmf.tolist()[: len(value["pmf"])] == value["pmf"]
            assert d.cdf.tolist()[: len(value["cdf"])] == value["cdf"]
            assert set(value) - {"tail_beyond_listed"} <= set(dir(d))
        elif key == "exact":
            for k, text in value.items():
                f = getattr(got, k)
                assert (None if f is None else f"{f.numerator}/{f.denominator}".removesuffix("/1")) == text, k
        elif value is None:
            # An infinite expectation: null in JSON, inf (bound 0) here.
            assert got in (math.inf, 0.0), key
        else:
            assert got == value, key


def test_answers_agree_with_the_command_key_by_key(cli, tmp_path):
    tra, lab, srew = write_die(tmp_path)
    for extra, target in (((), None), (("--target", "six"), "six")):
        cli_json = run_chain(cli, tra, "--labels", lab, "--state-rewards", srew, *extra, "--exact")
        chain = s.Chain.from_explicit(tra, labels=lab, state_rewards=srew, target=target)
        agree(cli_json, chain, chain.answer(exact=True))
    # A chain with an infinite expectation, as JSON.
    path = tmp_path / "closed.json"
    path.write_text(
        json.dumps(
            {"states": 4, "transitions": [[0, 1, "1/2"], [0, 2, "1/2"], [1, 3, 1], [3, 1, 1]], "initial": 0, "target": [2]}
        )
    )
    cli_json = run_chain(cli, path, "--exact")
    assert cli_json["expected_steps"] is None
    chain = s.Chain.from_json(path)
    a = chain.answer(exact=True)
    agree(cli_json, chain, a)
    assert a.expected_steps_infinite_because == cli_json["expected_steps_infinite_because"]


# ---------------------------------------------------------------------------
# Size, limits and Ctrl-C.


def test_fractions_past_python_s_4300_digit_limit_cross_whole():
    # From 0, the target with chance a, else stay: expected steps 1/a,
    # variance (1 - a)/a^2; a's numerator and denominator have 4375 digits.
    a = Fraction(11**4200 - 2, 3 * 11**4200)
    assert a.denominator.bit_length() > 4300 * math.log2(10)
    chain = s.Chain([(0, 1, a), (0, 0, 1 - a), (1, 1, 1)], initial=0, target=[1])
    exact = chain.answer(exact=True, distribution=False).exact
    assert exact.expected_steps == 1 / a
    assert exact.variance == (1 - a) / a**2
    assert exact.expected_steps.numerator.bit_length() > 4300 * math.log2(10)
    assert "bit" in repr(exact)  # shown by size, not printed whole


def test_a_chance_too_small_for_floats_is_an_analysis_error():
    # 1e-300 is lost beside 1 in floats: the state seems never to leave.
    a = Fraction(1, 10**300)
    chain = s.Chain([(0, 1, a), (0, 0, 1 - a), (1, 1, 1)], initial=0, target=[1])
    with pytest.raises(s.AnalysisError, match="singular"):
        chain.answer(exact=True)


def test_limits_are_limit_errors():
    chain = s.Chain(random_chain(30, seed=1), initial=0, target=[29])
    with pytest.raises(s.LimitError):
        chain.answer(max_work=10)
    with pytest.raises(s.LimitError):
        chain.answer(max_memory=10)
    with pytest.raises(ValueError):
        chain.answer(max_work=-1)


def test_the_repr_is_short_for_a_large_chain():
    n = 20_000
    triplets = [(i, i + 1, 1) for i in range(n - 1)] + [(n - 1, n - 1, 1)]
    a = s.Chain(triplets, initial=0, target=[n - 1]).answer(distribution=False)
    assert a.expected_steps == n - 1
    assert len(repr(a)) < 400 and "ChainAnswers(" in repr(a)
    assert a.visits.flags.writeable is False


def test_ctrl_c_stops_a_long_answer():
    # Each state stays with chance 1 - 1e-6: the steps' distribution runs
    # for millions of steps over 2000 states, minutes of work.
    script = textwrap.dedent(
        """
        import json, os, signal, sys, threading, time
        import snakeladder as s
        n = 2000
        t = [(i, i, 1 - 1e-6) for i in range(n - 1)] + [(i, i + 1, 1e-6) for i in range(n - 1)]
        chain = s.Chain(t + [(n - 1, n - 1, 1.0)], initial=0, target=[n - 1])
        sent = []
        def interrupt():
            sent.append(time.monotonic())
            os.kill(os.getpid(), signal.SIGINT)
        threading.Timer(1.0, interrupt).start()
        try:
            chain.answer(max_work=1e18)
        except KeyboardInterrupt:
            waited = time.monotonic() - sent[0]
            deadline = time.monotonic() + 30.0
            while s._native._busy_workers() and time.monotonic() < deadline:
                time.sleep(0.05)
            ended = None if s._native._busy_workers() else time.monotonic() - sent[0]
            print(json.dumps({"waited": waited, "ended": ended}))
            sys.exit(0)
        sys.exit("finished before Ctrl-C")
        """
    )
    run = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=120)
    assert run.returncode == 0, run.stderr
    found = json.loads(run.stdout)
    assert found["waited"] < 2.0, found
    assert found["ended"] is not None, f"the work went on after Ctrl-C: {found}"


@st.composite
def exact_chains(draw):
    """Random small chains with exact rows (weights over a common total),
    some states leading only among themselves, a random target set."""
    n = draw(st.integers(min_value=2, max_value=12))
    triplets = []
    for i in range(n):
        tos = draw(st.lists(st.integers(0, n - 1), min_size=1, max_size=4, unique=True))
        weights = [draw(st.integers(1, 9)) for _ in tos]
        triplets += [(i, t, Fraction(w, sum(weights))) for t, w in zip(tos, weights)]
    target = draw(st.lists(st.integers(0, n - 1), min_size=1, max_size=3, unique=True))
    initial = draw(st.integers(0, n - 1))
    rewards = draw(st.one_of(st.none(), st.lists(st.integers(0, 5), min_size=n, max_size=n)))
    return triplets, initial, target, rewards


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(exact_chains())
def test_random_chains_agree_with_the_command(cli, tmp_path, drawn):
    triplets, initial, target, rewards = drawn
    chain = s.Chain(triplets, initial=initial, target=target, rewards=rewards)
    path = tmp_path / "random.json"
    path.write_text(chain.to_json())
    a = chain.answer(exact=True)
    agree(run_chain(cli, path, "--exact"), chain, a)
    # The floats are within their bounds of the fractions.
    e = a.exact
    assert within(a.reach_probability, e.reach_probability, a.reach_probability_error_bound)
    if e.expected_steps is not None:
        assert within(a.expected_steps, e.expected_steps, a.expected_steps_error_bound)
        assert within(a.variance, e.variance, a.variance_error_bound)
    else:
        assert a.expected_steps == math.inf and a.expected_steps_infinite_because
