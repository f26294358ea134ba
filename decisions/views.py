"""The review desk: the claim queue and the dashboard."""

from __future__ import annotations

from django.core.paginator import Paginator
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render

from claimcheck.models import ClaimStatus, Outcome
from claimcheck.roles import editor_required
from decisions import selectors


@editor_required
def claim_list(request: HttpRequest) -> HttpResponse:
    filters = {
        "status": request.GET.get("status", ""),
        "outcome": request.GET.get("outcome", ""),
        "q": request.GET.get("q", "").strip(),
    }
    page = Paginator(selectors.claim_queue(**filters), 50).get_page(request.GET.get("page"))
    return render(
        request,
        "decisions/claim_list.html",
        {
            "nav": "claims",
            "page": page,
            "filters": filters,
            "statuses": ClaimStatus.choices,
            "outcomes": Outcome.choices,
        },
    )


@editor_required
def dashboard(request: HttpRequest) -> HttpResponse:
    return render(
        request,
        "decisions/dashboard.html",
        {"nav": "dashboard", "totals": selectors.dashboard_totals()},
    )
