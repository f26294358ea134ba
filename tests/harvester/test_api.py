"""/api/search-runs: the service's acceptance criteria, one by one."""

from __future__ import annotations

import json
from datetime import timedelta
from typing import Any, cast

import pytest
import respx
from django.test import Client
from django.utils import timezone

from harvester.local_index import index_document
from harvester.models import ProcessedResult, RawResult, SearchRun
from integrations.llm import llm_mock
from tests.factories import ProcessedResultFactory, SearchRunFactory
from tests.harvester import samples
from tests.harvester.conftest import UseConfig, providers_config

pytestmark = pytest.mark.django_db

URL = "/api/search-runs"
SERPER = "https://google.serper.dev/search"
BRAVE = "https://api.search.brave.com/res/v1/web/search"
LLM = {"model": "openai/gpt-4o-mini"}
SAMPLE_QUERY = "latest EU AI regulation updates in the last week"
SAMPLE_SCHEMA = (
    '{"keywords": ["AI regulation", "AI Act"], "boolean": "OR", '
    '"filters": {"sites": [".eu"], "date_after": "{LAST_WEEK_START}", '
    '"date_before": "{LAST_WEEK_END}"}}'
)


def post(client: Client, body: dict[str, Any]) -> Any:
    return client.post(URL, data=json.dumps(body), content_type="application/json")


@pytest.fixture
def providers(use_config: UseConfig, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("TEST_SERPER_KEY", "serper-secret")
    monkeypatch.setenv("TEST_BRAVE_KEY", "brave-secret")
    use_config(
        providers_config(
            {
                "serper": {"api_key_env": "TEST_SERPER_KEY", "retries": 0},
                "brave": {"api_key_env": "TEST_BRAVE_KEY", "retries": 0},
                "local": {},
            },
            llm=LLM,
        )
    )
    index_document(
        url="https://commission.europa.eu/news/ai-act-enters-force-2024-08-01_en",
        title="AI Act enters into force",
        text="The AI Act, the EU's AI regulation, entered into force.",
        published=timezone.now() - timedelta(days=2),
    )


def test_a_valid_query_returns_201_with_the_documented_shape_and_stores_one_run(
    api: Client, providers: None
) -> None:
    with respx.mock() as mock, llm_mock([SAMPLE_SCHEMA]):
        mock.post(SERPER).respond(200, json=samples.SERPER)
        mock.get(url__startswith=BRAVE).respond(200, json=samples.BRAVE)
        response = post(api, {"query": SAMPLE_QUERY, "options": {"lang": "en", "maxResults": 10}})
    assert response.status_code == 201, response.content
    body = response.json()
    today = timezone.localdate()
    week_ago = (today - timedelta(days=7)).isoformat()
    assert body["rewritten_template"] == (
        '("AI regulation" OR "AI Act") site:.eu after:{LAST_WEEK_START} before:{LAST_WEEK_END}'
    )
    assert body["final_queries"]["serper"] == (
        f'("AI regulation" OR "AI Act") site:.eu after:{week_ago} before:{today.isoformat()}'
    )
    assert body["final_queries"]["brave"] == '("AI regulation" OR "AI Act") site:.eu'
    assert body["providers_used"] == ["serper", "brave", "local"]
    assert body["meta"]["counts"] == {"serper": 2, "brave": 2, "local": 1}
    # Exactly one run row, N raw rows, K processed rows with K <= N.
    assert SearchRun.objects.count() == 1
    run = SearchRun.objects.get()
    assert body["run_id"] == run.pk
    raw = RawResult.objects.filter(run=run).count()
    processed = ProcessedResult.objects.filter(run=run).count()
    assert raw == 5
    assert processed == body["meta"]["total_unique"] == len(body["urls"]) == 3
    for item in body["urls"]:
        found_by = set(RawResult.objects.filter(run=run).values_list("provider", flat=True).filter(
            url__in=[r.url for r in RawResult.objects.filter(run=run)
                     if _canonical(r.url) == item["url"]]))  # fmt: skip
        assert item["confidence"] == len(found_by) == len(item["providers"])
    assert body["urls"][0]["confidence"] == 2


def make_run(**fields: Any) -> SearchRun:
    return cast(SearchRun, SearchRunFactory(**fields))


def params(**values: str | int) -> dict[str, str | int]:
    return values


def _canonical(url: str) -> str:
    from integrations.http.canonical import canonicalize_url

    return canonicalize_url(url)


def test_the_second_identical_query_reuses_the_cached_rewrite(api: Client, providers: None) -> None:
    with respx.mock() as mock, llm_mock([SAMPLE_SCHEMA]) as llm:
        mock.post(SERPER).respond(200, json=samples.SERPER)
        mock.get(url__startswith=BRAVE).respond(200, json=samples.BRAVE)
        assert post(api, {"query": SAMPLE_QUERY}).status_code == 201
        assert post(api, {"query": SAMPLE_QUERY}).status_code == 201
    assert llm.purposes == ["rewrite"]
    assert [run.config["rewrite_cached"] for run in SearchRun.objects.order_by("id")] == [
        False,
        True,
    ]


def test_an_unsupported_placeholder_from_the_llm_is_400_and_no_provider_is_called(
    api: Client, providers: None
) -> None:
    junk = '{"keywords": ["AI Act"], "filters": {"date_after": "{PAST_2_WEEKS}"}}'
    with respx.mock(assert_all_called=False) as mock, llm_mock([junk]):
        serper = mock.post(SERPER).respond(200, json=samples.SERPER)
        brave = mock.get(url__startswith=BRAVE).respond(200, json=samples.BRAVE)
        response = post(api, {"query": SAMPLE_QUERY})
    assert response.status_code == 400
    assert response.json() == {
        "error": "invalid schema",
        "details": "filters.date_after: unknown placeholder {PAST_2_WEEKS}",
    }
    assert not serper.called and not brave.called
    assert not SearchRun.objects.exists()


def test_a_failed_llm_call_is_502(
    api: Client, providers: None, monkeypatch: pytest.MonkeyPatch
) -> None:
    import litellm

    from integrations.llm import retry

    monkeypatch.setattr(retry, "BACKOFF_BASE_S", 0.001)
    error = litellm.RateLimitError(message="quota", model="gpt-4o-mini", llm_provider="openai")
    # Refused on the first call and on both retries.
    with respx.mock(assert_all_called=False) as mock, llm_mock([error] * 3):
        serper = mock.post(SERPER).respond(200, json=samples.SERPER)
        response = post(api, {"query": SAMPLE_QUERY})
    assert response.status_code == 502
    assert response.json()["error"] == "LLM call failed"
    assert response.json()["details"].startswith("rate_limit")
    assert not serper.called


def test_all_providers_failing_is_502_with_each_providers_reason(
    api: Client, use_config: UseConfig, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("TEST_SERPER_KEY", "serper-secret")
    use_config(
        providers_config(
            {
                "serper": {"api_key_env": "TEST_SERPER_KEY", "retries": 1},
                "brave": {"api_key_env": "MISSING_BRAVE_KEY"},
            }
        )
    )
    with respx.mock() as mock:
        mock.post(SERPER).respond(500)
        response = post(api, {"query": "EU AI Act"})
    assert response.status_code == 502
    body = response.json()
    assert body["error"] == "providers failed"
    assert body["details"] == "serper: HTTP 500; brave: no API key"
    assert body["providers"] == {"serper": "HTTP 500", "brave": "no API key"}


def test_a_partial_failure_is_201_with_the_rest(api: Client, providers: None) -> None:
    with respx.mock() as mock, llm_mock([SAMPLE_SCHEMA]):
        mock.post(SERPER).respond(429)
        mock.get(url__startswith=BRAVE).respond(200, json=samples.BRAVE)
        response = post(api, {"query": SAMPLE_QUERY})
    assert response.status_code == 201
    body = response.json()
    assert body["providers_used"] == ["brave", "local"]
    assert body["meta"]["errors"] == {"serper": "HTTP 429"}
    assert {p for item in body["urls"] for p in item["providers"]} == {"brave", "local"}


@pytest.mark.parametrize("query", ["", "   "])
def test_an_empty_query_is_422_naming_it(api: Client, query: str) -> None:
    response = post(api, {"query": query})
    assert response.status_code == 422
    assert response.json() == {
        "error": "invalid request",
        "details": [{"field": "query", "message": "must not be empty"}],
    }


def test_a_malformed_body_is_422_in_the_error_shape(api: Client) -> None:
    response = post(api, {"options": {}})
    assert response.status_code == 422
    assert response.json()["error"] == "invalid request"


def test_bad_options_are_422_naming_the_field(api: Client, providers: None) -> None:
    with llm_mock([SAMPLE_SCHEMA]):
        response = post(api, {"query": SAMPLE_QUERY, "options": {"maxResults": 5000}})
    assert response.status_code == 422
    [problem] = response.json()["details"]
    assert problem["field"] == "options.maxResults" and "max_results" in problem["message"]
    response = post(api, {"query": SAMPLE_QUERY, "options": {"provider": "bing"}})
    assert response.status_code == 422
    assert response.json()["details"] == [
        {"field": "options.provider", "message": "provider 'bing' is not configured"}
    ]


def test_an_unexpected_error_is_500_in_the_error_shape(
    api: Client, monkeypatch: pytest.MonkeyPatch
) -> None:
    def explode(**kwargs: Any) -> None:
        raise RuntimeError("boom")

    monkeypatch.setattr("harvester.api.search_run_execute", explode)
    response = post(api, {"query": "anything"})
    assert response.status_code == 500
    assert response.json() == {"error": "unexpected error", "details": "RuntimeError"}


def test_search_runs_need_a_token_and_the_editor_role(
    client: Client, outsider: Any, providers: None
) -> None:
    from claimcheck.models import ApiToken

    assert post(client, {"query": "x"}).status_code == 401
    _, raw = ApiToken.issue(user=outsider, name="t")
    outsider_api = Client(headers={"Authorization": f"Bearer {raw}"})
    assert post(outsider_api, {"query": "x"}).status_code == 403
    assert outsider_api.get(URL).status_code == 403


def test_get_returns_a_run_with_its_processed_titles_and_snippets(api: Client) -> None:
    run = make_run(query="eu ai act", providers_used=["serper", "brave"])
    ProcessedResultFactory(
        run=run,
        url="https://example.org/a",
        providers=["serper", "brave"],
        confidence=2,
        title="A title",
        snippet="A snippet",
    )
    response = api.get(f"{URL}/{run.pk}")
    assert response.status_code == 200
    body = response.json()
    assert body["run_id"] == run.pk
    assert body["query"] == "eu ai act"
    assert body["timestamp"]
    assert body["urls"] == [
        {
            "url": "https://example.org/a",
            "providers": ["serper", "brave"],
            "confidence": 2,
            "best_rank": 1,
            "title": "A title",
            "snippet": "A snippet",
            "published": None,
            "marks": [],
        }
    ]
    missing = api.get(f"{URL}/{run.pk + 1000}")
    assert missing.status_code == 404
    assert missing.json()["error"] == "not found"


def test_the_list_filters_by_query_and_day_range_and_pages(api: Client) -> None:
    now = timezone.now()
    old = make_run(query="ECB rates", run_timestamp=now - timedelta(days=40))
    recent = [make_run(query=f"ECB rates {n}", run_timestamp=now - timedelta(hours=n))
              for n in range(3)]  # fmt: skip
    SearchRunFactory(query="AI Act")
    response = api.get(URL, params(query="ecb", limit=2))
    body = response.json()
    assert body["count"] == 4
    assert [item["run_id"] for item in body["items"]] == [recent[0].pk, recent[1].pk]
    second = api.get(URL, params(query="ecb", limit=2, offset=2)).json()
    assert [item["run_id"] for item in second["items"]] == [recent[2].pk, old.pk]
    since = (now - timedelta(days=10)).date().isoformat()
    ranged = api.get(URL, {"query": "ecb", "from": since, "to": now.date().isoformat()}).json()
    assert ranged["count"] == 3
    until = (now - timedelta(days=30)).date().isoformat()
    assert [i["run_id"] for i in api.get(URL, {"to": until}).json()["items"]] == [old.pk]
    assert api.get(URL, {"from": "yesterday"}).status_code == 422


def test_empty_filters_filter_nothing(api: Client) -> None:
    """`?query=&from=&to=`, as a form or the README writes it, lists every run."""
    runs = [make_run(query=f"ECB rates {n}") for n in range(2)]
    response = api.get(f"{URL}?query=&from=&to=")
    assert response.status_code == 200, response.content
    assert response.json()["count"] == len(runs)
    assert api.get(f"{URL}?from=&to=2100-13-01").status_code == 422
