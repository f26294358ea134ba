"""Event Registry (newsapi.ai), POST /api/v1/article/getArticles with a JSON body. Keywords go
as a list with `keywordOper`, sites as `sourceUri`, dates as `dateStart` / `dateEnd`, the
language as its ISO 639-3 code, and the key in the body (`apiKey`), never in the URL. It reports
a bad key or query as {"error": "..."} with status 200."""

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
from harvester.schema import QuerySchema
from integrations import http

# An article's body is its whole text; the first lines are the snippet.
SNIPPET_CHARS = 400
LANGUAGES = {
    "ar": "ara",
    "de": "deu",
    "en": "eng",
    "es": "spa",
    "fr": "fra",
    "it": "ita",
    "ja": "jpn",
    "nl": "nld",
    "pl": "pol",
    "pt": "por",
    "ru": "rus",
    "tr": "tur",
    "uk": "ukr",
    "zh": "zho",
}


class EventRegistryOptions(BaseModel):
    model_config = ConfigDict(extra="forbid")
    sort_by: Literal["rel", "date", "sourceImportance"] = "rel"
    keyword_loc: Literal["body", "title", "title,body"] = "body"


@register
class EventRegistryProvider(HttpProvider):
    name = "eventregistry"
    default_base_url = "https://eventregistry.org"
    requires_key = True
    options_model = EventRegistryOptions

    def build_request(
        self, *, schema: QuerySchema, query: str, max_results: int, api_key: str | None
    ) -> ProviderRequest:
        keywords = list(schema.keywords)
        body: dict[str, Any] = {
            "action": "getArticles",
            "keyword": keywords[0] if len(keywords) == 1 else keywords,
            "keywordOper": "or" if schema.boolean == "OR" else "and",
            "keywordLoc": self.options.keyword_loc,
            "resultType": "articles",
            "articlesSortBy": self.options.sort_by,
            "articlesCount": min(max_results, 100),
            "articlesPage": 1,
            "dataType": ["news"],
            "apiKey": api_key or "",
        }
        filters = schema.filters
        if filters.sites:
            body["sourceUri"] = [site.lstrip(".") for site in filters.sites]
        if filters.lang in LANGUAGES:
            body["lang"] = LANGUAGES[filters.lang or ""]
        after, before = filters.after(), filters.before()
        if after:
            body["dateStart"] = after.isoformat()
        if before:
            body["dateEnd"] = before.isoformat()
        return ProviderRequest(
            method="POST",
            url=f"{self.base_url}/api/v1/article/getArticles",
            headers={"Content-Type": "application/json", "Accept": "application/json"},
            json=body,
        )

    def parse(self, response: http.Response, *, max_results: int) -> list[ProviderHit]:
        data = json_object(response)
        if "error" in data:
            raise ProviderFailure(f"Event Registry error: {str(data['error'])[:200]}")
        articles = data.get("articles") or {}
        if not isinstance(articles, dict):
            raise ProviderFailure("unexpected response shape: articles is not an object")
        hits = hits_from(
            articles.get("results"),
            where="articles.results",
            url="url",
            title="title",
            snippet="body",
            published=lambda item: item.get("dateTime") or item.get("date"),
        )
        for hit in hits:
            hit.snippet = hit.snippet[:SNIPPET_CHARS]
        return hits
