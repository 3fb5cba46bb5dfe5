"""Shared fixtures: where the repository's boards and the CLI are."""

from __future__ import annotations

import os
import shutil
from pathlib import Path

import pytest

#: The repository's root (this file is crates/snakeladder-py/tests/).
ROOT = Path(__file__).resolve().parents[3]
BOARDS = ROOT / "crates" / "snakeladder" / "boards"


def cli_binary() -> Path | None:
    """The `snakeladder` command built from this workspace: $SNAKELADDER_BIN,
    else target/release, else target/debug."""
    named = os.environ.get("SNAKELADDER_BIN")
    if named:
        return Path(named)
    for profile in ("release", "debug"):
        candidate = ROOT / "target" / profile / "snakeladder"
        if candidate.is_file():
            return candidate
    found = shutil.which("snakeladder")
    return Path(found) if found else None


@pytest.fixture(scope="session")
def boards() -> Path:
    return BOARDS


@pytest.fixture(scope="session")
def cli() -> Path:
    found = cli_binary()
    if found is None:
        if os.environ.get("CI"):
            pytest.fail("no snakeladder binary: build it with cargo build --release")
        pytest.skip("no snakeladder binary built (cargo build --release)")
    return found
