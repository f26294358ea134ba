"""JSON API routes of the registry (mounted under /api/ by config.api).

The domain registry decides how much every source counts, and the entity alias table which
names are one entity, so only admins may read or change them.
"""

from __future__ import annotations

from datetime import datetime
from typing import Annotated, Any, Literal

from django.db.models import QuerySet
from ninja import Field, Query, Router, Schema
from ninja.responses import Status

from claimcheck.roles import AuthenticatedHttpRequest, require_admin
from claimcheck.schemas import OFFSET_MAX, BlankIsNone, InputSchema
from registry import selectors
from registry.domain_rows import DomainError
from registry.models import Domain, EntityAlias
from registry.services import (
    AliasError,
    alias_create,
    alias_delete,
    alias_update,
    domain_create,
    domain_delete,
    domain_update,
)

router = Router(tags=["registry"])

TierName = Literal["official", "wire", "trade", "other", "social"]
KindName = Literal["person", "organization", "place", "other"]
Weight = Annotated[float, Field(ge=0, le=1)]


class ErrorOut(Schema):
    error: str
    details: Any = ""


class DomainOut(Schema):
    id: int
    name: str
    tier: str
    weight_override: float | None
    denied: bool
    note: str
    updated_at: datetime
    updated_by: str | None

    @staticmethod
    def resolve_updated_by(obj: Domain) -> str | None:
        return obj.updated_by.get_username() if obj.updated_by else None


class DomainListOut(Schema):
    count: int
    items: list[DomainOut]


class DomainIn(InputSchema):
    name: Annotated[str, Field(min_length=1, max_length=253)]
    tier: TierName = "other"
    weight_override: Weight | None = None
    denied: bool = False
    note: Annotated[str, Field(max_length=300)] = ""


class DomainPatch(InputSchema):
    name: Annotated[str, Field(min_length=1, max_length=253)] | None = None
    tier: TierName | None = None
    weight_override: Weight | None = None
    denied: bool | None = None
    note: Annotated[str, Field(max_length=300)] | None = None


class DomainFilters(Schema):
    search: str | None = None
    tier: Annotated[TierName | None, BlankIsNone] = None
    denied: Annotated[bool | None, BlankIsNone] = None
    limit: Annotated[int, Field(ge=1, le=1000)] = 200
    offset: Annotated[int, Field(ge=0, le=OFFSET_MAX)] = 0


def _page(rows: QuerySet[Any], *, offset: int, limit: int) -> dict[str, Any]:
    """One page of a list endpoint, with the count of all its rows."""
    return {"count": rows.count(), "items": list(rows[offset : offset + limit])}


@router.get(
    "/domains",
    response={200: DomainListOut, 403: ErrorOut},
    summary="List and search the domain registry (admins)",
)
def domains_list(request: AuthenticatedHttpRequest, filters: Query[DomainFilters]) -> Any:
    require_admin(request.user)
    domains = selectors.domain_list(
        search=filters.search or "", tier=filters.tier or "", denied=filters.denied
    )
    return _page(domains, offset=filters.offset, limit=filters.limit)


@router.get(
    "/domains/{key}",
    response={200: DomainOut, 403: ErrorOut, 404: ErrorOut},
    summary="One domain, by id or name (admins)",
)
def domains_detail(request: AuthenticatedHttpRequest, key: str) -> Any:
    return selectors.domain_for_admin(user=request.user, key=key)


@router.post(
    "/domains",
    response={201: DomainOut, 400: ErrorOut, 403: ErrorOut, 409: ErrorOut, 422: ErrorOut},
    summary="Add a domain or suffix rule (admins)",
)
def domains_create(request: AuthenticatedHttpRequest, payload: DomainIn) -> Any:
    require_admin(request.user)
    domain = domain_create(user=request.user, via="api", **payload.dict())
    return Status(201, domain)


@router.patch(
    "/domains/{key}",
    response={
        200: DomainOut,
        400: ErrorOut,
        403: ErrorOut,
        404: ErrorOut,
        409: ErrorOut,
        422: ErrorOut,
    },
    summary="Change a domain by id or name (admins)",
)
def domains_patch(request: AuthenticatedHttpRequest, key: str, payload: DomainPatch) -> Any:
    domain = selectors.domain_for_admin(user=request.user, key=key)
    changes = payload.dict(exclude_unset=True)
    for field in ("name", "tier", "denied", "note"):
        if field in changes and changes[field] is None:
            raise DomainError(f"{field} cannot be null", field=field)
    if not changes:
        raise DomainError("nothing to change: send at least one field", field="")
    return domain_update(domain=domain, user=request.user, via="api", **changes)


@router.delete(
    "/domains/{key}",
    response={204: None, 403: ErrorOut, 404: ErrorOut},
    summary="Remove a domain by id or name (admins)",
)
def domains_delete(request: AuthenticatedHttpRequest, key: str) -> Any:
    domain = selectors.domain_for_admin(user=request.user, key=key)
    domain_delete(domain=domain, user=request.user, via="api")
    return Status(204, None)


# --- entity aliases ------------------------------------------------------------------------------

AliasText = Annotated[str, Field(min_length=1, max_length=200)]
AliasNote = Annotated[str, Field(max_length=300)]


class AliasOut(Schema):
    id: int
    name: str
    alias: str
    kind: str
    note: str
    updated_at: datetime
    updated_by: str | None

    @staticmethod
    def resolve_updated_by(obj: EntityAlias) -> str | None:
        return obj.updated_by.get_username() if obj.updated_by else None


class AliasListOut(Schema):
    count: int
    items: list[AliasOut]


class AliasIn(InputSchema):
    name: AliasText
    alias: AliasText
    kind: KindName = "other"
    note: AliasNote = ""


class AliasPatch(InputSchema):
    name: AliasText | None = None
    alias: AliasText | None = None
    kind: KindName | None = None
    note: AliasNote | None = None


class AliasFilters(Schema):
    search: str | None = None
    kind: Annotated[KindName | None, BlankIsNone] = None
    limit: Annotated[int, Field(ge=1, le=1000)] = 200
    offset: Annotated[int, Field(ge=0, le=OFFSET_MAX)] = 0


@router.get(
    "/aliases",
    response={200: AliasListOut, 403: ErrorOut},
    summary="List and search the entity alias table (admins)",
)
def aliases_list(request: AuthenticatedHttpRequest, filters: Query[AliasFilters]) -> Any:
    require_admin(request.user)
    aliases = selectors.alias_list(search=filters.search or "", kind=filters.kind or "")
    return _page(aliases, offset=filters.offset, limit=filters.limit)


@router.get(
    "/aliases/{alias_id}",
    response={200: AliasOut, 403: ErrorOut, 404: ErrorOut},
    summary="One alias, by id (admins)",
)
def aliases_detail(request: AuthenticatedHttpRequest, alias_id: int) -> Any:
    return selectors.alias_for_admin(user=request.user, pk=alias_id)


@router.post(
    "/aliases",
    response={201: AliasOut, 400: ErrorOut, 403: ErrorOut, 409: ErrorOut, 422: ErrorOut},
    summary="Add an alias: another name or spelling of an entity (admins)",
)
def aliases_create(request: AuthenticatedHttpRequest, payload: AliasIn) -> Any:
    require_admin(request.user)
    item = alias_create(user=request.user, via="api", **payload.dict())
    return Status(201, item)


@router.patch(
    "/aliases/{alias_id}",
    response={
        200: AliasOut,
        400: ErrorOut,
        403: ErrorOut,
        404: ErrorOut,
        409: ErrorOut,
        422: ErrorOut,
    },
    summary="Change an alias by id (admins)",
)
def aliases_patch(request: AuthenticatedHttpRequest, alias_id: int, payload: AliasPatch) -> Any:
    item = selectors.alias_for_admin(user=request.user, pk=alias_id)
    changes = payload.dict(exclude_unset=True)
    for field, value in changes.items():
        if value is None:
            raise AliasError(f"{field} cannot be null", field=field)
    if not changes:
        raise AliasError("nothing to change: send at least one field", field="")
    return alias_update(item=item, user=request.user, via="api", **changes)


@router.delete(
    "/aliases/{alias_id}",
    response={204: None, 403: ErrorOut, 404: ErrorOut},
    summary="Remove an alias by id (admins)",
)
def aliases_delete(request: AuthenticatedHttpRequest, alias_id: int) -> Any:
    item = selectors.alias_for_admin(user=request.user, pk=alias_id)
    alias_delete(item=item, user=request.user, via="api")
    return Status(204, None)
