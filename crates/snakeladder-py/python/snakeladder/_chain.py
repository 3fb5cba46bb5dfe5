"""Any absorbing Markov chain: built from a matrix or triplets, or read from
PRISM's and Storm's explicit files or JSON, and answered by the same engine
as ``snakeladder chain``."""

from __future__ import annotations

import json
import math
import numbers
import operator
import os
from dataclasses import dataclass
from fractions import Fraction
from typing import Any, Dict, Iterable, List, Mapping, Optional, Sequence, Set, Tuple, Union

import numpy as np

from . import _native
from ._errors import ChainError, ChainProblem

#: The largest state number handed to the engine: one past it would not fit
#: its integers on the way. The engine itself names any state past its own
#: limit (``uint32``) or past the chain's states.
_MAX_STATE_NUMBER = 2**63 - 1


class _Bad(Exception):
    """An item that is not what its place needs; its message says why."""


def _number(x: Any) -> Any:
    """``x`` as the native side reads a number: ``(numerator,
    denominator)`` for an exact one, text to read exactly, or a float."""
    if isinstance(x, (bool, np.bool_)):
        raise _Bad(f"{x!r} is a bool, not a number")
    if isinstance(x, numbers.Integral):
        return (int(x), 1)
    if isinstance(x, numbers.Rational):
        return (int(x.numerator), int(x.denominator))
    if isinstance(x, str):
        return x
    if isinstance(x, (float, np.floating)):
        return float(x)
    if hasattr(x, "as_integer_ratio") and hasattr(x, "is_finite"):
        # decimal.Decimal: exactly the fraction it writes.
        if x.is_finite():
            n, d = x.as_integer_ratio()
            return (int(n), int(d))
        return float(x)
    if isinstance(x, numbers.Real):
        return float(x)
    raise _Bad(f"{x!r} ({type(x).__name__}) is not a number")


def _state(x: Any) -> int:
    if isinstance(x, (bool, np.bool_)):
        raise _Bad(f"{x!r} is a bool, not a state number")
    try:
        s = operator.index(x)
    except TypeError:
        raise _Bad(f"{x!r} ({type(x).__name__}) is not a state number") from None
    if s < 0:
        raise _Bad(f"the state {s} is negative")
    if s > _MAX_STATE_NUMBER:
        raise _Bad(f"the state {s} is too large")
    return s


def _problem(kind: str, message: str, part: str, index: Any) -> Dict[str, Any]:
    where = f"{index[0]}, {index[1]}" if isinstance(index, tuple) else index
    return {
        "kind": kind,
        "message": message,
        "location": f"{part}[{where}]" if index is not None else part,
        "part": part,
        "index": index,
    }


def _is_sparse(x: Any) -> bool:
    # scipy.sparse without importing scipy: every sparse matrix and array
    # converts to coordinates with tocoo().
    return hasattr(x, "tocoo") and hasattr(x, "shape") and not isinstance(x, np.ndarray)


def _is_mask(x: Any) -> bool:
    if isinstance(x, np.ndarray):
        return x.dtype == np.bool_
    if isinstance(x, (list, tuple)) and x:
        return all(isinstance(v, (bool, np.bool_)) for v in x)
    return False


class _Input:
    """A chain given from Python, as the native builder takes it, with
    every problem found in its types and shapes."""

    def __init__(self) -> None:
        self.problems: List[Dict[str, Any]] = []
        self.transitions: List[Tuple[int, int, Any, int]] = []
        #: A float matrix's entries as bytes: rows, columns, probabilities.
        self.floats: Optional[Tuple[bytes, ...]] = None
        #: Their rows and columns, for the place of a problem.
        self.coords: Optional[Tuple[np.ndarray, np.ndarray]] = None
        #: Each transition's place for the caller: ``(row, column)`` of a
        #: matrix, else its index in the list.
        self.places: List[Any] = []
        self.matrix = False
        self.states: Optional[int] = None
        self.largest = -1
        self.unchecked_rows: Set[int] = set()

    def bad(self, kind: str, message: str, part: str, index: Any) -> None:
        self.problems.append(_problem(kind, message, part, index))

    def see(self, s: int) -> int:
        self.largest = max(self.largest, s)
        return s

    def matrix_entries(self, matrix: Any) -> None:
        self.matrix = True
        if _is_sparse(matrix):
            coo = matrix.tocoo()
            if not getattr(coo, "has_canonical_format", True):
                # Duplicate coordinates of a COO matrix add up, as in scipy.
                coo = coo.copy()
                coo.sum_duplicates()
            shape = tuple(coo.shape)
            rows, cols, data = np.asarray(coo.row), np.asarray(coo.col), np.asarray(coo.data)
        else:
            a = np.asarray(matrix)
            shape = a.shape
            if a.ndim != 2:
                self.bad("matrix_shape", f"the matrix has {a.ndim} dimensions, not 2", "matrix", None)
                return
            rows, cols = np.nonzero(a)
            data = a[rows, cols]
        if len(shape) != 2 or shape[0] != shape[1]:
            self.bad(
                "matrix_shape",
                f"the matrix is {' x '.join(map(str, shape))}, not square",
                "matrix",
                None,
            )
            return
        self.states = int(shape[0])
        if data.dtype.kind == "f":
            # Handed over as bytes: no Python object per entry.
            self.floats = tuple(
                np.ascontiguousarray(x, dtype=dt).tobytes()
                for x, dt in ((rows, np.int64), (cols, np.int64), (data, np.float64))
            )
            self.coords = (rows, cols)
            return
        for r, c, x in zip(rows.tolist(), cols.tolist(), data.tolist()):
            try:
                self.transitions.append((r, c, _number(x), len(self.places)))
                self.places.append((r, c))
            except _Bad as e:
                self.bad("not_a_number", f"the probability of {r} -> {c}: {e}", "matrix", (r, c))
                self.unchecked_rows.add(r)

    def triplet_entries(self, triplets: Iterable[Any]) -> None:
        try:
            items = list(triplets)
        except TypeError:
            self.bad(
                "not_a_matrix",
                f"{type(triplets).__name__} is neither a matrix nor a list of (from, to, p)",
                "transitions",
                None,
            )
            return
        for i, item in enumerate(items):
            try:
                if isinstance(item, (str, bytes)) or len(item) != 3:
                    raise TypeError
                f, t, p = item
            except TypeError:
                self.bad("not_a_triplet", f"{item!r} is not a (from, to, p) triplet", "transitions", i)
                continue
            try:
                f = self.see(_state(f))
            except _Bad as e:
                self.bad("not_a_state", str(e), "transitions", i)
                continue
            try:
                t = self.see(_state(t))
                value = _number(p)
            except _Bad as e:
                self.bad("not_a_state" if "state" in str(e) else "not_a_number", str(e), "transitions", i)
                self.unchecked_rows.add(f)
                continue
            self.transitions.append((f, t, value, i))
            self.places.append(i)

    def place(self, index: int) -> Any:
        if self.coords is not None:
            return (int(self.coords[0][index]), int(self.coords[1][index]))
        return self.places[index]


def _relocated(err: ChainError, given: _Input) -> ChainError:
    """``err`` with each transition named as the caller gave it: a matrix
    entry by its row and column."""
    if not given.matrix:
        return err
    problems = []
    for p in err.problems:
        if p.part == "transitions" and isinstance(p.index, int):
            r, c = given.place(p.index)
            # A row's sum is the whole row's, not its first entry's.
            where = f"matrix[{r}, :]" if p.kind == "row_sum" else f"matrix[{r}, {c}]"
            p = ChainProblem(p.kind, p.message, where, part="matrix", index=(r, c))
        problems.append(p)
    return ChainError(problems, err.omitted)


def _read_only(a: np.ndarray) -> np.ndarray:
    a.flags.writeable = False
    return a


def _floats(data: bytes) -> np.ndarray:
    return _read_only(np.frombuffer(data, dtype=np.float64))


def _fraction(pair: Optional[Tuple[int, int]]) -> Optional[Fraction]:
    # The native side gives integers of any size (converted through bytes):
    # no decimal text, which Python refuses past 4300 digits.
    return None if pair is None else Fraction(pair[0], pair[1])


def _short(a: Any) -> str:
    if isinstance(a, np.ndarray):
        return f"array(<{a.size} {a.dtype}>)"
    if isinstance(a, Fraction):
        n, d = a.numerator, a.denominator
        if max(n.bit_length(), d.bit_length()) > 64:
            return f"Fraction(<{n.bit_length()}-bit>/<{d.bit_length()}-bit>, ≈{float(a):.6g})"
    return repr(a)


def _repr(obj: Any, names: Sequence[str]) -> str:
    fields = ", ".join(f"{n}={_short(getattr(obj, n))}" for n in names)
    return f"{type(obj).__name__}({fields})"


# Not compared with ==: numpy arrays have no single truth value.
@dataclass(frozen=True, repr=False, eq=False)
class ChainDistribution:
    """The distribution of the steps T until a target (``distribution`` in
    ``snakeladder chain --format json``): ``pmf[k] = P(T = k)`` and
    ``cdf[k] = P(T <= k)`` for k = 0, 1, ... (read-only arrays), stepped
    until the chance of still being among the states that may reach a
    target (``tail``) is below 1e-12 or the work limit; ``never`` the
    chance of having moved to states that never reach it; ``error_bound``
    bounds every entry's absolute error."""

    pmf: np.ndarray
    cdf: np.ndarray
    tail: float
    never: float
    error_bound: float

    def quantile(self, q: float) -> Optional[int]:
        """The smallest k with P(T <= k) >= q, or None when the steps
        computed do not reach it."""
        hits = np.flatnonzero(self.cdf >= q)
        return int(hits[0]) if hits.size else None

    @property
    def median(self) -> Optional[int]:
        return self.quantile(0.5)

    @property
    def p90(self) -> Optional[int]:
        return self.quantile(0.9)

    @property
    def p99(self) -> Optional[int]:
        return self.quantile(0.99)

    def __repr__(self) -> str:
        return _repr(self, ["median", "p90", "p99", "tail", "never", "error_bound", "pmf"])


@dataclass(frozen=True, repr=False)
class ChainExact:
    """The certified fractions (``exact`` in ``snakeladder chain --format
    json``, where they are ``"p/q"`` text), of any size; an expectation is
    None when it is infinite, and ``expected_reward`` also without
    rewards."""

    reach_probability: Fraction
    expected_steps: Optional[Fraction]
    variance: Optional[Fraction]
    expected_reward: Optional[Fraction]

    def __repr__(self) -> str:
        return _repr(self, ["reach_probability", "expected_steps", "variance", "expected_reward"])


@dataclass(frozen=True, repr=False, eq=False)
class ChainAnswers:
    """Every answer about a chain, from :meth:`Chain.answer`, named as
    ``snakeladder chain --format json`` names them.

    From the initial distribution: ``reach_probability``, ``expected_steps``
    (``math.inf`` when the target is missed with positive probability,
    ``expected_steps_infinite_because`` then saying why), ``variance`` of
    the steps, ``expected_reward`` (None without rewards), each with its
    certified ``..._error_bound`` (0 for an infinity, which is exact);
    ``never_reaching``, the states the chain can move to that never reach a
    target. Per state (read-only numpy arrays, beyond the command's
    output): ``reach_probabilities``, ``expected_steps_from`` (inf where
    infinite) and ``visits`` (expected visits before the target, from the
    initial distribution), each with ``..._error_bounds``. ``distribution``
    of the steps (None when not asked for) and ``exact`` fractions (None
    without ``exact=True``).
    """

    reach_probability: float
    reach_probability_error_bound: float
    expected_steps: float
    expected_steps_error_bound: float
    expected_steps_infinite_because: Optional[str]
    variance: float
    variance_error_bound: float
    expected_reward: Optional[float]
    expected_reward_error_bound: Optional[float]
    never_reaching: np.ndarray
    reach_probabilities: np.ndarray
    reach_probabilities_error_bounds: np.ndarray
    expected_steps_from: np.ndarray
    expected_steps_from_error_bounds: np.ndarray
    visits: np.ndarray
    visits_error_bounds: np.ndarray
    distribution: Optional[ChainDistribution]
    exact: Optional[ChainExact]

    @property
    def never_reaching_count(self) -> int:
        return int(self.never_reaching.size)

    def __repr__(self) -> str:
        return _repr(
            self,
            [
                "reach_probability",
                "expected_steps",
                "variance",
                "expected_reward",
                "never_reaching",
                "distribution",
                "exact",
            ],
        )

    @staticmethod
    def _of(native: "_native.ChainAnswers") -> "ChainAnswers":
        s = native.summary()
        per = native.per_state()

        def expectation(value: Optional[float], bound: Optional[float]) -> Tuple[float, float]:
            return (math.inf, 0.0) if value is None else (value, bound)  # type: ignore[return-value]

        steps, steps_bound = expectation(s["expected_steps"], s["expected_steps_error_bound"])
        variance, variance_bound = expectation(s["variance"], s["variance_error_bound"])
        reward: Optional[float] = None
        reward_bound: Optional[float] = None
        if s["has_rewards"]:
            reward, reward_bound = expectation(s["expected_reward"], s["expected_reward_error_bound"])
        d = native.distribution()
        distribution = None
        if d is not None:
            pmf, cdf, tail, never, bound = d
            distribution = ChainDistribution(_floats(pmf), _floats(cdf), tail, never, bound)
        e = native.exact()
        exact = None
        if e is not None:
            reach = _fraction(e[0])
            assert reach is not None
            exact = ChainExact(reach, _fraction(e[1]), _fraction(e[2]), _fraction(e[3]))
        return ChainAnswers(
            reach_probability=s["reach_probability"],
            reach_probability_error_bound=s["reach_probability_error_bound"],
            expected_steps=steps,
            expected_steps_error_bound=steps_bound,
            expected_steps_infinite_because=s["expected_steps_infinite_because"],
            variance=variance,
            variance_error_bound=variance_bound,
            expected_reward=reward,
            expected_reward_error_bound=reward_bound,
            never_reaching=_read_only(np.array(s["never_reaching"], dtype=np.int64)),
            reach_probabilities=_floats(per["reach_probabilities"]),
            reach_probabilities_error_bounds=_floats(per["reach_probabilities_error_bounds"]),
            expected_steps_from=_floats(per["expected_steps_from"]),
            expected_steps_from_error_bounds=_floats(per["expected_steps_from_error_bounds"]),
            visits=_floats(per["visits"]),
            visits_error_bounds=_floats(per["visits_error_bounds"]),
            distribution=distribution,
            exact=exact,
        )


PathLike = Union[str, "os.PathLike[str]"]


class Chain:
    """An absorbing discrete-time Markov chain: states ``0..states-1``, a
    transition matrix, an initial state or distribution, target states, and
    optionally a reward earned per step spent in each state. It is checked
    whole when made (every problem raised at once as a :class:`ChainError`)
    and never changes.

    ``matrix`` is a square numpy array, a ``scipy.sparse`` matrix or array
    (any format), or an iterable of ``(from, to, p)`` triplets. Each
    probability, initial probability and reward may be a float (checked
    within a few ulps per row), or exact: an ``int``, a
    ``fractions.Fraction``, a ``decimal.Decimal`` or text (``"1/3"``,
    ``"0.1"`` read as 1/10); ``exact=True`` answers need every one exact.
    ``initial`` is a state, a dict ``{state: p}`` or a sequence of
    probabilities by state; ``target`` an iterable of states (or one
    state), a boolean mask, or ``"absorbing"`` for the absorbing states;
    ``rewards`` a sequence by state or a dict ``{state: r}``. With triplets the chain has one more state than the
    largest named, unless ``states`` says otherwise.
    """

    _native: "_native.Chain"

    def __init__(
        self,
        matrix: Any,
        initial: Any,
        target: Any,
        rewards: Any = None,
        *,
        states: Optional[int] = None,
    ) -> None:
        given = _Input()
        if isinstance(matrix, np.ndarray) or _is_sparse(matrix):
            given.matrix_entries(matrix)
        else:
            given.triplet_entries(matrix)
        initial_state, distribution, unchecked_initial = self._initial(given, initial)
        absorbing = isinstance(target, str) and target == "absorbing"
        targets = [] if absorbing else self._targets(given, target)
        reward_items = self._rewards(given, rewards)
        n = given.states
        if states is not None:
            n = _state(states)
        if n is None:
            n = given.largest + 1
        n = min(n, 2**32 + 1)  # past the engine's limit: it names the problem
        try:
            native = _native.Chain.build(
                n,
                given.transitions,
                given.floats,
                initial_state,
                distribution,
                targets,
                absorbing,
                reward_items,
                given.problems,
                sorted(given.unchecked_rows),
                unchecked_initial,
            )
        except ChainError as e:
            raise _relocated(e, given) from None
        self._native = native

    @staticmethod
    def _initial(given: _Input, initial: Any) -> Tuple[Optional[int], List[Tuple[int, Any, Any]], bool]:
        if isinstance(initial, (numbers.Integral, np.integer)) and not isinstance(initial, (bool, np.bool_)):
            try:
                return given.see(_state(initial)), [], False
            except _Bad as e:
                given.bad("not_a_state", str(e), "initial", None)
                return None, [], True
        if isinstance(initial, Mapping):
            items: Iterable[Tuple[Any, Any]] = initial.items()
        else:
            try:
                items = [(s, p) for s, p in enumerate(np.asarray(initial, dtype=object).ravel().tolist())]
            except Exception:
                given.bad(
                    "not_an_initial",
                    f"{initial!r} is neither a state, a dict {{state: p}} nor probabilities by state",
                    "initial",
                    None,
                )
                return None, [], True
            if np.ndim(initial) == 0:
                given.bad("not_an_initial", f"{initial!r} is not a state", "initial", None)
                return None, [], True
            if not isinstance(initial, Mapping) and given.states is None:
                given.see(len(items) - 1)
            items = [(s, p) for s, p in items if not (isinstance(p, (int, float, Fraction)) and p == 0)]
        out: List[Tuple[int, Any, Any]] = []
        bad = False
        for k, p in items:
            try:
                s = given.see(_state(k))
            except _Bad as e:
                given.bad("not_a_state", str(e), "initial", k)
                bad = True
                continue
            try:
                out.append((s, _number(p), s))
            except _Bad as e:
                given.bad("not_a_number", str(e), "initial", s)
                bad = True
        return None, out, bad

    @staticmethod
    def _targets(given: _Input, target: Any) -> List[Tuple[int, int]]:
        if isinstance(target, (numbers.Integral, np.integer)) and not isinstance(target, (bool, np.bool_)):
            target = [target]
        if _is_mask(target):
            mask = np.asarray(target, dtype=bool)
            n = given.states if given.states is not None else None
            if mask.ndim != 1 or (n is not None and mask.size != n):
                given.bad(
                    "mask_length",
                    f"the target mask has shape {mask.shape}, the chain has {n} states",
                    "target",
                    None,
                )
                return []
            given.see(mask.size - 1)
            return [(int(s), int(s)) for s in np.flatnonzero(mask)]
        try:
            items = list(target)
        except TypeError:
            given.bad("not_a_target", f"{target!r} is neither states nor a boolean mask", "target", None)
            return []
        out = []
        for i, s in enumerate(items):
            try:
                out.append((given.see(_state(s)), i))
            except _Bad as e:
                given.bad("not_a_state", str(e), "target", i)
        return out

    @staticmethod
    def _rewards(given: _Input, rewards: Any) -> Optional[List[Tuple[int, Any, Any]]]:
        if rewards is None:
            return None
        if isinstance(rewards, Mapping):
            pairs: Iterable[Tuple[Any, Any]] = rewards.items()
        else:
            try:
                values = np.asarray(rewards, dtype=object).ravel().tolist()
            except Exception:
                values = None
            if values is None or np.ndim(rewards) != 1:
                given.bad("not_rewards", f"{rewards!r} is neither rewards by state nor a dict", "rewards", None)
                return []
            if given.states is not None and len(values) != given.states:
                given.bad(
                    "reward_count",
                    f"{len(values)} rewards are given, one per state is needed: the chain has {given.states} states",
                    "rewards",
                    None,
                )
                return []
            given.see(len(values) - 1)
            pairs = enumerate(values)
        out = []
        for k, r in pairs:
            try:
                s = given.see(_state(k))
                out.append((s, _number(r), s))
            except _Bad as e:
                given.bad("not_a_number" if "number" in str(e) else "not_a_state", str(e), "rewards", k)
        return out

    @classmethod
    def _wrap(cls, native: "_native.Chain") -> "Chain":
        chain = cls.__new__(cls)
        chain._native = native
        return chain

    @classmethod
    def from_explicit(
        cls,
        tra: PathLike,
        labels: Optional[PathLike] = None,
        state_rewards: Optional[PathLike] = None,
        init: Optional[str] = None,
        target: Optional[str] = None,
    ) -> "Chain":
        """The chain of PRISM's or Storm's explicit files, read exactly as
        ``snakeladder chain TRA --labels --state-rewards --init --target``
        reads them: ``init`` and ``target`` name labels (``init`` by
        default with labels; the absorbing states are the targets by
        default)."""

        def path(p: Optional[PathLike]) -> Optional[str]:
            return None if p is None else os.fspath(p)

        return cls._wrap(_native.Chain.from_explicit(path(tra), path(labels), path(state_rewards), init, target))

    @classmethod
    def from_json(cls, path_or_text: Union[PathLike, bytes, Mapping[str, Any]]) -> "Chain":
        """The chain of a JSON file, of JSON text (a string that starts
        with ``{``), or of a dict of the same form (docs/chain-format.md)."""
        if isinstance(path_or_text, Mapping):
            path_or_text = json.dumps(path_or_text)
        if isinstance(path_or_text, bytes):
            path_or_text = path_or_text.decode("utf-8", errors="replace")
        if isinstance(path_or_text, str) and path_or_text.lstrip().startswith("{"):
            return cls._wrap(_native.Chain.from_json_text(path_or_text))
        return cls._wrap(_native.Chain.from_json_path(os.fspath(path_or_text)))

    @property
    def states(self) -> int:
        """The number of states."""
        return self._native.states

    @property
    def transitions(self) -> int:
        """The number of stored transitions."""
        return self._native.transitions

    @property
    def targets(self) -> int:
        """The number of target states."""
        return self._native.targets

    @property
    def target_mask(self) -> np.ndarray:
        """Whether each state is a target."""
        return np.frombuffer(self._native.target_mask(), dtype=np.uint8).astype(bool)

    @property
    def initial(self) -> Dict[int, float]:
        """The initial distribution, ``{state: probability}``."""
        return dict(self._native.initial())

    @property
    def is_exact(self) -> bool:
        """Whether every transition was given exactly."""
        return self._native.is_exact()

    def coo(self) -> Tuple[np.ndarray, np.ndarray, np.ndarray]:
        """The transitions as ``(rows, columns, probabilities)`` arrays, as
        ``scipy.sparse.coo_array((p, (rows, columns)))`` takes them."""
        f, t, p = self._native.coo()
        return (
            np.frombuffer(f, dtype=np.uint32).astype(np.int64),
            np.frombuffer(t, dtype=np.uint32).astype(np.int64),
            np.frombuffer(p, dtype=np.float64).copy(),
        )

    def to_json(self) -> str:
        """The chain as JSON, as :meth:`from_json` reads it."""
        return self._native.to_json()

    def answer(
        self,
        exact: bool = False,
        distribution: bool = True,
        max_work: Optional[float] = None,
        max_memory: Optional[int] = None,
    ) -> ChainAnswers:
        """Every answer (docs/chain-questions.md). ``exact=True`` adds
        certified fractions (every input value must be exact);
        ``distribution=False`` skips the steps' distribution; ``max_work``
        (multiply-adds, or word operations for fractions; 1e12 by default)
        and ``max_memory`` (bytes; half the machine's by default) refuse
        work past them with a :class:`LimitError`. Ctrl-C stops it."""
        native = self._native.answer(bool(exact), bool(distribution), max_work, max_memory)
        return ChainAnswers._of(native)

    def __repr__(self) -> str:
        return f"Chain(states={self.states}, transitions={self.transitions}, targets={self.targets})"
