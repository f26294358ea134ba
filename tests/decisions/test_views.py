"""The review desk pages: queue, submit, claim page with its live timeline, review and override,
re-run, dashboard. Permissions, escaping and query counts are in test_views_guards.py."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

import pytest
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from claims.models import Claim, ClaimStatus, EventKind, Outcome
from decisions.models import Override
from tests.factories import (
    ClaimFactory,
    DecidedClaimFactory,
    EvidenceFactory,
    FactCheckMatchFactory,
    OverrideFactory,
    PipelineEventFactory,
    SearchRunFactory,
    VerdictFactory,
)

pytestmark = pytest.mark.django_db

HX = {"HX-Request": "true"}


def text(response: Any) -> str:
    return response.content.decode()


# --- the queue ----------------------------------------------------------------------------------


def test_the_queue_lists_claims_newest_first_with_outcome_totals_sources_and_age(
    editor_client: Client,
) -> None:
    old: Any = DecidedClaimFactory(
        text="Older claim about the harbour",
        created_at=timezone.now() - timedelta(days=3),
        support_total=1.8,
        refute_total=0.4,
    )
    EvidenceFactory(claim=old, url="https://a.example/1")
    EvidenceFactory(claim=old, url="https://b.example/2")
    EvidenceFactory(claim=old, url="https://b.example/2")
    ClaimFactory(text="Newest claim about the bridge")

    page = text(editor_client.get(reverse("home")))

    assert page.index("Newest claim about the bridge") < page.index("Older claim about the harbour")
    row = page[page.index("Older claim about the harbour") :]
    row = row[: row.index("</tr>")]
    assert 'badge badge-true">True' in row
    assert ">1.8<" in row and ">0.4<" in row
    assert '<td class="num">2</td>' in row  # two distinct sources, the repeated URL counted once
    assert "3\xa0days ago" in row


def test_the_queue_marks_claims_whose_current_verdict_only_leans(editor_client: Client) -> None:
    leaning: Any = DecidedClaimFactory(text="A claim the sources only lean on")
    VerdictFactory(claim=leaning, outcome=Outcome.TRUE, reason="leaning")
    settled: Any = DecidedClaimFactory(text="A claim settled on a re-run")
    VerdictFactory(claim=settled, outcome=Outcome.TRUE, reason="leaning", run_number=1)
    VerdictFactory(claim=settled, outcome=Outcome.TRUE, reason="sufficient", run_number=2)
    Claim.objects.filter(pk=settled.pk).update(run_number=2)

    page = text(editor_client.get(reverse("home")))

    def row(claim_text: str) -> str:
        rest = page[page.index(claim_text) :]
        return rest[: rest.index("</tr>")]

    assert "provisional" in row("A claim the sources only lean on")
    assert "provisional" not in row("A claim settled on a re-run")


@pytest.mark.parametrize(
    ("query", "shown", "hidden"),
    [
        ("status=queued", "waiting claim", "settled claim"),
        ("outcome=false", "settled claim", "waiting claim"),
        ("overridden=yes", "changed claim", "settled claim"),
        ("overridden=no", "settled claim", "changed claim"),
        ("needs_review=on", "settled claim", "reviewed claim"),
        ("channel=%40wire", "wire claim", "settled claim"),
        ("q=harbour+settled", "settled claim", "waiting claim"),
        ("q=%22claim+about%22", "wire claim", "settled claim"),
    ],
)
def test_the_queue_filters(editor_client: Client, query: str, shown: str, hidden: str) -> None:
    ClaimFactory(text="A waiting claim")
    DecidedClaimFactory(text="A settled claim in the harbour", outcome=Outcome.FALSE)
    DecidedClaimFactory(
        text="A changed claim", outcome=Outcome.TRUE, overridden=True, reviewed_at=timezone.now()
    )
    DecidedClaimFactory(text="A reviewed claim", reviewed_at=timezone.now())
    ClaimFactory(text="A wire claim about ports", source_channel="@wire")

    page = text(editor_client.get(f"{reverse('home')}?{query}"))

    assert shown in page
    assert hidden not in page


def test_the_queue_filters_by_date_range(editor_client: Client) -> None:
    now = timezone.now()
    ClaimFactory(text="From last month", created_at=now - timedelta(days=40))
    ClaimFactory(text="From this week", created_at=now - timedelta(days=2))
    start = (now - timedelta(days=7)).date().isoformat()

    page = text(editor_client.get(reverse("home"), {"created_from": start}))

    assert "From this week" in page and "From last month" not in page


def test_an_htmx_filter_request_gets_only_the_results_region(editor_client: Client) -> None:
    ClaimFactory(text="Only claim")
    response = editor_client.get(reverse("home"), {"q": "only"}, headers=HX)
    body = text(response)
    assert body.lstrip().startswith('<section id="claim-results"')
    assert "<html" not in body and "Only claim" in body


def test_the_queue_pages_fifty_claims_at_a_time(editor_client: Client) -> None:
    ClaimFactory.create_batch(55)
    first = text(editor_client.get(reverse("home")))
    second = text(editor_client.get(reverse("home"), {"page": 2}))
    assert first.count('class="claim-cell"') == 50
    assert second.count('class="claim-cell"') == 5
    assert "Page 2 of 2" in second


def test_an_empty_queue_says_what_to_do(editor_client: Client) -> None:
    page = text(editor_client.get(reverse("home")))
    assert "No claims yet." in page and "Check your first claim" in page
    filtered = text(editor_client.get(reverse("home"), {"status": "failed"}))
    assert "No claims match these filters." in filtered and "clear the filters" in filtered


# --- submitting ---------------------------------------------------------------------------------


def test_one_claim_with_a_timeframe_and_channel_is_queued_and_opens_its_page(
    editor_client: Client, editor: Any
) -> None:
    response = editor_client.post(
        reverse("claim_new"),
        {
            "text": "The harbour bridge opened to traffic",
            "timeframe_start": "2024-07-01",
            "timeframe_end": "2024-07-31",
            "source_channel": "@desk",
        },
    )
    claim = Claim.objects.get()
    assert response.status_code == 302
    assert response["Location"] == reverse("claim_detail", args=[claim.pk])
    assert claim.status == ClaimStatus.QUEUED
    assert claim.source_channel == "@desk" and claim.created_by == editor
    assert claim.timeframe_start is not None and claim.timeframe_end is not None
    assert claim.timeframe_start.date().isoformat() == "2024-07-01"
    assert claim.timeframe_end.date().isoformat() == "2024-07-31"


def test_an_inverted_timeframe_is_refused_on_its_field_and_nothing_is_saved(
    editor_client: Client,
) -> None:
    response = editor_client.post(
        reverse("claim_new"),
        {"text": "It happened", "timeframe_start": "2024-08-01", "timeframe_end": "2024-07-01"},
    )
    assert response.status_code == 422
    assert "the timeframe ends before it starts" in text(response)
    assert Claim.objects.count() == 0


def test_an_empty_claim_is_refused(editor_client: Client) -> None:
    response = editor_client.post(reverse("claim_new"), {"text": "   "})
    assert response.status_code == 422
    assert Claim.objects.count() == 0


def test_a_claim_with_no_searchable_words_is_refused_at_the_form(editor_client: Client) -> None:
    response = editor_client.post(reverse("claim_new"), {"text": "x"})
    assert response.status_code == 422
    assert "the claim has no words to search for" in text(response)
    assert Claim.objects.count() == 0


def test_a_batch_line_with_no_searchable_words_is_reported(editor_client: Client) -> None:
    response = editor_client.post(reverse("claim_new_batch"), {"lines": "Fine claim here\n?!"})
    assert response.status_code == 422
    assert "Line 2" in text(response) and "no words to search for" in text(response)
    assert Claim.objects.count() == 0


def test_a_pasted_batch_queues_one_claim_per_line(editor_client: Client) -> None:
    response = editor_client.post(
        reverse("claim_new_batch"),
        {"lines": "First claim here\n\nSecond claim here\n", "source_channel": "@feed"},
        follow=True,
    )
    assert set(Claim.objects.values_list("text", "source_channel")) == {
        ("First claim here", "@feed"),
        ("Second claim here", "@feed"),
    }
    assert "2 claims queued." in text(response)


def test_a_batch_with_a_bad_line_reports_that_line_and_saves_nothing(editor_client: Client) -> None:
    long_line = "x" * 2001
    response = editor_client.post(
        reverse("claim_new_batch"), {"lines": f"Fine claim\n{long_line}\nAnother fine claim"}
    )
    assert response.status_code == 422
    body = text(response)
    assert "Nothing was saved: 1 line cannot be checked." in body
    assert "Line 2" in body and "at most 2000" in body
    assert Claim.objects.count() == 0


# --- the claim page -----------------------------------------------------------------------------


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
    assert f'hx-get="{reverse("claim_live", args=[claim.pk])}?since=7"' in page
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


def test_the_poll_stops_with_286_and_the_verdict_once_decided(editor_client: Client) -> None:
    claim = _running_claim()
    VerdictFactory(claim=claim, outcome=Outcome.TRUE, proof_markdown="**Two** sources agree.")
    Claim.objects.filter(pk=claim.pk).update(status=ClaimStatus.DECIDED, outcome=Outcome.TRUE)

    response = editor_client.get(reverse("claim_live", args=[claim.pk]), {"since": 7}, headers=HX)

    assert response.status_code == 286
    body = text(response)
    assert "hx-trigger" not in body.split(">", 1)[0]  # the region no longer polls
    # ... and "Claim queued" goes from the message box with the verdict's arrival.
    cleared = '<div id="messages" class="messages" role="status" aria-live="polite"'
    assert f'{cleared} hx-swap-oob="true"></div>' in body
    assert "<strong>Two</strong> sources agree." in body
    assert "Override the outcome" in body


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
    assert "hx-trigger" not in page.split('id="claim-live"', 1)[1].split(">", 1)[0]


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


# --- review, override, re-run ------------------------------------------------------------------


def test_an_override_with_a_reason_changes_the_outcome_and_is_kept_in_the_history(
    editor_client: Client, editor: Any
) -> None:
    verdict: Any = VerdictFactory(outcome=Outcome.TRUE)
    claim = verdict.claim

    response = editor_client.post(
        reverse("claim_override", args=[claim.pk]),
        {"outcome": "false", "reason": "The ministry retracted it."},
        headers=HX,
    )

    assert response.status_code == 200
    claim.refresh_from_db()
    assert claim.outcome == Outcome.FALSE and claim.overridden and claim.reviewed_at
    override = Override.objects.get()
    assert override.editor == editor and override.reason == "The ministry retracted it."
    body = text(response)
    assert body.lstrip().startswith('<div id="claim-live"')
    assert "The ministry retracted it." in body and "edna" in body


def test_after_an_override_the_verdict_card_and_proof_lead_with_the_editors_outcome(
    editor_client: Client,
) -> None:
    verdict: Any = VerdictFactory(
        outcome=Outcome.FALSE,
        claim__outcome=Outcome.FALSE,
        proof_markdown="**Claim:** The ferry runs.\n\n**Verdict: False**, because enough agree.",
    )
    editor_client.post(
        reverse("claim_override", args=[verdict.claim.pk]),
        {"outcome": "invalid", "reason": "The sources describe another ferry."},
        headers=HX,
    )

    page = text(editor_client.get(reverse("claim_detail", args=[verdict.claim.pk])))

    card = page[page.index('id="verdict-reason"') :]
    card = card[: card.index("</p>")]
    assert "Editor verdict: Invalid" in card and "was False" in card
    proof = page[page.index('class="proof"') :]
    assert proof.index("Editor verdict: Invalid") < proof.index("Pipeline verdict: False")
    assert "<strong>Verdict: False</strong>" not in page
    assert "The sources describe another ferry." in proof


def test_an_override_to_the_same_outcome_is_refused_with_its_reason(editor_client: Client) -> None:
    verdict: Any = VerdictFactory(outcome=Outcome.TRUE)
    response = editor_client.post(
        reverse("claim_override", args=[verdict.claim.pk]),
        {"outcome": "true", "reason": "Looks right."},
        headers=HX,
    )
    assert response.status_code == 422
    assert "already True" in text(response)
    assert Override.objects.count() == 0


def test_an_invalid_verdict_shows_where_its_evidence_leans(editor_client: Client) -> None:
    verdict: Any = VerdictFactory(
        outcome=Outcome.INVALID,
        reason="insufficient",
        lean={
            "outcome": "false",
            "weight": 0.4,
            "sources": ["blog.example"],
            "text": "leans False: 0.4 from one other site (blog.example)",
        },
    )
    page = text(editor_client.get(reverse("claim_detail", args=[verdict.claim.pk])))
    hint = page[page.index('id="verdict-lean"') :]
    assert "leans False: 0.4 from one other site (blog.example)" in hint[: hint.index("</p>")]


def test_an_override_without_a_reason_is_refused_with_422(editor_client: Client) -> None:
    verdict: Any = VerdictFactory(outcome=Outcome.TRUE)
    response = editor_client.post(
        reverse("claim_override", args=[verdict.claim.pk]),
        {"outcome": "false", "reason": " "},
        headers=HX,
    )
    assert response.status_code == 422
    assert "This field is required." in text(response)
    assert Override.objects.count() == 0


def test_an_override_without_htmx_redirects_back_with_a_message(editor_client: Client) -> None:
    verdict: Any = VerdictFactory(outcome=Outcome.TRUE)
    response = editor_client.post(
        reverse("claim_override", args=[verdict.claim.pk]),
        {"outcome": "invalid", "reason": "Dates do not match."},
        follow=True,
    )
    assert "Outcome changed." in text(response)
    assert response.redirect_chain[-1][0] == reverse("claim_detail", args=[verdict.claim.pk])


def test_a_claim_still_running_cannot_be_overridden(editor_client: Client) -> None:
    claim: Any = ClaimFactory(status=ClaimStatus.RUNNING)
    response = editor_client.post(
        reverse("claim_override", args=[claim.pk]), {"outcome": "false", "reason": "no"}
    )
    assert response.status_code == 422
    assert "no verdict to override yet" in text(response)


def test_keeping_a_verdict_marks_the_claim_reviewed(editor_client: Client) -> None:
    verdict: Any = VerdictFactory()
    response = editor_client.post(reverse("claim_review", args=[verdict.claim.pk]), headers=HX)
    assert response.status_code == 200
    verdict.claim.refresh_from_db()
    assert verdict.claim.reviewed_at is not None
    assert "Marked reviewed" in text(response)


def test_a_re_run_queues_a_fresh_run_and_keeps_the_old_verdict(editor_client: Client) -> None:
    verdict: Any = VerdictFactory(outcome=Outcome.FALSE)
    OverrideFactory(verdict=verdict, from_outcome=Outcome.FALSE, to_outcome=Outcome.TRUE)
    claim = verdict.claim

    response = editor_client.post(reverse("claim_rerun", args=[claim.pk]), follow=True)

    claim.refresh_from_db()
    assert claim.status == ClaimStatus.QUEUED and claim.run_number == 2
    page = text(response)
    assert "Re-run queued" in page
    assert "Run 1 verdict" in page  # the old verdict, in the history
    assert "The second source retracted its report." in page  # and its override
    assert "Verdict pending" in page


def test_a_claim_being_checked_cannot_be_re_run(editor_client: Client) -> None:
    claim: Any = ClaimFactory(status=ClaimStatus.RUNNING)
    response = editor_client.post(reverse("claim_rerun", args=[claim.pk]), follow=True)
    assert "already being checked" in text(response)
    claim.refresh_from_db()
    assert claim.run_number == 1


# --- search runs linked from the timeline, dashboard --------------------------------------------


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


def test_the_dashboard_draws_each_chart_with_its_numbers(editor_client: Client) -> None:
    for outcome in (Outcome.TRUE, Outcome.TRUE, Outcome.FALSE):
        DecidedClaimFactory(outcome=outcome, queries_used=2, crawls_used=1)
    DecidedClaimFactory(outcome=Outcome.INVALID, overridden=True, queries_used=3)
    SearchRunFactory(provider_metrics={"local": {"status": "ok", "latency_ms": 30, "count": 4}})
    SearchRunFactory(provider_metrics={"local": {"status": "failed", "latency_ms": 90, "count": 0}})

    page = text(editor_client.get(reverse("dashboard")))

    for title in (
        "Outcomes over time",
        "Overrides rate",
        "Queries and crawls per claim",
        "Provider latency and success",
        "Verdict confidence",
        "Provider agreement",
        "Spend against the budget",
    ):
        assert f">{title}</h2>" in page
    assert page.count("<svg") >= 5
    assert "1 of 4 decided claims overridden (25.0%)." in page
    assert (
        '<td>local</td><td class="num">2</td><td class="num">1</td><td class="num">50.0%</td>'
        in page
    )
    assert "$0.00 of $5.00" in page


def test_the_per_claim_and_confidence_charts_name_their_axes(editor_client: Client) -> None:
    DecidedClaimFactory(outcome=Outcome.TRUE, queries_used=2, crawls_used=1)
    SearchRunFactory(provider_metrics={"local": {"status": "ok", "latency_ms": 30, "count": 4}})
    page = text(editor_client.get(reverse("dashboard")))
    per_claim = page[page.index(">Queries and crawls per claim</h2>") :]
    per_claim = per_claim[: per_claim.index("</svg>")]
    assert '<text class="axis-label"' in per_claim
    assert ">queries or pages read for one claim</text>" in per_claim
    assert ">claims</text>" in per_claim


def test_an_empty_dashboard_says_what_to_do(editor_client: Client) -> None:
    page = text(editor_client.get(reverse("dashboard")))
    assert "Nothing to chart yet." in page and "No data yet for this chart." in page
