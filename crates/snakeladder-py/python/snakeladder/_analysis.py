"""The analysis of one board: every exact figure, as Python values."""

from __future__ import annotations

import copy
import html
import os
import warnings
from fractions import Fraction
from functools import cached_property
from pathlib import Path
from typing import TYPE_CHECKING, Any, Dict, List, NamedTuple, Optional, Union

import numpy as np

from . import _native
from ._figures import Columns, Figures, drawing

if TYPE_CHECKING:
    from ._board import Board


class Quantiles(NamedTuple):
    """Turns of one player: the least possible, the most likely, and the
    smallest t with P(T <= t) >= 0.5, 0.9, 0.99. Each is ``None`` when the
    distribution was skipped (a limit)."""

    min: Optional[int]
    mode: Optional[int]
    median: Optional[int]
    p90: Optional[int]
    p99: Optional[int]


class SeatOdds(NamedTuple):
    """The game of ``count`` players: each seat's chance of winning (in turn
    order), the mean total turns of all players and the mean rounds (an
    entry of ``players`` in ``snakeladder analyze --format json``)."""

    count: int
    win_probability: np.ndarray
    expected_total_turns: float
    expected_rounds: float


class Exact(NamedTuple):
    """The mean number of turns as an exact fraction (``exact`` in
    ``snakeladder analyze --format json``, where ``mean_turns`` is the text
    ``"numerator/denominator"``), the float mean's relative difference from
    it, and how the fraction was certified."""

    mean_turns: Fraction
    relative_difference: float
    certified: str

    def __repr__(self) -> str:
        # A Fraction's own repr is decimal text, refused past 4,300 digits.
        try:
            mean = repr(self.mean_turns)
        except ValueError:
            mean = f"<{_fraction_text(self.mean_turns)}>"
        return (
            f"Exact(mean_turns={mean}, relative_difference={self.relative_difference!r}, "
            f"certified={self.certified!r})"
        )


def _fraction_text(value: Fraction) -> str:
    """``value`` as ``str`` writes it, or, past the digits Python writes
    as decimal text (``sys.get_int_max_str_digits``, 4,300 by default),
    how many digits its numerator and denominator have: ``str`` of such a
    fraction raises ``ValueError``."""
    try:
        return str(value)
    except ValueError:
        return (
            f"a fraction of {_digits(value.numerator)} digits over "
            f"{_digits(value.denominator)} digits (exact.mean_turns holds it)"
        )


def _digits(n: int) -> int:
    """Decimal digits of ``abs(n)``, without writing it as text."""
    n = abs(n)
    if n == 0:
        return 1
    digits = int((n.bit_length() - 1) * 0.30102999566398120) + 1
    return digits + 1 if n >= 10**digits else digits


def _renamed(old: str, new: str) -> None:
    """Warns that ``Analysis.<old>`` was renamed to the name the command's
    JSON gives the figure (crates/snakeladder-py/README.md, Changelog)."""
    warnings.warn(
        f"Analysis.{old} is deprecated: use Analysis.{new}, the name "
        "`snakeladder analyze --format json` gives it",
        DeprecationWarning,
        stacklevel=3,
    )


def _read_only(array: np.ndarray) -> np.ndarray:
    """``array``, no longer writable: an analysis hands out the same array
    on every read (its attributes are cached), so a write to it would
    change the figure for every later reader."""
    array.flags.writeable = False
    return array


def _fresh(value: Any) -> Any:
    """A copy of a cached dict or list for the caller: an analysis hands
    out the same value on every read, so an edit to what one caller was
    given must not reach the next (as ``_read_only`` keeps for arrays)."""
    return copy.deepcopy(value)


def _floats(data: bytes) -> np.ndarray:
    # Over immutable bytes: read-only already, said again for clarity.
    return _read_only(np.frombuffer(data, dtype=np.float64))


def _columns(native: Dict[str, Any]) -> Columns:
    columns: Dict[str, np.ndarray] = {}
    for name, data in native.items():
        if isinstance(data, list):
            columns[name] = _read_only(np.array(data, dtype=object))
        elif name in ("square", "from", "to"):
            columns[name] = _read_only(np.frombuffer(data, dtype=np.uint32).astype(np.int64))
        else:
            columns[name] = _floats(data)
    return Columns(columns)


class Analysis:
    """Every exact figure of one board, from :meth:`Board.analyze`.

    The figures are computed by the core when the analysis is made; each
    attribute converts its figure to Python on first use and gives the
    same object on every later read, so every array is read-only (numpy's
    ``flags.writeable`` is False; ``.copy()`` gives one to change).
    """

    def __init__(self, native: "_native.Analysis", board: "Board") -> None:
        self._native = native
        #: The board analysed.
        self.board = board

    @property
    def mean(self) -> float:
        """Mean number of turns of one player."""
        return self._native.mean

    @property
    def variance(self) -> float:
        """Variance of the number of turns."""
        return self._native.variance

    @property
    def std_dev(self) -> float:
        """Standard deviation of the number of turns."""
        return self._native.std_dev

    @cached_property
    def quantiles(self) -> Quantiles:
        """min, mode, median, p90 and p99 of the turns."""
        return Quantiles(*self._native.quantiles())

    @property
    def median(self) -> Optional[int]:
        """The median number of turns."""
        return self.quantiles.median

    @property
    def mode(self) -> Optional[int]:
        """The most likely number of turns."""
        return self.quantiles.mode

    @property
    def mean_error_bound(self) -> float:
        """An upper bound on the relative error of ``mean``."""
        return self._native.error_bounds()[0]

    @property
    def variance_error_bound(self) -> float:
        """An upper bound on the relative error of ``variance``."""
        return self._native.error_bounds()[1]

    @property
    def error_bounds(self) -> Dict[str, float]:
        """Deprecated: ``mean_error_bound`` and ``variance_error_bound``."""
        _renamed("error_bounds", "mean_error_bound and Analysis.variance_error_bound")
        mean, variance = self._native.error_bounds()
        return {"mean": mean, "variance": variance}

    @cached_property
    def pmf(self) -> np.ndarray:
        """``pmf[t - 1]`` = P(T = t), turns of one player (float64)."""
        return _floats(self._native.pmf_bytes())

    @cached_property
    def cdf(self) -> np.ndarray:
        """``cdf[t - 1]`` = P(T <= t) (float64)."""
        return _floats(self._native.cdf_bytes())

    @property
    def tail(self) -> float:
        """Probability mass past the last term of ``pmf``."""
        return self._native.tail

    @property
    def rolls(self) -> Dict[str, float]:
        """Rolls of one player (equal to turns without extra rolls)."""
        mean, variance = self._native.rolls()
        return {"mean": mean, "variance": variance}

    @cached_property
    def squares(self) -> Columns:
        """Every square a token can rest on: ``square``, ``expected_rests``
        (a game), ``rest_probability`` (of ever resting there) and
        ``turns_left`` (mean turns from there)."""
        return _columns(self._native.square_columns())

    @cached_property
    def jumps(self) -> Columns:
        """Every jump: ``kind``, ``from``, ``to``, ``expected_uses`` (a game),
        ``use_probability`` (used at least once) and ``mean_turns_without``
        (NaN: the game never ends without it)."""
        return _columns(self._native.jump_columns())

    @property
    def players(self) -> Dict[int, SeatOdds]:
        """Per player count asked for, each seat's chance of winning (the
        command's list ``players``, keyed here by ``count``)."""
        # A new dict on each read over the cached, immutable entries.
        return dict(self._seat_odds)

    @property
    def seat_odds(self) -> Dict[int, SeatOdds]:
        """Deprecated: ``players``."""
        _renamed("seat_odds", "players")
        return dict(self._seat_odds)

    @cached_property
    def _seat_odds(self) -> Dict[int, SeatOdds]:
        return {
            count: SeatOdds(count, _read_only(np.array(wins, dtype=np.float64)), total, rounds)
            for count, wins, total, rounds in self._native.players()
        }

    @property
    def shortest(self) -> Optional[Figures]:
        """The shortest game: ``turns``, an example of its ``rolls``, the
        ``path`` and its ``probability``; ``None`` when not computed."""
        return _fresh(self._shortest_game)

    @property
    def shortest_game(self) -> Optional[Figures]:
        """Deprecated: ``shortest``."""
        _renamed("shortest_game", "shortest")
        return _fresh(self._shortest_game)

    @cached_property
    def _shortest_game(self) -> Optional[Figures]:
        found = self._native.shortest()
        return None if found is None else Figures(found)

    @cached_property
    def exact(self) -> Optional[Exact]:
        """With ``exact=True``, the mean number of turns as an exact
        fraction (``exact.mean_turns``, a ``fractions.Fraction``) with the
        float mean's relative difference from it; otherwise ``None``."""
        found = self._native.exact()
        if found is None:
            return None
        # Python ints made from the integers' bytes: int() of decimal text
        # is refused past 4,300 digits, which an exact mean passes on a
        # board of a few hundred squares.
        numerator, denominator, difference, certified = found
        return Exact(Fraction(numerator, denominator), difference, certified)

    @property
    def exact_mean(self) -> Optional[Fraction]:
        """Deprecated: ``exact.mean_turns``."""
        _renamed("exact_mean", "exact.mean_turns")
        return None if self.exact is None else self.exact.mean_turns

    @cached_property
    def _about(self) -> Dict[str, Any]:
        return Figures(self._native.about())

    @property
    def fingerprint(self) -> str:
        """The fingerprint of the layout and effective rules."""
        return self._about["fingerprint"]

    @property
    def rules(self) -> Dict[str, Any]:
        """The effective rules, every default filled in."""
        return _fresh(self._about["rules"])

    @property
    def solver(self) -> str:
        """How ``I - Q`` was solved (``dense`` or ``sparse``)."""
        return self._about["solver"]

    @property
    def skipped(self) -> List[Any]:
        """Figures left out because they would pass a limit."""
        return _fresh(self._about["skipped"])

    @property
    def warnings(self) -> List[Any]:
        """What makes some figures less exact than promised."""
        return _fresh(self._about["warnings"])

    def to_dict(self) -> Dict[str, Any]:
        """Every figure with the keys of ``snakeladder analyze --format json``."""
        return self._native.to_dict()

    def report(self, format: str = "html") -> str:
        """The report as one self-contained HTML page (``"html"``) or as
        Markdown (``"markdown"``; its charts are in :meth:`write_report`)."""
        document, _ = self._native.report(format)
        return document

    def write_report(self, path: Union[str, "os.PathLike[str]"], format: Optional[str] = None) -> Path:
        """Writes the report to ``path``: HTML, or Markdown for a ``.md``
        path (with its charts as SVG files beside it). Returns the path."""
        path = Path(path)
        if format is None:
            format = "markdown" if path.suffix.lower() in (".md", ".markdown") else "html"
        document, files = self._native.report(format, path.stem)
        path.write_text(document, encoding="utf-8")
        for name, svg in files:
            (path.parent / name).write_text(svg, encoding="utf-8")
        return path

    def svg(self) -> str:
        """The board drawn with each square shaded by its rests a game."""
        return self._native.svg(self.board.name or "Board")

    def __repr__(self) -> str:
        return f"<Analysis of {self.board.name or 'a board'}: mean {self.mean:.4f} turns>"

    def _repr_html_(self) -> str:
        q = self.quantiles
        rows = [
            ("mean turns", f"{self.mean:.4f}"),
            ("std dev", f"{self.std_dev:.4f}"),
            ("variance", f"{self.variance:.4f}"),
        ]
        if self.exact is not None:
            rows.append(("exact mean", _fraction_text(self.exact.mean_turns)))
        for name in ("min", "mode", "median", "p90", "p99"):
            value = getattr(q, name)
            rows.append((name, "-" if value is None else str(value)))
        if self._shortest_game is not None:
            rows.append(("shortest game", f"{self._shortest_game['turns']} turns"))
        for count, odds in self.players.items():
            seats = ", ".join(f"{100 * p:.3f}%" for p in odds.win_probability)
            rows.append((f"{count} players", seats))
        table = "".join(
            f"<tr><th style='text-align:left'>{html.escape(k)}</th><td>{html.escape(v)}</td></tr>"
            for k, v in rows
        )
        return (
            f"<div><h4>{html.escape(self.board.name or 'Board')}</h4>"
            f"<table>{table}</table><div style='max-width:480px'>{drawing(self.svg)}</div></div>"
        )
