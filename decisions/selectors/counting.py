"""A claim's current run counted row by row (`decisions.counting`): read by the claim page, the
API and `manage.py verify`, so that each says what counted and why the same way."""

from __future__ import annotations

from claimcheck.config import get_config
from claims.models import Claim
from decisions.counting import Counting, count_rows
from decisions.types import ClaimQuestion
from evidence.models import Evidence


def claim_counting(*, claim: Claim) -> Counting:
    """The current run's rows, weighed with the pipeline's settings as the decision weighs
    them (one query)."""
    rows = list(
        Evidence.objects.filter(claim=claim, attempt__gt=claim.attempt_offset)
        # The ranking reads a page's title when the row has none; never its text.
        .select_related("page")
        .defer("page__text", "page__html", "page__metadata")
        .order_by("id")
    )
    budgets = get_config().budgets
    return count_rows(
        question=ClaimQuestion(
            text=claim.text,
            timeframe_start=claim.timeframe_start,
            timeframe_end=claim.timeframe_end,
            claim_id=claim.pk,
        ),
        rows=rows,
        attempt_offset=claim.attempt_offset,
        min_confidence=budgets.min_confidence,
        limit=get_config().retention.max_per_side,
        threshold=budgets.agreement_score,
        max_opposition=budgets.max_opposition,
    )
