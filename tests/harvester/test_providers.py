"""Each adapter against recorded-shape answers (respx at the HTTP boundary): normal, empty,
malformed JSON, 429 then success, 500 every time, a timeout, and the errors GDELT, Event
Registry and NewsAPI report inside a 200."""

from __future__ import annotations

import asyncio
import json
from dataclasses import dataclass
from datetime import date
from typing import Any

import httpx
import pytest
import respx
from django.utils import timezone

from claimcheck.config import ProviderConfig
from harvester.models import ProviderStatus
from harvester.providers import get_provider
from harvester.providers.base import HttpProvider, ProviderConfigError, ProviderOutcome
from harvester.providers.newsapi import Q_MAX_CHARS, newsapi_query
from harvester.schema import QuerySchema, validate_schema
from tests.harvester import samples


@dataclass(frozen=True)
class Case:
    name: str
    method: str
    url: str
    normal: dict[str, Any]
    empty: dict[str, Any]
    expected_urls: list[str]
    config: dict[str, Any]


CASES = [
    Case(
        "serper",
        "POST",
        "https://google.serper.dev/search",
        samples.SERPER,
        samples.SERPER_EMPTY,
        [item["link"] for item in samples.SERPER["organic"]],
        {"api_key_env": "TEST_SERPER_KEY"},
    ),
    Case(
        "brave",
        "GET",
        "https://api.search.brave.com/res/v1/web/search",
        samples.BRAVE,
        samples.BRAVE_EMPTY,
        [item["url"] for item in samples.BRAVE["web"]["results"]],
        {"api_key_env": "TEST_BRAVE_KEY"},
    ),
    Case(
        "searxng",
        "GET",
        "http://searx.internal:8888/search",
        samples.SEARXNG,
        samples.SEARXNG_EMPTY,
        [item["url"] for item in samples.SEARXNG["results"]],
        {"base_url": "http://searx.internal:8888"},
    ),
    Case(
        "yacy",
        "GET",
        "http://yacy.internal:8090/yacysearch.json",
        samples.YACY,
        samples.YACY_EMPTY,
        [item["link"] for item in samples.YACY["channels"][0]["items"]],
        {"base_url": "http://yacy.internal:8090"},
    ),
    Case(
        "gdelt",
        "GET",
        "https://api.gdeltproject.org/api/v2/doc/doc",
        samples.GDELT,
        samples.GDELT_EMPTY,
        [item["url"] for item in samples.GDELT["articles"]],
        {},
    ),
    Case(
        "google",
        "GET",
        "https://www.googleapis.com/customsearch/v1",
        samples.GOOGLE,
        samples.GOOGLE_EMPTY,
        [item["link"] for item in samples.GOOGLE["items"]],
        {"api_key_env": "TEST_GOOGLE_KEY"},
    ),
    Case(
        "eventregistry",
        "POST",
        "https://eventregistry.org/api/v1/article/getArticles",
        samples.EVENTREGISTRY,
        samples.EVENTREGISTRY_EMPTY,
        [item["url"] for item in samples.EVENTREGISTRY["articles"]["results"]],
        {"api_key_env": "TEST_EVENTREGISTRY_KEY"},
    ),
    Case(
        "newsapi",
        "GET",
        "https://newsapi.org/v2/everything",
        samples.NEWSAPI,
        samples.NEWSAPI_EMPTY,
        [item["url"] for item in samples.NEWSAPI["articles"] if item["title"] != "[Removed]"],
        {"api_key_env": "TEST_NEWSAPI_KEY"},
    ),
]
IDS = [case.name for case in CASES]

SCHEMA = validate_schema(
    {
        "keywords": ["AI Act", "entry into force"],
        "filters": {"sites": ["europa.eu"], "date_after": "2024-07-01", "lang": "en"},
    }
)


@pytest.fixture(autouse=True)
def provider_keys(monkeypatch: pytest.MonkeyPatch) -> None:
    for name in (
        "TEST_SERPER_KEY",
        "TEST_BRAVE_KEY",
        "TEST_GOOGLE_KEY",
        "GOOGLE_CSE_ID",
        "TEST_EVENTREGISTRY_KEY",
        "TEST_NEWSAPI_KEY",
    ):
        monkeypatch.setenv(name, f"secret-{name.lower()}")


def provider_for(case: Case, **overrides: Any) -> HttpProvider:
    settings = {"timeout_s": 2, "retries": 2, **case.config, **overrides}
    provider = get_provider(case.name, ProviderConfig(**settings))
    assert isinstance(provider, HttpProvider)
    return provider


def search(provider: HttpProvider, schema: QuerySchema = SCHEMA) -> ProviderOutcome:
    return asyncio.run(provider.search(schema, max_results=10))


def route(mock: respx.MockRouter, case: Case) -> respx.Route:
    return mock.route(method=case.method, url__startswith=case.url)


@pytest.mark.parametrize("case", CASES, ids=IDS)
def test_a_normal_answer_gives_urls_titles_and_ranks_in_order(case: Case) -> None:
    with respx.mock(assert_all_called=True) as mock:
        route(mock, case).respond(200, json=case.normal)
        outcome = search(provider_for(case))
    assert outcome.status == ProviderStatus.OK, outcome.reason
    assert [hit.url for hit in outcome.hits] == case.expected_urls
    assert [hit.rank for hit in outcome.hits] == list(range(1, len(case.expected_urls) + 1))
    assert all(hit.title for hit in outcome.hits)
    assert outcome.hits[0].raw  # the provider's own item, kept for the raw row
    assert outcome.attempts == 1
    assert outcome.latency_ms >= 0


@pytest.mark.parametrize("case", CASES, ids=IDS)
def test_an_empty_answer_is_a_success_with_no_urls(case: Case) -> None:
    with respx.mock() as mock:
        route(mock, case).respond(200, json=case.empty)
        outcome = search(provider_for(case))
    assert outcome.status == ProviderStatus.OK
    assert outcome.hits == []


@pytest.mark.parametrize("case", CASES, ids=IDS)
def test_malformed_json_fails_without_a_retry(case: Case) -> None:
    with respx.mock() as mock:
        called = route(mock, case).respond(
            200, content=b'{"results": [', headers={"content-type": "application/json"}
        )
        outcome = search(provider_for(case))
    assert outcome.status == ProviderStatus.FAILED
    assert outcome.reason in ("malformed JSON",) or outcome.reason.startswith("GDELT error")
    assert called.call_count == 1


@pytest.mark.parametrize("case", CASES, ids=IDS)
def test_a_429_is_retried_and_the_second_answer_is_used(case: Case) -> None:
    with respx.mock() as mock:
        called = route(mock, case).mock(
            side_effect=[httpx.Response(429), httpx.Response(200, json=case.normal)]
        )
        outcome = search(provider_for(case))
    assert outcome.status == ProviderStatus.OK
    assert called.call_count == 2
    assert outcome.attempts == 2
    assert [hit.url for hit in outcome.hits] == case.expected_urls


@pytest.mark.parametrize("case", CASES, ids=IDS)
def test_a_500_every_time_fails_after_the_configured_retries(case: Case) -> None:
    with respx.mock() as mock:
        called = route(mock, case).respond(500)
        outcome = search(provider_for(case, retries=2))
    assert outcome.status == ProviderStatus.FAILED
    assert outcome.reason == "HTTP 500"
    assert called.call_count == 3


@pytest.mark.parametrize("case", CASES, ids=IDS)
def test_a_timeout_fails_with_a_timeout_reason_and_is_not_repeated(case: Case) -> None:
    with respx.mock() as mock:
        called = route(mock, case).mock(side_effect=httpx.ReadTimeout("slow"))
        outcome = search(provider_for(case))
    assert outcome.status == ProviderStatus.FAILED
    assert outcome.reason.startswith("timeout")
    assert called.call_count == 1


@pytest.mark.parametrize("case", CASES, ids=IDS)
def test_a_403_is_not_retried(case: Case) -> None:
    with respx.mock() as mock:
        called = route(mock, case).respond(403, json={"error": "forbidden"})
        outcome = search(provider_for(case))
    assert outcome.reason == "HTTP 403"
    assert called.call_count == 1


def test_gdelt_reports_an_error_as_plain_text_with_status_200() -> None:
    case = CASES[IDS.index("gdelt")]
    with respx.mock() as mock:
        route(mock, case).respond(
            200, text=samples.GDELT_ERROR_TEXT, headers={"content-type": "text/html"}
        )
        outcome = search(provider_for(case))
    assert outcome.status == ProviderStatus.FAILED
    assert outcome.reason == f"GDELT error: {samples.GDELT_ERROR_TEXT}"


@pytest.mark.parametrize("name", ["serper", "brave", "google", "eventregistry", "newsapi"])
def test_a_provider_whose_key_variable_is_missing_is_not_called(
    name: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    case = CASES[IDS.index(name)]
    monkeypatch.delenv(case.config["api_key_env"])
    with respx.mock(assert_all_called=False) as mock:
        called = route(mock, case).respond(200, json=case.normal)
        outcome = search(provider_for(case))
    assert outcome.reason == "no API key"
    assert not called.called


def test_google_without_a_search_engine_id_is_not_called(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("GOOGLE_CSE_ID")
    case = CASES[IDS.index("google")]
    outcome = search(provider_for(case))
    assert outcome.reason == "no search engine id (GOOGLE_CSE_ID)"


def test_searxng_without_a_base_url_is_reported_and_not_called() -> None:
    outcome = search(get_provider("searxng", ProviderConfig()))  # type: ignore[arg-type]
    assert outcome.reason == "no base_url configured"


def test_options_that_do_not_fit_the_adapter_are_refused_by_name() -> None:
    with pytest.raises(ProviderConfigError, match="search_type"):
        get_provider("serper", ProviderConfig(options={"search_type": "images"}))


# --- dialects ----------------------------------------------------------------------------------


def sent(case: Case, schema: QuerySchema = SCHEMA) -> httpx.Request:
    with respx.mock() as mock:
        called = route(mock, case).respond(200, json=case.empty)
        search(provider_for(case), schema)
    return called.calls.last.request


def test_serper_sends_google_operators_in_the_query_and_the_key_in_a_header() -> None:
    request = sent(CASES[IDS.index("serper")])
    body = json.loads(request.content)
    assert body["q"] == '"AI Act" "entry into force" site:europa.eu after:2024-07-01'
    assert body["hl"] == "en"
    assert request.headers["X-API-KEY"] == "secret-test_serper_key"


def test_brave_moves_dates_into_its_freshness_parameter() -> None:
    request = sent(CASES[IDS.index("brave")])
    params = request.url.params
    assert params["q"] == '"AI Act" "entry into force" site:europa.eu'
    assert params["freshness"] == f"2024-07-01to{timezone.localdate().isoformat()}"
    assert params["search_lang"] == "en"


def test_searxng_asks_for_json_and_the_narrowest_time_range_covering_the_dates() -> None:
    recent = timezone.localdate().toordinal() - 3
    schema = validate_schema(
        {"keywords": ["AI Act"], "filters": {"date_after": date.fromordinal(recent).isoformat()}}
    )
    params = sent(CASES[IDS.index("searxng")], schema).url.params
    assert params["format"] == "json"
    assert params["time_range"] == "week"
    assert params["q"] == '"AI Act"'


def test_gdelt_uses_domain_sourcelang_and_datetime_parameters() -> None:
    params = sent(CASES[IDS.index("gdelt")]).url.params
    assert params["mode"] == "artlist"
    assert params["query"] == '"AI Act" "entry into force" domain:europa.eu sourcelang:english'
    assert params["startdatetime"] == "20240701000000"


def test_yacy_keeps_site_but_leaves_out_dates_it_cannot_filter_on() -> None:
    params = sent(CASES[IDS.index("yacy")]).url.params
    assert params["query"] == '"AI Act" "entry into force" site:europa.eu'


def test_google_passes_language_and_engine_id() -> None:
    params = sent(CASES[IDS.index("google")]).url.params
    assert params["cx"] == "secret-google_cse_id"
    assert params["lr"] == "lang_en"
    assert "after:2024-07-01" in params["q"]


def test_dates_providers_give_are_parsed_and_relative_ones_are_left_out() -> None:
    case = CASES[IDS.index("serper")]
    with respx.mock() as mock:
        route(mock, case).respond(200, json=case.normal)
        outcome = search(provider_for(case))
    assert outcome.hits[0].published is not None
    assert outcome.hits[0].published.date() == date(2024, 8, 1)
    assert outcome.hits[1].published is None


def test_event_registry_sends_keywords_sites_dates_language_and_the_key_in_the_body() -> None:
    request = sent(CASES[IDS.index("eventregistry")])
    body = json.loads(request.content)
    assert body["keyword"] == ["AI Act", "entry into force"]
    assert body["keywordOper"] == "and"
    assert body["sourceUri"] == ["europa.eu"]
    assert body["dateStart"] == "2024-07-01"
    assert "dateEnd" not in body
    assert body["lang"] == "eng"
    assert body["apiKey"] == "secret-test_eventregistry_key"
    assert "secret" not in str(request.url)


def test_event_registry_keeps_the_first_lines_of_an_article_as_its_snippet() -> None:
    case = CASES[IDS.index("eventregistry")]
    with respx.mock() as mock:
        route(mock, case).respond(200, json=case.normal)
        outcome = search(provider_for(case))
    assert 0 < len(outcome.hits[0].snippet) <= 400
    assert outcome.hits[0].published is not None
    assert outcome.hits[0].published.isoformat() == "2024-08-01T09:30:00+00:00"


def test_event_registry_reports_its_error_object_as_a_failure() -> None:
    case = CASES[IDS.index("eventregistry")]
    with respx.mock() as mock:
        called = route(mock, case).respond(200, json=samples.EVENTREGISTRY_ERROR)
        outcome = search(provider_for(case))
    assert outcome.status == ProviderStatus.FAILED
    assert outcome.reason == "Event Registry error: Invalid API key."
    assert called.call_count == 1


def test_newsapi_sends_phrases_joined_by_and_domains_dates_and_the_key_in_a_header() -> None:
    request = sent(CASES[IDS.index("newsapi")])
    params = request.url.params
    assert params["q"] == '"AI Act" AND "entry into force"'
    assert params["domains"] == "europa.eu"
    assert params["from"] == "2024-07-01"
    assert params["language"] == "en"
    assert request.headers["X-Api-Key"] == "secret-test_newsapi_key"
    assert "secret" not in str(request.url)


def test_newsapi_skips_articles_taken_down_since_and_ranks_what_is_left() -> None:
    case = CASES[IDS.index("newsapi")]
    with respx.mock() as mock:
        route(mock, case).respond(200, json=case.normal)
        outcome = search(provider_for(case))
    assert "https://removed.com" not in [hit.url for hit in outcome.hits]
    assert [hit.rank for hit in outcome.hits] == [1, 2]


def test_newsapi_reports_its_error_status_with_code_and_message() -> None:
    case = CASES[IDS.index("newsapi")]
    with respx.mock() as mock:
        route(mock, case).respond(200, json=samples.NEWSAPI_ERROR)
        outcome = search(provider_for(case))
    assert outcome.status == ProviderStatus.FAILED
    assert outcome.reason == (
        "NewsAPI error: parameterInvalid: You are trying to request results too far in the past."
    )


def test_a_newsapi_query_over_its_length_limit_drops_whole_terms_from_the_end() -> None:
    schema = validate_schema({"keywords": ["a" * 100, "b" * 100, "c" * 100, "d" * 100, "e" * 100]})
    query = newsapi_query(schema)
    assert len(query) <= Q_MAX_CHARS
    assert query.endswith("d" * 100)
