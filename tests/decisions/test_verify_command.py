"""`manage.py verify`: progress and verdict on the terminal, log lines only when asked."""

from __future__ import annotations

import io
import logging
import re
from pathlib import Path

import pytest
from django.core.management import CommandError, call_command

from claims.models import Claim
from demo.loader import demo_load

pytestmark = pytest.mark.django_db

CLAIM = "Veltria Motors opened its battery cell plant in Karsfeld."
HALDEN = (
    "Halden Rail and Nordfrakt Logistics merger was cleared by the competition authority on "
    "21 November 2024"
)


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


_READING = re.compile(
    r"^  \[E\] (?:Supports|Refutes): (?P<domain>\S+) \((?P<tier>\w+), (?P<weight>[\d.]+)"
    r"(?:, syndicated from (?P<original>[^,)]+))?(?P<rest>.*)\)$"
)
_DECISION = re.compile(r"^  \[D\] Support [\d.]+(?P<support>.*) / refute [\d.]+(?P<refute>.*) of ")
_COUNTED = re.compile(r"^  Counted: (?P<side>supports|refutes), weight (?P<weight>[\d.]+) \| ")
_TOTALS = re.compile(r"^Support (?P<support>[\d.]+) / refute (?P<refute>[\d.]+) \(the counted")


# Two claims whose pages are read (not only their snippets checked): one a single publisher
# supports, short of the counting bar, and one two publishers support.
NASOFLU = "The Union Medicines Agency authorised the nasal flu vaccine Nasoflu in October 2024."


@pytest.mark.parametrize("text", [NASOFLU, HALDEN])
def test_every_weight_verify_prints_is_counted_in_the_totals_after_it_or_says_why_not(
    text: str,
) -> None:
    demo_load()
    out = io.StringIO()
    call_command("verify", text, stdout=out)
    lines = out.getvalue().splitlines()

    readings = 0
    for number, line in enumerate(lines):
        reading = _READING.match(line)
        if reading is None:
            continue
        readings += 1
        if ", not counted: " in reading["rest"]:
            continue
        # Not marked: its publisher counts, with its weight, in the next decision line.
        decision = next(m for m in map(_DECISION.match, lines[number:]) if m)
        publisher = reading["original"] or reading["domain"]
        assert f"{publisher} " in decision["support"] + decision["refute"], line
    assert readings

    # The evidence as counted adds up to the totals printed under it.
    counted = {"supports": 0.0, "refutes": 0.0}
    for match in filter(None, map(_COUNTED.match, lines)):
        counted[match["side"]] += float(match["weight"])
    totals = next(m for m in map(_TOTALS.match, lines) if m)
    assert f"{counted['supports']:.1f}" == totals["support"]
    assert f"{counted['refutes']:.1f}" == totals["refute"]
    assert "Not counted: " in out.getvalue()


def test_the_same_claim_again_is_shown_as_it_stands_and_says_why() -> None:
    demo_load()
    first = _verify(verbosity=1)
    again = _verify(verbosity=1)

    assert "has the same text" not in first
    assert "First query, written by this machine's rewriter: " in first
    claim = Claim.objects.get()
    assert (
        f"Claim {claim.pk} has the same text (and timeframe and channel) as one submitted in "
        "the last 24 hours (budgets.dedupe_window_hours), so it is that claim: showing its "
        "state. Re-run it from its page to check it again." in again
    )
    assert "First query" not in again  # not checked twice
    assert first.split("\nVerdict: ")[1] == again.split("\nVerdict: ")[1]


def test_verify_llm_without_a_running_model_server_says_how_to_start_one(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    from decisions.management.commands import verify

    monkeypatch.setattr(verify, "RUN_CONFIG", tmp_path / "var" / "local-llm.yaml")
    with pytest.raises(CommandError, match="CLAIMCHECK_LLM=local scripts/run"):
        call_command("verify", "--llm", CLAIM, stdout=io.StringIO())
    assert not Claim.objects.exists()  # refused before anything is stored
