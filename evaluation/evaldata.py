"""Where the third-party evaluation data lives. It is never shipped with ClaimCheck (other
people's datasets and web pages): `manage.py evaluate` takes a file's path, and the benchmarks
that measure against it read `../shared/eval` beside the repository, or `CLAIMCHECK_EVAL_DATA`.
A command without its data stops with one line that says where it looked and what to do."""

from __future__ import annotations

import os
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
README_HINT = "see the README, 'Benchmarks'"


def eval_data_dir() -> Path:
    """The folder of evaluation data sets: CLAIMCHECK_EVAL_DATA, else ../shared/eval."""
    configured = os.environ.get("CLAIMCHECK_EVAL_DATA", "").strip()
    return Path(configured).expanduser() if configured else ROOT.parent / "shared" / "eval"


def missing_data(path: Path, *, what: str) -> str:
    """One line for data that is not where a command looks for it."""
    return (
        f"{what} not found at {path.absolute()}: the evaluation data is third-party and not "
        f"shipped; put your copy there or set CLAIMCHECK_EVAL_DATA ({README_HINT})"
    )
