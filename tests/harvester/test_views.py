"""The search runs pages: a list with filters and a detail with each provider's figures and the
merged results."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

import pytest
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from harvester.models import RunStatus, SearchRun
from tests.factories import ClaimFactory, ProcessedResultFactory, SearchRunFactory

pytestmark = pytest.mark.django_db


def text(response: Any) -> str:
    return response.content.decode()


@pytest.fixture
def run() -> Any:
    run: Any = SearchRunFactory(
        query="harbour bridge opening",
        status=RunStatus.PARTIAL,
        latency_ms=420,
        provider_metrics={
            "local": {"status": "ok", "latency_ms": 12, "count": 3, "error": "", "attempts": 1},
            "brave": {
                "status": "failed",
                "latency_ms": 4000,
                "count": 0,
                "error": "HTTP 429 after 3 attempts",
                "attempts": 3,
            },
        },
        claim=ClaimFactory(),
        attempt=2,
    )
    ProcessedResultFactory(
        run=run,
        url="https://gov.example/bridge",
        title="Bridge opens",
        providers=["local", "serper"],
        confidence=2,
    )
    return run


def test_anonymous_visitors_are_sent_to_login(run: SearchRun) -> None:
    for url in (reverse("search_runs"), reverse("search_run_detail", args=[run.pk])):
        assert reverse("login") in Client().get(url)["Location"]


def test_outsiders_get_403(outsider_client: Client, run: SearchRun) -> None:
    for url in (reverse("search_runs"), reverse("search_run_detail", args=[run.pk])):
        assert outsider_client.get(url).status_code == 403


@pytest.mark.parametrize("persona", ["editor_client", "admin_client_"])
def test_editors_and_admins_see_the_runs(
    request: pytest.FixtureRequest, persona: str, run: SearchRun
) -> None:
    client: Client = request.getfixturevalue(persona)
    assert client.get(reverse("search_runs")).status_code == 200
    assert client.get(reverse("search_run_detail", args=[run.pk])).status_code == 200


def test_the_list_shows_each_run_with_its_status_results_and_claim(
    editor_client: Client, run: SearchRun
) -> None:
    body = text(editor_client.get(reverse("search_runs")))
    assert "harbour bridge opening" in body and "Some providers failed" in body
    assert '<td class="num">1</td>' in body and "420 ms" in body
    assert reverse("claim_detail", args=[run.claim_id]) in body and "attempt 2" in body


def test_the_list_filters_by_words_and_dates(editor_client: Client, run: SearchRun) -> None:
    SearchRunFactory(
        query="old query about ports", run_timestamp=timezone.now() - timedelta(days=30)
    )
    assert "old query" not in text(editor_client.get(reverse("search_runs"), {"q": "harbour"}))
    recent = (timezone.now() - timedelta(days=2)).date().isoformat()
    body = text(editor_client.get(reverse("search_runs"), {"from": recent}))
    assert "harbour bridge opening" in body and "old query" not in body


def test_the_detail_shows_each_provider_and_the_merged_urls(
    editor_client: Client, run: SearchRun
) -> None:
    body = text(editor_client.get(reverse("search_run_detail", args=[run.pk])))
    assert "<title>Search run #" in body
    assert "HTTP 429 after 3 attempts" in body and "4000 ms" in body
    assert "Bridge opens" in body and "local, serper" in body
    assert '<td class="num">2</td>' in body  # confidence


def test_an_unknown_run_is_404(editor_client: Client) -> None:
    assert editor_client.get(reverse("search_run_detail", args=[99999])).status_code == 404


def test_empty_pages_say_what_to_do(editor_client: Client) -> None:
    assert "No search runs yet." in text(editor_client.get(reverse("search_runs")))
    assert "No search runs match these filters." in text(
        editor_client.get(reverse("search_runs"), {"q": "nothing"})
    )


def test_a_result_title_with_script_renders_as_text(editor_client: Client) -> None:
    run: Any = SearchRunFactory(query="<script>alert(1)</script>")
    ProcessedResultFactory(run=run, title="<script>alert(2)</script>", url="javascript:alert(3)")
    body = text(editor_client.get(reverse("search_run_detail", args=[run.pk])))
    assert "<script>alert" not in body and 'href="javascript' not in body
    assert "&lt;script&gt;alert(2)" in body


def test_the_list_runs_the_same_queries_for_few_or_many_runs(
    editor_client: Client, django_assert_max_num_queries: Any
) -> None:
    for _ in range(3):
        ProcessedResultFactory(run=SearchRunFactory(claim=ClaimFactory()))
    with django_assert_max_num_queries(50) as captured:
        editor_client.get(reverse("search_runs"))
    few = len(captured.captured_queries)
    for _ in range(40):
        ProcessedResultFactory(run=SearchRunFactory(claim=ClaimFactory()))
    with django_assert_max_num_queries(few):
        editor_client.get(reverse("search_runs"))
