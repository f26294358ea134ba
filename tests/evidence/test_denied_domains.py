"""Denied domains: marked wherever search results are shown, and never read by the pipeline."""

from __future__ import annotations

import io

import pytest
from django.core.management import call_command
from django.test import Client
from django.urls import reverse

from claims.models import PipelineEvent
from decisions.pipeline import claim_pipeline_run
from decisions.services import claim_submit
from demo.loader import demo_load
from evidence.models import Evidence, Page
from harvester.models import ProcessedResult, SearchRun

pytestmark = pytest.mark.django_db

DENIED = "rumourmill.example"
QUERY = "battery passport regulation council"


def test_harvest_marks_a_denied_result_and_lists_it_after_the_rest() -> None:
    demo_load()
    out = io.StringIO()
    call_command("harvest", QUERY, stdout=out)
    lines = [line for line in out.getvalue().splitlines() if line.startswith("  [")]
    denied = [i for i, line in enumerate(lines) if DENIED in line]
    assert denied, out.getvalue()
    assert all("[denied: never read]" in lines[i] for i in denied)
    assert not any("denied" in line for line in lines if DENIED not in line)
    assert max(i for i, line in enumerate(lines) if DENIED not in line) < min(denied)


def test_the_search_run_page_marks_a_denied_result(editor_client: Client) -> None:
    demo_load()
    call_command("harvest", QUERY, stdout=io.StringIO())
    run = SearchRun.objects.get()
    assert ProcessedResult.objects.filter(run=run, url__contains=DENIED).exists()
    body = editor_client.get(reverse("search_run_detail", args=[run.pk])).content.decode()
    row = body[body.index("denied, never read") :]
    assert DENIED in row[: row.index("</tr>")]
    assert body.count("denied, never read") == 1


def test_the_pipeline_never_reads_a_denied_page_it_found() -> None:
    demo_load()
    claim, _ = claim_submit(
        text="The Council of the Union scrapped the Battery Passport Regulation.", enqueue=False
    )
    claim_pipeline_run(claim_id=claim.pk)
    found = ProcessedResult.objects.filter(run__claim=claim, url__contains=DENIED)
    assert found.exists(), "the denied page should be among the search results"
    assert not Page.objects.filter(url__contains=DENIED).exists()
    assert not Evidence.objects.filter(claim=claim, page__url__contains=DENIED).exists()
    reads = PipelineEvent.objects.filter(claim=claim, kind="crawl")
    assert not any(DENIED in event.message for event in reads)


def test_the_search_run_api_marks_a_denied_result(api: Client) -> None:
    demo_load()
    response = api.post(
        "/api/search-runs",
        data=f'{{"query": "{QUERY}"}}',
        content_type="application/json",
    )
    assert response.status_code == 201, response.content
    urls = response.json()["urls"]
    marked = [u for u in urls if u["marks"] == ["denied"]]
    assert marked and all(DENIED in u["url"] for u in marked)
    assert all(u["marks"] == [] for u in urls if DENIED not in u["url"])
    assert urls[-len(marked) :] == marked
