"""Search runs browser: every query sent to the providers, and what each one answered."""

from __future__ import annotations

from datetime import date

from django.core.paginator import Paginator
from django.http import HttpResponse
from django.shortcuts import render
from django.views.decorators.http import require_GET

from claimcheck.daterange import RANGE_MESSAGE, date_in_range
from claimcheck.roles import AuthenticatedHttpRequest, editor_required
from harvester import selectors
from harvester.marks import results_marked


def _day(raw: str | None) -> date | None:
    """A filter date, or None when absent. Raises ValueError for a date that is not one, or
    that lies outside the accepted range."""
    if not raw:
        return None
    day = date.fromisoformat(raw)
    if not date_in_range(day):
        raise ValueError(RANGE_MESSAGE)
    return day


@editor_required
@require_GET
def search_run_list(request: AuthenticatedHttpRequest) -> HttpResponse:
    q = request.GET.get("q", "").strip()[:200]
    dates: dict[str, date | None] = {}
    problems = []
    for name in ("from", "to"):
        try:
            dates[name] = _day(request.GET.get(name))
        except ValueError:
            # A bad filter is left out and answered 422 with its reason, never a crash.
            dates[name] = None
            problems.append(f"“{name}” must be a date (YYYY-MM-DD); {RANGE_MESSAGE}.")
    date_from, date_to = dates["from"], dates["to"]
    runs = selectors.search_run_list(query=q, date_from=date_from, date_to=date_to)
    page = Paginator(runs.select_related("claim"), 50).get_page(request.GET.get("page"))
    htmx = getattr(request, "htmx", None)
    template = "harvester/search_run_list.html"
    if htmx and not htmx.history_restore_request:
        template += "#results"
    return render(
        request,
        template,
        {
            "nav": "search_runs",
            "page": page,
            "q": q,
            "date_from": date_from,
            "date_to": date_to,
            "filtered": bool(q or date_from or date_to),
            "problems": problems,
        },
        status=422 if problems else 200,
    )


@editor_required
@require_GET
def search_run_detail(request: AuthenticatedHttpRequest, pk: int) -> HttpResponse:
    run = selectors.search_run_for_editor(user=request.user, run_id=pk)
    metrics = sorted((run.provider_metrics or {}).items())
    return render(
        request,
        "harvester/search_run_detail.html",
        {
            "nav": "search_runs",
            "run": run,
            "metrics": metrics,
            "results": results_marked(run.processed_results.all()),
            "errors": (run.config or {}).get("errors", {}),
            "counts": selectors.provider_counts(run=run),
        },
    )
