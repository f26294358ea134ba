"""The queue sorts by a column, either way, and keeps its filters while it does."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.test import Client
from django.utils import timezone

from desk import selectors
from tests.factories import ClaimFactory, DecidedClaimFactory

pytestmark = pytest.mark.django_db


def _three() -> list[int]:
    now = timezone.now()
    weak = DecidedClaimFactory.create(
        support_total=0.4,
        refute_total=1.2,
        fact_check_score=0.2,
        source_channel="@b",
        created_at=now - timedelta(hours=3),
    )
    strong = DecidedClaimFactory.create(
        support_total=2.4,
        refute_total=0.0,
        fact_check_score=0.9,
        source_channel="@c",
        created_at=now - timedelta(hours=2),
    )
    queued = ClaimFactory.create(source_channel="@a", created_at=now - timedelta(hours=1))
    return [weak.pk, strong.pk, queued.pk]  # fmt: skip


def _order(sort: str) -> list[int]:
    return list(selectors.claim_queue(sort=sort).values_list("pk", flat=True))


def test_each_column_sorts_both_ways() -> None:
    weak, strong, queued = _three()
    assert _order("-created") == [queued, strong, weak]
    assert _order("created") == [weak, strong, queued]
    assert _order("-support") == [strong, weak, queued]
    assert _order("support") == [queued, weak, strong]
    assert _order("-refute") == [weak, queued, strong]  # a tie goes newest first
    assert _order("channel") == [queued, weak, strong]
    # A claim with no confidence yet comes last either way.
    assert _order("-confidence") == [strong, weak, queued]
    assert _order("confidence") == [weak, strong, queued]
    assert _order("no-such-column") == [queued, strong, weak]


def test_the_page_sorts_by_the_column_asked_for_and_links_to_the_other_way(
    editor_client: Client,
) -> None:
    weak, strong, _ = _three()
    page = editor_client.get("/", {"sort": "-support", "status": "decided"}).content.decode()
    assert page.index(f'id="pick-{strong}"') < page.index(f'id="pick-{weak}"')
    assert 'aria-sort="descending"><a class="sort" href="?sort=support&amp;status=decided"' in page
    assert '<input type="hidden" name="sort" value="-support">' in page
    # An order it does not know is a bad filter: answered 422, the queue newest first.
    assert editor_client.get("/", {"sort": "text"}).status_code == 422
