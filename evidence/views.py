from __future__ import annotations

from django.core.paginator import Paginator
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render

from claimcheck.roles import admin_required
from evidence.models import Domain, Tier


@admin_required
def domain_list(request: HttpRequest) -> HttpResponse:
    q = request.GET.get("q", "").strip().lower()
    tier = request.GET.get("tier", "")
    domains = Domain.objects.all()
    if q:
        domains = domains.filter(name__icontains=q)
    if tier in Tier.values:
        domains = domains.filter(tier=tier)
    page = Paginator(domains.order_by("name"), 100).get_page(request.GET.get("page"))
    return render(
        request,
        "evidence/domain_list.html",
        {"nav": "domains", "page": page, "q": q, "tier": tier, "tiers": Tier.choices},
    )
