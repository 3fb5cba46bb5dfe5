"""The package's example runs."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

EXAMPLE = Path(__file__).resolve().parents[1] / "examples" / "notebook.py"


def test_the_notebook_example_runs(tmp_path):
    run = subprocess.run(
        [sys.executable, str(EXAMPLE)], capture_output=True, text=True, cwd=tmp_path, timeout=300
    )
    assert run.returncode == 0, run.stderr
    assert "39.5984" in run.stdout
