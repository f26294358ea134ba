"""Guards on the review desk pages: who may open what, untrusted text rendered as text, and a
fixed number of queries per page however many rows there are."""

from __future__ import annotations

from typing import Any

import pytest
from django.test import Client
from django.urls import reverse

from claims.models import Claim, ClaimStatus, EventKind, Outcome
from tests.factories import (
    ClaimFactory,
    DecidedClaimFactory,
    EvidenceFactory,
    OverrideFactory,
    PageFactory,
    PipelineEventFactory,
    SearchRunFactory,
    VerdictFactory,
)

pytestmark = pytest.mark.django_db

HX = {"HX-Request": "true"}
SCRIPT = "<script>alert(1)</script>"


@pytest.fixture
def claim() -> Claim:
    verdict: Any = VerdictFactory()
    return verdict.claim


def _pages(claim: Claim) -> list[str]:
    return [
        reverse("home"),
        reverse("claim_new"),
        reverse("claim_detail", args=[claim.pk]),
        reverse("dashboard"),
    ]


def _actions(claim: Claim) -> list[tuple[str, dict[str, str]]]:
    return [
        (reverse("claim_new"), {"text": "A claim"}),
        (reverse("claim_new_batch"), {"lines": "A claim"}),
        (reverse("claim_override", args=[claim.pk]), {"outcome": "false", "reason": "r"}),
        (reverse("claim_review", args=[claim.pk]), {}),
        (reverse("claim_rerun", args=[claim.pk]), {}),
    ]


def test_anonymous_visitors_are_sent_to_the_login_page(claim: Claim) -> None:
    client = Client()
    for url in [*_pages(claim), reverse("claim_live", args=[claim.pk])]:
        response = client.get(url)
        assert response.status_code == 302, url
        assert response["Location"].startswith(reverse("login")), url
    for url, data in _actions(claim):
        response = client.post(url, data)
        assert response.status_code == 302 and reverse("login") in response["Location"], url
    assert Claim.objects.count() == 1


def test_a_signed_in_user_without_a_role_gets_403_everywhere(
    outsider_client: Client, claim: Claim
) -> None:
    for url in [*_pages(claim), reverse("claim_live", args=[claim.pk])]:
        assert outsider_client.get(url, headers=HX).status_code == 403, url
    for url, data in _actions(claim):
        assert outsider_client.post(url, data).status_code == 403, url
    claim.refresh_from_db()
    assert Claim.objects.count() == 1 and claim.reviewed_at is None and claim.run_number == 1


def test_the_403_page_says_which_role_is_missing(outsider_client: Client) -> None:
    body = outsider_client.get(reverse("home")).content.decode()
    assert "This page needs a role on the desk (viewer, editor or admin)" in body
    assert "Ask an admin to give your account one on the People page." in body
    submit = outsider_client.get(reverse("claim_new")).content.decode()
    assert "This page needs the editor role" in submit
    assert "Ask an admin to add you to the editors group." in submit
    assert "admins group" not in submit


@pytest.mark.parametrize("persona", ["editor_client", "admin_client_"])
def test_editors_and_admins_can_open_every_review_page(
    request: pytest.FixtureRequest, persona: str, claim: Claim
) -> None:
    client: Client = request.getfixturevalue(persona)
    for url in _pages(claim):
        assert client.get(url).status_code == 200, url


@pytest.mark.parametrize("persona", ["editor_client", "admin_client_"])
def test_editors_and_admins_can_review(
    request: pytest.FixtureRequest, persona: str, claim: Claim
) -> None:
    client: Client = request.getfixturevalue(persona)
    response = client.post(reverse("claim_review", args=[claim.pk]))
    assert response.status_code == 302
    claim.refresh_from_db()
    assert claim.reviewed_at is not None


def test_the_pages_only_answer_the_methods_they_serve(editor_client: Client, claim: Claim) -> None:
    assert editor_client.get(reverse("claim_override", args=[claim.pk])).status_code == 405
    assert editor_client.post(reverse("claim_detail", args=[claim.pk])).status_code == 405


# --- untrusted text ----------------------------------------------------------------------------


def test_script_in_a_claim_a_title_a_quote_or_a_proof_renders_as_text(
    editor_client: Client,
) -> None:
    claim: Any = DecidedClaimFactory(text=f"Claim {SCRIPT}", source_channel=SCRIPT)
    VerdictFactory(
        claim=claim,
        proof_markdown=(
            f"Proof {SCRIPT} and <img src=x onerror=alert(2)> [link](javascript:alert(3))"
        ),
        sources=[{"url": "javascript:alert(4)", "title": f"Source {SCRIPT}", "tier": "official"}],
    )
    page: Any = PageFactory(title=f"Title {SCRIPT}")
    EvidenceFactory(claim=claim, page=page, title=f"Title {SCRIPT}", source_quote=f"Quote {SCRIPT}")
    PipelineEventFactory(
        claim=claim,
        sequence=1,
        kind=EventKind.CRAWL,
        message=SCRIPT,
        payload={"run": 1, "url": "javascript:alert(5)", "title": f"Crawl {SCRIPT}"},
    )
    PipelineEventFactory(
        claim=claim,
        sequence=2,
        kind=EventKind.EVIDENCE,
        message=SCRIPT,
        payload={"run": 1, "domain": SCRIPT, "quote": f"Quote {SCRIPT}", "stance": "support"},
    )
    OverrideFactory(verdict=claim.verdicts.get(), reason=f"Because {SCRIPT}")

    body = editor_client.get(reverse("claim_detail", args=[claim.pk])).content.decode()
    queue = editor_client.get(reverse("home")).content.decode()

    for html in (body, queue):
        assert "<script>alert" not in html
        assert 'href="javascript' not in html
    assert "&lt;script&gt;alert(1)&lt;/script&gt;" in body
    proof = body.split('class="proof">')[1].split("</div>")[0]
    assert "Proof &lt;script&gt;" in proof and "&lt;img src=x" in proof
    assert "<img" not in body


def test_script_in_an_htmx_partial_is_escaped_too(editor_client: Client) -> None:
    claim: Any = ClaimFactory(status=ClaimStatus.RUNNING)
    PipelineEventFactory(
        claim=claim,
        sequence=1,
        kind=EventKind.GATE,
        message="g",
        payload={"run": 1, "why": SCRIPT, "status": "crawl", "picks": [SCRIPT]},
    )
    body = editor_client.get(reverse("claim_live", args=[claim.pk]), {"since": 0}, headers=HX)
    assert "<script>alert" not in body.content.decode()
    assert "&lt;script&gt;" in body.content.decode()


# --- queries per page --------------------------------------------------------------------------


def _decided_with_sources(n: int) -> None:
    for _ in range(n):
        verdict: Any = VerdictFactory(outcome=Outcome.FALSE)
        EvidenceFactory(claim=verdict.claim)
        OverrideFactory(verdict=verdict)


def _queries(django_assert_max_num_queries: Any, client: Client, url: str) -> int:
    with django_assert_max_num_queries(50) as captured:
        assert client.get(url).status_code == 200
    return len(captured.captured_queries)


def test_the_queue_runs_the_same_queries_for_5_or_50_rows(
    editor_client: Client, django_assert_max_num_queries: Any
) -> None:
    _decided_with_sources(5)
    few = _queries(django_assert_max_num_queries, editor_client, reverse("home"))
    _decided_with_sources(45)
    with django_assert_max_num_queries(few):
        editor_client.get(reverse("home"))
    with django_assert_max_num_queries(few):
        editor_client.get(reverse("home") + "?outcome=false&needs_review=on&q=agency")


def test_the_claim_page_runs_the_same_queries_for_few_or_many_steps(
    editor_client: Client, django_assert_max_num_queries: Any
) -> None:
    claim: Any = VerdictFactory().claim
    for sequence in range(1, 4):
        PipelineEventFactory(
            claim=claim,
            sequence=sequence,
            kind=EventKind.EVIDENCE,
            payload={"run": 1, "stance": "support", "quote": "q"},
        )
    EvidenceFactory(claim=claim)
    OverrideFactory(verdict=claim.verdicts.get())
    url = reverse("claim_detail", args=[claim.pk])
    few = _queries(django_assert_max_num_queries, editor_client, url)
    for sequence in range(4, 60):
        PipelineEventFactory(
            claim=claim,
            sequence=sequence,
            kind=EventKind.EVIDENCE,
            payload={"run": 1, "stance": "support", "quote": "q"},
        )
    for _ in range(20):
        EvidenceFactory(claim=claim)
    for _ in range(5):
        OverrideFactory(verdict=claim.verdicts.get())
    with django_assert_max_num_queries(few):
        editor_client.get(url)


def test_the_dashboard_runs_the_same_queries_however_much_there_is(
    editor_client: Client, django_assert_max_num_queries: Any
) -> None:
    _decided_with_sources(2)
    SearchRunFactory(provider_metrics={"local": {"status": "ok", "latency_ms": 3, "count": 1}})
    few = _queries(django_assert_max_num_queries, editor_client, reverse("dashboard"))
    _decided_with_sources(20)
    for _ in range(20):
        SearchRunFactory(provider_metrics={"local": {"status": "ok", "latency_ms": 3, "count": 1}})
    with django_assert_max_num_queries(few):
        editor_client.get(reverse("dashboard"))
