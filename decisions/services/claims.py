"""Claim actions: submit (one or a batch) and re-run.

Each action validates first and changes nothing on bad input; each state change people audit is
one atomic function that writes its event row with the acting user.
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any

from django.contrib.auth.models import User
from django.db import transaction
from django.utils import timezone

from claimcheck.config import get_config
from claimcheck.daterange import RANGE_MESSAGE, date_in_range
from claimcheck.language import detect_language
from claims.errors import StaleClaim
from claims.models import (
    CLAIM_MAX_CHARS,
    Claim,
    ClaimOrigin,
    ClaimStatus,
    EventKind,
    claim_hash,
)
from claims.services import claim_create, claim_rerun_reset, claim_state, event_record
from decisions.errors import (
    UNSEARCHABLE,
    BatchError,
    BatchProblem,
    ClaimError,
    QueueUnavailableError,
)
from decisions.similar import claim_index, restatement_record
from decisions.timeframe import parse_timeframe
from harvester.services import RewriteInvalid, deterministic_rewrite

logger = logging.getLogger(__name__)

CHANNEL_MAX_CHARS = 200
BATCH_MAX_CLAIMS = 200


@dataclass(frozen=True)
class ClaimInput:
    text: str
    timeframe_start: datetime | None
    timeframe_end: datetime | None
    timeframe_source: str
    source_channel: str


def claim_validate(
    *,
    text: str,
    timeframe_start: datetime | None = None,
    timeframe_end: datetime | None = None,
    source_channel: str = "",
) -> ClaimInput:
    cleaned = " ".join((text or "").split())
    if not cleaned:
        raise ClaimError("the claim is empty")
    if len(cleaned) > CLAIM_MAX_CHARS:
        raise ClaimError(f"the claim is {len(cleaned)} characters; at most {CLAIM_MAX_CHARS}")
    channel = (source_channel or "").strip()
    if len(channel) > CHANNEL_MAX_CHARS:
        raise ClaimError(
            f"the channel is over {CHANNEL_MAX_CHARS} characters", field="source_channel"
        )
    for name, value in (("timeframe_start", timeframe_start), ("timeframe_end", timeframe_end)):
        if value is not None and timezone.is_naive(value):
            raise ClaimError("give the time with a timezone (or a plain date)", field=name)
        if value is not None and not date_in_range(value):
            raise ClaimError(RANGE_MESSAGE, field=name)
    if timeframe_start and timeframe_end and timeframe_start > timeframe_end:
        raise ClaimError("the timeframe ends before it starts", field="timeframe_end")
    try:
        deterministic_rewrite(cleaned)
    except RewriteInvalid:
        raise ClaimError(
            "the claim has no words to search for; write it as a statement with names, things"
            " or numbers, e.g. “Veltria Motors opened a battery plant in Karsfeld”",
            code=UNSEARCHABLE,
        ) from None
    source = "given" if (timeframe_start or timeframe_end) else ""
    if not source and (parsed := parse_timeframe(cleaned)):
        timeframe_start, timeframe_end = parsed
        source = "text"
    return ClaimInput(cleaned, timeframe_start, timeframe_end, source, channel)


def _existing(claim_input: ClaimInput) -> Claim | None:
    window = get_config().budgets.dedupe_window_hours
    if window <= 0:
        return None
    return (
        Claim.objects.filter(
            normalized_hash=claim_hash(claim_input.text),
            source_channel=claim_input.source_channel,
            timeframe_start=claim_input.timeframe_start,
            timeframe_end=claim_input.timeframe_end,
            created_at__gte=timezone.now() - timedelta(hours=window),
        )
        .order_by("-created_at")
        .first()
    )


def queue_check() -> None:
    """Ask the broker whether it takes work before a claim is stored: a claim stored without a
    task would wait for the sweeper, and the client would see a 500 for a row that exists."""
    from django_q.brokers import get_broker
    from django_q.conf import Conf

    if Conf.SYNC:
        return
    try:
        alive = bool(get_broker().ping())
    except Exception as exc:  # each broker raises its own client's errors
        logger.error("task queue unreachable", extra={"error": f"{type(exc).__name__}: {exc}"})
        raise QueueUnavailableError() from exc
    if not alive:
        raise QueueUnavailableError()


def _send(claim_id: int) -> None:
    from django_q.tasks import async_task

    try:
        async_task("decisions.tasks.claim_run", claim_id, task_name=f"claim-{claim_id}")
    except Exception as exc:  # each broker raises its own client's errors
        # The queue answered a moment ago and the claim is committed: it stays queued, and the
        # sweeper hands it out again. Say so on its timeline rather than fail the request.
        logger.error(
            "task queue failed after the claim was stored",
            extra={"claim": claim_id, "error": f"{type(exc).__name__}: {exc}"},
        )
        event_record(
            claim=Claim.objects.get(pk=claim_id),
            kind=EventKind.ERROR,
            message="The task queue was unreachable; the claim waits for the sweeper",
        )


def claim_enqueue(claim: Claim) -> None:
    """Queue the pipeline once the current transaction commits (never for a rolled-back claim)."""
    claim_id = claim.pk
    transaction.on_commit(lambda: _send(claim_id))


def _create(
    claim_input: ClaimInput,
    user: User | None,
    *,
    enqueue: bool = True,
    origin: str = ClaimOrigin.DESK,
) -> Claim:
    language = detect_language(claim_input.text)
    claim = claim_create(
        text=claim_input.text,
        language=language.code,
        language_confidence=language.confidence if language.known else None,
        timeframe_start=claim_input.timeframe_start,
        timeframe_end=claim_input.timeframe_end,
        timeframe_source=claim_input.timeframe_source,
        source_channel=claim_input.source_channel,
        origin=origin,
        created_by=user if getattr(user, "is_authenticated", False) else None,
    )
    # Matchable at once, before any worker has run it, and grouped with what it restates.
    claim_index(claim)
    restatement_record(claim)
    if enqueue:
        claim_enqueue(claim)
    return claim


@transaction.atomic
def claim_submit(
    *,
    text: str,
    timeframe_start: datetime | None = None,
    timeframe_end: datetime | None = None,
    source_channel: str = "",
    user: User | None = None,
    enqueue: bool = True,
    origin: str = ClaimOrigin.DESK,
) -> tuple[Claim, bool]:
    """Validate and store a claim, queueing its check. An identical claim from the same channel
    within the dedupe window returns the existing one (created is False). `origin` says where
    it was submitted (`ClaimOrigin`): a command line's claims stay out of the editors' queue."""
    claim_input = claim_validate(
        text=text,
        timeframe_start=timeframe_start,
        timeframe_end=timeframe_end,
        source_channel=source_channel,
    )
    if (existing := _existing(claim_input)) is not None:
        return existing, False
    if enqueue:
        queue_check()
    return _create(claim_input, user, enqueue=enqueue, origin=origin), True


@transaction.atomic
def claims_submit_many(
    *, items: list[tuple[int, dict[str, Any]]], user: User | None = None
) -> list[tuple[Claim, bool]]:
    """All or nothing: every item becomes a claim (or returns its recent duplicate), or none
    does and each bad item is reported with its number and reason. Items are (number, fields)
    pairs so that a pasted batch can report its own line numbers."""
    if len(items) > BATCH_MAX_CLAIMS:
        message = f"{len(items)} claims given; at most {BATCH_MAX_CLAIMS} at once"
        raise BatchError([BatchProblem(items[BATCH_MAX_CLAIMS][0], "", message, field="")])
    inputs: list[ClaimInput] = []
    problems: list[BatchProblem] = []
    for number, fields in items:
        try:
            inputs.append(claim_validate(**fields))
        except ClaimError as exc:
            text = str(fields.get("text", ""))[:120]
            problems.append(BatchProblem(number, text, exc.message, exc.code, exc.field))
    if problems:
        raise BatchError(problems)
    if not inputs:
        raise BatchError([BatchProblem(1, "", "there is no claim to check")])
    queue_check()
    results = []
    for claim_input in inputs:
        existing = _existing(claim_input)
        results.append((existing, False) if existing else (_create(claim_input, user), True))
    return results


def claims_submit_batch(
    *, lines: list[str], source_channel: str = "", user: User | None = None
) -> list[tuple[Claim, bool]]:
    """A pasted batch: one claim per non-blank line, all or nothing."""
    items = [
        (number, {"text": line, "source_channel": source_channel})
        for number, line in enumerate(lines, start=1)
        if line.strip()
    ]
    return claims_submit_many(items=items, user=user)


@transaction.atomic
def claim_rerun(*, claim: Claim, user: User | None, expected_version: int | None = None) -> Claim:
    """Queue a fresh run. Earlier verdicts, overrides, runs and evidence stay in the history.
    With `expected_version`, only if the claim is still at the version its editor saw."""
    # Refused before the queue is asked; `claim_rerun_reset` checks again under its lock.
    current = Claim.objects.get(pk=claim.pk)
    if expected_version is not None and current.version != expected_version:
        raise StaleClaim(claim_state(claim_id=claim.pk))
    if current.status in (ClaimStatus.QUEUED, ClaimStatus.RUNNING):
        raise ClaimError("the claim is already being checked", field="status")
    queue_check()
    locked = claim_rerun_reset(claim=claim, user=user, expected_version=expected_version)
    claim_enqueue(locked)
    return locked


BULK_MAX = 200


@dataclass(frozen=True)
class BulkResult:
    """What an action on many claims did: how many it did, how many their state refused
    (`skipped`), and which had changed since the editor saw them (`stale`, left alone)."""

    done: int
    skipped: int
    stale: tuple[int, ...] = ()


def bulk_run(
    ids: list[int], act: Callable[[Claim, int | None], object], versions: Mapping[int, int]
) -> BulkResult:
    """`act` on each claim of `ids` (at most BULK_MAX, in order) with the version its editor
    saw, if known: a claim whose state refuses it is skipped, one that changed is stale."""
    ids = list(dict.fromkeys(ids))[:BULK_MAX]
    done, stale = 0, []
    for claim in Claim.objects.filter(pk__in=ids).order_by("pk"):
        try:
            act(claim, versions.get(claim.pk))
        except StaleClaim:
            stale.append(claim.pk)
        except ClaimError:
            continue  # refused by its state: counted as skipped below
        else:
            done += 1
    return BulkResult(done=done, skipped=len(ids) - done - len(stale), stale=tuple(stale))


def claims_rerun_many(
    *, claim_ids: list[int], user: User | None, versions: Mapping[int, int] | None = None
) -> BulkResult:
    """Queue a fresh run of each claim not being checked now; the others are skipped."""
    return bulk_run(
        claim_ids,
        lambda claim, version: claim_rerun(claim=claim, user=user, expected_version=version),
        versions or {},
    )
