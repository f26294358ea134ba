"""A re-run reads its evidence afresh: rows stored by an earlier run belong to that run, and the
new run finds and weighs the same sources again (from the page cache) instead of losing them."""

from __future__ import annotations

from typing import Any

import pytest

from claims.models import Claim
from decisions.pipeline import claim_pipeline_run
from decisions.services import claim_rerun, claim_submit
from demo.loader import demo_claims, demo_load
from evidence.models import Evidence

pytestmark = pytest.mark.django_db

DECIDED = [claim for claim in demo_claims() if claim.expected in ("true", "false")]


@pytest.mark.parametrize("demo", DECIDED[:2], ids=lambda c: c.text[:40])
def test_a_rerun_weighs_the_same_sources_as_the_first_run(demo: Any, editor: Any) -> None:
    demo_load()
    claim, _ = claim_submit(
        text=demo.text,
        timeframe_start=demo.timeframe_start,
        timeframe_end=demo.timeframe_end,
        enqueue=False,
    )
    first = claim_pipeline_run(claim_id=claim.pk)
    assert first is not None
    first_rows = Evidence.objects.filter(claim=claim).count()

    claim_rerun(claim=Claim.objects.get(pk=claim.pk), user=editor)
    second = claim_pipeline_run(claim_id=claim.pk)
    assert second is not None
    claim.refresh_from_db()
    assert second.outcome == first.outcome == demo.expected
    assert (second.support_total, second.refute_total) == (first.support_total, first.refute_total)
    this_run = Evidence.objects.filter(claim=claim, attempt__gt=claim.attempt_offset)
    assert this_run.count() > 0
    # The first run's rows are kept as they were, beside the new run's.
    assert Evidence.objects.filter(claim=claim, attempt__lte=claim.attempt_offset).count() == (
        first_rows
    )
