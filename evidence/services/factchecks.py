"""Published fact-checks as evidence: a review counts only when its publisher's domain is in the
registry (a known, weighted source) and its rating says true or false."""

from __future__ import annotations

from claims.models import Claim
from evidence.models import ContentDepth, Evidence, FactCheckMatch, Method, Stance
from registry.weighing import weigh_source

_FACTCHECK_REFUTE = ("false", "fake", "incorrect", "misleading", "pants on fire", "wrong", "no ")
_FACTCHECK_SUPPORT = ("true", "correct", "accurate", "yes")


def _rating_stance(rating: str) -> str:
    text = rating.lower().strip() + " "
    if any(text.startswith(word) or f" {word}" in f" {text}" for word in _FACTCHECK_REFUTE):
        return Stance.REFUTE
    if any(text.startswith(word) for word in _FACTCHECK_SUPPORT):
        return Stance.SUPPORT
    return Stance.NEUTRAL


def factcheck_evidence_record(*, claim: Claim, matches: list[FactCheckMatch], attempt: int) -> int:
    """Store each counting review of the claim as an evidence row (once: a resumed run finds the
    row it wrote); returns how many rows it stored."""
    counted = 0
    for match in matches:
        rule = weigh_source(match.publisher_site or match.url)
        stance = _rating_stance(match.rating)
        if rule.matched is None or rule.denied or rule.weight <= 0 or stance == Stance.NEUTRAL:
            continue
        _, created = Evidence.objects.get_or_create(
            claim=claim,
            url=match.url,
            method=Method.FACTCHECK,
            attempt=attempt,
            defaults={
                "title": f"{match.publisher}: {match.rating}",
                "domain": rule.registrable,
                "tier": rule.tier,
                "weight": rule.weight,
                "stance": stance,
                "stance_score": 1.0,
                "source_quote": match.claim_reviewed[:500],
                "published_at": match.review_date,
                "content_depth": ContentDepth.SNIPPET,
                "confidence": "high",
            },
        )
        counted += int(created)
    return counted
