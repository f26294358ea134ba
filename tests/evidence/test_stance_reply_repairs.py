"""An LLM stance reply judged finding by finding (through litellm's mock): a score out of range is
clipped into it, a finding that cannot be repaired is refused alone, and only a reply with no
findings list at all is a failed call."""

from __future__ import annotations

import json
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import pytest

from evidence.chunking import chunk_text
from evidence.models import Method
from evidence.rerank import rerank
from evidence.stance import ClaimContext, Finding, assess_page
from integrations.llm import LLMError, ReplyTally, llm_mock
from tests.evidence.factories import use_config

PAGE = (
    "Budget news.\n\nThe Senate approved the budget bill on 5 March 2024 by 60 votes to 38.\n\n"
    "Critics said the bill cuts rail funding."
)
APPROVED = "The Senate approved the budget bill on 5 March 2024 by 60 votes to 38."
CRITICS = "Critics said the bill cuts rail funding."
CLAIM = ClaimContext(
    text="The Senate approved the budget bill by 60 votes in March 2024.",
    timeframe_start=datetime(2024, 3, 1, tzinfo=UTC),
    timeframe_end=datetime(2024, 3, 31, 23, 59, tzinfo=UTC),
)


@pytest.fixture(autouse=True)
def with_llm(settings: Any, tmp_path: Path) -> None:
    use_config(settings, tmp_path, "llm:\n  model: openai/gpt-4o-mini\n")


def _finding(quote: str, stance: str = "support", score: Any = 0.8, **more: Any) -> dict[str, Any]:
    return {"quote": quote, "stance": stance, "score": score, "confidence": "medium", **more}


def _read(reply: Any, tally: ReplyTally | None = None) -> list[Finding]:
    chunks = rerank(claim_text=CLAIM.text, chunks=chunk_text(text=PAGE), top_k=3)
    text = reply if isinstance(reply, str) else json.dumps(reply)
    with llm_mock([text]) as mock:
        findings = assess_page(
            claim=CLAIM,
            page_text=PAGE,
            title="Budget",
            chunks=chunks,
            published_at=datetime(2024, 3, 6, tzinfo=UTC),
            tally=tally,
        )
    assert mock.purposes == ["stance"]
    return findings


def _logged(caplog: pytest.LogCaptureFixture, message: str) -> list[str]:
    return [str(getattr(r, "reason", "")) for r in caplog.records if r.getMessage() == message]


def test_good_findings_are_kept_when_others_in_the_reply_break_the_schema(
    caplog: pytest.LogCaptureFixture,
) -> None:
    caplog.set_level("INFO", logger="integrations.llm")
    tally = ReplyTally("stance")
    reply = {
        "findings": [
            _finding(APPROVED, score=0.9),
            _finding(CRITICS, stance="refute", score=1.4),
            _finding(APPROVED, stance="maybe"),
            {"stance": "support", "score": 0.5},
            _finding(CRITICS, score="high"),
            _finding("The bill was vetoed by the president."),
            "the page supports the claim",
        ]
    }

    findings = _read(reply, tally)

    assert [(f.quote, f.stance, f.score) for f in findings] == [
        (APPROVED, "support", 0.9),
        (CRITICS, "refute", 1.0),
    ]
    assert {f.method for f in findings} == {Method.LLM}
    assert (tally.clipped, tally.refused) == (1, 5)
    assert _logged(caplog, "llm reply item clipped") == ["item 2: score 1.4 clipped to 1.0"]
    refused = _logged(caplog, "llm reply item refused")
    assert refused[0].startswith("item 3: stance: ")
    assert refused[1].startswith("item 4: quote: Field required")
    assert refused[2].startswith("item 5: score: ")
    assert refused[3] == "item 6: quote not on the page"
    assert refused[4] == "item 7 is a str, not an object"


def test_a_score_below_zero_is_clipped_to_zero() -> None:
    tally = ReplyTally("stance")

    [finding] = _read({"findings": [_finding(CRITICS, stance="refute", score=-0.2)]}, tally)

    assert finding.score == 0.0
    assert (tally.clipped, tally.refused) == (1, 0)


def test_a_clipped_finding_whose_quote_is_not_on_the_page_counts_once_as_refused() -> None:
    tally = ReplyTally("stance")

    assert _read({"findings": [_finding("Not on the page.", score=3)]}, tally) == []
    assert (tally.clipped, tally.refused) == (0, 1)


def test_a_reply_whose_every_finding_is_refused_reads_nothing_without_an_error() -> None:
    tally = ReplyTally("stance")

    assert _read({"findings": [_finding(APPROVED, stance="maybe")]}, tally) == []
    assert (tally.clipped, tally.refused) == (0, 1)


@pytest.mark.parametrize(
    "reply",
    ["The page supports the claim.", {"verdict": "support"}, {"findings": "none"}, [1, 2]],
    ids=["prose", "no-findings", "findings-not-a-list", "a-list"],
)
def test_a_reply_with_no_findings_list_is_still_a_failed_call(reply: Any) -> None:
    with pytest.raises(LLMError) as caught:
        _read(reply)

    assert caught.value.kind == "bad_output"


def test_a_sentence_given_as_several_findings_is_read_once() -> None:
    """A small model may repeat itself: one statement is one finding (the first), so that one
    reading of a page never writes the same row twice."""
    reply = {
        "findings": [
            _finding(APPROVED, score=0.9),
            _finding(APPROVED, score=0.6),
            _finding(APPROVED.rstrip("."), stance="refute", score=0.7),
            _finding(CRITICS, stance="refute", score=0.5),
        ]
    }

    findings = _read(reply)

    assert [(f.quote, f.stance, f.score) for f in findings] == [
        (APPROVED, "support", 0.9),
        (CRITICS, "refute", 0.5),
    ]
