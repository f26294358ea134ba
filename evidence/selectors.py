"""The evidence app's reads for other apps: the page cache, what a page is, and which claims hold
evidence from before a date. Writes are in `evidence.services`."""

from __future__ import annotations

from datetime import datetime

from evidence.fetching.pages import cached_page
from evidence.models import Evidence, Page
from evidence.services.leads import is_hub

__all__ = ["cached_page", "evidence_claims_before", "is_hub", "page_hub_links"]


def evidence_claims_before(*, cutoff: datetime) -> set[int]:
    """The claims that hold evidence stored before `cutoff`."""
    return set(
        Evidence.objects.filter(created_at__lt=cutoff).values_list("claim_id", flat=True).distinct()
    )


def page_hub_links(page: Page) -> list[tuple[str, str]]:
    """The (URL, anchor text) links a hub page lists, as extraction stored them."""
    links = page.metadata.get("hub_links", []) if isinstance(page.metadata, dict) else []
    return [
        (str(item[0]), str(item[1]))
        for item in links
        if isinstance(item, list | tuple) and len(item) == 2
    ]
