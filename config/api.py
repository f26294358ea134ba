"""The JSON API root. Apps contribute routers; this module only assembles them and owns the
bearer-token auth and the error shape ({"error", "details"}) every endpoint answers with."""

from __future__ import annotations

import logging
from http import HTTPStatus
from typing import Any

from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpRequest, HttpResponse
from ninja import NinjaAPI, Schema
from ninja.errors import AuthenticationError, HttpError
from ninja.errors import ValidationError as NinjaValidationError
from ninja.security import HttpBearer

from claimcheck import health
from claimcheck.bodies import JsonBodyParser
from claimcheck.errors import INVALID, ApplicationError, DatabaseUnavailable
from claimcheck.models import ApiToken
from claimcheck.roles import AuthenticatedHttpRequest, is_admin, is_editor

logger = logging.getLogger(__name__)


class TokenAuth(HttpBearer):
    def authenticate(self, request: HttpRequest, token: str) -> Any:
        found = ApiToken.authenticate(token)
        if found is None:
            return None
        request.user = found.user
        return found.user


api = NinjaAPI(
    title="ClaimCheck API",
    version="1",
    description=(
        "Check factual claims against the web. Authenticate with"
        " `Authorization: Bearer <token>` (tokens come from `manage.py apitoken create`)."
    ),
    auth=TokenAuth(),
    parser=JsonBodyParser(),
    docs_decorator=login_required,
    urls_namespace="api",
)


def error_response(
    request: HttpRequest, status: int, error: str, details: Any = ""
) -> HttpResponse:
    return api.create_response(request, {"error": error, "details": details}, status=status)


@api.exception_handler(AuthenticationError)
def _unauthorized(request: HttpRequest, exc: AuthenticationError) -> HttpResponse:
    return error_response(request, 401, "unauthorized", "a valid bearer token is required")


# Pydantic names the branch of a union it tried ("datetime", "list[...]", "function-wrap[...]");
# a client knows only its own field names, so those parts are left out of `field`.
_LOCATION_ROOTS = {"body", "query", "path", "header", "cookie", "form", "file"}
_TYPE_TAGS = {"date", "datetime", "time", "str", "int", "float", "bool", "list", "dict", "none"}


def _field(loc: list[Any], params: set[str]) -> str:
    parts = [str(part) for part in loc]
    if parts and parts[0] in _LOCATION_ROOTS:
        parts = parts[1:]
    if parts and parts[0] in params:
        parts = parts[1:]
    kept = [p for p in parts if "[" not in p and "(" not in p]
    while kept and kept[-1] in _TYPE_TAGS:
        kept.pop()
    return ".".join(kept)


def validation_details(errors: list[dict[str, Any]]) -> list[dict[str, str]]:
    """One entry a field, {"field", "message"}, named as the client sent it."""
    params = {"payload", "filters", "data"}
    by_field: dict[str, str] = {}
    for item in errors:
        field = _field(list(item.get("loc", [])), params)
        by_field.setdefault(field, str(item.get("msg", "")))
    if len(by_field) > 1:
        # "Input should be a valid list" from the other branch of `one | list` says nothing.
        by_field.pop("", None)
    return [{"field": field, "message": message} for field, message in by_field.items()]


@api.exception_handler(NinjaValidationError)
def _invalid(request: HttpRequest, exc: NinjaValidationError) -> HttpResponse:
    return error_response(request, 422, INVALID, validation_details(exc.errors))


@api.exception_handler(Http404)
def _not_found(request: HttpRequest, exc: Http404) -> HttpResponse:
    return error_response(request, 404, "not found", str(exc) or request.path)


@api.exception_handler(ApplicationError)
def _refused(request: HttpRequest, exc: ApplicationError) -> HttpResponse:
    """Every service's refusal, mapped here once: its status, its label, its details (and what
    else its `payload` carries, such as each provider's reason when a search failed)."""
    response = api.create_response(request, exc.payload(), status=exc.status)
    for name, value in exc.headers().items():
        response[name] = value
    return response


@api.exception_handler(Exception)
def _crashed(request: HttpRequest, exc: Exception) -> HttpResponse:
    """A bug, not a refusal: logged with its traceback, answered in the API's shape."""
    if health.database_unreachable(exc):
        logger.warning("API: the database cannot be reached", extra={"path": request.path})
        return _refused(request, DatabaseUnavailable())
    logger.exception("API handler crashed", extra={"path": request.path})
    return error_response(request, 500, "unexpected error", type(exc).__name__)


@api.exception_handler(HttpError)
def _http_error(request: HttpRequest, exc: HttpError) -> HttpResponse:
    message = str(exc.message)
    if isinstance(exc.__cause__, NinjaValidationError):
        # Text no field can store, found by the body parser (claimcheck.bodies).
        return _invalid(request, exc.__cause__)
    if message.startswith("Cannot parse request body"):
        # ninja keeps the parser's own reason (line and column) only as the cause.
        reason = str(exc.__cause__) if exc.__cause__ is not None else "the body is not JSON"
        return error_response(request, exc.status_code, "invalid JSON", reason)
    label = HTTPStatus(exc.status_code).phrase.lower()
    return error_response(request, exc.status_code, label, message)


class MeOut(Schema):
    username: str
    editor: bool
    admin: bool


@api.get("/me", response=MeOut, summary="Who the token belongs to")
def me(request: AuthenticatedHttpRequest) -> dict[str, Any]:
    return {
        "username": request.user.get_username(),
        "editor": is_editor(request.user),
        "admin": is_admin(request.user),
    }


def _mount_app_routers() -> None:
    # Imported here, not at the top: the core must not depend on the apps it assembles.
    from desk.api import router as desk_router
    from harvester.api import router as harvester_router
    from registry.api import router as registry_router

    api.add_router("", harvester_router)
    api.add_router("", registry_router)
    api.add_router("", desk_router)


_mount_app_routers()
