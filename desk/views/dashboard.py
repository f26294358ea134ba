"""The dashboard: the last 30 days as charts with their numbers."""

from __future__ import annotations

from django.http import HttpResponse
from django.shortcuts import render
from django.views.decorators.http import require_GET

from claimcheck.roles import AuthenticatedHttpRequest, viewer_required
from claims.models import ClaimStatus
from desk import charts, selectors


@viewer_required
@require_GET
def dashboard(request: AuthenticatedHttpRequest) -> HttpResponse:
    totals = selectors.dashboard_totals()
    data = selectors.dashboard_data()
    return render(
        request,
        "desk/dashboard.html",
        {
            "nav": "dashboard",
            "totals": totals,
            "in_progress": totals[f"status_{ClaimStatus.QUEUED}"]
            + totals[f"status_{ClaimStatus.RUNNING}"],
            "needs_review": selectors.needs_review_count(),
            "data": data,
            "charts": charts.dashboard_charts(data),
            "replies": selectors.model_reply_repairs(),
        },
    )
