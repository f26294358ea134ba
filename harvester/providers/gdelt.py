"""GDELT DOC 2.0, article list mode: GET /api/v2/doc/doc?mode=artlist&format=json. Its dialect
has domain: instead of site: and sourcelang: for the language; dates go in startdatetime /
enddatetime. It reports errors as plain text with status 200, and no results as `{}`."""

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
from harvester.schema import QuerySchema, compile_keywords
from integrations import http

_LANGUAGES = {
    "ar": "arabic",
    "de": "german",
    "en": "english",
    "es": "spanish",
    "fr": "french",
    "it": "italian",
    "ja": "japanese",
    "nl": "dutch",
    "pl": "polish",
    "pt": "portuguese",
    "ru": "russian",
    "tr": "turkish",
    "uk": "ukrainian",
    "zh": "chinese",
}


class GdeltOptions(BaseModel):
    model_config = ConfigDict(extra="forbid")
    sort: Literal["hybridrel", "datedesc", "dateasc"] = "hybridrel"


@register
class GdeltProvider(HttpProvider):
    name = "gdelt"
    default_base_url = "https://api.gdeltproject.org"
    options_model = GdeltOptions

    def compile(self, schema: QuerySchema) -> str:
        parts = [compile_keywords(schema)]
        domains = [f"domain:{site.lstrip('.')}" for site in schema.filters.sites]
        if domains:
            parts.append(domains[0] if len(domains) == 1 else "(" + " OR ".join(domains) + ")")
        language = _LANGUAGES.get(schema.filters.lang or "")
        if language:
            parts.append(f"sourcelang:{language}")
        return " ".join(parts)

    def build_request(
        self, *, schema: QuerySchema, query: str, max_results: int, api_key: str | None
    ) -> ProviderRequest:
        params: dict[str, Any] = {
            "query": query,
            "mode": "artlist",
            "format": "json",
            "maxrecords": min(max_results, 250),
            "sort": self.options.sort,
        }
        after, before = schema.filters.after(), schema.filters.before()
        if after:
            params["startdatetime"] = after.strftime("%Y%m%d000000")
        if before:
            params["enddatetime"] = before.strftime("%Y%m%d235959")
        return ProviderRequest(method="GET", url=f"{self.base_url}/api/v2/doc/doc", params=params)

    def parse(self, response: http.Response, *, max_results: int) -> list[ProviderHit]:
        body = response.text.strip()
        if not body.startswith("{"):
            # e.g. "Your search contained a keyword that was too short." with status 200.
            message = " ".join(body.split())[:200] or "empty answer"
            raise ProviderFailure(f"GDELT error: {message}")
        data = json_object(response)
        return hits_from(
            data.get("articles"),
            where="articles",
            url="url",
            title="title",
            snippet=None,
            published=lambda item: item.get("seendate"),
        )
