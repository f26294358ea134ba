"""The benchmarks that measure against third-party data say where they looked when it is not
there, in one line, and exit non-zero: nothing was measured."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest
from django.conf import settings

from evaluation.evaldata import eval_data_dir


def test_the_data_is_beside_the_repository_unless_the_environment_says(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    monkeypatch.delenv("CLAIMCHECK_EVAL_DATA", raising=False)
    assert eval_data_dir() == Path(settings.BASE_DIR).parent / "shared" / "eval"
    monkeypatch.setenv("CLAIMCHECK_EVAL_DATA", str(tmp_path))
    assert eval_data_dir() == tmp_path


@pytest.mark.parametrize("bench", ["extraction_bench.py", "stance_bench.py"])
def test_a_benchmark_without_its_data_says_where_it_looked_and_fails(
    bench: str, tmp_path: Path
) -> None:
    nowhere = tmp_path / "eval"
    run = subprocess.run(  # noqa: S603 (our interpreter and our script)
        [sys.executable, f"bench/{bench}"],
        cwd=settings.BASE_DIR,
        env={**os.environ, "CLAIMCHECK_EVAL_DATA": str(nowhere)},
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert run.returncode == 2
    assert run.stdout == ""
    assert run.stderr.strip().splitlines() == [
        f"evaluation data not found at {nowhere}: the evaluation data is third-party and not "
        "shipped; put your copy there or set CLAIMCHECK_EVAL_DATA (see the README, 'Benchmarks')"
    ]
