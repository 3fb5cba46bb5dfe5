"""The exceptions of snakeladder, raised by the native module."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Iterable, List, Mapping, Optional


@dataclass(frozen=True)
class Problem:
    """One problem of a board, where it is in its JSON text.

    ``kind`` is a short stable name (``snake_climbs``, ``json``), ``field``
    the value it is about (``snakes[0]``, ``rules.dice.count``), ``line`` and
    ``column`` 1-based positions in the text (``None`` when the problem has
    no place there), ``message`` what is wrong, ``severity`` ``"error"`` or
    ``"warning"``, and ``file`` the file as named.
    """

    kind: str
    field: Optional[str]
    line: Optional[int]
    column: Optional[int]
    message: str
    severity: str = "error"
    file: str = ""

    def __str__(self) -> str:
        at = f"{self.file}:{self.line}:{self.column}" if self.line is not None else self.file
        return f"{at}: {self.kind}: {self.message}"


def _problems(items: Iterable[Mapping[str, Any]]) -> List[Problem]:
    return [Problem(**dict(item)) for item in items]


class SnakeladderError(Exception):
    """The base of every error of snakeladder."""


class BoardError(SnakeladderError, ValueError):
    """A board that is invalid or cannot be read.

    ``problems`` lists every problem found, each a :class:`Problem` with its
    kind, field, line, column and message.
    """

    problems: List[Problem]

    def __init__(self, message: str, problems: Iterable[Mapping[str, Any]] = ()) -> None:
        super().__init__(message)
        self.problems = _problems(problems)


class AnalysisError(SnakeladderError, RuntimeError):
    """A board that cannot be analysed (a game that may never end, a
    chain too ill-conditioned for floating point, exact mode failing)."""


class LimitError(SnakeladderError, MemoryError):
    """The work would need more memory than ``max_memory`` allows (an
    analysis or a simulation)."""


class SimulationError(SnakeladderError, RuntimeError):
    """A simulation that could not run (games too long to simulate, threads
    that could not start)."""


class DesignError(SnakeladderError, RuntimeError):
    """A search (``tune``, ``generate`` with a target) that found no board."""


@dataclass(frozen=True)
class ChainProblem:
    """One problem of a chain, and where it is.

    ``kind`` is a short stable name (``row_sum``, ``state_out_of_range``,
    ``not_a_number``), ``message`` what is wrong, ``location`` where, as
    text (``transitions[3]``, ``matrix[0, 2]``, ``die.tra:4:7``; empty for
    the chain as a whole). The same place in parts: ``file``, ``line`` and
    ``column`` for a file, ``part`` (``transitions``, ``initial``,
    ``target``, ``rewards``, ``matrix``) and ``index`` for a value given
    from Python (``index`` is the item's position in the list given, or the
    ``(row, column)`` of a matrix entry).
    """

    kind: str
    message: str
    location: str = ""
    file: Optional[str] = None
    line: Optional[int] = None
    column: Optional[int] = None
    part: Optional[str] = None
    index: Any = None

    def __str__(self) -> str:
        return f"{self.location}: {self.message}" if self.location else self.message


#: The most problems a ChainError lists (the engine's MAX_PROBLEMS).
_MAX_PROBLEMS = 100


class ChainError(SnakeladderError, ValueError):
    """A chain that is invalid or cannot be read, or whose answers need
    what its input does not give (fractions of a chain given in floats).

    ``problems`` lists every problem found, each a :class:`ChainProblem`;
    ``str()`` lists them all (and how many more were found past the
    first hundred, ``omitted``).
    """

    problems: List[ChainProblem]
    omitted: int

    def __init__(self, problems: Iterable[Any] = (), omitted: int = 0) -> None:
        listed = list(problems)
        # At most as many as the engine lists, so that a huge bad input
        # gives a message of bounded size; the rest are counted.
        self.problems = [
            p if isinstance(p, ChainProblem) else ChainProblem(**dict(p))
            for p in listed[:_MAX_PROBLEMS]
        ]
        self.omitted = omitted + max(0, len(listed) - _MAX_PROBLEMS)
        super().__init__(_listed(self.problems, self.omitted))


def _listed(problems: List[ChainProblem], omitted: int) -> str:
    if len(problems) == 1 and not omitted:
        return str(problems[0])
    lines = [f"{len(problems) + omitted} problems:"]
    lines += [f"  {p}" for p in problems]
    if omitted:
        lines.append(f"  and {omitted} more")
    return "\n".join(lines)
