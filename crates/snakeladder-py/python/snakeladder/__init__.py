"""snakeladder: exact answers about Snakes and Ladders boards.

The engine of the ``snakeladder`` command for Python and notebooks::

    >>> import snakeladder as s
    >>> a = s.Board.builtin().analyze(exact=True)
    >>> round(a.mean, 4)
    39.5984

Every figure is computed by the Rust core: exactly (a Markov chain solved in
floating point with error bounds, or in rational arithmetic with
``exact=True``), or as a simulation estimate with its standard error.
"""

from ._analysis import Analysis, Exact, Quantiles, SeatOdds
from ._board import Board, Diff, Validation, generate, validate
from ._chain import Chain, ChainAnswers, ChainDistribution, ChainExact
from ._errors import (
    AnalysisError,
    BoardError,
    ChainError,
    ChainProblem,
    DesignError,
    LimitError,
    Problem,
    SimulationError,
    SnakeladderError,
)
from ._figures import Columns, Figures
from ._native import __version__

__all__ = [
    "Analysis",
    "AnalysisError",
    "Board",
    "BoardError",
    "Chain",
    "ChainAnswers",
    "ChainDistribution",
    "ChainError",
    "ChainExact",
    "ChainProblem",
    "Columns",
    "DesignError",
    "Diff",
    "Exact",
    "Figures",
    "LimitError",
    "Problem",
    "Quantiles",
    "SeatOdds",
    "SimulationError",
    "SnakeladderError",
    "Validation",
    "__version__",
    "generate",
    "validate",
]
