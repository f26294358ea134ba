"""The daily retention sweep: evidence rows and fetched pages older than the configured TTL are
deleted, except what a verdict cites. It lives with the decisions because only they know what a
verdict (and an override, which stands on a verdict) cites; the rows themselves are evidence's."""

from __future__ import annotations

import logging
from dataclasses import dataclass
from datetime import datetime, timedelta

from django.db import transaction
from django.utils import timezone

from claimcheck.config import get_config
from decisions.models import Verdict
from evidence.fetching.base import FETCHERS
from evidence.models import Evidence, Page
from harvester.local_index import remove_document

logger = logging.getLogger(__name__)

BATCH = 500


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
    old = Evidence.objects.filter(created_at__lt=cutoff)
    claim_ids = set(old.values_list("claim_id", flat=True).distinct())
    cited = _cited(list(Verdict.objects.filter(claim_id__in=claim_ids)))
    doomed = [
        pk
        for pk, claim_id, url in old.values_list("pk", "claim_id", "url").iterator()
        if (claim_id, url) not in cited
    ]
    evidence_deleted = 0
    for start in range(0, len(doomed), BATCH):
        evidence_deleted += Evidence.objects.filter(pk__in=doomed[start : start + BATCH]).delete()[
            0
        ]

    every_verdict = Verdict.objects.only("claim", "sources", "unsided")
    cited_urls = {url for _, url in _cited(list(every_verdict))}
    stale = (
        Page.objects.filter(fetched_at__lt=cutoff, fetcher__in=sorted(FETCHERS))
        .exclude(evidence__isnull=False)
        .values_list("pk", "url")
    )
    pages = [(pk, url) for pk, url in stale.iterator() if url not in cited_urls]
    for pk, url in pages:
        with transaction.atomic():
            Page.objects.filter(pk=pk).delete()
            remove_document(url=url)
    result = RetentionResult(evidence_deleted=evidence_deleted, pages_deleted=len(pages))
    logger.info(
        "retention sweep",
        extra={"evidence_deleted": result.evidence_deleted, "pages_deleted": result.pages_deleted},
    )
    return result
