"""JSON API routes of the evidence app (mounted under /api/ by claimcheck.api).

The domain registry decides how much every source counts, so only admins may read or change it.
"""

from __future__ import annotations

from datetime import datetime
from typing import Annotated, Any, Literal

from django.http import HttpRequest
from ninja import Field, Query, Router, Schema
from ninja.responses import Status

from claimcheck.roles import is_admin
from claimcheck.schemas import OFFSET_MAX
from evidence.domains import DomainError
from evidence.models import Domain
from evidence.selectors import domain_list
from evidence.services import (
    DomainExists,
    domain_create,
    domain_delete,
    domain_get,
    domain_update,
)

router = Router(tags=["evidence"])

TierName = Literal["official", "wire", "trade", "other", "social"]
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


class DomainIn(Schema):
    name: Annotated[str, Field(min_length=1, max_length=253)]
    tier: TierName = "other"
    weight_override: Weight | None = None
    denied: bool = False
    note: Annotated[str, Field(max_length=300)] = ""


class DomainPatch(Schema):
    name: Annotated[str, Field(min_length=1, max_length=253)] | None = None
    tier: TierName | None = None
    weight_override: Weight | None = None
    denied: bool | None = None
    note: Annotated[str, Field(max_length=300)] | None = None


class DomainFilters(Schema):
    search: str | None = None
    tier: TierName | None = None
    denied: bool | None = None
    limit: Annotated[int, Field(ge=1, le=1000)] = 200
    offset: Annotated[int, Field(ge=0, le=OFFSET_MAX)] = 0


ErrorReply = Status[dict[str, Any]]


def _error(status: int, error: str, details: Any = "") -> ErrorReply:
    # A Status (not claimcheck.api.error_response) keeps this module free of an import cycle
    # with the API root, which imports this router.
    return Status(status, {"error": error, "details": details})


def _forbidden(request: HttpRequest) -> ErrorReply | None:
    if is_admin(request.user):
        return None
    return _error(403, "forbidden", "only admins may manage domains")


def _not_found(key: str) -> ErrorReply:
    return _error(404, "not found", f"no domain {key!r}")


@router.get(
    "/domains",
    response={200: DomainListOut, 403: ErrorOut},
    summary="List and search the domain registry (admins)",
)
def domains_list(request: HttpRequest, filters: Query[DomainFilters]) -> Any:
    if denied := _forbidden(request):
        return denied
    domains = domain_list(
        search=filters.search or "", tier=filters.tier or "", denied=filters.denied
    )
    count = domains.count()
    items = list(domains[filters.offset : filters.offset + filters.limit])
    return {"count": count, "items": items}


@router.get(
    "/domains/{key}",
    response={200: DomainOut, 403: ErrorOut, 404: ErrorOut},
    summary="One domain, by id or name (admins)",
)
def domains_detail(request: HttpRequest, key: str) -> Any:
    if denied := _forbidden(request):
        return denied
    domain = domain_get(key=key)
    return domain if domain is not None else _not_found(key)


@router.post(
    "/domains",
    response={201: DomainOut, 400: ErrorOut, 403: ErrorOut, 409: ErrorOut, 422: ErrorOut},
    summary="Add a domain or suffix rule (admins)",
)
def domains_create(request: HttpRequest, payload: DomainIn) -> Any:
    if denied := _forbidden(request):
        return denied
    try:
        domain = domain_create(user=request.user, via="api", **payload.dict())
    except DomainExists as exc:
        return _error(409, "domain exists", str(exc))
    except DomainError as exc:
        return _error(400, "invalid domain", str(exc))
    return Status(201, domain)


@router.patch(
    "/domains/{key}",
    response={200: DomainOut, 400: ErrorOut, 403: ErrorOut, 404: ErrorOut, 409: ErrorOut},
    summary="Change a domain by id or name (admins)",
)
def domains_patch(request: HttpRequest, key: str, payload: DomainPatch) -> Any:
    if denied := _forbidden(request):
        return denied
    domain = domain_get(key=key)
    if domain is None:
        return _not_found(key)
    changes = payload.dict(exclude_unset=True)
    for field in ("name", "tier", "denied", "note"):
        if field in changes and changes[field] is None:
            return _error(400, "invalid domain", f"{field} cannot be null")
    if not changes:
        return _error(400, "invalid domain", "nothing to change")
    try:
        domain = domain_update(domain=domain, user=request.user, via="api", **changes)
    except DomainExists as exc:
        return _error(409, "domain exists", str(exc))
    except DomainError as exc:
        return _error(400, "invalid domain", str(exc))
    return domain


@router.delete(
    "/domains/{key}",
    response={204: None, 403: ErrorOut, 404: ErrorOut},
    summary="Remove a domain by id or name (admins)",
)
def domains_delete(request: HttpRequest, key: str) -> Any:
    if denied := _forbidden(request):
        return denied
    domain = domain_get(key=key)
    if domain is None:
        return _not_found(key)
    domain_delete(domain=domain, user=request.user, via="api")
    return Status(204, None)
