"""Plain containers for figures: column tables and attribute dicts."""

from __future__ import annotations

import html
import warnings
from typing import Any, Callable, Dict, Iterator, List, Mapping

import numpy as np


class Columns(Mapping[str, np.ndarray]):
    """A table held as named columns, each a numpy array of one length.

    Index it by column name (``squares["expected_rests"]``), read a column as
    an attribute (``squares.expected_rests``), or make a
    ``pandas.DataFrame`` with :meth:`to_pandas` when pandas is installed.
    A missing figure is NaN in a float column.
    """

    __slots__ = ("_columns",)

    def __init__(self, columns: Dict[str, np.ndarray]) -> None:
        self._columns = columns

    def __getitem__(self, name: str) -> np.ndarray:
        return self._columns[name]

    def __getattr__(self, name: str) -> np.ndarray:
        # Only columns: a name starting with an underscore is never one, and
        # reading `_columns` here before it is set (copy, pickle) would
        # recurse without end.
        if name.startswith("_"):
            raise AttributeError(name)
        try:
            return self._columns[name]
        except KeyError:
            raise AttributeError(name) from None

    def __getstate__(self) -> Dict[str, np.ndarray]:
        return self._columns

    def __setstate__(self, columns: Dict[str, np.ndarray]) -> None:
        self._columns = columns

    def __iter__(self) -> Iterator[str]:
        return iter(self._columns)

    def __len__(self) -> int:
        return len(self._columns)

    @property
    def rows(self) -> int:
        """The number of rows."""
        for column in self._columns.values():
            return len(column)
        return 0

    def to_pandas(self) -> Any:
        """The table as a ``pandas.DataFrame`` (pandas must be installed)."""
        try:
            import pandas as pd
        except ImportError as e:  # pragma: no cover - depends on the machine
            raise ImportError("to_pandas() needs pandas: pip install pandas") from e
        return pd.DataFrame(dict(self._columns))

    def to_dict(self) -> Dict[str, List[Any]]:
        """The columns as lists of plain Python values."""
        return {k: v.tolist() for k, v in self._columns.items()}

    def __repr__(self) -> str:
        return f"Columns({', '.join(self._columns)}; {self.rows} rows)"

    #: Rows a notebook shows at most: the first and last half of them, as
    #: pandas shows a long frame (a board of millions of squares would make
    #: a page of hundreds of megabytes).
    HTML_ROWS = 60

    def _repr_html_(self) -> str:
        head = "".join(f"<th>{html.escape(k)}</th>" for k in self._columns)
        n, half = self.rows, self.HTML_ROWS // 2
        shown = list(range(n)) if n <= self.HTML_ROWS else [*range(half), -1, *range(n - half, n)]
        body = []
        for i in shown:
            if i < 0:
                gap = f"<td colspan='{len(self._columns)}'>… {n - 2 * half} more rows …</td>"
                body.append(f"<tr>{gap}</tr>")
                continue
            cells = "".join(f"<td>{_cell(c[i])}</td>" for c in self._columns.values())
            body.append(f"<tr>{cells}</tr>")
        table = f"<table><thead><tr>{head}</tr></thead><tbody>{''.join(body)}</tbody></table>"
        return f"{table}<p>{n} rows</p>" if n > self.HTML_ROWS else table


def drawing(svg: Callable[[], str]) -> str:
    """An SVG drawing for a notebook's display, or why there is none (a
    board past the squares a drawing shows): a display never raises."""
    try:
        return svg()
    except ValueError as e:
        return f"<p><em>{html.escape(str(e))}</em></p>"


def _cell(value: Any) -> str:
    if isinstance(value, (float, np.floating)):
        return "" if np.isnan(value) else f"{value:.6g}"
    return html.escape(str(value))


class Figures(dict):  # type: ignore[type-arg]
    """A dict of figures whose keys are also attributes
    (``sim.turns.mean`` is ``sim["turns"]["mean"]``); nested dicts are
    Figures too. The keys are those of the command's ``--format json``.
    """

    def __init__(self, data: Mapping[str, Any]) -> None:
        super().__init__({k: _wrap(v) for k, v in data.items()})

    def __getattr__(self, name: str) -> Any:
        try:
            return self[name]
        except KeyError:
            raise AttributeError(name) from None

    def __dir__(self) -> List[str]:
        return list(self.keys()) + list(super().__dir__())


class Renamed(Figures):
    """Figures some of whose keys were renamed to the command's JSON
    names: the old name, listed in ``RENAMED`` with its new one, still reads
    (``f[old]``, ``f.old``) with a ``DeprecationWarning``; it is not a key
    (``in``, ``keys()``, ``get`` know only the new name)."""

    #: Old key -> the key it was renamed to.
    RENAMED: Dict[str, str] = {}

    def _renamed(self, key: Any) -> Any:
        """The key ``key`` was renamed to, with its warning (raised in the
        caller of the caller); ``KeyError`` when it was not renamed."""
        new = self.RENAMED.get(key) if isinstance(key, str) else None
        if new is None:
            raise KeyError(key)
        warnings.warn(
            f"the key {key!r} is deprecated: use {new!r}, the name the command's "
            "--format json gives it",
            DeprecationWarning,
            stacklevel=3,
        )
        return new

    def __getitem__(self, key: Any) -> Any:
        if dict.__contains__(self, key):
            return dict.__getitem__(self, key)
        return dict.__getitem__(self, self._renamed(key))

    def __getattr__(self, name: str) -> Any:
        if dict.__contains__(self, name):
            return dict.__getitem__(self, name)
        try:
            return dict.__getitem__(self, self._renamed(name))
        except KeyError:
            raise AttributeError(name) from None


def _wrap(value: Any) -> Any:
    if isinstance(value, dict):
        return Figures(value)
    if isinstance(value, list):
        return [_wrap(v) for v in value]
    return value
