"""The JSON API root. Apps contribute routers; this module only assembles them and owns the
bearer-token auth and the error shape ({"error", "details"}) every endpoint answers with."""

from __future__ import annotations

from typing import Any

from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from ninja import NinjaAPI, Schema
from ninja.errors import AuthenticationError, HttpError
from ninja.errors import ValidationError as NinjaValidationError
from ninja.security import HttpBearer

from claimcheck.models import ApiToken
from claimcheck.roles import is_admin, is_editor


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


@api.exception_handler(NinjaValidationError)
def _invalid(request: HttpRequest, exc: NinjaValidationError) -> HttpResponse:
    details = [
        {"loc": [str(part) for part in item.get("loc", [])], "msg": item.get("msg", "")}
        for item in exc.errors
    ]
    return error_response(request, 422, "invalid request", details)


@api.exception_handler(HttpError)
def _http_error(request: HttpRequest, exc: HttpError) -> HttpResponse:
    return error_response(request, exc.status_code, str(exc.message), "")


class MeOut(Schema):
    username: str
    editor: bool
    admin: bool


@api.get("/me", response=MeOut, summary="Who the token belongs to")
def me(request: HttpRequest) -> dict[str, Any]:
    return {
        "username": request.user.get_username(),
        "editor": is_editor(request.user),
        "admin": is_admin(request.user),
    }


def _mount_app_routers() -> None:
    # Imported here, not at the top: the core must not depend on the apps it assembles.
    from decisions.api import router as decisions_router
    from evidence.api import router as evidence_router
    from harvester.api import router as harvester_router

    api.add_router("", harvester_router)
    api.add_router("", evidence_router)
    api.add_router("", decisions_router)


_mount_app_routers()
