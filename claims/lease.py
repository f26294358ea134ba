"""Leases on running claims, so a claim whose worker died is picked up again within seconds.

A worker running a claim renews its lease (the claim's `updated_at`) every third of
CLAIMCHECK_LEASE_SECONDS from a small thread beside the pipeline, whatever step the pipeline is
in. Every qcluster worker process also sweeps every half lease: a running claim whose lease ran
out has lost its worker (killed, or its machine gone) and is queued again. A claim is therefore
back in the queue at most 1.5 leases (30 s by default) after its worker's last renewal.

A lease belongs to one take of the claim (its `started_at`): a worker whose lease was taken
over, after it stalled for a whole lease, finds out at its next renewal and stops at the
pipeline's next step, so that the claim never runs in two places at once. A worker whose cluster
is stopping hands its claim back to the queue (claimcheck.workers). The sweep itself is a task of
the engine's (decisions.tasks), since only the engine knows how to send a claim's task again.
"""

from __future__ import annotations

import logging
import threading
from collections.abc import Iterator
from contextlib import contextmanager, suppress
from datetime import datetime
from typing import Any

from django.db import DatabaseError, connection

from claimcheck.workers import WorkerStopping, checkpoint
from claims.models import Claim
from claims.services import (
    claim_hand_back,
    claim_lease_renew,
    claim_taken_over,
    lease_seconds,
)

logger = logging.getLogger(__name__)


def every(interval: float, stop: threading.Event, action: Any, name: str) -> None:
    try:
        while not stop.wait(interval):
            try:
                action()
            except DatabaseError as exc:
                # A missed beat is not fatal: the next one may get through before the lease
                # runs out, and if none does the claim is simply run again. The connection it
                # failed on may be gone for good (the database restarted): dropped, so that the
                # next beat opens a new one instead of failing on the dead one forever.
                logger.warning(f"{name} failed", extra={"error": str(exc)})
                _drop_connection()
            except Exception:
                # Anything else is a bug to see in the logs, but a thread that quietly died
                # would stop renewing or sweeping for good: report it and keep going.
                logger.exception(f"{name} failed unexpectedly")
    finally:
        connection.close()  # this thread's own connection


def _drop_connection() -> None:
    # Closing a dead connection can fail; Django forgets it either way.
    with suppress(DatabaseError):
        connection.close()


class ClaimLeaseLost(Exception):
    """Another worker took the claim over: this one stalled past its lease."""


# Claims whose lease this process lost, as (claim id, started_at) of the take that lost it.
_lost: set[tuple[int, datetime | None]] = set()


def lease_checkpoint(*, claim: Claim) -> None:
    """Between pipeline steps: stop if the cluster is stopping or the lease was lost."""
    checkpoint()
    if (claim.pk, claim.started_at) in _lost:
        raise ClaimLeaseLost(f"claim {claim.pk} was taken over by another worker")


def _hand_back(*, claim_id: int, started_at: datetime | None) -> bool:
    # The stop may have cut a query short: go on with a fresh connection.
    connection.close()
    return claim_hand_back(claim_id=claim_id, started_at=started_at)


@contextmanager
def claim_lease(*, claim: Claim) -> Iterator[None]:
    """Hold the running claim's lease while the block runs. If the worker stops in the block,
    the claim is queued again (raising WorkerStopping on to the task, which sends it out)."""
    take = (claim.pk, claim.started_at)

    def renew() -> None:
        if not claim_lease_renew(claim=claim) and claim_taken_over(claim=claim):
            logger.error("claim taken over by another worker", extra={"claim_id": claim.pk})
            _lost.add(take)

    if connection.in_atomic_block:
        # Inside an open transaction (the foreground `verify` in a test, say) no other process
        # can see the claim running, and a renewal from another connection would only wait
        # for this transaction's row lock.
        yield
        return
    stop = threading.Event()
    beat = threading.Thread(
        target=every,
        args=(lease_seconds() / 3, stop, renew, "lease renewal"),
        name=f"lease-claim-{claim.pk}",
        daemon=True,
    )
    beat.start()
    try:
        yield
    except WorkerStopping:
        if _hand_back(claim_id=claim.pk, started_at=claim.started_at):
            logger.info("claim handed back: its worker is stopping", extra={"claim_id": claim.pk})
        raise
    finally:
        stop.set()
        beat.join(timeout=5)
        _lost.discard(take)
