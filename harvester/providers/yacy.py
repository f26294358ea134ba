"""YaCy peer: GET {base_url}/yacysearch.json (an OpenSearch-style RSS channel as JSON). It
understands site:; it has no date filter, so dates are left out of its query."""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, ConfigDict

from harvester.providers.base import (
    HttpProvider,
    ProviderFailure,
    ProviderHit,
    ProviderRequest,
    as_list,
    hits_from,
    json_object,
)
from harvester.providers.registry import register
from harvester.schema import QuerySchema, compile_query
from integrations import http


class YacyOptions(BaseModel):
    model_config = ConfigDict(extra="forbid")
    resource: Literal["global", "local"] = "global"


@register
class YacyProvider(HttpProvider):
    name = "yacy"
    options_model = YacyOptions

    def compile(self, schema: QuerySchema) -> str:
        return compile_query(schema, dates=False)

    def build_request(
        self, *, schema: QuerySchema, query: str, max_results: int, api_key: str | None
    ) -> ProviderRequest:
        return ProviderRequest(
            method="GET",
            url=f"{self.base_url}/yacysearch.json",
            params={
                "query": query,
                "maximumRecords": min(max_results, 100),
                "resource": self.options.resource,
                "contentdom": "text",
                "verify": "false",
            },
            headers={"Accept": "application/json"},
        )

    def parse(self, response: http.Response, *, max_results: int) -> list[ProviderHit]:
        channels = as_list(json_object(response).get("channels"), "channels")
        if not channels:
            return []
        channel = channels[0]
        if not isinstance(channel, dict):
            raise ProviderFailure("unexpected response shape: channel is not an object")
        return hits_from(
            channel.get("items"),
            where="items",
            url="link",
            title="title",
            snippet="description",
            published=lambda item: item.get("pubDate"),
        )
