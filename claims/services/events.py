"""The claim's timeline: one line a step or a change of state, numbered in order."""

from __future__ import annotations

import logging
from typing import Any

from django.db import IntegrityError, transaction
from django.db.models import Max
from django.utils import timezone

from claims.models import Claim, PipelineEvent

logger = logging.getLogger(__name__)


def event_record(
    *,
    claim: Claim,
    kind: str,
    message: str,
    payload: dict[str, Any] | None = None,
    key: str | None = None,
) -> PipelineEvent:
    """Append an event. With a `key`, the event is written once: a resumed task that passes the
    same step again gets the stored row back instead of a duplicate."""
    body = dict(payload or {})
    if key is not None:
        body["key"] = key
        existing = PipelineEvent.objects.filter(claim=claim, payload__key=key).first()
        if existing is not None:
            return existing
    for _ in range(5):
        try:
            with transaction.atomic():
                last = PipelineEvent.objects.filter(claim=claim).aggregate(n=Max("sequence"))["n"]
                event = PipelineEvent.objects.create(
                    claim=claim,
                    sequence=(last or 0) + 1,
                    kind=kind,
                    message=message[:500],
                    payload=body,
                )
                # Touching the claim is the heartbeat the stale-claim sweep reads.
                Claim.objects.filter(pk=claim.pk).update(updated_at=timezone.now())
        except IntegrityError:
            continue  # another writer took this sequence number; take the next
        logger.info(message, extra={"claim_id": claim.pk, "event": kind})
        return event
    raise RuntimeError(f"could not append an event to claim {claim.pk}")
