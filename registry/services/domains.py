"""Actions on the domain registry. The API, the command line and the admin pages all call these,
so validation and the record of who changed what live in one place."""

from __future__ import annotations

import logging
from typing import Any

from django.contrib.auth.models import User
from django.db import IntegrityError, transaction

from registry.csvformat import ImportChange, ImportPlan, PlanLine
from registry.domain_rows import (
    DomainExists,
    DomainRow,
    domains_to_csv,
    normalize_domain_name,
    parse_domains_csv,
    parse_note,
    parse_tier,
    parse_weight,
)
from registry.models import Domain, DomainAction, DomainChange, Tier
from registry.weighing import invalidate_cache

logger = logging.getLogger(__name__)

_UNSET: Any = object()


AUDITED_FIELDS = ("name", "tier", "weight_override", "denied", "note")


def _acting(user: User | None) -> User | None:
    return user if user is not None and getattr(user, "is_authenticated", False) else None


def _snapshot(domain: Domain) -> dict[str, Any]:
    return {field: getattr(domain, field) for field in AUDITED_FIELDS}


def _change(
    *,
    domain: Domain | None,
    name: str,
    action: str,
    before: dict[str, Any],
    after: dict[str, Any],
    user: User | None,
    via: str,
) -> DomainChange:
    """The audit row: each field whose value differs, as [old, new]."""
    diff = {
        field: [before.get(field), after.get(field)]
        for field in AUDITED_FIELDS
        if before.get(field) != after.get(field)
    }
    return DomainChange(
        domain=domain, name=name, action=action, changes=diff, via=via, user=_acting(user)
    )


def domain_create(
    *,
    name: str,
    tier: str = Tier.OTHER,
    weight_override: float | None = None,
    denied: bool = False,
    note: str = "",
    user: User | None = None,
    via: str = "",
) -> Domain:
    domain = Domain(
        name=normalize_domain_name(name),
        tier=parse_tier(tier),
        weight_override=parse_weight(weight_override),
        denied=denied,
        note=parse_note(note),
        updated_by=user if user is not None and user.is_authenticated else None,
    )
    if Domain.objects.filter(name=domain.name).exists():
        raise DomainExists(f"{domain.name} is already in the registry")
    try:
        with transaction.atomic():
            domain.save()
            _change(
                domain=domain,
                name=domain.name,
                action=DomainAction.CREATED,
                before={},
                after=_snapshot(domain),
                user=user,
                via=via,
            ).save()
    except IntegrityError as exc:  # a concurrent create of the same name won the race
        raise DomainExists(f"{domain.name} is already in the registry") from exc
    logger.info("domain created", extra={"domain": domain.name, "tier": domain.tier})
    return domain


def domain_update(
    *,
    domain: Domain,
    user: User | None = None,
    name: str = _UNSET,
    tier: str = _UNSET,
    weight_override: float | None = _UNSET,
    denied: bool = _UNSET,
    note: str = _UNSET,
    via: str = "",
) -> Domain:
    """Change the given fields only; every value is validated before anything is saved."""
    before = _snapshot(domain)
    changes: dict[str, Any] = {}
    if name is not _UNSET:
        changes["name"] = normalize_domain_name(name)
        clash = Domain.objects.filter(name=changes["name"]).exclude(pk=domain.pk).exists()
        if clash:
            raise DomainExists(f"{changes['name']} is already in the registry")
    if tier is not _UNSET:
        changes["tier"] = parse_tier(tier)
    if weight_override is not _UNSET:
        changes["weight_override"] = parse_weight(weight_override)
    if denied is not _UNSET:
        changes["denied"] = bool(denied)
    if note is not _UNSET:
        changes["note"] = parse_note(note)
    for field, value in changes.items():
        setattr(domain, field, value)
    domain.updated_by = user if user is not None and user.is_authenticated else None
    try:
        with transaction.atomic():
            domain.save()
            change = _change(
                domain=domain,
                name=domain.name,
                action=DomainAction.UPDATED,
                before=before,
                after=_snapshot(domain),
                user=user,
                via=via,
            )
            if change.changes:
                change.save()
    except IntegrityError as exc:
        raise DomainExists(f"{domain.name} is already in the registry") from exc
    logger.info("domain updated", extra={"domain": domain.name, "fields": sorted(changes)})
    return domain


@transaction.atomic
def domain_delete(*, domain: Domain, user: User | None = None, via: str = "") -> None:
    name = domain.name
    _change(
        domain=None,
        name=name,
        action=DomainAction.DELETED,
        before=_snapshot(domain),
        after={},
        user=user,
        via=via,
    ).save()
    domain.delete()
    logger.info("domain deleted", extra={"domain": name})


DomainPlanLine = PlanLine[DomainRow, Domain]
DomainImportPlan = ImportPlan[DomainRow, Domain]

# What a line of a file may change; the name is what finds the domain it changes.
_COMPARED = ("tier", "weight_override", "denied", "note")


def _plan(rows: list[DomainRow], existing: dict[str, Domain]) -> DomainImportPlan:
    lines: list[DomainPlanLine] = []
    for row in rows:
        current = existing.get(row.name)
        if current is None:
            lines.append(DomainPlanLine(row=row, change=ImportChange.CREATED))
            continue
        fields = tuple(f for f in _COMPARED if getattr(current, f) != getattr(row, f))
        change = ImportChange.UPDATED if fields else ImportChange.UNCHANGED
        lines.append(DomainPlanLine(row=row, change=change, before=current, fields=fields))
    return DomainImportPlan(lines=lines)


def _existing(rows: list[DomainRow]) -> dict[str, Domain]:
    return {d.name: d for d in Domain.objects.filter(name__in=[row.name for row in rows])}


def domains_import_plan(*, text: str) -> DomainImportPlan:
    """What importing `text` would do, line by line, changing nothing: the preview. A file
    with any bad line raises DomainCsvError naming each."""
    rows = parse_domains_csv(text)
    return _plan(rows, _existing(rows))


def domains_import(
    *, text: str, user: User | None = None, dry_run: bool = False
) -> tuple[int, int]:
    """Create or update every row of a CSV file, all or nothing. Returns (created, updated).
    A file with any bad line raises DomainCsvError and changes nothing."""
    rows = parse_domains_csv(text)
    plan = _plan(rows, _existing(rows))
    acting = _acting(user)
    audit: list[DomainChange] = []
    with transaction.atomic():
        for line in plan.lines:
            if dry_run or line.change == ImportChange.UNCHANGED:
                continue
            row, existing = line.row, line.before
            before = _snapshot(existing) if existing is not None else {}
            domain, _ = Domain.objects.update_or_create(
                name=row.name,
                defaults={
                    "tier": row.tier,
                    "weight_override": row.weight_override,
                    "denied": row.denied,
                    "note": row.note,
                    "updated_by": acting,
                },
            )
            audit.append(
                _change(
                    domain=domain,
                    name=domain.name,
                    action=DomainAction.UPDATED if existing else DomainAction.CREATED,
                    before=before,
                    after=_snapshot(domain),
                    user=acting,
                    via="csv import",
                )
            )
        DomainChange.objects.bulk_create(audit)
    invalidate_cache()
    created, updated = plan.created, plan.updated
    logger.info(
        "domains imported",
        extra={"domains_created": created, "domains_updated": updated, "dry_run": dry_run},
    )
    return created, updated


def domains_export() -> str:
    return domains_to_csv(Domain.objects.order_by("name"))
