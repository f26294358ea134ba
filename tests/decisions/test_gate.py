"""The snippet gate: scoring, what gets read, and when it decides or refines."""

from __future__ import annotations

import math
from datetime import UTC, datetime

import pytest

from decisions.gate import (
    RELATIVE_CRAWL_RELEVANCE,
    rarity_weighted,
    score_leads,
    select_for_crawl,
    snippet_gate,
)
from decisions.step_events import gate_event
from decisions.types import ClaimQuestion
from evidence.services import Lead
from tests.factories import DomainFactory

pytestmark = pytest.mark.django_db

TASK = ClaimQuestion(
    text="The Council adopted the Battery Passport Regulation in March 2025",
    timeframe_start=datetime(2025, 3, 1, tzinfo=UTC),
    timeframe_end=datetime(2025, 3, 31, 23, 59, tzinfo=UTC),
)


@pytest.fixture(autouse=True)
def registry() -> None:
    DomainFactory(name="council.example", tier="official")
    DomainFactory(name="ministry.example", tier="official")
    DomainFactory(name="wire.example", tier="wire")
    DomainFactory(name="trade.example", tier="trade")
    DomainFactory(name="chirper.example", tier="social")
    DomainFactory(name="rumours.example", tier="other", denied=True)


def lead(
    url: str,
    title: str = "Council adopts Battery Passport Regulation",
    snippet: str = "Adopted on 28 March 2025.",
    published: datetime | None = None,
) -> Lead:
    return Lead(url=url, title=title, snippet=snippet, published=published)


def test_authority_cues_and_dates_raise_a_score() -> None:
    plain = score_leads(
        leads=[lead("https://trade.example/a", title="Battery passports explained", snippet="n/a")],
        question=TASK,
    )[0]
    cued = score_leads(
        leads=[
            lead("https://trade.example/press-release", published=datetime(2025, 3, 28, tzinfo=UTC))
        ],
        question=TASK,
    )[0]
    assert plain.score == pytest.approx(0.6)
    assert cued.score == pytest.approx(0.6 + 0.3 + 0.2 + 0.2)
    assert cued.in_window is True


def test_it_reads_in_the_searchs_order_never_two_of_one_domain() -> None:
    scored = score_leads(
        leads=[
            lead("https://wire.example/1"),
            lead("https://wire.example/2"),
            lead("https://council.example/press"),
            lead("https://ministry.example/news"),
            lead("https://trade.example/story"),
        ],
        question=TASK,
    )
    picks = select_for_crawl(scored=scored, crawled=set(), limit=2, allow_other=False)
    assert [p.lead.url for p in picks] == [
        "https://wire.example/1",
        "https://council.example/press",
    ]
    # A page read is not read again; another page of its publisher may be.
    later = select_for_crawl(
        scored=scored, crawled={"https://wire.example/1"}, limit=1, allow_other=False
    )
    assert [p.lead.url for p in later] == ["https://wire.example/2"]


def test_it_never_picks_social_or_denied_sources_or_pages_already_read() -> None:
    scored = score_leads(
        leads=[
            lead("https://chirper.example/post"),
            lead("https://rumours.example/scoop"),
            lead("https://council.example/press"),
        ],
        question=TASK,
    )
    picks = select_for_crawl(
        scored=scored, crawled={"https://council.example/press"}, limit=2, allow_other=True
    )
    assert picks == []


def test_an_unrelated_official_page_is_not_worth_a_crawl() -> None:
    scored = score_leads(
        leads=[
            # It shares the claim's year and nothing else: many stories of 2025 do.
            lead("https://ministry.example/menu", title="Canteen menu for 2025", snippet="Soup.")
        ],
        question=TASK,
    )
    gate = snippet_gate(
        scored=scored,
        snippets_sufficient=False,
        crawled=set(),
        crawls_left=4,
        per_turn=2,
        allow_other=True,
    )
    assert gate.status == "refine"


def test_an_official_page_far_less_about_the_claim_than_another_result_is_passed_over() -> None:
    scored = score_leads(
        leads=[
            lead(
                "https://ministry.example/news",
                title="Council news",
                snippet="Updates from March 2025.",
            ),
            lead("https://trade.example/story"),
            lead("https://blog.example/passport"),
        ],
        question=TASK,
    )
    assert scored[0].lead.url == "https://ministry.example/news"  # the highest authority
    best = max(s.relevance for s in scored)
    assert scored[0].worth_reading  # about the claim, but far less than the others
    assert scored[0].relevance < RELATIVE_CRAWL_RELEVANCE * best

    picks = select_for_crawl(scored=scored, crawled=set(), limit=2, allow_other=True)

    assert [p.lead.url for p in picks] == [
        "https://trade.example/story",
        "https://blog.example/passport",
    ]


def test_it_verifies_when_snippets_would_suffice_and_refines_when_the_budget_is_spent() -> None:
    scored = score_leads(leads=[lead("https://council.example/press")], question=TASK)

    def gate(*, sufficient: bool, crawls_left: int) -> str:
        decision = snippet_gate(
            scored=scored,
            snippets_sufficient=sufficient,
            crawled=set(),
            crawls_left=crawls_left,
            per_turn=2,
            allow_other=False,
        )
        return decision.status

    assert gate(sufficient=True, crawls_left=4) == "verify"
    assert gate(sufficient=False, crawls_left=4) == "crawl"
    assert gate(sufficient=False, crawls_left=0) == "refine"


def test_among_results_worth_reading_the_search_ranks_the_reading_order() -> None:
    scored = score_leads(
        leads=[
            lead(
                "https://ministry.gov/fees",
                "Press release: Council decision on battery passport fees, March 2025",
                "",
            ),
            lead(
                "https://agency.gov/battery-passport",
                "Battery Passport: the vote",
                "The Council adopted the Battery Passport Regulation on 28 March 2025.",
            ),
        ],
        question=TASK,
    )
    assert scored[0].relevance < scored[1].relevance

    picks = select_for_crawl(scored=scored, crawled=set(), limit=1, allow_other=False)

    # The search read both pages whole; the gate only saw their snippets.
    assert [p.lead.url for p in picks] == ["https://ministry.gov/fees"]


def test_a_page_far_less_about_the_claim_than_one_already_read_is_not_read_next() -> None:
    scored = score_leads(
        leads=[
            lead("https://council.example/press"),
            lead("https://ministry.example/cargo", title="Cargo figures", snippet="March 2025."),
        ],
        question=TASK,
    )
    picks = select_for_crawl(
        scored=scored, crawled={"https://council.example/press"}, limit=2, allow_other=True
    )
    assert picks == []


def test_the_gate_event_says_where_each_result_ranked_and_how_much_it_is_about_the_claim() -> None:
    scored = score_leads(
        leads=[
            lead("https://wire.example/1"),
            lead("https://trade.example/story", title="Markets today", snippet="Shares rose."),
        ],
        question=TASK,
    )
    gate = snippet_gate(
        scored=scored,
        snippets_sufficient=False,
        crawled=set(),
        crawls_left=4,
        per_turn=3,
        allow_other=False,
    )

    event = gate_event(run=1, attempt=1, gate=gate, scored=scored)

    shown = {row["url"]: row for row in event.payload["scored"]}
    assert shown["https://wire.example/1"]["rank"] == 0
    assert shown["https://trade.example/story"]["rank"] == 1
    assert shown["https://wire.example/1"]["relevance"] > 0.5
    assert shown["https://trade.example/story"]["relevance"] == 0
    assert {row["searches"] for row in shown.values()} == {1}
    assert event.payload["picks"] == ["https://wire.example/1"]


def test_a_word_every_result_shows_weighs_least_and_one_none_shows_weighs_as_shown_once() -> None:
    words = {"obama": 2.0, "clemency": 1.0, "pardons": 1.0}
    leads = [
        lead("https://a.example/1", title="Obama speech", snippet="Obama spoke."),
        lead("https://b.example/2", title="Obama tour", snippet="Obama left."),
        lead("https://c.example/3", title="Obama and clemency", snippet="Obama granted it."),
        lead("https://d.example/4", title="Obama book", snippet="Obama wrote."),
    ]

    weighted = rarity_weighted(words, leads)

    assert weighted["obama"] == pytest.approx(2.0)  # shown by all four: 1 + ln(4 / 4)
    assert weighted["clemency"] == pytest.approx(1.0 + math.log(4))
    assert weighted["pardons"] == weighted["clemency"]
    assert rarity_weighted(words, leads[:1]) == words  # one result: nothing to compare


def test_the_page_showing_the_claims_rarest_word_is_read_among_pages_on_its_names() -> None:
    question = ClaimQuestion(
        text="During the Obama/Biden administration, 18,000 people got clemency."
    )
    names = [
        lead(
            f"https://news{n}.example/story-{n}",
            title=f"Obama and Biden on the trail, day {n}",
            snippet="The Obama administration and Joe Biden, then vice president.",
        )
        for n in range(5)
    ]
    statistics = lead(
        "https://ministry.example/pardon/statistics",
        title="Clemency statistics",
        snippet="A total of 1,927 acts of clemency.",
    )
    scored = score_leads(leads=[names[0], statistics, *names[1:]], question=question)

    picks = select_for_crawl(scored=scored, crawled=set(), limit=3, allow_other=True)

    # Without the words' rarity the page shares a tenth of the claim's weight with it, a
    # fifth of what each page on the two names shares (0.5), and it is passed over.
    assert "https://ministry.example/pardon/statistics" in [p.lead.url for p in picks]
