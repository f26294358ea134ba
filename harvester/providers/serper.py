"""Serper (Google results as JSON): POST /search or /news. Google's own operators work, so the
query keeps site:, after: and before:."""

from __future__ import annotations

from typing import Any, Literal

from pydantic import BaseModel, ConfigDict

from harvester.providers.base import (
    HttpProvider,
    ProviderHit,
    ProviderRequest,
    hits_from,
    json_object,
)
from harvester.providers.registry import register
from harvester.schema import QuerySchema
from integrations import http


class SerperOptions(BaseModel):
    model_config = ConfigDict(extra="forbid")
    search_type: Literal["search", "news"] = "search"


@register
class SerperProvider(HttpProvider):
    name = "serper"
    default_base_url = "https://google.serper.dev"
    requires_key = True
    options_model = SerperOptions

    def build_request(
        self, *, schema: QuerySchema, query: str, max_results: int, api_key: str | None
    ) -> ProviderRequest:
        body: dict[str, Any] = {"q": query, "num": min(max_results, 100)}
        if schema.filters.lang:
            body["hl"] = schema.filters.lang
        if schema.filters.geo:
            body["gl"] = schema.filters.geo.lower()
        return ProviderRequest(
            method="POST",
            url=f"{self.base_url}/{self.options.search_type}",
            headers={"X-API-KEY": api_key or "", "Content-Type": "application/json"},
            json=body,
        )

    def parse(self, response: http.Response, *, max_results: int) -> list[ProviderHit]:
        data = json_object(response)
        key = "news" if self.options.search_type == "news" else "organic"
        return hits_from(
            data.get(key),
            where=key,
            url="link",
            title="title",
            snippet="snippet",
            published=lambda item: item.get("date"),
            rank=_position,
        )


def _position(item: dict[str, Any], index: int) -> int:
    position = item.get("position")
    return position if isinstance(position, int) and position > 0 else index
