"""Reads of the domain registry and the entity alias table for the admin pages, the API and
the command line: every door calls these, so a list is filtered, and a row found, by one set
of rules."""

from __future__ import annotations

from django.contrib.auth.models import User
from django.db.models import Q, QuerySet

from claimcheck.errors import NotFound
from claimcheck.roles import require_admin
from registry.domain_rows import DomainError, normalize_domain_name
from registry.entity_keys import entity_key
from registry.models import Domain, DomainChange, EntityAlias


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


def alias_list(*, search: str = "", kind: str = "") -> QuerySet[EntityAlias]:
    """Aliases by name, then alias, each with who changed it last. `search` matches the name,
    the alias or the note ignoring case, and from three letters on the alias by its matching
    key too, from the start of one of its words: "kyiv" finds "Київ", and "київ" finds it on
    SQLite as well (whose LIKE folds only ASCII letters). Not inside a word: the key of "kyiv"
    ("kiv") ends the key of "Харків" ("kharkiv"), which is another city."""
    aliases = EntityAlias.objects.select_related("updated_by")
    if search := search.strip():
        matches = Q(name__icontains=search) | Q(alias__icontains=search) | Q(note__icontains=search)
        key = entity_key(search)
        if len(key) >= 3:
            matches |= Q(key__startswith=key) | Q(key__contains=f" {key}")
        aliases = aliases.filter(matches)
    if kind:
        aliases = aliases.filter(kind=kind)
    return aliases.order_by("name", "alias")


def alias_get(*, pk: int) -> EntityAlias:
    """An alias by id, with who changed it last; `NotFound` when there is none."""
    found = EntityAlias.objects.select_related("updated_by").filter(pk=pk).first()
    if found is None:
        raise NotFound(f"no alias {pk}")
    return found


def alias_for_admin(*, user: User, pk: int) -> EntityAlias:
    """`alias_get` for a user who must be an admin: `Forbidden` before `NotFound`."""
    require_admin(user)
    return alias_get(pk=pk)


def domain_changes(*, search: str = "") -> QuerySet[DomainChange]:
    """The registry's history, newest first, each change with who made it; `search` matches the
    domain's name, ignoring case."""
    changes = DomainChange.objects.select_related("user").order_by("-at", "-id")
    if search:
        changes = changes.filter(name__icontains=search)
    return changes
