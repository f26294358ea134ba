"""What the registry's pages share."""

from __future__ import annotations

from collections.abc import Callable

from django.contrib import messages
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render

from registry.forms import CsvImportForm


def htmx_partial(request: HttpRequest) -> bool:
    """Whether to answer with a fragment: an HTMX request, but not a history restore, which
    needs the whole page."""
    htmx = getattr(request, "htmx", None)
    return htmx is not None and bool(htmx) and not htmx.history_restore_request


def csv_import_page(
    request: HttpRequest,
    form: CsvImportForm,
    *,
    apply: Callable[[str], tuple[int, int]],
    refused: type[Exception],
    template: str,
    nav: str,
    done: str,
) -> HttpResponse:
    """Upload or paste, see what would change line by line, then apply all of it or nothing.
    `apply` takes the CSV text and answers how many rows it added and changed; when it raises
    `refused`, the preview shows why."""
    preview = None
    if request.method == "POST" and form.is_valid():
        if request.POST.get("action") == "apply":
            try:
                created, updated = apply(str(form.cleaned_data["text"]))
            except refused:
                preview = form.preview()
            else:
                messages.success(request, f"Import applied: {created} added, {updated} changed.")
                return redirect(done)
        else:
            preview = form.preview()
    status = 422 if (form.is_bound and form.errors) or (preview and preview.problems) else 200
    return render(
        request,
        template,
        {
            "nav": nav,
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
