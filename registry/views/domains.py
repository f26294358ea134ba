"""Domain admin: search and filter the registry, edit a row in place, add, remove, import a
CSV file after a preview, export, and read the history. Admins only; every change goes through
registry.services, which records who made it and when."""

from __future__ import annotations

from django.core.paginator import Paginator
from django.http import HttpResponse
from django.shortcuts import render
from django.views.decorators.http import require_GET, require_http_methods, require_POST

from claimcheck.errors import ApplicationError
from claimcheck.roles import AuthenticatedHttpRequest, admin_required
from registry import selectors
from registry.domain_rows import DomainError
from registry.forms import DomainAddForm, DomainEditForm, DomainFilterForm, DomainImportForm
from registry.models import Domain, Tier
from registry.services import (
    domain_create,
    domain_delete,
    domain_update,
    domains_export,
    domains_import,
)
from registry.views.common import (
    PAGE_SIZE,
    Table,
    add_row,
    csv_download,
    edit_row,
    import_page,
    list_page,
    removed,
    row_or_list,
)

DOMAINS = Table[Domain](nav="domains", noun="domain", label="name", refused=DomainError)

_ACCESS = {"allowed": False, "denied": True}


def _list_page(
    request: AuthenticatedHttpRequest, *, add_form: DomainAddForm | None = None, status: int = 200
) -> HttpResponse:
    return list_page(
        request,
        DOMAINS,
        form=DomainFilterForm(request.GET or None),
        rows=lambda filters: selectors.domain_list(
            search=filters["q"], tier=filters["tier"], denied=_ACCESS.get(filters["access"])
        ),
        add_form=add_form or DomainAddForm(prefix="new"),
        add_open=add_form is not None,
        status=status,
        tiers=Tier.choices,
    )


@admin_required
@require_GET
def domain_list(request: AuthenticatedHttpRequest) -> HttpResponse:
    return _list_page(request)


@admin_required
@require_http_methods(["GET", "POST"])
def domain_add(request: AuthenticatedHttpRequest) -> HttpResponse:
    """GET (a bookmark, a reload after adding) shows the list with its add form open."""
    if request.method == "GET":
        return _list_page(request, add_form=DomainAddForm(prefix="new"))
    form = DomainAddForm(request.POST, prefix="new")

    def again(refusal: ApplicationError | None) -> HttpResponse:
        return _list_page(request, add_form=form, status=422)

    return add_row(
        request,
        DOMAINS,
        form,
        save=lambda data: domain_create(user=request.user, via="web", **data),
        added=lambda domain: f"{domain.name} added.",
        again=again,
    )


@admin_required
@require_http_methods(["GET", "POST"])
def domain_edit(request: AuthenticatedHttpRequest, pk: int) -> HttpResponse:
    domain = selectors.domain_get(key=pk)
    return edit_row(
        request,
        DOMAINS,
        domain,
        DomainEditForm,
        save=lambda data: domain_update(domain=domain, user=request.user, via="web", **data),
    )


@admin_required
@require_GET
def domain_row(request: AuthenticatedHttpRequest, pk: int) -> HttpResponse:
    return row_or_list(request, DOMAINS, selectors.domain_get(key=pk))


@admin_required
@require_POST
def domain_remove(request: AuthenticatedHttpRequest, pk: int) -> HttpResponse:
    domain = selectors.domain_get(key=pk)
    name = domain.name
    domain_delete(domain=domain, user=request.user, via="web")
    return removed(request, DOMAINS, f"{name} removed.")


@admin_required
@require_http_methods(["GET", "POST"])
def domain_import(request: AuthenticatedHttpRequest) -> HttpResponse:
    return import_page(
        request,
        DOMAINS,
        DomainImportForm(request.POST or None, request.FILES or None),
        apply=lambda text: domains_import(text=text, user=request.user),
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
    page = Paginator(selectors.domain_changes(search=q), PAGE_SIZE).get_page(
        request.GET.get("page")
    )
    return render(request, "registry/domain_changes.html", {"nav": "domains", "page": page, "q": q})
