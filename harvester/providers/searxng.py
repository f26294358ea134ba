"""SearxNG, self-hosted: GET {base_url}/search?format=json (JSON output must be enabled in its
settings.yml). It passes site: on to its engines; dates only as a coarse `time_range`."""

from __future__ import annotations

from typing import Any

from django.utils import timezone
from pydantic import BaseModel, ConfigDict, Field

from harvester.providers.base import (
    HttpProvider,
    ProviderHit,
    ProviderRequest,
    hits_from,
    json_object,
)
from harvester.providers.registry import register
from harvester.schema import QuerySchema, compile_query
from integrations import http


class SearxngOptions(BaseModel):
    model_config = ConfigDict(extra="forbid")
    categories: str = "general"
    engines: str | None = None
    safesearch: int = Field(default=1, ge=0, le=2)


def time_range(schema: QuerySchema) -> str | None:
    """The narrowest SearxNG range that still covers date_after (it has no exact dates)."""
    after = schema.filters.after()
    if after is None:
        return None
    days = (timezone.localdate() - after).days
    for limit, name in ((1, "day"), (7, "week"), (31, "month"), (366, "year")):
        if days <= limit:
            return name
    return None


@register
class SearxngProvider(HttpProvider):
    name = "searxng"
    options_model = SearxngOptions

    def compile(self, schema: QuerySchema) -> str:
        return compile_query(schema, dates=False)

    def build_request(
        self, *, schema: QuerySchema, query: str, max_results: int, api_key: str | None
    ) -> ProviderRequest:
        params: dict[str, Any] = {
            "q": query,
            "format": "json",
            "categories": self.options.categories,
            "safesearch": self.options.safesearch,
        }
        if self.options.engines:
            params["engines"] = self.options.engines
        if schema.filters.lang:
            params["language"] = schema.filters.lang
        window = time_range(schema)
        if window:
            params["time_range"] = window
        return ProviderRequest(
            method="GET",
            url=f"{self.base_url}/search",
            params=params,
            headers={"Accept": "application/json"},
        )

    def parse(self, response: http.Response, *, max_results: int) -> list[ProviderHit]:
        data = json_object(response)
        return hits_from(
            data.get("results"),
            where="results",
            url="url",
            title="title",
            snippet="content",
            published=lambda item: item.get("publishedDate"),
        )
