"""Domain admin: search and filter the registry, edit a row in place, add, remove, import a
CSV file after a preview, export. Admins only; every change goes through registry.services,
which records who made it and when."""

from __future__ import annotations

from django.contrib import messages
from django.core.paginator import Paginator
from django.http import HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.views.decorators.http import require_GET, require_http_methods, require_POST

from claimcheck.errors import form_error
from claimcheck.roles import AuthenticatedHttpRequest, admin_required
from registry import selectors
from registry.domains import DomainCsvError, DomainError
from registry.forms import DomainAddForm, DomainEditForm, DomainFilterForm, DomainImportForm
from registry.models import Domain, DomainChange, Tier
from registry.services import (
    domain_create,
    domain_delete,
    domain_update,
    domains_export,
    domains_import,
)
from registry.views.common import csv_download, csv_import_page, htmx_partial

PAGE_SIZE = 100


def _list_page(
    request: AuthenticatedHttpRequest, *, add_form: DomainAddForm | None = None, status: int = 200
) -> HttpResponse:
    form = DomainFilterForm(request.GET or None)
    filters = form.values()
    domains = selectors.domain_list(
        search=filters["q"],
        tier=filters["tier"],
        denied={"allowed": False, "denied": True}.get(filters["access"]),
    )
    page = Paginator(domains, PAGE_SIZE).get_page(request.GET.get("page"))
    context = {
        "nav": "domains",
        "form": form,
        "filters": filters,
        "filtered": any(filters.values()),
        "page": page,
        "tiers": Tier.choices,
        "add_form": add_form or DomainAddForm(prefix="new"),
        "add_open": add_form is not None,
    }
    template = "registry/domain_list.html"
    if htmx_partial(request) and request.method == "GET":
        template += "#results"
    return render(request, template, context, status=status)


@admin_required
@require_GET
def domain_list(request: AuthenticatedHttpRequest) -> HttpResponse:
    return _list_page(request)


@admin_required
@require_POST
def domain_add(request: AuthenticatedHttpRequest) -> HttpResponse:
    form = DomainAddForm(request.POST, prefix="new")
    if form.is_valid():
        data = form.cleaned_data
        try:
            domain = domain_create(
                name=data["name"],
                tier=data["tier"],
                weight_override=data["weight_override"],
                denied=data["denied"],
                note=data["note"],
                user=request.user,
                via="web",
            )
        except DomainError as exc:
            form_error(form, exc)
        else:
            messages.success(request, f"{domain.name} added.")
            return redirect(f"{reverse('domains')}?q={domain.name}")
    return _list_page(request, add_form=form, status=422)


def _row(
    request: AuthenticatedHttpRequest,
    domain: Domain,
    *,
    form: DomainEditForm | None = None,
    status: int = 200,
) -> HttpResponse:
    context = {"domain": domain, "tiers": Tier.choices, "focus": True}
    if form is None:
        return render(request, "registry/domain_list.html#row", context, status=status)
    context["edit_form"] = form
    return render(request, "registry/domain_list.html#row-edit", context, status=status)


@admin_required
@require_http_methods(["GET", "POST"])
def domain_edit(request: AuthenticatedHttpRequest, pk: int) -> HttpResponse:
    """GET: the row as a form (HTMX) or an edit page. POST: save; the row comes back in place,
    or the form with its errors and status 422."""
    domain = selectors.domain_get(key=pk)
    if request.method == "GET":
        form = DomainEditForm.for_domain(domain)
        if htmx_partial(request):
            return _row(request, domain, form=form)
        return render(
            request,
            "registry/domain_edit.html",
            {"nav": "domains", "domain": domain, "edit_form": form},
        )
    form = DomainEditForm(request.POST, prefix=f"d{domain.pk}")
    if form.is_valid():
        data = form.cleaned_data
        try:
            domain = domain_update(
                domain=domain,
                user=request.user,
                tier=data["tier"],
                weight_override=data["weight_override"],
                denied=data["denied"],
                note=data["note"],
                via="web",
            )
        except DomainError as exc:
            form_error(form, exc)
        else:
            if htmx_partial(request):
                return _row(request, domain)
            messages.success(request, f"{domain.name} saved.")
            return redirect(f"{reverse('domains')}?q={domain.name}")
    if htmx_partial(request):
        return _row(request, domain, form=form, status=422)
    return render(
        request,
        "registry/domain_edit.html",
        {"nav": "domains", "domain": domain, "edit_form": form},
        status=422,
    )


@admin_required
@require_GET
def domain_row(request: AuthenticatedHttpRequest, pk: int) -> HttpResponse:
    """The row as it is (the inline edit's Cancel)."""
    domain = selectors.domain_get(key=pk)
    if not htmx_partial(request):
        return redirect(f"{reverse('domains')}?q={domain.name}")
    return _row(request, domain)


@admin_required
@require_POST
def domain_remove(request: AuthenticatedHttpRequest, pk: int) -> HttpResponse:
    domain = selectors.domain_get(key=pk)
    name = domain.name
    domain_delete(domain=domain, user=request.user, via="web")
    messages.success(request, f"{name} removed.")
    if htmx_partial(request):
        # The row is swapped for nothing (removed); the message box comes along out of band.
        return render(request, "base.html#messages", {"oob": True})
    return redirect("domains")


@admin_required
@require_http_methods(["GET", "POST"])
def domain_import(request: AuthenticatedHttpRequest) -> HttpResponse:
    return csv_import_page(
        request,
        DomainImportForm(request.POST or None, request.FILES or None),
        apply=lambda text: domains_import(text=text, user=request.user),
        refused=DomainCsvError,
        template="registry/domain_import.html",
        nav="domains",
        done="domain_changes",
    )


@admin_required
@require_GET
def domain_export(request: AuthenticatedHttpRequest) -> HttpResponse:
    return csv_download(domains_export(), "domains.csv")


@admin_required
@require_GET
def domain_changes(request: AuthenticatedHttpRequest) -> HttpResponse:
    q = request.GET.get("q", "").strip().lower()[:253]
    changes = DomainChange.objects.select_related("user").order_by("-at", "-id")
    if q:
        changes = changes.filter(name__icontains=q)
    page = Paginator(changes, PAGE_SIZE).get_page(request.GET.get("page"))
    return render(request, "registry/domain_changes.html", {"nav": "domains", "page": page, "q": q})
