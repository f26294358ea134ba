"""Background tasks: thin wrappers that take ids and call one service."""

from __future__ import annotations

from datetime import timedelta

from django.conf import settings
from django.db.models import Q
from django.utils import timezone

from claimcheck.models import Claim, ClaimStatus
from decisions.pipeline import claim_pipeline_run


def claim_run(claim_id: int) -> str:
    verdict = claim_pipeline_run(claim_id=claim_id)
    return verdict.outcome if verdict else "not run"


def claims_sweep_stale() -> int:
    """Re-queue claims that no worker is moving: running but silent for longer than a task may
    run (its worker died), or queued for longer than a task is held before it is handed out
    again. Running the same claim twice is safe: the pipeline takes claims with a conditional
    UPDATE and resumes from what is stored."""
    from django_q.tasks import async_task

    timeout = int(str(settings.Q_CLUSTER.get("timeout", 600)))
    retry = int(str(settings.Q_CLUSTER.get("retry", timeout + 60)))
    now = timezone.now()
    stale = Claim.objects.filter(
        Q(status=ClaimStatus.RUNNING, updated_at__lt=now - timedelta(seconds=timeout + 60))
        | Q(status=ClaimStatus.QUEUED, updated_at__lt=now - timedelta(seconds=retry))
    ).values_list("pk", flat=True)
    count = 0
    for claim_id in list(stale):
        Claim.objects.filter(pk=claim_id, status=ClaimStatus.RUNNING).update(
            status=ClaimStatus.QUEUED, updated_at=now
        )
        async_task("decisions.tasks.claim_run", claim_id, task_name=f"claim-{claim_id}-sweep")
        count += 1
    return count
