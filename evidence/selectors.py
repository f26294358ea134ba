"""Reads of the domain registry for the admin pages and the domains API."""

from __future__ import annotations

from django.db.models import Q, QuerySet

from evidence.models import Domain


def domain_list(
    *, search: str = "", tier: str = "", denied: bool | None = None
) -> QuerySet[Domain]:
    """Domains by name, each with who changed it last. `search` matches the name or the note,
    ignoring case; `denied` None keeps allowed and denied domains alike."""
    domains = Domain.objects.select_related("updated_by")
    if search := search.strip():
        domains = domains.filter(Q(name__icontains=search) | Q(note__icontains=search))
    if tier:
        domains = domains.filter(tier=tier)
    if denied is not None:
        domains = domains.filter(denied=denied)
    return domains.order_by("name")
