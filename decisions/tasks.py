"""Background tasks: thin wrappers that take ids and call one service."""

from __future__ import annotations

import logging
from datetime import timedelta

from django.conf import settings
from django.db import connection
from django.db.models import Q
from django.utils import timezone

from claimcheck.workers import WorkerStopping, stoppable
from claims.events import event_record
from claims.models import Claim, ClaimStatus, EventKind
from decisions.lease import lease_expired_before
from decisions.pipeline import claim_pipeline_run
from decisions.services.claims import claim_enqueue
from decisions.services.retention import evidence_retention_sweep

logger = logging.getLogger(__name__)


def claim_run(claim_id: int) -> str:
    try:
        with stoppable():
            verdict = claim_pipeline_run(claim_id=claim_id)
    except WorkerStopping:
        # The cluster is stopping: this task ends here, and the claim (queued again by its
        # lease, or never started) gets a task of its own for the next worker. The stop may
        # have cut a query short: go on with a fresh connection.
        connection.close()
        claim = Claim.objects.filter(pk=claim_id, status=ClaimStatus.QUEUED).first()
        if claim is not None:
            event_record(
                claim=claim, kind=EventKind.QUEUED, message="Queued again: its worker stopped"
            )
            claim_enqueue(claim)
        return "handed back: the worker is stopping"
    return verdict.outcome if verdict else "not run"


def evidence_retention() -> str:
    """The daily schedule "evidence-retention"."""
    result = evidence_retention_sweep()
    return f"{result.evidence_deleted} evidence rows and {result.pages_deleted} pages deleted"


def claims_sweep_stale() -> int:
    """Re-queue claims that no worker is moving: running with a lease that ran out (its worker
    died: see decisions.lease), or queued for longer than a task is held before it is handed out
    again. Running the same claim twice is safe: the pipeline takes claims with a conditional
    UPDATE and resumes from what is stored."""
    from django_q.tasks import async_task

    timeout = int(str(settings.Q_CLUSTER.get("timeout", 600)))
    retry = int(str(settings.Q_CLUSTER.get("retry", timeout + 60)))
    now = timezone.now()
    expired = lease_expired_before()
    stale = Claim.objects.filter(
        Q(status=ClaimStatus.RUNNING, updated_at__lt=expired)
        | Q(status=ClaimStatus.QUEUED, updated_at__lt=now - timedelta(seconds=retry))
    ).values_list("pk", flat=True)
    count = 0
    for claim_id in list(stale):
        # Conditional: a sweep in another worker, or the lease's own renewal, may have won.
        moved = Claim.objects.filter(
            Q(status=ClaimStatus.RUNNING, updated_at__lt=expired)
            | Q(status=ClaimStatus.QUEUED, updated_at__lt=now - timedelta(seconds=retry)),
            pk=claim_id,
        ).update(status=ClaimStatus.QUEUED, updated_at=now)
        if not moved:
            continue
        logger.warning("claim lost its worker; queued again", extra={"claim_id": claim_id})
        event_record(
            claim=Claim.objects.get(pk=claim_id),
            kind=EventKind.QUEUED,
            message="Queued again: no worker was moving it",
        )
        async_task("decisions.tasks.claim_run", claim_id, task_name=f"claim-{claim_id}-sweep")
        count += 1
    return count
