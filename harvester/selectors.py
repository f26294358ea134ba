"""Reads of search runs: for the API and the HTML pages, and for the rest of ClaimCheck (the
claim pipeline, the dashboard, the evaluation), which reads search results only through here."""

from __future__ import annotations

from datetime import date, datetime, time, timedelta
from typing import Any

from django.contrib.auth.models import User
from django.db.models import Count, Prefetch, QuerySet
from django.utils import timezone

from claimcheck.errors import NotFound
from claimcheck.roles import require_editor
from claims.models import Claim
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


def processed_results(*, run: SearchRun, limit: int | None = None) -> list[ProcessedResult]:
    """What downstream steps read: the merged list of a run, best first (the first `limit`)."""
    rows = run.processed_results.order_by("-confidence", "best_rank", "id")
    return list(rows if limit is None else rows[:limit])


def provider_counts(*, run: SearchRun) -> dict[str, int]:
    """URLs each provider returned in this run (from its recorded metrics)."""
    return {
        name: int(metrics.get("count", 0))
        for name, metrics in (run.provider_metrics or {}).items()
        if metrics.get("status") == "ok"
    }


def search_runs_of_claim(*, claim: Claim, after_attempt: int = 0) -> list[SearchRun]:
    """A claim's runs after attempt `after_attempt` (the runs of its current pass), in order."""
    return list(
        SearchRun.objects.filter(claim=claim, attempt__gt=after_attempt).order_by("attempt")
    )


def result_urls_of_claim(*, claim: Claim) -> list[str]:
    """The URL of every processed result of every run of a claim, as stored (repeats kept)."""
    return list(ProcessedResult.objects.filter(run__claim=claim).values_list("url", flat=True))


def recent_provider_metrics(
    *, limit: int, since: datetime | None = None
) -> list[dict[str, Any] | None]:
    """The provider metrics of the newest `limit` runs (those since `since`), newest first."""
    runs = SearchRun.objects.order_by("-run_timestamp")
    if since is not None:
        runs = runs.filter(run_timestamp__gte=since)
    return list(runs.values_list("provider_metrics", flat=True)[:limit])


def result_agreement(*, since: datetime) -> list[tuple[int, int]]:
    """(providers agreeing on a URL, processed results) for the runs since `since`."""
    rows = (
        ProcessedResult.objects.filter(run__run_timestamp__gte=since)
        .values_list("confidence")
        .annotate(n=Count("id"))
        .order_by("confidence")
    )
    return [(int(confidence), int(n)) for confidence, n in rows]
