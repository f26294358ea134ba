"""On the demo corpus, the evidence rows the claim page marks as counted add up to each
verdict's own totals: the table, the API and `verify` show the decision, not a guess at it."""

from __future__ import annotations

import pytest

from decisions.models import Verdict
from decisions.pipeline import claim_pipeline_run
from decisions.selectors import claim_counting
from decisions.services import claim_submit
from demo.loader import DemoClaim, demo_claims, demo_load

CLAIMS = demo_claims()


@pytest.mark.django_db
@pytest.mark.parametrize("claim", CLAIMS, ids=lambda c: c.text[:40])
def test_the_counted_rows_add_up_to_the_verdicts_totals(claim: DemoClaim) -> None:
    demo_load()
    created, _ = claim_submit(
        text=claim.text,
        timeframe_start=claim.timeframe_start,
        timeframe_end=claim.timeframe_end,
        source_channel=claim.source_channel,
        enqueue=False,
    )
    verdict = claim_pipeline_run(claim_id=created.pk)
    assert isinstance(verdict, Verdict)
    created.refresh_from_db()

    counting = claim_counting(claim=created)

    counts = [counting.rows[row.pk] for row in counting.shown]
    support = sum(c.weight for c in counts if c.counted and c.stance == "support")
    refute = sum(c.weight for c in counts if c.counted and c.stance == "refute")
    assert support == pytest.approx(verdict.support_total), verdict.proof_markdown
    assert refute == pytest.approx(verdict.refute_total), verdict.proof_markdown
    # Every row shown says one or the other, and a row that did not count says why.
    for count in counts:
        assert count.label.startswith(("Counted: ", "Not counted: "))
        assert count.counted or count.words
    # The verdict's counted publishers are the rows counted.
    counted_publishers = {
        (row.syndicated_from or row.domain, row.stance)
        for row in counting.shown
        if counting.rows[row.pk].counted
    }
    assert counted_publishers == {
        *((name, "support") for name in verdict.debug["support_domains"]),
        *((name, "refute") for name in verdict.debug["refute_domains"]),
    }
