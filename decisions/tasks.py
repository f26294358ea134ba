"""Background tasks: thin wrappers that take ids and call one service."""

from __future__ import annotations

import logging
import threading
from datetime import timedelta
from typing import Any

from django.conf import settings
from django.db import connection
from django.utils import timezone

from claimcheck.workers import WorkerStopping, stoppable
from claims.lease import DATABASE_WENT_AWAY, DatabaseWentAway, every
from claims.services import claim_requeued_after_stop, claims_requeue_stale, lease_seconds
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
        claim = claim_requeued_after_stop(claim_id=claim_id)
        if claim is not None:
            claim_enqueue(claim)
        return "handed back: the worker is stopping"
    except DatabaseWentAway as gone:
        # Its result could not be saved. Queued again as soon as the database answered (or,
        # if it did not within a lease, by the sweep): its task is sent again from here.
        if not gone.handed_back:
            return "not saved: the database went away; the sweep queues it again"
        claim = claim_requeued_after_stop(claim_id=claim_id, why=DATABASE_WENT_AWAY)
        if claim is not None:
            claim_enqueue(claim)
        return "handed back: the database went away"
    return verdict.outcome if verdict else "not run"


def evidence_retention() -> str:
    """The daily schedule "evidence-retention"."""
    result = evidence_retention_sweep()
    return f"{result.evidence_deleted} evidence rows and {result.pages_deleted} pages deleted"


def outcome_refit() -> str:
    """The weekly schedule "outcome-refit": a candidate model for an admin to accept."""
    from decisions.services import outcome_model_refit

    refit, version = outcome_model_refit()
    if version is None:
        return f"not refitted: {refit.why}"
    return f"outcome model {version.pk} {version.status}: {refit.why}"


def claims_sweep_stale() -> int:
    """Re-queue claims that no worker is moving: running with a lease that ran out (its worker
    died: see claims.lease), or queued for longer than a task is held before it is handed out
    again, and send their tasks again. Running the same claim twice is safe: the pipeline takes
    claims with a conditional UPDATE and resumes from what is stored."""
    from django_q.tasks import async_task

    timeout = int(str(settings.Q_CLUSTER.get("timeout", 600)))
    retry = int(str(settings.Q_CLUSTER.get("retry", timeout + 60)))
    moved = claims_requeue_stale(queued_before=timezone.now() - timedelta(seconds=retry))
    for claim_id in moved:
        async_task("decisions.tasks.claim_run", claim_id, task_name=f"claim-{claim_id}-sweep")
    return len(moved)


_sweeper_lock = threading.Lock()
_sweeper: threading.Thread | None = None


def sweeper_start(**kwargs: Any) -> None:
    """django-q2 post_spawn receiver: each worker process sweeps for lost claims."""
    global _sweeper
    from django_q.conf import Conf

    if Conf.SYNC:
        # Tasks run inline in the caller's process (tests, `sync` mode): there is no cluster
        # whose workers could die, and the caller's process is not ours to add threads to.
        return

    with _sweeper_lock:
        if _sweeper is not None and _sweeper.is_alive():
            return
        _sweeper = threading.Thread(
            target=every,
            args=(lease_seconds() / 2, threading.Event(), claims_sweep_stale, "claim sweep"),
            name="claim-sweeper",
            daemon=True,
        )
        _sweeper.start()
