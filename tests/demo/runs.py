"""A claim run through the whole pipeline on the demo corpus, offline, for the demo's tests."""

from __future__ import annotations

from typing import Any

from claims.models import Claim
from decisions.models import Verdict
from decisions.pipeline import claim_pipeline_run
from decisions.services import claim_submit
from demo.loader import demo_load


def demo_run(text: str, **fields: Any) -> tuple[Claim, Verdict]:
    """Load the demo corpus, submit `text` (with `fields`: timeframe, channel) and run it."""
    demo_load()
    created, _ = claim_submit(text=text, enqueue=False, **fields)
    verdict = claim_pipeline_run(claim_id=created.pk)
    assert isinstance(verdict, Verdict)
    created.refresh_from_db()
    return created, verdict
