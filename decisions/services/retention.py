"""The daily retention sweep: evidence rows and fetched pages older than the configured TTL are
deleted, except what a verdict cites. The sweep starts here because only the decisions know what
a verdict (and an override, which stands on a verdict) cites; the deleting is evidence's
(`evidence.services.evidence_expire`, `pages_expire`)."""

from __future__ import annotations

import logging
from dataclasses import dataclass
from datetime import datetime, timedelta

from django.utils import timezone

from claimcheck.config import get_config
from decisions.models import Verdict
from evidence.selectors import evidence_claims_before
from evidence.services import evidence_expire, pages_expire

logger = logging.getLogger(__name__)


@dataclass(frozen=True)
class RetentionResult:
    evidence_deleted: int
    pages_deleted: int


def _cited(verdicts: list[Verdict]) -> set[tuple[int, str]]:
    """(claim id, URL) of every source a verdict shows: counted and uncounted alike."""
    cited: set[tuple[int, str]] = set()
    for verdict in verdicts:
        for source in [*(verdict.sources or []), *(verdict.unsided or [])]:
            if isinstance(source, dict) and isinstance(source.get("url"), str):
                cited.add((verdict.claim_id, source["url"]))
    return cited


def evidence_retention_sweep(*, now: datetime | None = None) -> RetentionResult:
    """Delete what is past the TTL and cited by no verdict. Pages go only when they came from a
    live fetcher (a stored corpus is the offline web, not a cache) and no kept evidence row
    reads from them; their entries in the local search index go with them."""
    cutoff = (now or timezone.now()) - timedelta(days=get_config().retention.ttl_days)
    claim_ids = evidence_claims_before(cutoff=cutoff)
    cited = _cited(list(Verdict.objects.filter(claim_id__in=claim_ids)))
    evidence_deleted = evidence_expire(cutoff=cutoff, cited=cited)
    every_verdict = Verdict.objects.only("claim", "sources", "unsided")
    cited_urls = {url for _, url in _cited(list(every_verdict))}
    pages_deleted = pages_expire(cutoff=cutoff, cited_urls=cited_urls)
    result = RetentionResult(evidence_deleted=evidence_deleted, pages_deleted=pages_deleted)
    logger.info(
        "retention sweep",
        extra={"evidence_deleted": result.evidence_deleted, "pages_deleted": result.pages_deleted},
    )
    return result
