"""What the evidence app's pages share."""

from __future__ import annotations

from django.http import HttpRequest


def htmx_partial(request: HttpRequest) -> bool:
    """Whether to answer with a fragment: an HTMX request, but not a history restore, which
    needs the whole page."""
    htmx = getattr(request, "htmx", None)
    return htmx is not None and bool(htmx) and not htmx.history_restore_request
