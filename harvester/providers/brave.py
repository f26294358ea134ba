"""Brave Search API: GET /res/v1/web/search. Brave ignores after:/before: in the query, so
dates travel in its `freshness` parameter (a YYYY-MM-DDtoYYYY-MM-DD range)."""

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
from harvester.schema import QuerySchema, compile_query
from integrations import http

_EARLIEST = "1990-01-01"


class BraveOptions(BaseModel):
    model_config = ConfigDict(extra="forbid")
    safesearch: Literal["off", "moderate", "strict"] = "moderate"


def freshness(schema: QuerySchema, *, today: str) -> str | None:
    after, before = schema.filters.after(), schema.filters.before()
    if after is None and before is None:
        return None
    start = after.isoformat() if after else _EARLIEST
    end = before.isoformat() if before else today
    return f"{start}to{end}"


@register
class BraveProvider(HttpProvider):
    name = "brave"
    default_base_url = "https://api.search.brave.com"
    requires_key = True
    options_model = BraveOptions

    def compile(self, schema: QuerySchema) -> str:
        return compile_query(schema, dates=False)

    def build_request(
        self, *, schema: QuerySchema, query: str, max_results: int, api_key: str | None
    ) -> ProviderRequest:
        from django.utils import timezone

        params: dict[str, Any] = {
            "q": query,
            "count": min(max_results, 20),
            "safesearch": self.options.safesearch,
        }
        window = freshness(schema, today=timezone.localdate().isoformat())
        if window:
            params["freshness"] = window
        if schema.filters.lang:
            params["search_lang"] = schema.filters.lang
        if schema.filters.geo:
            params["country"] = schema.filters.geo
        return ProviderRequest(
            method="GET",
            url=f"{self.base_url}/res/v1/web/search",
            params=params,
            headers={"X-Subscription-Token": api_key or "", "Accept": "application/json"},
        )

    def parse(self, response: http.Response, *, max_results: int) -> list[ProviderHit]:
        web = json_object(response).get("web") or {}
        if not isinstance(web, dict):
            raise ProviderFailure("unexpected response shape: web is not an object")
        return hits_from(
            web.get("results"),
            where="web.results",
            url="url",
            title="title",
            snippet="description",
            published=lambda item: item.get("page_age") or item.get("age"),
        )
