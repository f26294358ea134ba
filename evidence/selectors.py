"""Reads of the domain registry for the admin pages and the domains API: both doors call these,
so a list is filtered, and a domain found, by one set of rules."""

from __future__ import annotations

from django.contrib.auth.models import User
from django.db.models import Q, QuerySet

from claimcheck.errors import NotFound
from claimcheck.roles import require_admin
from evidence.domains import DomainError, normalize_domain_name
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


def domain_get(*, key: str | int) -> Domain:
    """A domain by id (digits) or by name (as typed: `*.gov`, `GOV.UK` and `.gov` all work), with
    who changed it last; `NotFound` when there is none."""
    text = str(key).strip()
    domains = Domain.objects.select_related("updated_by")
    found: Domain | None
    if text.isdigit():
        found = domains.filter(pk=int(text)).first()
    else:
        try:
            found = domains.filter(name=normalize_domain_name(text)).first()
        except DomainError:
            found = None
    if found is None:
        raise NotFound(f"no domain {key!r}")
    return found


def domain_for_admin(*, user: User, key: str | int) -> Domain:
    """`domain_get` for a user who must be an admin: `Forbidden` before `NotFound`, so that a
    non-admin learns nothing of what the registry holds."""
    require_admin(user)
    return domain_get(key=key)
