"""An editor's saved view of the queue ("My queue"): its filters and order, kept per editor."""

from __future__ import annotations

from django.contrib.auth.models import User
from django.http import QueryDict

from decisions.errors import ClaimError
from decisions.models import SavedQueue

QUERY_MAX_CHARS = 1000


def queue_query(*, query: QueryDict, keys: frozenset[str]) -> str:
    """A Claims page query string as a queue is kept: only the filters named by `keys` and set,
    in one order; never a page number or the live poll's mark."""
    kept = QueryDict(mutable=True)
    for key in sorted(keys & set(query)):
        values = [value for value in query.getlist(key) if value.strip()]
        if values:
            kept.setlist(key, values)
    return kept.urlencode()


def saved_queue_set(*, user: User, query: str, keys: frozenset[str]) -> SavedQueue:
    """Keep `query` (a query string of the Claims page, checked by its form) as the editor's
    queue (`queue_query`). Saving again replaces it."""
    text = queue_query(query=QueryDict(query), keys=keys)
    if len(text) > QUERY_MAX_CHARS:
        raise ClaimError(
            f"these filters are too long to keep (over {QUERY_MAX_CHARS} characters)", field="query"
        )
    saved, _ = SavedQueue.objects.update_or_create(user=user, defaults={"query": text})
    return saved
