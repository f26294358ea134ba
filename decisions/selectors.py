"""Reads for the review desk pages."""

from __future__ import annotations

from django.db.models import Count, QuerySet

from claimcheck.models import Claim, ClaimStatus, Outcome


def claim_queue(*, status: str = "", outcome: str = "", q: str = "") -> QuerySet[Claim]:
    claims = Claim.objects.all()
    if status in ClaimStatus.values:
        claims = claims.filter(status=status)
    if outcome in Outcome.values:
        claims = claims.filter(outcome=outcome)
    if q:
        claims = claims.filter(text__icontains=q)
    return claims.order_by("-created_at", "-id")


def dashboard_totals() -> dict[str, int]:
    by_status = dict(Claim.objects.values_list("status").annotate(n=Count("id")))
    by_outcome = dict(
        Claim.objects.exclude(outcome="").values_list("outcome").annotate(n=Count("id"))
    )
    return {
        "claims": sum(by_status.values()),
        **{f"status_{key}": by_status.get(key, 0) for key in ClaimStatus.values},
        **{f"outcome_{key}": by_outcome.get(key, 0) for key in Outcome.values},
        "overridden": Claim.objects.filter(overridden=True).count(),
    }
