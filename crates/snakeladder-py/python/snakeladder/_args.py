"""The checks of every numeric argument, and the board dicts' numbers.

A number may be a Python or a numpy one (anything with ``__index__`` where
an integer is wanted, ``__float__`` where a real number is), never a bool or
a string. Each error is a ``TypeError`` (not a number) or a ``ValueError``
(out of range) that names the argument, so a notebook never sees an
``OverflowError`` from the native module. Ranges the core defines (at most
100 players, 10^12 games) are left to the core, whose errors name the
argument too; here only what the native call can take is checked.
"""

from __future__ import annotations

import math
import operator
import reprlib
from collections.abc import Mapping
from datetime import timedelta
from typing import Any, Iterable, List, Optional, Tuple, Union

import numpy as np

from . import _native

#: The largest value of the native module's unsigned integers.
U32 = 2**32 - 1
U64 = 2**64 - 1
_BOUNDS = {U32: "2**32 - 1", U64: "2**64 - 1"}


def message(text: str) -> str:
    """``text`` as every message of the package is shown: control
    characters escaped and the command's flags named as this package's
    keyword arguments (src/errors.rs of the native module)."""
    return _native.message(text)


def _shown(value: Any) -> str:
    # reprlib: a huge list or string named in a message stays short.
    return reprlib.repr(value)


def _refuse_bool(value: Any, name: str, wanted: str) -> None:
    if isinstance(value, (bool, np.bool_)):
        raise TypeError(message(f"{name} must be {wanted}, not a bool ({_shown(value)})"))


def integer(value: Any, name: str, high: int = U64) -> int:
    """``value`` as an int from 0 to ``high`` (through ``__index__``)."""
    _refuse_bool(value, name, "an integer")
    try:
        n = operator.index(value)
    except TypeError:
        raise TypeError(
            message(f"{name} must be an integer, not {type(value).__name__} ({_shown(value)})")
        ) from None
    if not 0 <= n <= high:
        shown = _BOUNDS.get(high, str(high))
        raise ValueError(message(f"{name} must be an integer from 0 to {shown}, not {_shown(n)}"))
    return n


def optional_integer(value: Any, name: str, high: int = U64) -> Optional[int]:
    """``None``, or an integer as :func:`integer` takes it."""
    return None if value is None else integer(value, name, high)


def real(value: Any, name: str) -> float:
    """``value`` as a float (through ``__float__``): a str is refused, not
    parsed."""
    _refuse_bool(value, name, "a number")
    if getattr(type(value), "__float__", None) is None:
        raise TypeError(
            message(f"{name} must be a number, not {type(value).__name__} ({_shown(value)})")
        )
    try:
        return float(value)
    except (OverflowError, TypeError, ValueError):
        raise ValueError(message(f"{name} must be a float, not {_shown(value)}")) from None


def optional_real(value: Any, name: str) -> Optional[float]:
    """``None``, or a number as :func:`real` takes it."""
    return None if value is None else real(value, name)


def work(value: Any) -> Optional[float]:
    """``max_work``: a finite number of multiply-adds >= 0."""
    if value is None:
        return None
    w = real(value, "max_work")
    if not (math.isfinite(w) and w >= 0):
        raise ValueError(message(f"max_work must be a finite number of multiply-adds >= 0, not {w}"))
    return w


def memory(value: Any) -> Optional[int]:
    """``max_memory``: bytes, at least one (as the command's --max-memory)."""
    if value is None:
        return None
    m = integer(value, "max_memory")
    if m < 1:
        raise ValueError(message(f"max_memory must be at least 1 byte, not {m}"))
    return m


def seconds(value: Any) -> Optional[float]:
    """``time_limit``: seconds (a number or a ``timedelta``), finite and
    above 0."""
    if value is None:
        return None
    if isinstance(value, timedelta):
        value = value.total_seconds()
    t = real(value, "time_limit")
    if not (math.isfinite(t) and t > 0):
        raise ValueError(message(f"time_limit must be a finite number of seconds > 0, not {t}"))
    return t


def players(value: Any) -> List[int]:
    """``players``: one count, or an iterable of counts (not a string)."""
    if isinstance(value, (str, bytes)):
        raise TypeError(
            message(f"players must be an integer or a sequence of integers, not {type(value).__name__}")
        )
    _refuse_bool(value, "players", "an integer or a sequence of integers")
    try:
        # One count (a numpy array of one also has `__index__`, a longer
        # one refuses it and is iterated below).
        operator.index(value)
    except TypeError:
        pass
    else:
        return [integer(value, "players", U32)]
    try:
        items = list(value)
    except TypeError:
        raise TypeError(
            message(
                "players must be an integer or a sequence of integers, "
                f"not {type(value).__name__} ({_shown(value)})"
            )
        ) from None
    return [integer(p, f"players[{i}]", U32) for i, p in enumerate(items)]


def pair(value: Any, name: str) -> Tuple[Any, Any]:
    """The two items of ``value`` (a band, a kept jump)."""
    if isinstance(value, (str, bytes)):
        raise TypeError(message(f"{name} must be a pair, not {type(value).__name__}"))
    try:
        items = tuple(value)
    except TypeError:
        raise TypeError(message(f"{name} must be a pair, not {type(value).__name__}")) from None
    if len(items) != 2:
        raise ValueError(message(f"{name} must be a pair, not {len(items)} items ({_shown(value)})"))
    return items


def band(value: Any, name: str) -> Tuple[float, float]:
    """A ``(min, max)`` band of mean turns."""
    low, high = pair(value, name)
    return real(low, f"{name}[0]"), real(high, f"{name}[1]")


def jumps(value: Iterable[Any], name: str) -> List[Tuple[int, int]]:
    """``(from, to)`` pairs of squares."""
    if isinstance(value, (str, bytes)):
        raise TypeError(message(f"{name} must be a sequence of (from, to) pairs, not {type(value).__name__}"))
    try:
        items = list(value)
    except TypeError:
        raise TypeError(
            message(f"{name} must be a sequence of (from, to) pairs, not {type(value).__name__}")
        ) from None
    found = []
    for i, item in enumerate(items):
        a, b = pair(item, f"{name}[{i}]")
        found.append((integer(a, f"{name}[{i}][0]", U32), integer(b, f"{name}[{i}][1]", U32)))
    return found


def json_value(value: Any) -> Union[bool, int, float, list, dict]:
    """``json.dumps``'s ``default``: what a board dict may hold beside
    Python's own values, as JSON reads it: a numpy bool as a bool (the board
    reader refuses it where a number belongs, never reading 1), a numpy
    integer through ``__index__``, a numpy array as its list, another real
    number through ``__float__``, a mapping as a dict."""
    if isinstance(value, np.bool_):
        return bool(value)
    # Before `__index__`, which an array has too (and refuses unless it
    # holds one integer).
    if isinstance(value, np.ndarray):
        return value.tolist()
    if hasattr(type(value), "__index__"):
        return operator.index(value)
    if isinstance(value, Mapping):
        return dict(value)
    if getattr(type(value), "__float__", None) is not None:
        return float(value)
    raise TypeError(
        message(
            "a board holds numbers, strings, lists and dicts, "
            f"not {type(value).__name__} ({_shown(value)})"
        )
    )
