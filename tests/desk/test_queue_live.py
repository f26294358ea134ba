"""The live queue: an open list refreshes itself, every second while claims are being checked and
every three seconds otherwise (new claims and overrides reach it); a poll that finds nothing new
answers 204 for three queries."""

from __future__ import annotations

from typing import Any
from urllib.parse import parse_qs, urlsplit

import pytest
from django.test import Client
from django.urls import reverse

from claims.models import ClaimStatus, EventKind, Outcome
from claims.services import event_record
from decisions.services import verdict_override
from tests.factories import ClaimFactory, DecidedClaimFactory, VerdictFactory

pytestmark = pytest.mark.django_db

HX = {"HX-Request": "true"}


def _live_url(page: str) -> str:
    start = page.index('<section id="claim-results"')
    head = page[start : page.index(">", start)]
    assert "data-live" in head, head
    return head.split('hx-get="', 1)[1].split('"', 1)[0].replace("&amp;", "&")


def test_the_queue_polls_while_a_claim_is_being_checked(editor_client: Client) -> None:
    ClaimFactory(status=ClaimStatus.RUNNING)
    page = editor_client.get(reverse("home"), {"outcome": "false"}).content.decode()
    url = _live_url(page)
    assert urlsplit(url).path == reverse("claim_queue_live")
    query = parse_qs(urlsplit(url).query)
    assert query["outcome"] == ["false"] and query["since"][0]
    assert 'hx-trigger="poll-tick"' in page and "1 claim being checked" in page


def _period(page: str) -> int:
    head = page[page.index('<section id="claim-results"') :].split(">", 1)[0]
    return int(head.split('data-live-ms="', 1)[1].split('"', 1)[0])


def test_the_queue_polls_slower_when_nothing_runs(editor_client: Client) -> None:
    DecidedClaimFactory()
    page = editor_client.get(reverse("home")).content.decode()
    assert _live_url(page) and _period(page) == 3000
    assert "being checked" not in page
    ClaimFactory(status=ClaimStatus.RUNNING)
    assert _period(editor_client.get(reverse("home")).content.decode()) == 1000


def test_a_claim_posted_while_nothing_runs_reaches_the_open_queue(editor_client: Client) -> None:
    DecidedClaimFactory(text="An old decided claim about ferries")
    url = _live_url(editor_client.get(reverse("home")).content.decode())
    assert editor_client.get(url, headers=HX).status_code == 204
    DecidedClaimFactory(text="A new claim from a colleague about tunnels")
    body = editor_client.get(url, headers=HX).content.decode()
    assert "A new claim from a colleague about tunnels" in body


def test_an_override_reaches_the_open_queue(editor_client: Client, editor: Any) -> None:
    verdict: Any = VerdictFactory(claim=DecidedClaimFactory(text="The bridge opened in May"))
    url = _live_url(editor_client.get(reverse("home")).content.decode())
    assert editor_client.get(url, headers=HX).status_code == 204
    verdict_override(claim=verdict.claim, editor=editor, to_outcome="false", reason="Wrong month")
    body = editor_client.get(url, headers=HX).content.decode()
    assert "badge-false" in body and "overridden" in body


def test_a_poll_with_nothing_new_is_204_for_three_queries(
    editor_client: Client, django_assert_max_num_queries: Any
) -> None:
    ClaimFactory(status=ClaimStatus.RUNNING)
    url = _live_url(editor_client.get(reverse("home")).content.decode())
    assert editor_client.get(url, headers=HX).status_code == 204  # reads and keeps the role
    with django_assert_max_num_queries(3):
        response = editor_client.get(url, headers=HX)
    assert response.status_code == 204


def test_a_poll_after_a_change_returns_the_list_as_it_is_now(editor_client: Client) -> None:
    running: Any = ClaimFactory(status=ClaimStatus.RUNNING, text="The mill reopened in 2024")
    url = _live_url(editor_client.get(reverse("home")).content.decode())
    ClaimFactory(text="The ferry resumed service in 2023")
    response = editor_client.get(url, headers=HX)
    assert response.status_code == 200
    body = response.content.decode()
    assert body.lstrip().startswith('<section id="claim-results"')
    assert "The ferry resumed service in 2023" in body
    assert "data-live" in body.split(">", 1)[0]

    # The last running claim is decided: the list shows it and polls more slowly.
    url = _live_url(body)
    type(running).objects.exclude(pk=running.pk).update(status=ClaimStatus.DECIDED)
    type(running).objects.filter(pk=running.pk).update(
        status=ClaimStatus.DECIDED, outcome=Outcome.FALSE
    )
    event_record(claim=running, kind=EventKind.VERDICT, message="Verdict: False")
    body = editor_client.get(url, headers=HX).content.decode()
    assert "badge-false" in body
    assert _period(body) == 3000


def test_the_poll_keeps_the_filters(editor_client: Client) -> None:
    ClaimFactory(status=ClaimStatus.RUNNING, text="Running claim about harbours")
    DecidedClaimFactory(outcome=Outcome.FALSE, text="A false claim about bridges")
    url = _live_url(editor_client.get(reverse("home"), {"q": "harbours"}).content.decode())
    DecidedClaimFactory(outcome=Outcome.TRUE, text="A new true claim about tunnels")
    body = editor_client.get(url, headers=HX).content.decode()
    assert "Running claim about harbours" in body
    assert "bridges" not in body and "tunnels" not in body


def test_the_poll_needs_an_editor(outsider_client: Client) -> None:
    response = outsider_client.get(reverse("claim_queue_live"), {"since": "x"}, headers=HX)
    assert response.status_code == 403
    assert reverse("login") in Client().get(reverse("claim_queue_live"))["Location"]
