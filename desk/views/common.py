"""Shared by the desk's views: whether HTMX asked for a fragment."""

from __future__ import annotations

from django.http import HttpRequest


def wants_partial(request: HttpRequest) -> bool:
    """HTMX asked for a fragment (a history restore needs the whole page)."""
    htmx = getattr(request, "htmx", None)
    return htmx is not None and bool(htmx) and not htmx.history_restore_request


def seen_version(request: HttpRequest, name: str = "version") -> int | None:
    """The version of the claim the editor's form was drawn from (None when the form carries
    none): a change made on it is refused if the claim has changed since."""
    raw = request.POST.get(name, "")
    return int(raw) if raw.isdigit() else None


def seen_versions(request: HttpRequest, ids: list[int]) -> dict[int, int]:
    """The version of each ticked claim the queue was drawn from (`version-ID`)."""
    found = {pk: seen_version(request, f"version-{pk}") for pk in ids}
    return {pk: version for pk, version in found.items() if version is not None}
