"""Search runs browser: every query sent to the providers, and what each one answered."""

from __future__ import annotations

from datetime import date

from django.core.paginator import Paginator
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import render
from django.views.decorators.http import require_GET

from claimcheck.roles import editor_required
from harvester import selectors


def _day(raw: str | None) -> date | None:
    try:
        return date.fromisoformat(raw) if raw else None
    except ValueError:
        return None


@editor_required
@require_GET
def search_run_list(request: HttpRequest) -> HttpResponse:
    q = request.GET.get("q", "").strip()[:200]
    date_from, date_to = _day(request.GET.get("from")), _day(request.GET.get("to"))
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
        },
    )


@editor_required
@require_GET
def search_run_detail(request: HttpRequest, pk: int) -> HttpResponse:
    run = selectors.search_run_detail(run_id=pk)
    if run is None:
        raise Http404("No such search run.")
    metrics = sorted((run.provider_metrics or {}).items())
    return render(
        request,
        "harvester/search_run_detail.html",
        {
            "nav": "search_runs",
            "run": run,
            "metrics": metrics,
            "results": list(run.processed_results.all()),
            "errors": (run.config or {}).get("errors", {}),
            "counts": selectors.provider_counts(run=run),
        },
    )
