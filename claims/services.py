"""Every change of a claim's state, and the event each one writes on the claim's timeline.

A claim is queued (`claim_create`, `claim_rerun_reset`), taken by a worker (`claim_start`), kept
alive while it runs (`claim_lease_renew`) or handed back (`claim_hand_back`,
`claims_requeue_stale`), and ends decided (`claim_decide`) or failed (`claim_fail`). An editor
then takes it (`claim_take`), lets it go (`claim_release`), keeps its verdict
(`claim_mark_reviewed`) or changes its outcome (`claim_override`). The machine's verdict and the
editor's override both set the outcome through one function, `_outcome_set`.

Nothing else writes a claim's row: the engine and the desk call these, and the rules of each
change (which state it starts from, what it clears) live here with it.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any

from django.conf import settings
from django.contrib.auth.models import User
from django.db import IntegrityError, transaction
from django.db.models import Max, Q
from django.utils import timezone

from claimcheck.roles import is_admin
from claims.errors import ClaimError, ClaimNotRunnable
from claims.models import Claim, ClaimOrigin, ClaimStatus, EventKind, Outcome, PipelineEvent

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
    )
    event_record(claim=claim, kind=EventKind.QUEUED, message="Claim queued for checking")
    return claim


@transaction.atomic
def claim_rerun_reset(*, claim: Claim, user: User | None) -> Claim:
    """Queue a fresh run of a claim that is not being checked: its next run number, searches
    numbered after the ones it used, and every figure of the last run cleared. Earlier verdicts,
    overrides, runs and evidence stay in the history."""
    locked = Claim.objects.select_for_update().get(pk=claim.pk)
    if locked.status in (ClaimStatus.QUEUED, ClaimStatus.RUNNING):
        raise ClaimError("the claim is already being checked", field="status")
    used = locked.search_runs.count()
    Claim.objects.filter(pk=locked.pk).update(
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
        message=f"Re-run #{locked.run_number} queued by {getattr(user, 'username', 'system')}",
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
    ).update(status=ClaimStatus.RUNNING, started_at=now, updated_at=now)
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


def claim_hand_back(*, claim_id: int, started_at: datetime | None) -> bool:
    """Queue a running claim again because its worker is stopping. Only the take that
    `started_at` names is handed back; the event is written when its task is sent again."""
    return bool(
        Claim.objects.filter(pk=claim_id, status=ClaimStatus.RUNNING, started_at=started_at).update(
            status=ClaimStatus.QUEUED, updated_at=timezone.now()
        )
    )


def claim_requeued_after_stop(*, claim_id: int) -> Claim | None:
    """Say on the timeline that a claim is queued again because its worker stopped (its lease
    handed it back, or it never started), and return it for its task to be sent again; None
    when the claim is not queued (another worker has it, or it is done)."""
    claim = Claim.objects.filter(pk=claim_id, status=ClaimStatus.QUEUED).first()
    if claim is not None:
        event_record(claim=claim, kind=EventKind.QUEUED, message="Queued again: its worker stopped")
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
            status=ClaimStatus.QUEUED, updated_at=now
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


def _outcome_set(*, claim: Claim, outcome: str, proposed: str, **fields: Any) -> None:
    """The one place a claim's outcome changes: `proposed` is the machine's verdict, `outcome`
    what the claim shows (the verdict's own, or an editor's). The claim is overridden exactly
    when they differ."""
    Claim.objects.filter(pk=claim.pk).update(
        outcome=outcome, overridden=outcome != proposed, **fields
    )


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
    _outcome_set(
        claim=claim,
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
    event_record(
        claim=claim, kind=event.kind, message=event.message, payload=event.payload, key=event.key
    )


@transaction.atomic
def claim_fail(*, claim: Claim, error: str, event: ClaimEvent) -> None:
    # One transaction: a reader never sees the failed status without the error step.
    Claim.objects.filter(pk=claim.pk).update(status=ClaimStatus.FAILED, error=error[:2000])
    event_record(
        claim=claim, kind=event.kind, message=event.message, payload=event.payload, key=event.key
    )


# --- reviewed ----------------------------------------------------------------------------------


def claim_override(
    *, claim: Claim, editor: User, to_outcome: str, proposed: str, payload: dict[str, Any]
) -> None:
    """An editor's outcome over the machine's `proposed` one: the claim is reviewed and
    released. Call it inside the transaction that locked the claim and stored the override."""
    from_outcome = claim.outcome or proposed
    _outcome_set(
        claim=claim,
        outcome=to_outcome,
        proposed=proposed,
        reviewed_at=timezone.now(),
        assigned_to=None,
        assigned_at=None,
    )
    event_record(
        claim=claim,
        kind=EventKind.OVERRIDE,
        message=f"{editor.get_username()} changed the outcome from "
        f"{Outcome(from_outcome).label} to {Outcome(to_outcome).label}",
        payload=payload,
    )


@transaction.atomic
def claim_mark_reviewed(*, claim: Claim, editor: User) -> None:
    """The editor read the verdict and keeps it. One atomic action: the claim is marked reviewed
    and released, and its review row names the editor, or neither happens."""
    locked = Claim.objects.select_for_update().get(pk=claim.pk)
    if locked.status != ClaimStatus.DECIDED:
        raise ClaimError("only a decided claim can be reviewed", field="status")
    # Reviewing releases the claim: nobody needs to hold it any more.
    Claim.objects.filter(pk=locked.pk).update(
        reviewed_at=timezone.now(), assigned_to=None, assigned_at=None
    )
    event_record(
        claim=locked,
        kind=EventKind.REVIEW,
        message=f"{editor.get_username()} reviewed the verdict and kept it",
        payload={"kept_by": editor.get_username()},
    )


@transaction.atomic
def claim_take(*, claim: Claim, editor: User) -> Claim:
    """Assign the claim to `editor` for review. A claim another editor holds stays theirs."""
    # Lock the claim row only (PostgreSQL cannot lock the nullable side of the join).
    locked = (
        Claim.objects.select_for_update(of=("self",)).select_related("assigned_to").get(pk=claim.pk)
    )
    if locked.assigned_to_id == editor.pk:
        return locked
    if locked.assigned_to is not None:
        raise ClaimError(
            f"{locked.assigned_to.get_username()} has taken this claim already",
            field="assigned_to",
        )
    if locked.reviewed_at is not None:
        raise ClaimError("this claim has been reviewed already", field="assigned_to")
    now = timezone.now()
    Claim.objects.filter(pk=locked.pk).update(assigned_to=editor, assigned_at=now)
    event_record(
        claim=locked, kind=EventKind.REVIEW, message=f"{editor.get_username()} took the claim"
    )
    locked.assigned_to, locked.assigned_at = editor, now
    return locked


@transaction.atomic
def claim_release(*, claim: Claim, editor: User) -> None:
    """Give the claim back to the pool: its holder can, and so can an admin."""
    locked = Claim.objects.select_for_update().get(pk=claim.pk)
    if locked.assigned_to_id is None:
        return
    if locked.assigned_to_id != editor.pk and not is_admin(editor):
        raise ClaimError("only the editor who took the claim can release it", field="assigned_to")
    Claim.objects.filter(pk=locked.pk).update(assigned_to=None, assigned_at=None)
    event_record(
        claim=locked, kind=EventKind.REVIEW, message=f"{editor.get_username()} released the claim"
    )
