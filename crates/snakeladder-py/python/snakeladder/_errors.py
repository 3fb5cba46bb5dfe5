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
