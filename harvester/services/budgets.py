"""Spend budgets: what providers and the LLM have cost today and this month, and whether a
paid provider may still be called."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from decimal import Decimal

from django.db.models import Sum
from django.utils import timezone

from claimcheck.config import PipelineConfig
from claims.models import Claim
from harvester.models import ProviderCall, SearchRun


@dataclass(frozen=True)
class Spend:
    today: Decimal
    month: Decimal


def current_spend(*, now: datetime | None = None) -> Spend:
    """Provider spend (runs) plus LLM spend (claims) for today and this calendar month."""
    now = timezone.localtime(now)
    day_start = now.replace(hour=0, minute=0, second=0, microsecond=0)
    month_start = day_start.replace(day=1)

    def total(since: datetime) -> Decimal:
        runs = SearchRun.objects.filter(run_timestamp__gte=since).aggregate(s=Sum("cost_usd"))
        claims = Claim.objects.filter(created_at__gte=since).aggregate(s=Sum("cost_usd"))
        # Calls sent but never stored in a run: in flight now, or lost with a dead worker.
        unstored = ProviderCall.objects.filter(sent_at__gte=since, run=None).aggregate(
            s=Sum("cost_usd")
        )
        return Decimal(runs["s"] or 0) + Decimal(claims["s"] or 0) + Decimal(unstored["s"] or 0)

    return Spend(today=total(day_start), month=total(month_start))


def budget_exhausted(config: PipelineConfig) -> bool:
    spend = current_spend()
    budgets = config.budgets
    return spend.today >= Decimal(str(budgets.daily_usd)) or spend.month >= Decimal(
        str(budgets.monthly_usd)
    )
