"""Reads of search runs for the API and the HTML pages."""

from __future__ import annotations

from datetime import date, datetime, time, timedelta

from django.contrib.auth.models import User
from django.db.models import Count, Prefetch, QuerySet
from django.utils import timezone

from claimcheck.errors import NotFound
from claimcheck.roles import require_editor
from harvester.models import ProcessedResult, SearchRun


def _start_of(day: date) -> datetime:
    return timezone.make_aware(datetime.combine(day, time.min))


def search_run_list(
    *,
    query: str | None = None,
    date_from: date | None = None,
    date_to: date | None = None,
) -> QuerySet[SearchRun]:
    """Runs newest first, optionally filtered by words of the original query and by the day
    range [date_from, date_to] (both inclusive). Each carries `total_unique`."""
    runs = SearchRun.objects.annotate(total_unique=Count("processed_results"))
    if query:
        runs = runs.filter(query__icontains=query.strip())
    if date_from is not None:
        runs = runs.filter(run_timestamp__gte=_start_of(date_from))
    if date_to is not None:
        runs = runs.filter(run_timestamp__lt=_start_of(date_to + timedelta(days=1)))
    return runs.order_by("-run_timestamp", "-id")


def search_run_detail(*, run_id: int) -> SearchRun | None:
    """One run with its processed results (best first) loaded in the same go."""
    return (
        SearchRun.objects.filter(pk=run_id)
        .select_related("claim")
        .prefetch_related(
            Prefetch(
                "processed_results",
                queryset=ProcessedResult.objects.order_by("-confidence", "best_rank", "id"),
            )
        )
        .first()
    )


def search_run_for_editor(*, user: User, run_id: int) -> SearchRun:
    """`search_run_detail` for a user who must be an editor: `Forbidden`, then `NotFound`."""
    require_editor(user)
    run = search_run_detail(run_id=run_id)
    if run is None:
        raise NotFound(f"no search run {run_id}")
    return run


def processed_results(*, run: SearchRun) -> list[ProcessedResult]:
    """What downstream steps read: the merged list of a run, best first."""
    return list(run.processed_results.order_by("-confidence", "best_rank", "id"))


def provider_counts(*, run: SearchRun) -> dict[str, int]:
    """URLs each provider returned in this run (from its recorded metrics)."""
    return {
        name: int(metrics.get("count", 0))
        for name, metrics in (run.provider_metrics or {}).items()
        if metrics.get("status") == "ok"
    }
