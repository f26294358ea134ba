"""Published fact-checks become evidence only from known publishers with a true/false rating."""

from __future__ import annotations

import pytest

from claims.models import Claim
from evidence.models import Evidence, FactCheckMatch, Method, Stance
from evidence.services import factcheck_evidence_record
from registry.models import Tier
from registry.weighing import invalidate_cache
from tests.factories import ClaimFactory, DomainFactory, FactCheckMatchFactory

pytestmark = pytest.mark.django_db


def _matches(claim: Claim, *ratings: tuple[str, str]) -> list[FactCheckMatch]:
    return [
        FactCheckMatchFactory.create(claim=claim, publisher_site=site, rating=rating)
        for site, rating in ratings
    ]


def test_a_known_publishers_false_rating_is_stored_once_as_a_refutation() -> None:
    DomainFactory.create(name="factdesk.example", tier=Tier.WIRE)
    invalidate_cache()
    claim = ClaimFactory.create()
    matches = _matches(claim, ("factdesk.example", "False"))
    assert factcheck_evidence_record(claim=claim, matches=matches, attempt=1) == 1
    assert factcheck_evidence_record(claim=claim, matches=matches, attempt=1) == 0
    row = Evidence.objects.get(claim=claim, method=Method.FACTCHECK)
    assert row.stance == Stance.REFUTE
    assert row.tier == Tier.WIRE
    assert row.title == "Fact Desk: False"


def test_unknown_publishers_and_ratings_that_are_neither_true_nor_false_do_not_count() -> None:
    DomainFactory.create(name="factdesk.example", tier=Tier.WIRE)
    invalidate_cache()
    claim = ClaimFactory.create()
    matches = _matches(claim, ("nobody.example", "False"), ("factdesk.example", "Mixture"))
    assert factcheck_evidence_record(claim=claim, matches=matches, attempt=1) == 0
    assert not Evidence.objects.filter(claim=claim).exists()
