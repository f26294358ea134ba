"""A stored Evidence row as the decision module sees it (`EvidenceHit`): read by the claim loop
and by the claim page, so that both weigh a row the same way."""

from __future__ import annotations

from decisions.types import EvidenceHit
from evidence.models import Evidence
from registry.weighing import weigh_source


def evidence_hit(row: Evidence) -> EvidenceHit:
    """A stored Evidence row as the decision module sees it. A reprint of another publisher's
    story weighs what its original publisher weighs."""
    weight = weigh_source(row.syndicated_from).weight if row.syndicated_from else row.weight
    return EvidenceHit(
        url=row.url,
        domain=row.domain,
        tier=row.tier,
        weight=weight,
        stance=row.stance,
        title=row.title or (row.page.title if row.page else ""),
        quote=row.source_quote,
        stance_score=row.stance_score,
        event_at=row.event_at,
        published_at=row.published_at,
        in_window=row.in_window,
        date_source=row.date_source,
        method=row.method,
        content_depth=row.content_depth,
        read=row.was_read,
        confidence=row.confidence,
        syndicated_from=row.syndicated_from,
        entity_overlap=row.entity_overlap,
        about=row.about_claim,
    )
