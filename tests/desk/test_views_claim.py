"""The claim page with its live timeline: each step of the escalation, the poll that brings new
steps and stops once decided, the verdict with its sources, and a failed or unknown claim.
Permissions, escaping and query counts are in test_views_guards.py."""

from __future__ import annotations

from typing import Any

import pytest
from django.test import Client
from django.urls import reverse

from claims.models import Claim, ClaimStatus, EventKind, Outcome
from decisions.services import verdict_override
from tests.desk.desk import HX, text
from tests.factories import (
    ClaimFactory,
    DecidedClaimFactory,
    FactCheckMatchFactory,
    PipelineEventFactory,
    SearchRunFactory,
    UserFactory,
    VerdictFactory,
)

pytestmark = pytest.mark.django_db


def _running_claim() -> Claim:
    claim: Any = ClaimFactory(status=ClaimStatus.RUNNING, text="The agency approved the plan")
    events = [
        (EventKind.QUEUED, "Claim queued for checking", {}),
        (EventKind.QUERY, "First query", {"run": 1, "query": "agency approved plan"}),
        (
            EventKind.SEARCH,
            "Search 1",
            {
                "run": 1,
                "attempt": 1,
                "query": "agency approved plan 2024",
                "tweak": "first query",
                "providers": {
                    "local": {"status": "ok", "latency_ms": 12, "count": 5, "error": ""},
                    "brave": {
                        "status": "failed",
                        "latency_ms": 4000,
                        "count": 0,
                        "error": "timeout after 4s",
                    },
                },
                "results": 5,
                "status": "partial",
            },
        ),
        (
            EventKind.GATE,
            "Gate",
            {
                "run": 1,
                "attempt": 1,
                "status": "crawl",
                "why": "two authoritative leads",
                "picks": ["https://agency.example/a"],
                "scored": [],
            },
        ),
        (
            EventKind.CRAWL,
            "Read",
            {
                "run": 1,
                "attempt": 1,
                "url": "https://agency.example/a",
                "tier": "official",
                "http_status": 200,
                "title": "Agency approves the plan",
                "content_depth": "full",
                "verification": "verified",
                "published": "2024-03-02T00:00:00+00:00",
                "error": "",
                "evidence": 1,
            },
        ),
        (
            EventKind.EVIDENCE,
            "Supports",
            {
                "run": 1,
                "url": "https://agency.example/a",
                "domain": "agency.example",
                "tier": "official",
                "weight": 1.0,
                "stance": "support",
                "quote": "The agency approved the plan on 1 March.",
                "event_at": "2024-03-01T00:00:00+00:00",
                "in_window": True,
            },
        ),
        (
            EventKind.DECISION,
            "Support 1.0 / refute 0.0",
            {
                "run": 1,
                "attempt": 1,
                "status": "need_more_search",
                "support": 1.0,
                "refute": 0.0,
                "threshold": 1.6,
                "support_domains": ["agency.example"],
                "refute_domains": [],
            },
        ),
    ]
    for sequence, (kind, message, payload) in enumerate(events, start=1):
        PipelineEventFactory(
            claim=claim, sequence=sequence, kind=kind, message=message, payload=payload
        )
    return claim


def test_the_claim_page_shows_each_step_of_the_escalation(editor_client: Client) -> None:
    claim = _running_claim()
    page = text(editor_client.get(reverse("claim_detail", args=[claim.pk])))

    assert "<title>Claim #" in page
    assert "agency approved plan 2024" in page  # the query
    assert "timeout after 4s" in page and "4000 ms" in page  # a provider's failure
    assert "two authoritative leads" in page  # why the gate crawled
    assert "Agency approves the plan" in page and "HTTP 200" in page and "full text" in page
    assert "published 2 Mar 2024" in page
    assert "The agency approved the plan on 1 March." in page  # the quote
    assert "1.0 / 1.6" in page and "search again" in page
    assert "Verdict pending" in page
    poll = reverse("claim_live", args=[claim.pk])
    assert f'hx-get="{poll}?since=7&amp;v={claim.version}"' in page
    assert 'data-live data-live-ms="500" hx-get=' in page and 'hx-trigger="poll-tick"' in page


def test_the_poll_answers_204_when_nothing_happened(editor_client: Client) -> None:
    claim = _running_claim()
    response = editor_client.get(reverse("claim_live", args=[claim.pk]), {"since": 7}, headers=HX)
    assert response.status_code == 204


def test_the_poll_returns_the_live_region_with_new_steps(editor_client: Client) -> None:
    claim = _running_claim()
    response = editor_client.get(reverse("claim_live", args=[claim.pk]), {"since": 5}, headers=HX)
    assert response.status_code == 200
    body = text(response)
    assert body.lstrip().startswith('<div id="claim-live"')
    assert "?since=7" in body and "two authoritative leads" in body


def test_the_poll_brings_the_verdict_once_decided_and_keeps_watching_slower(
    editor_client: Client,
) -> None:
    claim = _running_claim()
    VerdictFactory(claim=claim, outcome=Outcome.TRUE, proof_markdown="**Two** sources agree.")
    Claim.objects.filter(pk=claim.pk).update(status=ClaimStatus.DECIDED, outcome=Outcome.TRUE)
    PipelineEventFactory(claim=claim, sequence=8, kind=EventKind.VERDICT, message="Decided")

    response = editor_client.get(reverse("claim_live", args=[claim.pk]), {"since": 7}, headers=HX)

    assert response.status_code == 200
    body = text(response)
    opening = body.split(">", 1)[0]
    # Others' overrides, keeps and comments still arrive: the region polls, every two seconds.
    assert 'data-live-ms="2000"' in opening and "?since=8" in opening
    # ... and "Claim queued" goes from the message box with the verdict's arrival.
    cleared = '<div id="messages" class="messages" role="status" aria-live="polite"'
    assert f'{cleared} hx-swap-oob="true"></div>' in body
    assert "<strong>Two</strong> sources agree." in body
    assert "Override the outcome" in body


def test_the_poll_brings_the_verdict_when_the_page_had_its_last_step_before_the_decision(
    editor_client: Client,
) -> None:
    # The page's last poll read the claim running, then its steps with the verdict's among them:
    # nothing new has happened since that step, but the claim's state has.
    claim = _running_claim()
    shown = Claim.objects.get(pk=claim.pk).version
    PipelineEventFactory(claim=claim, sequence=8, kind=EventKind.VERDICT, message="Decided")
    poll = reverse("claim_live", args=[claim.pk])
    assert editor_client.get(poll, {"since": 8, "v": shown}, headers=HX).status_code == 204

    VerdictFactory(claim=claim, outcome=Outcome.TRUE, proof_markdown="**Two** sources agree.")
    Claim.objects.filter(pk=claim.pk).update(
        status=ClaimStatus.DECIDED, outcome=Outcome.TRUE, version=shown + 1
    )

    response = editor_client.get(poll, {"since": 8, "v": shown}, headers=HX)
    assert response.status_code == 200
    body = text(response)
    assert "<strong>Two</strong> sources agree." in body
    assert f"?since=8&amp;v={shown + 1}" in body.split(">", 1)[0]
    assert editor_client.get(poll, {"since": 8, "v": shown + 1}, headers=HX).status_code == 204


def test_a_decided_claims_poll_answers_204_until_someone_changes_it(
    editor_client: Client, editor: Any
) -> None:
    verdict: Any = VerdictFactory(outcome=Outcome.TRUE)
    claim = verdict.claim
    since = claim.events.count()
    poll = reverse("claim_live", args=[claim.pk])
    assert editor_client.get(poll, {"since": since}, headers=HX).status_code == 204
    check = {"since": since, "v": claim.version, "check": 1}
    assert editor_client.get(poll, check, headers=HX).status_code == 204

    other: Any = UserFactory(username="editor2", groups=["editors"])
    verdict_override(claim=claim, editor=other, to_outcome=Outcome.FALSE, reason="Retracted.")

    changed = editor_client.get(poll, {"since": since}, headers=HX)
    assert changed.status_code == 200
    assert "editor2" in text(changed) and "Retracted." in text(changed)
    said = editor_client.get(poll, check, headers=HX)
    assert said.status_code == 200 and said["Content-Type"].startswith("text/plain")
    assert text(said).startswith(
        "This claim changed since you opened it: editor2 changed the outcome from True to False"
    )


def test_the_poll_without_htmx_goes_to_the_claim_page(editor_client: Client) -> None:
    claim = _running_claim()
    response = editor_client.get(reverse("claim_live", args=[claim.pk]))
    assert response.status_code == 302


def test_a_decided_claim_shows_its_verdict_sources_fact_checks_and_other_reports(
    editor_client: Client,
) -> None:
    claim: Any = DecidedClaimFactory(
        text="The port of Examplia reopened in May", source_channel="@a"
    )
    VerdictFactory(
        claim=claim,
        outcome=Outcome.TRUE,
        sources=[
            {
                "url": "https://gov.example/port",
                "title": "Port reopens",
                "pub_date": "2024-05-03",
                "excerpt": "",
                "tier": "official",
                "stance": "support",
                "weight": 1.0,
                "event_date": "2024-05-02",
            }
        ],
    )
    FactCheckMatchFactory(claim=claim, publisher="Fact Desk", rating="Mostly true")
    DecidedClaimFactory(
        text="The port of Examplia reopened in May", source_channel="@b", outcome=Outcome.TRUE
    )

    page = text(editor_client.get(reverse("claim_detail", args=[claim.pk])))

    assert "Port reopens" in page and "event 2024-05-02" in page and "published 2024-05-03" in page
    assert "Fact Desk" in page and "Mostly true" in page
    assert "Also reported by" in page and "@b" in page
    # Decided, the page still watches for others' changes, at the slower pace.
    assert 'data-live-ms="2000"' in page.split('id="claim-live"', 1)[1].split(">", 1)[0]


@pytest.mark.parametrize(
    ("reason", "overridden", "flagged"),
    [("leaning", False, True), ("sufficient", False, False), ("leaning", True, False)],
)
def test_a_leaning_verdict_is_marked_provisional_until_an_editor_overrides_it(
    editor_client: Client, reason: str, overridden: bool, flagged: bool
) -> None:
    claim: Any = DecidedClaimFactory(text="The ferry to Examplia runs on Sundays")
    VerdictFactory(claim=claim, outcome=Outcome.TRUE, reason=reason)
    if overridden:
        Claim.objects.filter(pk=claim.pk).update(overridden=True, outcome=Outcome.FALSE)

    page = editor_client.get(reverse("claim_detail", args=[claim.pk])).content.decode()

    assert ('id="verdict-provisional"' in page) == flagged
    if reason == "leaning":
        assert "Leaning: below the agreement score" in page


def test_a_failed_claim_says_why_and_offers_a_re_run(editor_client: Client) -> None:
    claim: Any = ClaimFactory(
        status=ClaimStatus.FAILED, error="HarvestError: every provider failed"
    )
    page = text(editor_client.get(reverse("claim_detail", args=[claim.pk])))
    assert "The check failed" in page and "every provider failed" in page
    assert reverse("claim_rerun", args=[claim.pk]) in page


def test_an_unknown_claim_is_404(editor_client: Client) -> None:
    assert editor_client.get(reverse("claim_detail", args=[999999])).status_code == 404


def test_a_search_step_links_to_its_search_run(editor_client: Client) -> None:
    claim: Any = ClaimFactory(status=ClaimStatus.RUNNING)
    run: Any = SearchRunFactory(claim=claim, attempt=1)
    PipelineEventFactory(
        claim=claim,
        sequence=1,
        kind=EventKind.SEARCH,
        message="s",
        payload={
            "run": 1,
            "attempt": 1,
            "search_run_id": run.pk,
            "results": 3,
            "query": "q",
            "providers": {},
        },
    )
    page = text(editor_client.get(reverse("claim_detail", args=[claim.pk])))
    assert reverse("search_run_detail", args=[run.pk]) in page
