"""Evidence rows and fetched pages past their time to live are deleted, except what the caller
says is cited (a verdict's sources: only the decisions know them, see
`decisions.services.retention`)."""

from __future__ import annotations

from datetime import datetime

from django.db import transaction

from evidence.fetching.base import FETCHERS
from evidence.models import Evidence, Page
from harvester.services import remove_document

BATCH = 500


def evidence_expire(*, cutoff: datetime, cited: set[tuple[int, str]]) -> int:
    """Delete the evidence rows stored before `cutoff` whose (claim id, URL) is not `cited`.
    Returns how many were deleted."""
    old = Evidence.objects.filter(created_at__lt=cutoff)
    doomed = [
        pk
        for pk, claim_id, url in old.values_list("pk", "claim_id", "url").iterator()
        if (claim_id, url) not in cited
    ]
    deleted = 0
    for start in range(0, len(doomed), BATCH):
        deleted += Evidence.objects.filter(pk__in=doomed[start : start + BATCH]).delete()[0]
    return deleted


def pages_expire(*, cutoff: datetime, cited_urls: set[str]) -> int:
    """Delete the pages fetched before `cutoff` by a live fetcher (a stored corpus is the
    offline web, not a cache) that no evidence row reads from and no verdict cites, with their
    entries in the local search index. Returns how many were deleted."""
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
    return len(pages)
