"""Shared by the desk's views: whether HTMX asked for a fragment."""

from __future__ import annotations

from django.http import HttpRequest


def wants_partial(request: HttpRequest) -> bool:
    """HTMX asked for a fragment (a history restore needs the whole page)."""
    htmx = getattr(request, "htmx", None)
    return htmx is not None and bool(htmx) and not htmx.history_restore_request
