"""The engine's reads, for the desk and the command line: a claim's current run counted row by
row (`claim_counting`, from `decisions.counting`), so that the claim page, the API and
`manage.py verify` say what counted and why the same way; a verdict's proof as shown
(`proof_as_shown`, `render_proof`) and its summary (`verdict_summary`); and a stance in words
(`side_word`). The engine's modules behind them are its own: the desk reads it only here, through
`decisions.services`, and through its models and types (the import contracts say so)."""

from __future__ import annotations

from claimcheck.config import get_config
from claims.models import Claim
from decisions.counting import Counting, RowCount, count_rows
from decisions.proof import proof_as_shown, render_proof
from decisions.similar import SimilarClaim, similar_claims
from decisions.summary import verdict_summary
from decisions.types import ClaimQuestion
from decisions.uncounted import side_word
from evidence.models import Evidence

__all__ = [
    "Counting",
    "RowCount",
    "SimilarClaim",
    "claim_counting",
    "proof_as_shown",
    "render_proof",
    "side_word",
    "similar_claims",
    "verdict_summary",
]


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
