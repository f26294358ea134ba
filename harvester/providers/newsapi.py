"""NewsAPI (newsapi.org), GET /v2/everything. Its `q` takes quoted phrases, AND / OR and
parentheses (500 characters at most); sites go in `domains`, dates in `from` / `to`, and the key
in the X-Api-Key header. Errors come as {"status": "error", "code", "message"}; articles taken
down since are listed as "[Removed]" and are skipped."""

from __future__ import annotations

from typing import Any, Literal

from pydantic import BaseModel, ConfigDict

from harvester.providers.base import (
    HttpProvider,
    ProviderFailure,
    ProviderHit,
    ProviderRequest,
    hits_from,
    json_object,
)
from harvester.providers.registry import register
from harvester.schema import QuerySchema, quote_keyword
from integrations import http

Q_MAX_CHARS = 500
# The languages NewsAPI indexes, by their ISO 639-1 codes.
LANGUAGES = frozenset(
    {"ar", "de", "en", "es", "fr", "he", "it", "nl", "no", "pt", "ru", "sv", "ud", "zh"}
)
_REMOVED = "[Removed]"


class NewsApiOptions(BaseModel):
    model_config = ConfigDict(extra="forbid")
    sort_by: Literal["relevancy", "popularity", "publishedAt"] = "relevancy"


def newsapi_query(schema: QuerySchema) -> str:
    """The keywords in NewsAPI's dialect: phrases quoted, joined by AND or OR, whole terms
    dropped from the end until the query fits."""
    terms = [quote_keyword(keyword) for keyword in schema.keywords]
    joiner = " OR " if schema.boolean == "OR" else " AND "
    while len(terms) > 1 and len(joiner.join(terms)) > Q_MAX_CHARS:
        terms.pop()
    return joiner.join(terms)[:Q_MAX_CHARS]


@register
class NewsApiProvider(HttpProvider):
    name = "newsapi"
    default_base_url = "https://newsapi.org"
    requires_key = True
    options_model = NewsApiOptions

    def compile(self, schema: QuerySchema) -> str:
        return newsapi_query(schema)

    def build_request(
        self, *, schema: QuerySchema, query: str, max_results: int, api_key: str | None
    ) -> ProviderRequest:
        params: dict[str, Any] = {
            "q": query,
            "pageSize": min(max_results, 100),
            "sortBy": self.options.sort_by,
        }
        filters = schema.filters
        if filters.sites:
            params["domains"] = ",".join(site.lstrip(".") for site in filters.sites)
        if filters.lang in LANGUAGES:
            params["language"] = filters.lang
        after, before = filters.after(), filters.before()
        if after:
            params["from"] = after.isoformat()
        if before:
            params["to"] = before.isoformat()
        return ProviderRequest(
            method="GET",
            url=f"{self.base_url}/v2/everything",
            params=params,
            headers={"X-Api-Key": api_key or "", "Accept": "application/json"},
        )

    def parse(self, response: http.Response, *, max_results: int) -> list[ProviderHit]:
        data = json_object(response)
        if data.get("status") == "error":
            code, message = data.get("code") or "error", str(data.get("message") or "")[:200]
            raise ProviderFailure(f"NewsAPI error: {code}: {message}".rstrip(": "))
        hits = hits_from(
            data.get("articles"),
            where="articles",
            url="url",
            title="title",
            snippet="description",
            published=lambda item: item.get("publishedAt"),
        )
        kept = [hit for hit in hits if hit.title != _REMOVED]
        for rank, hit in enumerate(kept, start=1):
            hit.rank = rank
        return kept
