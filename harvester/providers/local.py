"""The `local` provider: full-text search over the documents this app indexes. No network and
no key; it runs a database query, so it is called from synchronous code (see services)."""

from __future__ import annotations

import time

from django.db import DatabaseError

from harvester.local_index import search_documents
from harvester.models import ProviderStatus
from harvester.providers.base import Provider, ProviderHit, ProviderOutcome
from harvester.providers.registry import register
from harvester.schema import QuerySchema


@register
class LocalProvider(Provider):
    name = "local"

    def unavailable_reason(self) -> str | None:
        return None

    def compile(self, schema: QuerySchema) -> str:
        from harvester.schema import compile_keywords

        return compile_keywords(schema)

    def search_sync(self, schema: QuerySchema, *, max_results: int) -> ProviderOutcome:
        started = time.monotonic()
        outcome = ProviderOutcome(provider=self.name, query_used=self.compile(schema), attempts=1)
        filters = schema.filters
        try:
            found = search_documents(
                query=schema,
                sites=filters.sites or None,
                date_after=filters.after(),
                date_before=filters.before(),
                limit=max_results,
            )
        except DatabaseError as exc:
            self.failed(outcome, f"local index error: {type(exc).__name__}")
        else:
            outcome.status = ProviderStatus.OK
            outcome.hits = [
                ProviderHit(
                    url=hit.url,
                    title=hit.title,
                    snippet=hit.snippet,
                    rank=hit.rank,
                    published=hit.published,
                    raw={
                        "url": hit.url,
                        "title": hit.title,
                        "snippet": hit.snippet,
                        "rank": hit.rank,
                        "score": hit.score,
                        "published": hit.published.isoformat() if hit.published else None,
                    },
                )
                for hit in found
            ]
        outcome.latency_ms = int((time.monotonic() - started) * 1000)
        return outcome
