"""What the registry's pages share. Both tables, the domains and the entity aliases, are kept
alike: a list with a search, filters and pages, a form above it to add a row, each row edited
in its place (or on a page of its own without JavaScript) and removed, and the whole table
imported from a CSV file after a preview, or exported. `Table` names what differs; each view
looks its row up, calls its service, and leaves the rest to these helpers."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Generic, TypeVar
from urllib.parse import urlencode

from django.contrib import messages
from django.core.paginator import Paginator
from django.db.models import Model, QuerySet
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse

from claimcheck.errors import ApplicationError, form_error
from claimcheck.forms import DeskForm
from registry.forms import CsvImportForm, FilterForm, RowForm

PAGE_SIZE = 100

RowT = TypeVar("RowT", bound=Model)


@dataclass(frozen=True)
class Table(Generic[RowT]):
    """One of the registry's tables as its pages show it."""

    nav: str
    """The menu entry, and the name of the list's URL."""
    noun: str
    """Its templates are registry/{noun}_list.html (with the partials `results`, `row` and
    `row-edit`), registry/{noun}_edit.html and registry/{noun}_import.html."""
    label: str
    """The field that names a row in messages, and that the list is searched for to show it."""
    refused: type[ApplicationError]
    """The error its services refuse a row with."""

    def name(self, row: RowT) -> str:
        return str(getattr(row, self.label))

    def found(self, row: RowT) -> str:
        """The list, searched for one row."""
        return f"{reverse(self.nav)}?{urlencode({'q': self.name(row)})}"


def htmx_partial(request: HttpRequest) -> bool:
    """Whether to answer with a fragment: an HTMX request, but not a history restore, which
    needs the whole page."""
    htmx = getattr(request, "htmx", None)
    return htmx is not None and bool(htmx) and not htmx.history_restore_request


def list_page(
    request: HttpRequest,
    table: Table[Any],
    *,
    form: FilterForm,
    rows: Callable[[dict[str, str]], QuerySet[Any]],
    add_form: DeskForm,
    add_open: bool = False,
    status: int = 200,
    **context: Any,
) -> HttpResponse:
    """The list as `form` filters it (`rows` reads it), a page at a time, under the form to add
    a row (`add_open` when it comes back with errors); an HTMX search gets the results alone."""
    filters = form.values()
    page = Paginator(rows(filters), PAGE_SIZE).get_page(request.GET.get("page"))
    context |= {
        "nav": table.nav,
        "noun": table.noun,
        "form": form,
        "filters": filters,
        "filtered": any(filters.values()),
        "page": page,
        "add_form": add_form,
        "add_open": add_open,
    }
    template = f"registry/{table.noun}_list.html"
    if htmx_partial(request) and request.method == "GET":
        template += "#results"
    return render(request, template, context, status=status)


def add_row(
    request: HttpRequest,
    table: Table[RowT],
    form: RowForm,
    *,
    save: Callable[[dict[str, Any]], RowT],
    added: Callable[[RowT], str],
    again: Callable[[ApplicationError | None], HttpResponse],
) -> HttpResponse:
    """Add a row from the list's form: then the list searched for it, with `added` as the
    message; or, when the form or the service refuses it, `again` (the list with the form
    open and its errors, given the service's refusal)."""
    refusal = None
    if form.is_valid():
        try:
            row = save(form.cleaned_data)
        except table.refused as exc:
            form_error(form, exc)
            refusal = exc
        else:
            messages.success(request, added(row))
            return redirect(table.found(row))
    return again(refusal)


def row_fragment(
    request: HttpRequest,
    table: Table[RowT],
    row: RowT,
    *,
    form: RowForm | None = None,
    status: int = 200,
) -> HttpResponse:
    """One row of the list, as it is or, with `form`, as its inline edit."""
    context: dict[str, Any] = {"row": row, "focus": True}
    if form is None:
        return render(request, f"registry/{table.noun}_list.html#row", context, status=status)
    context["edit_form"] = form
    return render(request, f"registry/{table.noun}_list.html#row-edit", context, status=status)


def _edit_page(
    request: HttpRequest, table: Table[RowT], row: RowT, form: RowForm, *, status: int = 200
) -> HttpResponse:
    context = {"nav": table.nav, "row": row, "edit_form": form}
    return render(request, f"registry/{table.noun}_edit.html", context, status=status)


def edit_row(
    request: HttpRequest,
    table: Table[RowT],
    row: RowT,
    form_class: type[RowForm],
    *,
    save: Callable[[dict[str, Any]], RowT],
) -> HttpResponse:
    """GET: the row as a form (HTMX) or an edit page. POST: `save` the form's values; the row
    comes back in place, or the form with its errors and status 422."""
    if request.method == "GET":
        form = form_class.for_row(row)
        if htmx_partial(request):
            return row_fragment(request, table, row, form=form)
        return _edit_page(request, table, row, form)
    form = form_class.for_row(row, data=request.POST)
    if form.is_valid():
        try:
            row = save(form.cleaned_data)
        except table.refused as exc:
            form_error(form, exc)
        else:
            if htmx_partial(request):
                return row_fragment(request, table, row)
            messages.success(request, f"{table.name(row)} saved.")
            return redirect(table.found(row))
    if htmx_partial(request):
        return row_fragment(request, table, row, form=form, status=422)
    return _edit_page(request, table, row, form, status=422)


def row_or_list(request: HttpRequest, table: Table[RowT], row: RowT) -> HttpResponse:
    """The row as it is (the inline edit's Cancel); without HTMX, the list searched for it."""
    if not htmx_partial(request):
        return redirect(table.found(row))
    return row_fragment(request, table, row)


def removed(request: HttpRequest, table: Table[Any], message: str) -> HttpResponse:
    """After a row was removed: its place in the list is left empty, and the message box comes
    along out of band; without HTMX, the list."""
    messages.success(request, message)
    if htmx_partial(request):
        return render(request, "base.html#messages", {"oob": True})
    return redirect(table.nav)


def import_page(
    request: HttpRequest,
    table: Table[Any],
    form: CsvImportForm,
    *,
    apply: Callable[[str], tuple[int, int]],
    done: str,
) -> HttpResponse:
    """Upload or paste, see what would change line by line, then apply all of it or nothing.
    `apply` takes the CSV text and answers how many rows it added and changed; when the file
    is refused, the preview shows why. Once applied, the page named `done`."""
    preview = None
    if request.method == "POST" and form.is_valid():
        if request.POST.get("action") == "apply":
            try:
                created, updated = apply(str(form.cleaned_data["text"]))
            except form.refused:
                preview = form.preview()
            else:
                messages.success(request, f"Import applied: {created} added, {updated} changed.")
                return redirect(done)
        else:
            preview = form.preview()
    status = 422 if (form.is_bound and form.errors) or (preview and preview.problems) else 200
    return render(
        request,
        f"registry/{table.noun}_import.html",
        {
            "nav": table.nav,
            "noun": table.noun,
            "form": form,
            "preview": preview,
            "text": form.cleaned_data.get("text", "") if form.is_bound and not form.errors else "",
        },
        status=status,
    )


def csv_download(text: str, filename: str) -> HttpResponse:
    response = HttpResponse(text, content_type="text/csv; charset=utf-8")
    response["Content-Disposition"] = f'attachment; filename="{filename}"'
    return response
