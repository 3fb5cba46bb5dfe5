"""A validated Snakes and Ladders board and what can be asked of it."""

from __future__ import annotations

import html
import json
import os
from datetime import timedelta
from typing import Any, Dict, Iterable, List, Mapping, Optional, Sequence, Tuple, Union

from . import _args, _native
from ._analysis import Analysis
from ._errors import Problem, _problems
from ._figures import Figures, Renamed, drawing

Source = Union[str, bytes, "os.PathLike[str]", Mapping[str, Any]]


def _json_text(source: Mapping[str, Any]) -> str:
    """A board dict as JSON text, numpy numbers and arrays as JSON reads
    them (:func:`_args.json_value`)."""
    return json.dumps(source, indent=2, default=_args.json_value)


class Validation:
    """What ``validate`` found: ``problems`` (each a :class:`Problem` with
    its position) and ``valid`` (no problem is an error). True when valid."""

    def __init__(self, problems: List[Problem]) -> None:
        self.problems = problems
        self.valid = all(p.severity != "error" for p in problems)

    def __bool__(self) -> bool:
        return self.valid

    def __iter__(self) -> Any:
        return iter(self.problems)

    def __len__(self) -> int:
        return len(self.problems)

    def __repr__(self) -> str:
        lines = [str(p) for p in self.problems]
        verdict = "valid" if self.valid else "invalid"
        return "\n".join(lines + [f"<Validation: {verdict}, {len(self.problems)} problems>"])


class Diff:
    """What changing one board into another does to every figure."""

    def __init__(self, native: "_native.Diff") -> None:
        self._native = native

    def to_dict(self) -> Dict[str, Any]:
        """The diff with the keys of ``snakeladder diff --format json``."""
        return self._native.to_dict()

    def text(self) -> str:
        """The diff as text."""
        return self._native.text()

    def markdown(self) -> str:
        """The diff as Markdown."""
        return self._native.markdown()

    def html(self) -> str:
        """The diff as an HTML page with both boards drawn."""
        return self._native.html()

    @property
    def same_board(self) -> bool:
        """Whether the two boards have the same layout and rules."""
        return self._native.same_board()

    def __str__(self) -> str:
        return self.text()

    def __repr__(self) -> str:
        return self.text()

    def _repr_html_(self) -> str:
        return self.html()


class _Tuned(Renamed):
    """What :meth:`Board.tune` found, with the keys of ``snakeladder tune
    --format json``."""

    RENAMED = {"mean_before": "mean_turns_before"}


def _simulation(
    games: Any, seed: Any, players: Any, threads: Any, max_memory: Any
) -> Tuple[int, int, int, Optional[int], Optional[int]]:
    """The arguments of a simulation, checked."""
    return (
        _args.integer(games, "games"),
        _args.integer(seed, "seed"),
        _args.integer(players, "players", _args.U32),
        _args.optional_integer(threads, "threads"),
        _args.memory(max_memory),
    )


def _is_json_text(text: str) -> bool:
    """Whether a ``str`` is a board's JSON text rather than a path: its first
    character past blanks and a byte-order mark (a file read with one) is
    ``{``."""
    return text.lstrip().lstrip("\ufeff").lstrip().startswith("{")


class Board:
    """A Snakes and Ladders board and its rules, validated once.

    A ``Board`` that exists is valid and never changes. Make one with
    :meth:`from_json` or :meth:`builtin`; an invalid board raises
    :class:`BoardError` naming every problem.
    """

    __slots__ = ("_native",)

    def __init__(self, native: "_native.Board") -> None:
        self._native = native

    @classmethod
    def from_json(cls, source: Source) -> "Board":
        """A board from a JSON text, a path to a JSON file, or a dict.

        A ``str`` whose first non-blank character (past a byte-order mark)
        is ``{`` is JSON text, as are ``bytes``; any other ``str`` (or a
        ``PathLike``) is a path.

        Raises :class:`BoardError` (a ``ValueError``) with every problem,
        each with its kind, field, line, column and message.
        """
        if isinstance(source, Mapping):
            return cls(_native.Board.from_text(_json_text(source), "<dict>"))
        if isinstance(source, bytes):
            # Bytes are a file's contents, as validate() reads them.
            return cls(_native.Board.from_text(source.decode("utf-8", "replace"), "<bytes>"))
        if isinstance(source, str) and _is_json_text(source):
            return cls(_native.Board.from_text(source, "<string>"))
        if isinstance(source, (str, os.PathLike)):
            return cls(_native.Board.from_path(os.fspath(source)))
        raise TypeError(
            _args.message(f"from_json takes JSON text, a path or a dict, not {type(source).__name__}")
        )

    @classmethod
    def builtin(cls) -> "Board":
        """The built-in default board: Milton Bradley's 100 squares with the
        chute 48→26 (39.5984 turns on average)."""
        return cls(_native.Board.builtin())

    @property
    def name(self) -> Optional[str]:
        """The board's name, if its file gave one."""
        return self._native.name

    @property
    def squares(self) -> int:
        """The last square N (squares are 1..N; tokens start on 0)."""
        return self._native.squares

    @property
    def width(self) -> int:
        """Squares per row of the drawing."""
        return self._native.width

    @property
    def jumps(self) -> List[Tuple[str, int, int]]:
        """Every jump as ``(kind, from, to)``, kind ``"snake"`` or
        ``"ladder"``, sorted by start square."""
        return self._native.jumps

    @property
    def snakes(self) -> List[Tuple[int, int]]:
        """The snakes as ``(from, to)`` pairs."""
        return [(a, b) for kind, a, b in self.jumps if kind == "snake"]

    @property
    def ladders(self) -> List[Tuple[int, int]]:
        """The ladders as ``(from, to)`` pairs."""
        return [(a, b) for kind, a, b in self.jumps if kind == "ladder"]

    @property
    def rules(self) -> Dict[str, Any]:
        """The effective rules as a dict, every default filled in."""
        return self._native.rules

    @property
    def fingerprint(self) -> str:
        """The fingerprint of the layout and effective rules."""
        return self._native.fingerprint

    def to_dict(self) -> Dict[str, Any]:
        """The board as its JSON file would hold it."""
        return self._native.spec()

    def to_json(self, pretty: bool = True) -> str:
        """The board's JSON text (``Board.from_json`` reads it back)."""
        return self._native.to_json(pretty)

    def analyze(
        self,
        players: Union[int, Iterable[int]] = (2, 3, 4),
        exact: bool = False,
        *,
        max_work: Optional[float] = None,
        max_memory: Optional[int] = None,
    ) -> Analysis:
        """Every exact figure of the board (the GIL is released meanwhile).

        ``players``: the player counts for the seat odds. ``exact``: also the
        mean as an exact ``fractions.Fraction``. ``max_work`` (multiply-adds
        per optional figure, default 2e10) and ``max_memory`` (bytes,
        default half the machine's memory) mean what the command's
        ``--max-work`` and ``--max-memory`` mean: an optional figure past
        them is skipped (``Analysis.skipped``), an essential step past
        ``max_memory`` raises :class:`LimitError`.

        Ctrl-C raises ``KeyboardInterrupt`` at once, and the abandoned
        analysis ends at its next look at its stop flag (between figures,
        every 256 turns of the length distribution); only one factorisation
        or solve of a large board's chain runs to its end first.
        """
        return Analysis(
            self._native.analyze(
                _args.players(players), exact, _args.work(max_work), _args.memory(max_memory)
            ),
            self,
        )

    def mean_turns(self) -> float:
        """The mean number of turns of one player alone. Ctrl-C raises
        ``KeyboardInterrupt`` at once; the one solve it is runs to its end
        in the background."""
        return self._native.mean_turns()

    def simulate(
        self,
        games: int = 1_000_000,
        *,
        seed: int = 0,
        players: int = 1,
        threads: Optional[int] = None,
        max_memory: Optional[int] = None,
    ) -> Figures:
        """Plays ``games`` seeded games on every core; every statistic with
        its standard error (the keys of ``snakeladder simulate --format
        json``). The same seed gives the same figures on any thread count.
        ``max_memory``: bytes, default half the machine's memory.
        Ctrl-C raises ``KeyboardInterrupt`` at once; the games still being
        played stop within 64 games."""
        return Figures(self._native.simulate(*_simulation(games, seed, players, threads, max_memory)))

    def check(
        self,
        games: int = 1_000_000,
        *,
        seed: int = 0,
        players: int = 1,
        threads: Optional[int] = None,
        max_memory: Optional[int] = None,
    ) -> Figures:
        """Every exact figure against a simulation of ``games`` games
        (``passed`` says whether all agree; the keys of ``snakeladder check
        --format json``). Arguments and Ctrl-C as for :meth:`simulate`."""
        return Figures(self._native.check(*_simulation(games, seed, players, threads, max_memory)))

    def validate(self) -> Validation:
        """The review's findings on this board (a board is valid once made;
        its own ``limits`` may add policy violations)."""
        return Validation(_problems(self._native.validate()))

    def diff(
        self,
        other: "Board",
        *,
        max_work: Optional[float] = None,
        max_memory: Optional[int] = None,
    ) -> Diff:
        """What changing this board into ``other`` does to every figure.
        Limits and Ctrl-C as for :meth:`analyze`."""
        if not isinstance(other, Board):
            raise TypeError(_args.message(f"other must be a Board, not {type(other).__name__}"))
        return Diff(
            self._native.diff(
                other._native,
                self.name or "old",
                other.name or "new",
                _args.work(max_work),
                _args.memory(max_memory),
            )
        )

    def tune(
        self,
        target: Tuple[float, float] = (30, 32),
        max_changes: int = 3,
        *,
        keep: Sequence[Tuple[int, int]] = (),
        seed: int = 0,
        max_first_seat_advantage: Optional[float] = None,
        max_work: Optional[float] = None,
        max_memory: Optional[int] = None,
        time_limit: Union[float, timedelta, None] = None,
    ) -> Figures:
        """The fewest jump moves (at most ``max_changes``) that bring the
        mean turns into ``target = (min, max)``: ``board`` (the tuned
        :class:`Board`), ``changes``, ``mean_turns_before``, ``mean_turns``
        (``mean_before``, its old name, reads with a DeprecationWarning).
        Raises :class:`DesignError` when none is found.

        The limits of ``snakeladder tune``: ``max_work`` (multiply-adds,
        default 2e10), ``max_memory`` (bytes, default half the machine's
        memory) and ``time_limit`` (seconds or a ``timedelta``, default
        none); past one the search stops with :class:`DesignError` naming
        it and the closest mean found. Ctrl-C raises ``KeyboardInterrupt``
        at once and the search stops at its next check of its limits."""
        low, high = _args.band(target, "target")
        found = self._native.tune(
            low,
            high,
            _args.integer(max_changes, "max_changes"),
            _args.jumps(keep, "keep"),
            _args.integer(seed, "seed"),
            _args.optional_real(max_first_seat_advantage, "max_first_seat_advantage"),
            _args.work(max_work),
            _args.memory(max_memory),
            _args.seconds(time_limit),
        )
        board = Board(found.pop("board"))
        result = _Tuned(found)
        result["board"] = board
        return result

    def svg(self) -> str:
        """The board drawn as an SVG document."""
        return self._native.svg(self.name or "Board")

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Board) and self.to_json() == other.to_json()

    def __hash__(self) -> int:
        return hash(self.fingerprint)

    def __repr__(self) -> str:
        name = f"{self.name!r}, " if self.name else ""
        return (
            f"<Board {name}{self.squares} squares, {len(self.snakes)} snakes, "
            f"{len(self.ladders)} ladders>"
        )

    def _repr_html_(self) -> str:
        rows = [
            ("squares", str(self.squares)),
            ("snakes", ", ".join(f"{a}→{b}" for a, b in self.snakes) or "none"),
            ("ladders", ", ".join(f"{a}→{b}" for a, b in self.ladders) or "none"),
            ("rules", json.dumps(self.rules)),
            ("fingerprint", self.fingerprint),
        ]
        table = "".join(
            f"<tr><th style='text-align:left'>{html.escape(k)}</th><td>{html.escape(v)}</td></tr>"
            for k, v in rows
        )
        title = html.escape(self.name or "Board")
        return (
            f"<div><h4>{title}</h4><table>{table}</table>"
            f"<div style='max-width:480px'>{drawing(self.svg)}</div></div>"
        )



def validate(source: Source) -> Validation:
    """Every problem of a board file (a path), JSON text or dict, each with
    its line, column and field, as ``snakeladder validate`` finds them; a
    valid board's policy violations from its own ``limits`` too."""
    if isinstance(source, Mapping):
        found = _native.validate_bytes(_json_text(source).encode(), "<dict>")
    elif isinstance(source, bytes) or (isinstance(source, str) and _is_json_text(source)):
        data = source.encode() if isinstance(source, str) else source
        found = _native.validate_bytes(data, "<string>")
    elif isinstance(source, (str, os.PathLike)):
        found = _native.validate_path(os.fspath(source))
    else:
        raise TypeError(
            _args.message(f"validate takes a path, JSON text or a dict, not {type(source).__name__}")
        )
    return Validation(_problems(found))


def generate(
    squares: int,
    snakes: int = 10,
    ladders: int = 10,
    *,
    seed: int = 0,
    max_length: Optional[int] = None,
    name: Optional[str] = None,
    rules: Optional[Mapping[str, Any]] = None,
    target: Optional[Tuple[float, float]] = None,
    max_first_seat_advantage: Optional[float] = None,
    max_work: Optional[float] = None,
    max_memory: Optional[int] = None,
    time_limit: Union[float, timedelta, None] = None,
) -> Board:
    """A seeded random board of ``squares`` squares (``snakeladder
    generate``); the same seed gives the same board. With ``target = (min,
    max)``, searched until its mean turns are in that band, within the
    limits ``max_work``, ``max_memory`` and ``time_limit`` as
    :meth:`Board.tune` takes them (``snakeladder generate --target-turns``;
    without a target they are not used). Ctrl-C as for :meth:`Board.tune`."""
    if rules is not None:
        if not isinstance(rules, Mapping):
            raise TypeError(_args.message(f"rules must be a dict, not {type(rules).__name__}"))
        # Through JSON, as a board dict: numpy numbers become Python's.
        rules = json.loads(_json_text(rules))
    if name is not None and not isinstance(name, str):
        raise TypeError(_args.message(f"name must be a str, not {type(name).__name__}"))
    found = _native.generate(
        _args.integer(squares, "squares", _args.U32),
        _args.integer(snakes, "snakes", _args.U32),
        _args.integer(ladders, "ladders", _args.U32),
        _args.integer(seed, "seed"),
        _args.optional_integer(max_length, "max_length", _args.U32),
        name,
        rules,
        None if target is None else _args.band(target, "target"),
        _args.optional_real(max_first_seat_advantage, "max_first_seat_advantage"),
        _args.work(max_work),
        _args.memory(max_memory),
        _args.seconds(time_limit),
    )
    return Board(found["board"])
