"""Reads of claims: the queue and its live state, a claim looked up (with the role check),
the claims another channel reported too, a claim's history for the API, the review order."""

from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import UTC, date, datetime, time, timedelta
from typing import Any

from django.contrib.auth.models import User
from django.db.models import (
    Case,
    Count,
    Exists,
    F,
    Max,
    OuterRef,
    Q,
    QuerySet,
    Subquery,
    Value,
    When,
)
from django.db.models.functions import Coalesce

from claimcheck.errors import NotFound
from claimcheck.roles import require_editor, require_viewer
from claims.models import (
    Claim,
    ClaimOrigin,
    ClaimStatus,
    Outcome,
    PipelineEvent,
    claim_fingerprint,
    claim_tokens,
)
from decisions.models import ClaimRestatement, Override, SavedQueue, Verdict, VerdictReason
from desk.selectors.verdict_card import VerdictCard, verdict_card
from evidence.models import Evidence, FactCheckMatch, Stance

_TERMS = re.compile(r'"([^"]+)"|(\S+)')


def _search_terms(q: str) -> list[str]:
    """Words of a search, with "quoted phrases" kept whole; every term must match."""
    return [phrase or word for phrase, word in _TERMS.findall(q) if (phrase or word).strip()][:8]


# ClaimCheck's confidence describes its own proposal: an overridden claim shows none, and sorts
# with the claims that have none yet.
_CONFIDENCE = Case(When(overridden=True, then=Value(None)), default=F("fact_check_score"))

# The queue's orders: a column's key, "-" in front for the other way; ties go newest first.
QUEUE_SORTS: dict[str, tuple[Any, ...]] = {
    "-created": (F("created_at").desc(), F("id").desc()),
    "created": (F("created_at").asc(), F("id").asc()),
    "-support": (F("support_total").desc(),),
    "support": (F("support_total").asc(),),
    "-refute": (F("refute_total").desc(),),
    "refute": (F("refute_total").asc(),),
    "-confidence": (_CONFIDENCE.desc(nulls_last=True),),
    "confidence": (_CONFIDENCE.asc(nulls_last=True),),
    "outcome": (F("outcome").asc(),),
    "-outcome": (F("outcome").desc(),),
    "channel": (F("source_channel").asc(),),
    "-channel": (F("source_channel").desc(),),
}
QUEUE_SORT_DEFAULT = "-created"


def claim_queue(
    *,
    status: str = "",
    outcome: str = "",
    q: str = "",
    created_from: date | None = None,
    created_to: date | None = None,
    overridden: str = "",
    needs_review: bool = False,
    channel: str = "",
    assigned_to: int | None = None,
    cli: bool = True,
    group: bool = False,
    sort: str = QUEUE_SORT_DEFAULT,
) -> QuerySet[Claim]:
    """Claims in the order `sort` names (`QUEUE_SORTS`; newest first by default), each with
    `leaning` (its current verdict leans, below the agreement score). `overridden` is "yes",
    "no" or "" (either); `needs_review` keeps decided claims no editor has reviewed yet; `cli`
    False leaves out the claims checked at a command line (`manage.py verify`); `group` shows
    only the first claim of each group of restatements, with how many restate it
    (`restatement_count`)."""
    leaning = Verdict.objects.filter(
        claim=OuterRef("pk"), run_number=OuterRef("run_number"), reason=VerdictReason.LEANING
    )
    claims = Claim.objects.annotate(leaning=Exists(leaning))
    if status in ClaimStatus.values:
        claims = claims.filter(status=status)
    if outcome in Outcome.values:
        claims = claims.filter(outcome=outcome)
    for term in _search_terms(q):
        claims = claims.filter(text__icontains=term)
    if created_from:
        claims = claims.filter(created_at__gte=datetime.combine(created_from, time.min, tzinfo=UTC))
    if created_to:
        claims = claims.filter(created_at__lte=datetime.combine(created_to, time.max, tzinfo=UTC))
    if overridden in ("yes", "no"):
        claims = claims.filter(overridden=overridden == "yes")
    if needs_review:
        claims = claims.filter(status=ClaimStatus.DECIDED, reviewed_at__isnull=True)
    if channel:
        claims = claims.filter(source_channel=channel)
    if assigned_to is not None:
        claims = claims.filter(assigned_to_id=assigned_to)
    if not cli:
        claims = claims.exclude(origin=ClaimOrigin.CLI)
    if group:
        restating = ClaimRestatement.objects.filter(claim=OuterRef("pk"))
        count = (
            ClaimRestatement.objects.filter(of=OuterRef("pk"))
            .order_by()
            .values("of")
            .annotate(n=Count("id"))
            .values("n")
        )
        claims = claims.exclude(Exists(restating)).annotate(
            restatement_count=Coalesce(Subquery(count), 0)
        )
    order = QUEUE_SORTS.get(sort, QUEUE_SORTS[QUEUE_SORT_DEFAULT])
    return claims.select_related("assigned_to", "changed_by").order_by(*order, "-created_at", "-id")


def claim_get(*, claim_id: int, with_people: bool = False) -> Claim:
    """The claim, or `NotFound`, with who made its last change. `with_people` joins who
    submitted it and who holds it too."""
    claims = Claim.objects.select_related("changed_by")
    if with_people:
        claims = claims.select_related("created_by", "assigned_to")
    claim = claims.filter(pk=claim_id).first()
    if claim is None:
        raise NotFound(f"no claim {claim_id}")
    return claim


def claim_for_viewer(*, user: User, claim_id: int, with_people: bool = False) -> Claim:
    """The claim, looked up for a user who may read the desk: `Forbidden` before `NotFound`."""
    require_viewer(user)
    return claim_get(claim_id=claim_id, with_people=with_people)


def claim_for_editor(*, user: User, claim_id: int, with_people: bool = False) -> Claim:
    """The claim, looked up for a user who must be an editor: `Forbidden` before `NotFound`, so
    that an outsider learns nothing of which claims exist."""
    require_editor(user)
    return claim_get(claim_id=claim_id, with_people=with_people)


def also_reported_by(*, claim: Claim, days: int = 7, threshold: float = 0.8) -> list[Claim]:
    """Claims from other channels that say the same thing: the same content
    words, or nearly (Jaccard similarity of content words at or above `threshold`)."""
    window = (claim.created_at - timedelta(days=days), claim.created_at + timedelta(days=days))
    nearby = Claim.objects.exclude(pk=claim.pk).filter(created_at__range=window)
    same = list(nearby.filter(fingerprint=claim.fingerprint or claim_fingerprint(claim.text)))
    mine = claim_tokens(claim.text)
    if mine:
        for other in nearby.exclude(pk__in=[c.pk for c in same]).only(
            "id", "text", "source_channel", "created_at", "outcome", "status"
        )[:2000]:
            theirs = claim_tokens(other.text)
            if theirs and len(mine & theirs) / len(mine | theirs) >= threshold:
                same.append(other)
    others = [
        c for c in same if c.source_channel != claim.source_channel or not claim.source_channel
    ]
    return sorted(others, key=lambda c: c.created_at)


@dataclass(frozen=True)
class QueueState:
    """What a live queue compares between polls: `token` changes whenever any claim is added or
    changes (every step touches its claim's updated_at); `active` counts queued and running."""

    token: str
    active: int


def queue_state(*, cli: bool = True) -> QueueState:
    """One query. `cli` False leaves out the command line's claims, as the queue does."""
    claims = Claim.objects.all() if cli else Claim.objects.exclude(origin=ClaimOrigin.CLI)
    row = claims.aggregate(
        total=Count("id"),
        latest=Max("updated_at"),
        active=Count("id", filter=Q(status__in=[ClaimStatus.QUEUED, ClaimStatus.RUNNING])),
    )
    latest = round(row["latest"].timestamp() * 1_000_000) if row["latest"] else 0
    return QueueState(token=f"{row['total']}-{latest}", active=int(row["active"] or 0))


def claim_source_counts(*, claims: list[Claim]) -> dict[int, int]:
    """Distinct sources that took a side in each claim's current run, in one query for a page."""
    rows = (
        Evidence.objects.filter(claim__in=[c.pk for c in claims], duplicate_of__isnull=True)
        .filter(attempt__gt=F("claim__attempt_offset"))
        .exclude(stance=Stance.NEUTRAL)
        .values("claim_id")
        .annotate(n=Count("url", distinct=True))
        .order_by()
    )
    return {row["claim_id"]: row["n"] for row in rows}


def proposed_outcomes(*, claims: list[Claim]) -> dict[int, Outcome]:
    """What ClaimCheck proposed for each claim's current run, for the overridden ones among
    `claims` (the others show ClaimCheck's outcome already): one query, none if none is."""
    ids = [claim.pk for claim in claims if claim.overridden]
    if not ids:
        return {}
    rows = Verdict.objects.filter(claim__in=ids, run_number=F("claim__run_number")).values_list(
        "claim_id", "outcome"
    )
    return {claim_id: Outcome(outcome) for claim_id, outcome in rows}


def claim_channels(*, limit: int = 200) -> list[str]:
    return list(
        Claim.objects.exclude(source_channel="")
        .order_by("source_channel")
        .values_list("source_channel", flat=True)
        .distinct()[:limit]
    )


@dataclass(frozen=True)
class ClaimHistory:
    claim: Claim
    verdict: Verdict | None
    verdicts: list[Verdict]
    overrides: list[Override]
    events: list[PipelineEvent]
    fact_checks: list[FactCheckMatch]
    also_reported_by: list[Claim]
    card: VerdictCard | None = None
    """The current run's verdict: ClaimCheck's proposal and the editor's word on it."""


def claim_history(*, claim: Claim) -> ClaimHistory:
    verdicts = list(claim.verdicts.order_by("-run_number", "-decided_at"))
    overrides = list(
        Override.objects.filter(verdict__claim=claim)
        .select_related("editor", "verdict")
        .order_by("-at", "-id")
    )
    events = list(claim.events.order_by("sequence"))
    current = next((v for v in verdicts if v.run_number == claim.run_number), None)
    return ClaimHistory(
        claim=claim,
        verdict=verdicts[0] if verdicts else None,
        verdicts=verdicts,
        overrides=overrides,
        events=events,
        fact_checks=list(claim.fact_checks.all()),
        also_reported_by=also_reported_by(claim=claim),
        card=None
        if current is None
        else verdict_card(claim=claim, verdict=current, overrides=overrides, events=events),
    )


def saved_queue_query(*, user: User) -> str | None:
    """The editor's saved queue as a query string of the Claims page, or None if none is saved
    ("" is the whole queue, newest first)."""
    return SavedQueue.objects.filter(user=user).values_list("query", flat=True).first()


def needs_review_count() -> int:
    return _to_review().count()


# --- review order -------------------------------------------------------------------------------


def _to_review() -> QuerySet[Claim]:
    """Decided claims no editor has reviewed, oldest first: the order "next to review" walks.
    A command line's claims are its own and never wait for an editor."""
    return (
        Claim.objects.filter(status=ClaimStatus.DECIDED, reviewed_at__isnull=True)
        .exclude(origin=ClaimOrigin.CLI)
        .order_by("created_at", "id")
    )


def review_neighbour(*, claim_id: int | None, forward: bool = True) -> Claim | None:
    """The claim to review after (or before) `claim_id` in review order, wrapping around; the
    first one when `claim_id` is None. Never `claim_id` itself."""
    queue = _to_review()
    if claim_id is not None:
        queue = queue.exclude(pk=claim_id)
        current = Claim.objects.filter(pk=claim_id).values("created_at", "id").first()
        if current is not None:
            later = Q(created_at__gt=current["created_at"]) | Q(
                created_at=current["created_at"], id__gt=current["id"]
            )
            if forward:
                found = queue.filter(later).first()
            else:
                found = queue.exclude(later).order_by("-created_at", "-id").first()
            if found is not None:
                return found
    return queue.first() if forward else queue.order_by("-created_at", "-id").first()
