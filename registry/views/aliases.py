"""Entity alias admin: search and filter the table, add an alias, edit a row in place, remove
one, import a CSV file after a preview, export. Admins only; every change goes through
registry.services.aliases, which validates it and tells the entity lookup to reload."""

from __future__ import annotations

from urllib.parse import urlencode

from django.contrib import messages
from django.core.paginator import Paginator
from django.http import HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.views.decorators.http import require_GET, require_http_methods, require_POST

from claimcheck.errors import form_error
from claimcheck.roles import AuthenticatedHttpRequest, admin_required
from registry import selectors
from registry.forms import AliasFilterForm, AliasForm, AliasImportForm
from registry.models import EntityAlias, EntityKind
from registry.services import (
    AliasCsvError,
    AliasError,
    AliasExists,
    alias_create,
    alias_delete,
    alias_update,
    aliases_export,
    aliases_import,
)
from registry.views.common import csv_download, csv_import_page, htmx_partial

PAGE_SIZE = 100


def _found(item: EntityAlias) -> str:
    """The list, searched for one alias."""
    return f"{reverse('aliases')}?{urlencode({'q': item.alias})}"


def _list_page(
    request: AuthenticatedHttpRequest,
    *,
    add_form: AliasForm | None = None,
    clash: EntityAlias | None = None,
    status: int = 200,
) -> HttpResponse:
    form = AliasFilterForm(request.GET or None)
    filters = form.values()
    aliases = selectors.alias_list(search=filters["q"], kind=filters["kind"])
    page = Paginator(aliases, PAGE_SIZE).get_page(request.GET.get("page"))
    context = {
        "nav": "aliases",
        "form": form,
        "filters": filters,
        "filtered": any(filters.values()),
        "page": page,
        "kinds": EntityKind.choices,
        "add_form": add_form or AliasForm(prefix="new"),
        "add_open": add_form is not None,
        "clash": clash,
    }
    template = "registry/alias_list.html"
    if htmx_partial(request) and request.method == "GET":
        template += "#results"
    return render(request, template, context, status=status)


@admin_required
@require_GET
def alias_list(request: AuthenticatedHttpRequest) -> HttpResponse:
    return _list_page(request)


@admin_required
@require_POST
def alias_add(request: AuthenticatedHttpRequest) -> HttpResponse:
    form = AliasForm(request.POST, prefix="new")
    clash = None
    if form.is_valid():
        data = form.cleaned_data
        try:
            item = alias_create(
                name=data["name"],
                alias=data["alias"],
                kind=data["kind"],
                note=data["note"],
                user=request.user,
                via="web",
            )
        except AliasError as exc:
            form_error(form, exc)
            clash = exc.existing if isinstance(exc, AliasExists) else None
        else:
            messages.success(request, f"{item.alias} added as an alias of {item.name}.")
            return redirect(_found(item))
    return _list_page(request, add_form=form, clash=clash, status=422)


def _row(
    request: AuthenticatedHttpRequest,
    item: EntityAlias,
    *,
    form: AliasForm | None = None,
    status: int = 200,
) -> HttpResponse:
    context = {"item": item, "focus": True}
    if form is None:
        return render(request, "registry/alias_list.html#row", context, status=status)
    context["edit_form"] = form
    return render(request, "registry/alias_list.html#row-edit", context, status=status)


def _edit_page(
    request: AuthenticatedHttpRequest, item: EntityAlias, form: AliasForm, *, status: int = 200
) -> HttpResponse:
    return render(
        request,
        "registry/alias_edit.html",
        {"nav": "aliases", "item": item, "edit_form": form},
        status=status,
    )


@admin_required
@require_http_methods(["GET", "POST"])
def alias_edit(request: AuthenticatedHttpRequest, pk: int) -> HttpResponse:
    """GET: the row as a form (HTMX) or an edit page. POST: save; the row comes back in place,
    or the form with its errors and status 422."""
    item = selectors.alias_get(pk=pk)
    if request.method == "GET":
        form = AliasForm.for_alias(item)
        if htmx_partial(request):
            return _row(request, item, form=form)
        return _edit_page(request, item, form)
    form = AliasForm(request.POST, prefix=f"a{item.pk}")
    if form.is_valid():
        data = form.cleaned_data
        try:
            item = alias_update(
                item=item,
                name=data["name"],
                alias=data["alias"],
                kind=data["kind"],
                note=data["note"],
                user=request.user,
                via="web",
            )
        except AliasError as exc:
            form_error(form, exc)
        else:
            if htmx_partial(request):
                return _row(request, item)
            messages.success(request, f"{item.alias} saved.")
            return redirect(_found(item))
    if htmx_partial(request):
        return _row(request, item, form=form, status=422)
    return _edit_page(request, item, form, status=422)


@admin_required
@require_GET
def alias_row(request: AuthenticatedHttpRequest, pk: int) -> HttpResponse:
    """The row as it is (the inline edit's Cancel)."""
    item = selectors.alias_get(pk=pk)
    if not htmx_partial(request):
        return redirect(_found(item))
    return _row(request, item)


@admin_required
@require_POST
def alias_remove(request: AuthenticatedHttpRequest, pk: int) -> HttpResponse:
    item = selectors.alias_get(pk=pk)
    alias, name = item.alias, item.name
    alias_delete(item=item, user=request.user, via="web")
    messages.success(request, f"{alias} removed; it no longer stands for {name}.")
    if htmx_partial(request):
        # The row is swapped for nothing (removed); the message box comes along out of band.
        return render(request, "base.html#messages", {"oob": True})
    return redirect("aliases")


@admin_required
@require_http_methods(["GET", "POST"])
def alias_import(request: AuthenticatedHttpRequest) -> HttpResponse:
    def apply(text: str) -> tuple[int, int]:
        result = aliases_import(text=text, user=request.user)
        return result.created, result.updated

    return csv_import_page(
        request,
        AliasImportForm(request.POST or None, request.FILES or None),
        apply=apply,
        refused=AliasCsvError,
        template="registry/alias_import.html",
        nav="aliases",
        done="aliases",
    )


@admin_required
@require_GET
def alias_export(request: AuthenticatedHttpRequest) -> HttpResponse:
    return csv_download(aliases_export(), "aliases.csv")
