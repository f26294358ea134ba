"""The fact-check score and confidence tier: how far an editor can lean on a verdict."""

from __future__ import annotations

from typing import Any

import pytest
from django.test import Client

from claims.models import ConfidenceTier, Outcome
from decisions.confidence import FactCheckConfidence, fact_check_confidence
from decisions.models import VerdictReason
from decisions.pipeline import claim_pipeline_run
from decisions.services import claim_rerun, claim_submit
from decisions.types import Source
from demo.loader import demo_claims, demo_load


def _source(tier: str, publisher: str) -> Source:
    return Source(url=f"https://{publisher}/a", title="", pub_date=None, excerpt="", tier=tier,
                  publisher=publisher)  # fmt: skip


OFFICIAL = [_source("official", "agency.example"), _source("wire", "wire.example")]


@pytest.mark.parametrize(
    ("kwargs", "expected"),
    [
        (
            {"outcome": Outcome.INVALID, "reason": VerdictReason.NO_SOURCES, "support": 0,
             "refute": 0, "sources": []},
            FactCheckConfidence(0.0, ConfidenceTier.LOW, "no sources"),
        ),
        (
            {"outcome": Outcome.INVALID, "reason": VerdictReason.CONFLICTING, "support": 1.8,
             "refute": 1.6, "sources": OFFICIAL},
            FactCheckConfidence(0.53, ConfidenceTier.LOW, "conflicting sources"),
        ),
        (
            {"outcome": Outcome.INVALID, "reason": VerdictReason.LEANING, "support": 0.8,
             "refute": 0, "sources": []},
            FactCheckConfidence(0.5, ConfidenceTier.LOW, "below the agreement score"),
        ),
        (
            {"outcome": Outcome.TRUE, "reason": VerdictReason.SUFFICIENT, "support": 1.8,
             "refute": 0, "sources": OFFICIAL},
            FactCheckConfidence(1.0, ConfidenceTier.HIGH, "2 sources agree"),
        ),
        (
            {"outcome": Outcome.TRUE, "reason": VerdictReason.SUFFICIENT, "support": 1.8,
             "refute": 0.6, "sources": OFFICIAL},
            FactCheckConfidence(0.75, ConfidenceTier.MEDIUM, "some sources disagree"),
        ),
        (
            {"outcome": Outcome.FALSE, "reason": VerdictReason.SUFFICIENT, "support": 0,
             "refute": 1.7, "sources": [_source("social", "a.social"),
                                         _source("social", "b.social")]},
            FactCheckConfidence(1.0, ConfidenceTier.MEDIUM, "agreement short of high"),
        ),
    ],
    ids=["no-sources", "conflicting", "leaning", "agreed", "opposed", "social-only"],
)  # fmt: skip
def test_the_tier_follows_the_verdicts_reading_of_its_evidence(
    kwargs: dict[str, Any], expected: FactCheckConfidence
) -> None:
    assert fact_check_confidence(threshold=1.6, **kwargs) == expected


TRUE_CLAIM = next(c for c in demo_claims() if "Battery Passport" in c.text)


@pytest.mark.django_db
def test_a_decided_claim_shows_its_tier_in_the_queue_the_api_and_the_page(
    editor_client: Client, api: Client, editor: Any
) -> None:
    demo_load()
    claim, _ = claim_submit(
        text=TRUE_CLAIM.text,
        timeframe_start=TRUE_CLAIM.timeframe_start,
        timeframe_end=TRUE_CLAIM.timeframe_end,
        enqueue=False,
    )
    verdict = claim_pipeline_run(claim_id=claim.pk)
    assert verdict is not None and verdict.outcome == Outcome.TRUE
    claim.refresh_from_db()
    assert claim.fact_check_tier == ConfidenceTier.HIGH
    assert claim.fact_check_score == 1.0

    body = api.get(f"/api/claims/{claim.pk}").json()
    assert body["fact_check"] == {"score": 1.0, "tier": "high", "note": claim.fact_check_note}
    listed = api.get("/api/claims").json()["items"]
    assert listed[0]["fact_check"]["tier"] == "high"

    queue = editor_client.get("/").content.decode()
    assert 'tag-conf-high"' in queue and '<span class="conf-figure">1.00</span>' in queue
    page = editor_client.get(f"/claims/{claim.pk}/").content.decode()
    assert 'id="verdict-confidence"' in page
    assert 'id="verdict-evidence"' in page
    assert page.count("<li><strong>") >= 2  # one evidence bullet a counted source

    claim_rerun(claim=claim, user=editor)
    claim.refresh_from_db()
    assert (claim.fact_check_score, claim.fact_check_tier) == (None, "")
    assert api.get(f"/api/claims/{claim.pk}").json()["fact_check"] is None
