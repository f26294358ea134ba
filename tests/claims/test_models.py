from datetime import timedelta

import pytest
from django.db import IntegrityError, transaction
from django.utils import timezone

from claims.models import Claim, claim_hash
from tests import factories

pytestmark = pytest.mark.django_db


def test_every_factory_builds_a_saved_row() -> None:
    for name in dir(factories):
        factory_class = getattr(factories, name)
        if name.endswith("Factory") and hasattr(factory_class, "_meta") and name != "UserFactory":
            if getattr(factory_class._meta, "model", None) is None:
                continue
            row = factory_class()
            assert row.pk is not None, name


def test_claim_text_that_differs_only_in_case_and_spacing_has_one_hash() -> None:
    assert claim_hash("The EU  AI Act entered into force.") == claim_hash(
        "the eu ai act entered into force"
    )
    assert claim_hash("The EU AI Act entered into force") != claim_hash(
        "The EU AI Act was repealed"
    )


def test_a_claim_with_an_inverted_timeframe_is_refused_by_the_database() -> None:
    now = timezone.now()
    with pytest.raises(IntegrityError), transaction.atomic():
        Claim.objects.create(text="x", timeframe_start=now, timeframe_end=now - timedelta(days=1))


def test_processed_results_are_unique_per_run_and_hash() -> None:
    row = factories.ProcessedResultFactory()
    with pytest.raises(IntegrityError), transaction.atomic():
        factories.ProcessedResultFactory(run=row.run, url=row.url, dedupe_hash=row.dedupe_hash)


def test_the_rewrite_cache_holds_one_row_per_original_query() -> None:
    factories.QueryFactory(original_query="same words")
    with pytest.raises(IntegrityError), transaction.atomic():
        factories.QueryFactory(original_query="same words")


def test_pages_are_unique_by_canonical_url() -> None:
    factories.PageFactory(url="https://agency.example/a")
    with pytest.raises(IntegrityError), transaction.atomic():
        factories.PageFactory(url="https://agency.example/a")


def test_an_override_needs_a_reason() -> None:
    with pytest.raises(IntegrityError), transaction.atomic():
        factories.OverrideFactory(reason="")
