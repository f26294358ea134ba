"""Google Custom Search JSON API (optional): GET /customsearch/v1 with a key and a search
engine id (cx), both from the environment. Google's operators work in the query."""

from __future__ import annotations

import os
from typing import Any

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

_DATE_TAGS = ("article:published_time", "og:article:published_time", "datepublished", "date")


class GoogleOptions(BaseModel):
    model_config = ConfigDict(extra="forbid")
    cx_env: str = "GOOGLE_CSE_ID"


def _published(item: dict[str, Any]) -> Any:
    pagemap = item.get("pagemap")
    metatags = pagemap.get("metatags") if isinstance(pagemap, dict) else None
    if isinstance(metatags, list):
        for tags in metatags:
            if isinstance(tags, dict):
                for tag in _DATE_TAGS:
                    if tags.get(tag):
                        return tags[tag]
    return None


@register
class GoogleProvider(HttpProvider):
    name = "google"
    default_base_url = "https://www.googleapis.com"
    requires_key = True
    options_model = GoogleOptions

    def unavailable_reason(self) -> str | None:
        reason = super().unavailable_reason()
        if reason is None and not os.environ.get(self.options.cx_env):
            return f"no search engine id ({self.options.cx_env})"
        return reason

    def build_request(
        self, *, schema: QuerySchema, query: str, max_results: int, api_key: str | None
    ) -> ProviderRequest:
        params: dict[str, Any] = {
            "key": api_key or "",
            "cx": os.environ.get(self.options.cx_env, ""),
            "q": query,
            "num": min(max_results, 10),
        }
        if schema.filters.lang:
            params["lr"] = f"lang_{schema.filters.lang}"
        if schema.filters.geo:
            params["gl"] = schema.filters.geo.lower()
        return ProviderRequest(method="GET", url=f"{self.base_url}/customsearch/v1", params=params)

    def parse(self, response: http.Response, *, max_results: int) -> list[ProviderHit]:
        data = json_object(response)
        return hits_from(
            data.get("items"),
            where="items",
            url="link",
            title="title",
            snippet="snippet",
            published=_published,
        )
