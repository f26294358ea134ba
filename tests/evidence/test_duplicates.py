"""One statement found twice in a claim's run is kept once: pages read through collect_evidence
(the outside web mocked with respx), the copies stored and marked, never shown or counted
apart; a different publisher's copy stays syndication's business."""

from __future__ import annotations

from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import pytest
import respx

from claims.models import Claim
from evidence.models import Evidence, Method, Stance, VerificationStatus
from evidence.quotes import quote_similarity
from evidence.services import Lead, collect_evidence, snippet_evidence
from tests.evidence.factories import article_html, install_fake_dns, use_config
from tests.factories import ClaimFactory

pytestmark = pytest.mark.django_db

HTML = {"content-type": "text/html; charset=utf-8"}
STORY = "https://news.example.org/budget-vote"
PRINT = "https://news.example.org/print/budget-vote"
OTHER_OUTLET = "https://herald.example/budget"

VOTE = "The Senate approved the budget bill on 5 March 2024 by 60 votes to 38, the agency said"
REST = (
    "The bill funds the new rail line, the hospital extension and a pay rise for teachers. "
    "It now goes to the lower house, which is expected to vote on it before the summer. "
    "Opposition senators said the spending plans were not matched by new revenue. "
    "The finance minister said the deficit would still fall over the next three years"
)


def _story(vote: str = VOTE, title: str = "Senate approves the budget") -> str:
    return article_html(title=title, text=f"{vote}. {REST}.")


@pytest.fixture(autouse=True)
def _offline(monkeypatch: pytest.MonkeyPatch) -> None:
    install_fake_dns(monkeypatch)


@pytest.fixture
def claim() -> Claim:
    claim: Claim = ClaimFactory.create(
        text="The Senate approved the budget bill by 60 votes in March 2024.",
        timeframe_start=datetime(2024, 3, 1, tzinfo=UTC),
        timeframe_end=datetime(2024, 3, 31, 23, 59, tzinfo=UTC),
    )
    return claim


def _vote_rows(claim: Claim) -> list[Evidence]:
    return list(
        Evidence.objects.filter(claim=claim, source_quote__startswith="The Senate approved")
        .exclude(method=Method.SNIPPET)
        .order_by("id")
    )


def _kept(rows: list[Evidence]) -> list[Evidence]:
    return [row for row in rows if row.duplicate_of_id is None]


def test_one_page_read_under_two_addresses_gives_its_statement_once(
    web: respx.MockRouter, claim: Claim
) -> None:
    web.get(STORY).respond(200, headers=HTML, text=_story())
    # The print version sets its quotes and spaces differently: the same sentence to a reader.
    web.get(PRINT).respond(200, headers=HTML, text=_story(VOTE.replace(", the", " , the")))

    collect_evidence(claim=claim, leads=[Lead(url=STORY), Lead(url=PRINT)], attempt=1)

    rows = _vote_rows(claim)
    assert [row.url for row in rows] == [STORY, PRINT]
    assert {row.stance for row in rows} == {Stance.SUPPORT}
    [kept] = _kept(rows)
    [copy] = [row for row in rows if row is not kept]
    assert copy.duplicate_of_id == kept.pk


# The same report in British and in American spelling, and revised from "said" to "says".
SPELLED = VOTE.replace("the agency said", "the finance organisation said")
RESPELLED = SPELLED.replace("organisation", "organization")
REVISED = SPELLED.replace("organisation said", "organisation says")


def test_a_near_copy_of_a_quote_is_kept_once(web: respx.MockRouter, claim: Claim) -> None:
    assert 0.98 <= quote_similarity(SPELLED, RESPELLED) < 1.0
    web.get(STORY).respond(200, headers=HTML, text=_story(SPELLED))
    web.get(PRINT).respond(200, headers=HTML, text=_story(RESPELLED))

    collect_evidence(claim=claim, leads=[Lead(url=STORY), Lead(url=PRINT)], attempt=1)

    rows = _vote_rows(claim)
    assert [row.source_quote.rstrip(".") for row in rows] == [SPELLED, RESPELLED]
    [kept] = _kept(rows)
    [copy] = [row for row in rows if row is not kept]
    assert copy.duplicate_of_id == kept.pk


def test_a_quote_just_below_the_threshold_is_kept_twice(
    web: respx.MockRouter, claim: Claim
) -> None:
    assert 0.97 <= quote_similarity(SPELLED, REVISED) < 0.98
    web.get(STORY).respond(200, headers=HTML, text=_story(SPELLED))
    web.get(PRINT).respond(200, headers=HTML, text=_story(REVISED))

    collect_evidence(claim=claim, leads=[Lead(url=STORY), Lead(url=PRINT)], attempt=1)

    rows = _vote_rows(claim)
    assert [row.source_quote.rstrip(".") for row in rows] == [SPELLED, REVISED]
    assert [row.duplicate_of_id for row in rows] == [None, None]


def test_the_similarity_threshold_comes_from_the_config(
    web: respx.MockRouter, claim: Claim, settings: Any, tmp_path: Path
) -> None:
    use_config(settings, tmp_path, "retention:\n  dedupe_similarity: 0.95\n")
    web.get(STORY).respond(200, headers=HTML, text=_story(SPELLED))
    web.get(PRINT).respond(200, headers=HTML, text=_story(REVISED))

    collect_evidence(claim=claim, leads=[Lead(url=STORY), Lead(url=PRINT)], attempt=1)

    assert len(_kept(_vote_rows(claim))) == 1


def test_quotes_that_differ_in_a_number_are_two_statements(
    web: respx.MockRouter, claim: Claim
) -> None:
    corrected = VOTE.replace("60 votes to 38", "61 votes to 38")
    web.get(STORY).respond(200, headers=HTML, text=_story())
    web.get(PRINT).respond(200, headers=HTML, text=_story(corrected))

    collect_evidence(claim=claim, leads=[Lead(url=STORY), Lead(url=PRINT)], attempt=1)

    assert quote_similarity(VOTE, corrected) == 0.0
    assert len(_kept(_vote_rows(claim))) == 2


def test_the_same_sentence_on_another_publisher_stays_a_source_of_its_own(
    web: respx.MockRouter, claim: Claim
) -> None:
    """Syndication, not a duplicate: the reprint is marked with its original publisher and
    counted once as that publisher by the decision."""
    web.get(STORY).respond(200, headers=HTML, text=_story())
    web.get(OTHER_OUTLET).respond(200, headers=HTML, text=_story(title="Budget clears Senate"))

    collect_evidence(claim=claim, leads=[Lead(url=STORY), Lead(url=OTHER_OUTLET)], attempt=1)

    rows = _vote_rows(claim)
    assert {row.domain: row.syndicated_from for row in rows} == {
        "example.org": "",
        "herald.example": "example.org",
    }
    assert all(row.duplicate_of_id is None for row in rows)


def test_a_page_read_after_its_snippet_takes_the_snippets_place(
    web: respx.MockRouter, claim: Claim
) -> None:
    web.get(STORY).respond(200, headers=HTML, text=_story())
    lead = Lead(url=STORY, title="Senate approves the budget", snippet=f"{VOTE}. The bill ...")

    [snippet] = snippet_evidence(claim=claim, leads=[lead], attempt=1)
    assert snippet.duplicate_of_id is None
    assert snippet.verification_status == VerificationStatus.UNVERIFIED
    rows = collect_evidence(claim=claim, leads=[lead], attempt=2)

    [page_row] = [row for row in rows if row.source_quote.startswith("The Senate approved")]
    snippet.refresh_from_db()
    assert page_row.was_read and page_row.duplicate_of_id is None
    assert snippet.duplicate_of_id == page_row.pk


def test_collecting_twice_stores_nothing_new_and_keeps_the_same_marks(
    web: respx.MockRouter, claim: Claim
) -> None:
    route = web.get(STORY).respond(200, headers=HTML, text=_story())
    web.get(PRINT).respond(200, headers=HTML, text=_story())
    leads = [Lead(url=STORY), Lead(url=PRINT)]

    first = collect_evidence(claim=claim, leads=leads, attempt=1)
    marks = dict(Evidence.objects.values_list("pk", "duplicate_of"))
    second = collect_evidence(claim=claim, leads=leads, attempt=1)

    assert [r.pk for r in second] == [r.pk for r in first]
    assert [r.duplicate_of_id for r in second] == [r.duplicate_of_id for r in first]
    assert dict(Evidence.objects.values_list("pk", "duplicate_of")) == marks
    assert any(mark is not None for mark in marks.values())
    assert route.call_count == 1


def test_an_earlier_runs_statement_does_not_make_this_runs_a_copy(
    web: respx.MockRouter, claim: Claim
) -> None:
    web.get(STORY).respond(200, headers=HTML, text=_story())
    web.get(PRINT).respond(200, headers=HTML, text=_story())
    collect_evidence(claim=claim, leads=[Lead(url=STORY)], attempt=1)
    Claim.objects.filter(pk=claim.pk).update(attempt_offset=1, run_number=2)
    claim.refresh_from_db()

    collect_evidence(claim=claim, leads=[Lead(url=PRINT)], attempt=2)

    assert all(row.duplicate_of_id is None for row in _vote_rows(claim))
