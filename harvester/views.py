from __future__ import annotations

from django.core.paginator import Paginator
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render

from claimcheck.roles import editor_required
from harvester.models import SearchRun


@editor_required
def search_run_list(request: HttpRequest) -> HttpResponse:
    q = request.GET.get("q", "").strip()
    runs = SearchRun.objects.order_by("-run_timestamp", "-id")
    if q:
        runs = runs.filter(query__icontains=q)
    page = Paginator(runs, 50).get_page(request.GET.get("page"))
    return render(
        request, "harvester/search_run_list.html", {"nav": "search_runs", "page": page, "q": q}
    )
