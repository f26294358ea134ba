"""Entity alias admin: search and filter the table, add an alias, edit a row in place, remove
one, import a CSV file after a preview, export. Admins only; every change goes through
registry.services.aliases, which validates it and tells the entity lookup to reload."""

from __future__ import annotations

from django.http import HttpResponse
from django.views.decorators.http import require_GET, require_http_methods, require_POST

from claimcheck.errors import ApplicationError
from claimcheck.roles import AuthenticatedHttpRequest, admin_required
from registry import selectors
from registry.forms import AliasFilterForm, AliasForm, AliasImportForm
from registry.models import EntityAlias, EntityKind
from registry.services import (
    AliasError,
    AliasExists,
    alias_create,
    alias_delete,
    alias_update,
    aliases_export,
    aliases_import,
)
from registry.views.common import (
    Table,
    add_row,
    csv_download,
    edit_row,
    import_page,
    list_page,
    removed,
    row_or_list,
)

ALIASES = Table[EntityAlias](nav="aliases", noun="alias", label="alias", refused=AliasError)


def _list_page(
    request: AuthenticatedHttpRequest,
    *,
    add_form: AliasForm | None = None,
    clash: EntityAlias | None = None,
    status: int = 200,
) -> HttpResponse:
    return list_page(
        request,
        ALIASES,
        form=AliasFilterForm(request.GET or None),
        rows=lambda filters: selectors.alias_list(search=filters["q"], kind=filters["kind"]),
        add_form=add_form or AliasForm(prefix="new"),
        add_open=add_form is not None,
        status=status,
        kinds=EntityKind.choices,
        clash=clash,
    )


@admin_required
@require_GET
def alias_list(request: AuthenticatedHttpRequest) -> HttpResponse:
    return _list_page(request)


@admin_required
@require_http_methods(["GET", "POST"])
def alias_add(request: AuthenticatedHttpRequest) -> HttpResponse:
    """GET (a bookmark, a reload after adding) shows the list with its add form open."""
    if request.method == "GET":
        return _list_page(request, add_form=AliasForm(prefix="new"))
    form = AliasForm(request.POST, prefix="new")

    def again(refusal: ApplicationError | None) -> HttpResponse:
        # A spelling the table has already: show that alias, to edit it instead.
        clash = refusal.existing if isinstance(refusal, AliasExists) else None
        return _list_page(request, add_form=form, clash=clash, status=422)

    return add_row(
        request,
        ALIASES,
        form,
        save=lambda data: alias_create(user=request.user, via="web", **data),
        added=lambda item: f"{item.alias} added as an alias of {item.name}.",
        again=again,
    )


@admin_required
@require_http_methods(["GET", "POST"])
def alias_edit(request: AuthenticatedHttpRequest, pk: int) -> HttpResponse:
    item = selectors.alias_get(pk=pk)
    return edit_row(
        request,
        ALIASES,
        item,
        AliasForm,
        save=lambda data: alias_update(item=item, user=request.user, via="web", **data),
    )


@admin_required
@require_GET
def alias_row(request: AuthenticatedHttpRequest, pk: int) -> HttpResponse:
    return row_or_list(request, ALIASES, selectors.alias_get(pk=pk))


@admin_required
@require_POST
def alias_remove(request: AuthenticatedHttpRequest, pk: int) -> HttpResponse:
    item = selectors.alias_get(pk=pk)
    alias, name = item.alias, item.name
    alias_delete(item=item, user=request.user, via="web")
    return removed(request, ALIASES, f"{alias} removed; it no longer stands for {name}.")


@admin_required
@require_http_methods(["GET", "POST"])
def alias_import(request: AuthenticatedHttpRequest) -> HttpResponse:
    def apply(text: str) -> tuple[int, int]:
        result = aliases_import(text=text, user=request.user)
        return result.created, result.updated

    return import_page(
        request,
        ALIASES,
        AliasImportForm(request.POST or None, request.FILES or None),
        apply=apply,
        done="aliases",
    )


@admin_required
@require_GET
def alias_export(request: AuthenticatedHttpRequest) -> HttpResponse:
    return csv_download(aliases_export(), "aliases.csv")
