"""How often the editors agreed with ClaimCheck: over the claims an editor reviewed (kept, or
overridden), ClaimCheck's proposal for the run they reviewed against the outcome they left.

An editor's review is the closest thing the desk has to a label, so these are also the figures
the proposals are judged by where it matters: precision (how often a True or False proposal was
kept) beside coverage (how many reviewed claims got a True or False proposal at all). An Invalid
proposal proposes nothing, so it counts toward coverage, never toward precision."""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass
from datetime import date, datetime, timedelta

from django.db.models import F
from django.utils import timezone

from claims.models import ClaimStatus, Outcome
from decisions.models import Verdict

DECIDING = (Outcome.TRUE, Outcome.FALSE)


@dataclass(frozen=True)
class Tally:
    """Reviewed claims and how many of them the editor left at ClaimCheck's proposal."""

    label: str
    reviewed: int
    agreed: int

    @property
    def pct(self) -> float:
        return 100.0 * self.agreed / self.reviewed if self.reviewed else 0.0


@dataclass(frozen=True)
class EditorAgreement:
    overall: Tally
    by_outcome: list[Tally]
    """By ClaimCheck's proposal: True, False, Invalid."""
    by_week: list[Tally]
    """The last weeks, oldest first, by the week the review was made (Monday to Sunday)."""
    proposed: int
    """Reviewed claims whose proposal was True or False."""
    proposed_kept: int

    @property
    def precision(self) -> float | None:
        return self.proposed_kept / self.proposed if self.proposed else None

    @property
    def coverage(self) -> float | None:
        return self.proposed / self.overall.reviewed if self.overall.reviewed else None


def _monday(moment: datetime) -> date:
    day = timezone.localtime(moment).date()
    return day - timedelta(days=day.weekday())


def editor_agreement(*, weeks: int = 8) -> EditorAgreement:
    """The agreement over every reviewed claim, and week by week over the last `weeks`. One
    query: each reviewed claim's current verdict, with the claim's outcome as the editor left it."""
    rows = Verdict.objects.filter(
        run_number=F("claim__run_number"),
        claim__status=ClaimStatus.DECIDED,
        claim__reviewed_at__isnull=False,
    ).values_list("outcome", "claim__outcome", "claim__reviewed_at")
    first_week = _monday(timezone.now()) - timedelta(weeks=weeks - 1)
    overall = [0, 0]
    by_outcome: dict[str, list[int]] = defaultdict(lambda: [0, 0])
    by_week: dict[date, list[int]] = defaultdict(lambda: [0, 0])
    proposed = proposed_kept = 0
    for proposal, left, reviewed_at in rows:
        agreed = int(proposal == left)
        overall[0] += 1
        overall[1] += agreed
        by_outcome[proposal][0] += 1
        by_outcome[proposal][1] += agreed
        week = _monday(reviewed_at) if reviewed_at is not None else None
        if week is not None and week >= first_week:
            by_week[week][0] += 1
            by_week[week][1] += agreed
        if proposal in DECIDING:
            proposed += 1
            proposed_kept += agreed
    return EditorAgreement(
        overall=Tally("all", *overall),
        by_outcome=[
            Tally(Outcome(outcome).label, *by_outcome[outcome])
            for outcome in (Outcome.TRUE, Outcome.FALSE, Outcome.INVALID)
        ],
        by_week=[
            Tally(f"week of {week:%-d %b}", *by_week[week])
            for week in (first_week + timedelta(weeks=n) for n in range(weeks))
        ],
        proposed=proposed,
        proposed_kept=proposed_kept,
    )
