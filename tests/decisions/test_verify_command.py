"""`manage.py verify`: progress and verdict on the terminal, log lines only when asked."""

from __future__ import annotations

import io
import logging

import pytest
from django.core.management import call_command

from claims.models import Claim
from demo.loader import demo_load

pytestmark = pytest.mark.django_db

CLAIM = "Veltria Motors opened its battery cell plant in Karsfeld."


def _verify(verbosity: int) -> str:
    out = io.StringIO()
    call_command(
        "verify",
        CLAIM,
        "--start",
        "2024-06-01",
        "--end",
        "2024-06-30",
        stdout=out,
        verbosity=verbosity,
    )
    return out.getvalue()


def test_verify_keeps_log_lines_off_the_terminal_and_counts_in_good_english(
    caplog: pytest.LogCaptureFixture,
) -> None:
    demo_load()
    caplog.clear()
    with caplog.at_level(logging.INFO):
        out = _verify(1)
    assert caplog.records == []
    assert "Verdict: True" in out
    claim = Claim.objects.get()
    query_word = "query" if claim.queries_used == 1 else "queries"
    page_word = "page" if claim.crawls_used == 1 else "pages"
    assert f"{claim.queries_used} {query_word}, {claim.crawls_used} {page_word} read" in out
    assert "1 queries" not in out and "1 pages" not in out
    # Logging is back to normal after the command.
    logging.getLogger("decisions").warning("after")
    assert [r.getMessage() for r in caplog.records] == ["after"]


def test_verify_shows_log_lines_with_v2(caplog: pytest.LogCaptureFixture) -> None:
    demo_load()
    caplog.clear()
    with caplog.at_level(logging.INFO):
        _verify(2)
    assert any(
        record.name.startswith(("harvester", "evidence", "decisions")) for record in caplog.records
    )
