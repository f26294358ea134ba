"""collect_evidence end to end: leads fetched through evidence.fetching (the outside web mocked
with respx at integrations.http's boundary), read, and stored as Evidence rows once."""

from __future__ import annotations

from datetime import UTC, date, datetime

import pytest
import respx

from claims.models import Claim
from evidence.fetching import page_fetch
from evidence.models import ContentDepth, Evidence, Method, Page, Stance, Tier, VerificationStatus
from evidence.services import Lead, collect_evidence, snippet_evidence
from integrations.http.canonical import canonicalize_url
from registry.models import Domain
from tests.evidence.budget_story import (
    BUDGET_TEXT,
    HTML,
    HUB_HTML,
    NEWS,
    OFFICIAL,
    budget_claim,
    budget_page,
)
from tests.evidence.factories import DeniedDomainFactory, article_html
from tests.factories import ClaimFactory

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("fake_dns")]

DEAD = "https://news.example.org/gone"
SOCIAL = "https://mirror.example.net/post/1"
DENIED = "https://blocked.example.com/budget"


@pytest.fixture
def claim() -> Claim:
    return budget_claim()


def test_a_readable_page_becomes_evidence_with_its_tier_quote_and_event_date(
    web: respx.MockRouter, claim: Claim
) -> None:
    web.get(OFFICIAL).respond(200, headers=HTML, text=budget_page())

    rows = collect_evidence(claim=claim, leads=[Lead(url=OFFICIAL, title="Budget")], attempt=2)

    assert rows
    best = rows[0]
    assert best.pk is not None
    assert best.url == OFFICIAL
    assert best.domain == "example.gov"
    assert best.tier == Tier.OFFICIAL
    assert best.weight == 1.0
    assert best.stance == Stance.SUPPORT
    assert best.source_quote.startswith("The Senate approved the budget bill on 5 March 2024")
    assert best.page is not None and best.source_quote in best.page.text
    assert best.event_at == datetime(2024, 3, 5, tzinfo=UTC)
    assert best.in_window is True
    assert best.method == Method.MODEL
    assert best.http_status == 200
    assert best.content_depth == ContentDepth.FULL
    assert best.verification_status == VerificationStatus.VERIFIED
    assert best.scraped_chars == len(best.page.text) > 500
    assert best.published_at is not None
    assert best.attempt == 2
    assert best.title == "Senate approves the budget"


def test_a_dead_page_is_not_evidence_even_with_a_snippet(
    web: respx.MockRouter, claim: Claim
) -> None:
    web.get(DEAD).respond(404, headers=HTML, text="<h1>Not found</h1>")
    lead = Lead(
        url=DEAD,
        title="Budget vote",
        snippet="The Senate approved the budget bill on 5 March 2024 by 60 votes to 38 ...",
    )

    assert collect_evidence(claim=claim, leads=[lead], attempt=1) == []
    assert not Evidence.objects.filter(claim=claim).exists()


def test_a_live_page_too_thin_to_read_keeps_its_snippet_as_a_lead_that_does_not_count(
    web: respx.MockRouter, claim: Claim
) -> None:
    web.get(NEWS).respond(
        200, headers=HTML, text="<html><head><title>Budget vote</title></head><p>Video.</p></html>"
    )
    lead = Lead(
        url=NEWS,
        title="Budget vote",
        snippet="The Senate approved the budget bill on 5 March 2024 by 60 votes to 38 ...",
    )

    [row] = collect_evidence(claim=claim, leads=[lead], attempt=1)

    assert row.method == Method.SNIPPET
    assert row.content_depth == ContentDepth.SNIPPET
    assert row.http_status == 200
    assert row.verification_status == VerificationStatus.FAILED
    assert not row.was_read
    assert row.source_quote in lead.snippet


def test_a_dead_page_without_a_snippet_gives_nothing(web: respx.MockRouter, claim: Claim) -> None:
    web.get(DEAD).respond(404, headers=HTML, text="<h1>Not found</h1>")

    assert collect_evidence(claim=claim, leads=[Lead(url=DEAD)], attempt=1) == []


def test_denied_domains_are_neither_fetched_nor_counted(
    web: respx.MockRouter, claim: Claim
) -> None:
    DeniedDomainFactory(name="example.com")
    route = web.get(DENIED).respond(200, headers=HTML, text=budget_page())

    rows = collect_evidence(
        claim=claim, leads=[Lead(url=DENIED, snippet="The Senate approved it.")], attempt=1
    )

    assert rows == []
    assert not route.called


def test_social_sources_are_stored_with_their_zero_weight(
    web: respx.MockRouter, claim: Claim
) -> None:
    Domain.objects.create(name="example.net", tier=Tier.SOCIAL)
    web.get(SOCIAL).respond(200, headers=HTML, text=budget_page())

    rows = collect_evidence(claim=claim, leads=[Lead(url=SOCIAL)], attempt=1)

    assert rows
    assert {(r.tier, r.weight) for r in rows} == {(Tier.SOCIAL, 0.0)}


def test_an_event_outside_the_timeframe_is_marked_out_of_window(
    web: respx.MockRouter, claim: Claim
) -> None:
    web.get(NEWS).respond(
        200, headers=HTML, text=article_html(text=BUDGET_TEXT.replace("5 March 2024", "5 May 2023"))
    )

    rows = collect_evidence(claim=claim, leads=[Lead(url=NEWS)], attempt=1)

    dated = [r for r in rows if r.event_at is not None]
    assert dated and dated[0].event_at is not None
    assert dated[0].event_at.date() == date(2023, 5, 5)
    assert dated[0].in_window is False
    assert dated[0].stance == Stance.REFUTE


def test_without_a_timeframe_in_window_is_unknown(web: respx.MockRouter) -> None:
    claim: Claim = ClaimFactory.create(text="The Senate approved the budget bill by 60 votes.")
    web.get(OFFICIAL).respond(200, headers=HTML, text=budget_page())

    rows = collect_evidence(claim=claim, leads=[Lead(url=OFFICIAL)], attempt=1)

    assert rows and all(r.in_window is None for r in rows)


def test_several_leads_are_fetched_together_and_kept_in_lead_order(
    web: respx.MockRouter, claim: Claim
) -> None:
    web.get(OFFICIAL).respond(200, headers=HTML, text=budget_page())
    web.get(NEWS).respond(200, headers=HTML, text=budget_page("Budget passes Senate"))
    web.get(DEAD).respond(404, headers=HTML, text="")

    rows = collect_evidence(
        claim=claim,
        leads=[
            Lead(url=NEWS),
            Lead(url=DEAD, snippet="Senate approved the budget bill by 60 votes in March 2024"),
            Lead(url=OFFICIAL),
        ],
        attempt=1,
    )

    urls = [r.url for r in rows]
    assert urls.index(NEWS) < urls.index(OFFICIAL)
    assert DEAD not in urls


def test_running_twice_does_not_duplicate_evidence_or_refetch(
    web: respx.MockRouter, claim: Claim
) -> None:
    route = web.get(OFFICIAL).respond(200, headers=HTML, text=budget_page())
    leads = [Lead(url=OFFICIAL), Lead(url=OFFICIAL + "?utm_source=x")]

    first = collect_evidence(claim=claim, leads=leads, attempt=1)
    second = collect_evidence(claim=claim, leads=leads, attempt=1)

    assert [r.pk for r in first] == [r.pk for r in second]
    assert Evidence.objects.filter(claim=claim).count() == len(first)
    assert route.call_count == 1


def test_snippet_evidence_needs_no_fetch_and_is_stored_once(
    web: respx.MockRouter, claim: Claim
) -> None:
    lead = Lead(
        url=OFFICIAL,
        title="Senate approves budget",
        snippet="The Senate approved the budget bill on 5 March 2024 by 60 votes to 38.",
        published=datetime(2024, 3, 6, tzinfo=UTC),
    )

    first = snippet_evidence(claim=claim, leads=[lead, Lead(url=NEWS)], attempt=1)
    second = snippet_evidence(claim=claim, leads=[lead], attempt=1)

    [row] = first
    assert [r.pk for r in second] == [row.pk]
    assert row.content_depth == ContentDepth.SNIPPET
    assert row.method == Method.SNIPPET
    assert row.page is None
    assert row.tier == Tier.OFFICIAL
    assert row.stance == Stance.SUPPORT
    assert row.in_window is True
    assert row.published_at == datetime(2024, 3, 6, tzinfo=UTC)
    assert not web.calls


def test_a_crawl_after_the_snippet_gate_adds_the_pages_evidence(
    web: respx.MockRouter, claim: Claim
) -> None:
    web.get(OFFICIAL).respond(200, headers=HTML, text=budget_page())
    lead = Lead(url=OFFICIAL, snippet="The Senate approved the budget bill by 60 votes.")

    snippet_evidence(claim=claim, leads=[lead], attempt=1)
    rows = collect_evidence(claim=claim, leads=[lead], attempt=2)

    assert {r.method for r in rows} == {Method.MODEL}
    assert set(Evidence.objects.filter(claim=claim).values_list("method", flat=True)) == {
        Method.SNIPPET,
        Method.MODEL,
    }


def test_a_month_precise_event_date_is_in_window_when_its_month_overlaps(
    web: respx.MockRouter,
) -> None:
    claim: Claim = ClaimFactory.create(
        text="The Senate approved the budget bill by 60 votes.",
        timeframe_start=datetime(2024, 3, 5, tzinfo=UTC),
        timeframe_end=datetime(2024, 3, 5, 23, 59, tzinfo=UTC),
    )
    text = BUDGET_TEXT.replace("on 5 March 2024", "in March 2024")
    web.get(NEWS).respond(200, headers=HTML, text=article_html(text=text))

    rows = collect_evidence(claim=claim, leads=[Lead(url=NEWS)], attempt=1)

    [dated] = [r for r in rows if r.event_at is not None]
    assert dated.event_at == datetime(2024, 3, 1, tzinfo=UTC)
    assert dated.in_window is True


# --- what is never evidence ---------------------------------------------------------------------


@pytest.mark.parametrize(
    "url",
    [
        "http://127.0.0.1/budget",
        "http://2130706433/budget",
        "http://[::ffff:127.0.0.1]/budget",
        "http://0x7f.1/budget",
        "http://localhost/budget",
        "http://intranet.corp/budget",
        "http://printer.local/budget",
    ],
)
def test_an_address_or_internal_host_is_never_a_source(
    web: respx.MockRouter, claim: Claim, url: str
) -> None:
    lead = Lead(url=url, snippet="The Senate approved the budget bill on 5 March 2024.")

    assert collect_evidence(claim=claim, leads=[lead], attempt=1) == []
    assert snippet_evidence(claim=claim, leads=[lead], attempt=1) == []
    assert not web.calls


def test_a_listing_page_is_never_evidence_nor_a_snippet_lead(
    web: respx.MockRouter, claim: Claim
) -> None:
    hub = "https://agency.example.gov/news/"
    web.get(hub).respond(200, headers=HTML, text=HUB_HTML)
    lead = Lead(url=hub, snippet="Senate approves the budget bill by 60 votes. 5 March 2024")

    assert collect_evidence(claim=claim, leads=[lead], attempt=1) == []
    page = Page.objects.get(url=canonicalize_url(hub))
    assert page.metadata["hub"] is True
    assert page.metadata["hub_links"][0] == [
        "https://agency.example.gov/press/budget",
        "Senate approves the budget bill by 60 votes",
    ]


def test_an_article_with_links_in_its_text_is_not_a_hub(web: respx.MockRouter) -> None:
    text = BUDGET_TEXT.replace(
        "the agency said", "the agency said (<a href='/press/budget'>full release</a>)"
    )
    web.get(NEWS).respond(200, headers=HTML, text=article_html(text=text))

    page = page_fetch(url=NEWS)

    assert not page.metadata.get("hub")
