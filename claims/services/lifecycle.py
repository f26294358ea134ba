"""A claim's life as the engine moves it: queued (`claim_create`, `claim_rerun_reset`), taken by
a worker (`claim_start`), kept alive while it runs (`claim_lease_renew`) or handed back
(`claim_hand_back`, `claims_requeue_stale`), and ended decided (`claim_decide`) or failed
(`claim_fail`)."""

from __future__ import annotations

import logging
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any

from django.conf import settings
from django.contrib.auth.models import User
from django.db import transaction
from django.db.models import Q
from django.utils import timezone

from claims.errors import ClaimError, ClaimNotRunnable
from claims.models import Claim, ClaimOrigin, ClaimStatus, EventKind, Outcome
from claims.services.events import event_record
from claims.services.versions import changed_fields, locked_update, outcome_fields, version_check

logger = logging.getLogger(__name__)


# --- queued ------------------------------------------------------------------------------------


def claim_create(
    *,
    text: str,
    language: str = "",
    language_confidence: float | None = None,
    timeframe_start: datetime | None = None,
    timeframe_end: datetime | None = None,
    timeframe_source: str = "",
    source_channel: str = "",
    origin: str = ClaimOrigin.DESK,
    created_by: User | None = None,
) -> Claim:
    """Store a new claim, queued, with the first line of its timeline. Validating the input and
    sending its task are the caller's (the desk's submission services)."""
    claim = Claim.objects.create(
        text=text,
        language=language,
        language_confidence=language_confidence,
        timeframe_start=timeframe_start,
        timeframe_end=timeframe_end,
        timeframe_source=timeframe_source,
        source_channel=source_channel,
        origin=origin,
        created_by=created_by,
        changed_at=timezone.now(),
        changed_by=created_by,
        change_note=f"{getattr(created_by, 'username', 'ClaimCheck')} submitted it",
    )
    event_record(claim=claim, kind=EventKind.QUEUED, message="Claim queued for checking")
    return claim


@transaction.atomic
def claim_rerun_reset(
    *, claim: Claim, user: User | None, expected_version: int | None = None
) -> Claim:
    """Queue a fresh run of a claim that is not being checked: its next run number, searches
    numbered after the ones it used, and every figure of the last run cleared. Earlier verdicts,
    overrides, runs and evidence stay in the history."""
    locked = Claim.objects.select_for_update().get(pk=claim.pk)
    version_check(locked, expected_version)
    if locked.status in (ClaimStatus.QUEUED, ClaimStatus.RUNNING):
        raise ClaimError("the claim is already being checked", field="status")
    used = locked.search_runs.count()
    who = getattr(user, "username", "system")
    locked_update(
        locked,
        by=user,
        note=f"{who} queued re-run #{locked.run_number + 1}",
        run_number=locked.run_number + 1,
        attempt_offset=max(used, locked.attempt_offset),
        status=ClaimStatus.QUEUED,
        outcome="",
        overridden=False,
        reviewed_at=None,
        error="",
        queries_used=0,
        crawls_used=0,
        evidence_count=0,
        support_total=0,
        refute_total=0,
        fact_check_score=None,
        fact_check_tier="",
        fact_check_note="",
        decided_at=None,
    )
    locked.refresh_from_db()
    event_record(
        claim=locked,
        kind=EventKind.QUEUED,
        message=f"Re-run #{locked.run_number} queued by {who}",
        payload={"run": locked.run_number},
    )
    return locked


# --- running -----------------------------------------------------------------------------------


def lease_seconds() -> float:
    return float(getattr(settings, "CLAIMCHECK_LEASE_SECONDS", 20))


def lease_expired_before() -> datetime:
    """A running claim not renewed since this moment has lost its worker."""
    return timezone.now() - timedelta(seconds=lease_seconds())


def claim_start(*, claim_id: int) -> Claim:
    """Take the claim with a conditional UPDATE: queued, or running with a lease that ran out
    (its worker died). Anything else means someone else has it, or it is done. The run's first
    step is the first line the timeline shows of it."""
    now = timezone.now()
    taken = Claim.objects.filter(
        Q(status=ClaimStatus.QUEUED)
        | Q(status=ClaimStatus.RUNNING, updated_at__lt=lease_expired_before()),
        pk=claim_id,
    ).update(
        status=ClaimStatus.RUNNING,
        started_at=now,
        updated_at=now,
        **changed_fields(None, "ClaimCheck started checking it"),
    )
    if taken != 1:
        raise ClaimNotRunnable(f"claim {claim_id} is not waiting to run")
    return Claim.objects.get(pk=claim_id)


def claim_lease_renew(*, claim: Claim) -> bool:
    """Renew the lease of this take of the running claim. False when the take is over: the
    claim ended, or another worker took it (`claim_taken_over` tells which)."""
    kept = Claim.objects.filter(
        pk=claim.pk, status=ClaimStatus.RUNNING, started_at=claim.started_at
    ).update(updated_at=timezone.now())
    return bool(kept)


def claim_taken_over(*, claim: Claim) -> bool:
    """Whether another take of the claim is running now."""
    return (
        Claim.objects.filter(pk=claim.pk, status=ClaimStatus.RUNNING)
        .exclude(started_at=claim.started_at)
        .exists()
    )


def claim_hand_back(
    *, claim_id: int, started_at: datetime | None, why: str = "its worker stopped"
) -> bool:
    """Queue a running claim again because its worker is stopping (or lost the database under
    it: `why`). Only the take that `started_at` names is handed back; the event is written when
    its task is sent again."""
    return bool(
        Claim.objects.filter(pk=claim_id, status=ClaimStatus.RUNNING, started_at=started_at).update(
            status=ClaimStatus.QUEUED,
            updated_at=timezone.now(),
            **changed_fields(None, f"ClaimCheck queued it again: {why}"),
        )
    )


def claim_requeued_after_stop(*, claim_id: int, why: str = "its worker stopped") -> Claim | None:
    """Say on the timeline that a claim is queued again because its worker stopped (its lease
    handed it back, or it never started) or lost the database under it (`why`), and return it
    for its task to be sent again; None when the claim is not queued (another worker has it,
    or it is done)."""
    claim = Claim.objects.filter(pk=claim_id, status=ClaimStatus.QUEUED).first()
    if claim is not None:
        event_record(claim=claim, kind=EventKind.QUEUED, message=f"Queued again: {why}")
    return claim


def claims_requeue_stale(*, queued_before: datetime) -> list[int]:
    """Queue again the claims no worker is moving: running with a lease that ran out (its worker
    died), or queued since before `queued_before` (their task was lost). Returns their ids, for
    the caller to send their tasks again."""
    now = timezone.now()
    expired = lease_expired_before()
    stale = Q(status=ClaimStatus.RUNNING, updated_at__lt=expired) | Q(
        status=ClaimStatus.QUEUED, updated_at__lt=queued_before
    )
    moved: list[int] = []
    for claim_id in list(Claim.objects.filter(stale).values_list("pk", flat=True)):
        # Conditional: a sweep in another worker, or the lease's own renewal, may have won.
        if not Claim.objects.filter(stale, pk=claim_id).update(
            status=ClaimStatus.QUEUED,
            updated_at=now,
            **changed_fields(None, "ClaimCheck queued it again: no worker was moving it"),
        ):
            continue
        logger.warning("claim lost its worker; queued again", extra={"claim_id": claim_id})
        event_record(
            claim=Claim.objects.get(pk=claim_id),
            kind=EventKind.QUEUED,
            message="Queued again: no worker was moving it",
        )
        moved.append(claim_id)
    return moved


def claim_language_set(*, claim: Claim, code: str, confidence: float) -> None:
    """The claim's language, detected when it came in some other way than a submission."""
    Claim.objects.filter(pk=claim.pk).update(language=code, language_confidence=confidence)


@dataclass(frozen=True)
class RunFigures:
    """What the running claim has used and found so far, shown in the queue while it runs."""

    queries: int
    crawls: int
    evidence: int
    support: float
    refute: float


def claim_figures_set(*, claim: Claim, figures: RunFigures) -> None:
    Claim.objects.filter(pk=claim.pk).update(
        queries_used=figures.queries,
        crawls_used=figures.crawls,
        evidence_count=figures.evidence,
        support_total=figures.support,
        refute_total=figures.refute,
        updated_at=timezone.now(),
    )


# --- decided or failed -------------------------------------------------------------------------


@dataclass(frozen=True)
class Confidence:
    """How far an editor can lean on the machine's verdict (`ConfidenceTier`) and why."""

    score: float | None
    tier: str
    note: str


@dataclass(frozen=True)
class ClaimEvent:
    """A line of the timeline that the caller words (the engine knows what its verdict says)."""

    kind: str
    message: str
    payload: dict[str, Any]
    key: str | None = None


@transaction.atomic
def claim_decide(
    *,
    claim: Claim,
    outcome: str,
    support: float,
    refute: float,
    confidence: Confidence,
    event: ClaimEvent,
) -> None:
    """The machine's verdict: the claim is decided with its outcome, totals and confidence."""
    fields = outcome_fields(
        outcome=outcome,
        proposed=outcome,
        status=ClaimStatus.DECIDED,
        decided_at=timezone.now(),
        support_total=support,
        refute_total=refute,
        fact_check_score=confidence.score,
        fact_check_tier=confidence.tier,
        fact_check_note=confidence.note,
        error="",
    )
    label = Outcome(outcome).label if outcome in Outcome.values else outcome
    Claim.objects.filter(pk=claim.pk).update(
        **fields, **changed_fields(None, f"ClaimCheck decided it: {label}")
    )
    event_record(
        claim=claim, kind=event.kind, message=event.message, payload=event.payload, key=event.key
    )


@transaction.atomic
def claim_fail(*, claim: Claim, error: str, event: ClaimEvent) -> None:
    # One transaction: a reader never sees the failed status without the error step.
    Claim.objects.filter(pk=claim.pk).update(
        status=ClaimStatus.FAILED,
        error=error[:2000],
        **changed_fields(None, "ClaimCheck could not check it"),
    )
    event_record(
        claim=claim, kind=event.kind, message=event.message, payload=event.payload, key=event.key
    )
