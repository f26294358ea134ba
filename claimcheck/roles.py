"""Who may do what. Viewers read the desk (the queue, claim pages, the dashboard); editors also
review, submit and override; admins also curate domains and manage people."""

from __future__ import annotations

import time
from collections.abc import Callable
from functools import wraps
from typing import Any

from django.contrib.auth.models import AbstractBaseUser, AnonymousUser
from django.contrib.auth.models import User as AuthUser
from django.http import HttpRequest

from claimcheck.errors import Forbidden

VIEWERS = "viewers"
EDITORS = "editors"
ADMINS = "admins"

# Who a request may carry: a signed-in user or Django's anonymous one.
AnyUser = AbstractBaseUser | AnonymousUser


class AuthenticatedHttpRequest(HttpRequest):
    """A request whose user signed in: what a view behind the login (or an API handler behind
    the bearer token) is handed, so that `request.user` has a user's fields, not `Any`."""

    user: AuthUser


# What the 403 page says: the role the page needs and how to get it.
NEEDS_EDITOR = (
    "This page needs the editor role (group “editors”), which reviews, submits and overrides"
    " claims. Ask an admin to add you to the editors group."
)
NEEDS_ADMIN = (
    "This page needs the admin role (group “admins”), which curates the domain list and"
    " settings. Ask an admin to add you to the admins group."
)
NEEDS_VIEWER = (
    "This page needs a role on the desk (viewer, editor or admin). Ask an admin to give your"
    " account one on the People page."
)
# What the API says: the same rule in a line.
API_NEEDS_EDITOR = "this needs the editors group"
API_NEEDS_ADMIN = "this needs the admins group"
API_NEEDS_VIEWER = "this needs a role: viewers, editors or admins"


def _signed_in(user: AnyUser) -> AuthUser | None:
    """The user when signed in and active (the project's user model is Django's own)."""
    if isinstance(user, AuthUser) and user.is_authenticated and user.is_active:
        return user
    return None


def _groups(user: AuthUser) -> set[str]:
    # Kept on the user object: one query per request, however many checks a page makes.
    cached: set[str] | None = getattr(user, "_claimcheck_groups", None)
    if cached is None:
        cached = set(user.groups.values_list("name", flat=True))
        setattr(user, "_claimcheck_groups", cached)  # noqa: B010
    return cached


def is_admin(user: AnyUser) -> bool:
    signed_in = _signed_in(user)
    return signed_in is not None and (signed_in.is_superuser or ADMINS in _groups(signed_in))


def is_editor(user: AnyUser) -> bool:
    """Admins can do everything editors can."""
    signed_in = _signed_in(user)
    return signed_in is not None and (is_admin(signed_in) or EDITORS in _groups(signed_in))


def is_viewer(user: AnyUser) -> bool:
    """Editors and admins can read everything viewers can."""
    signed_in = _signed_in(user)
    return signed_in is not None and (is_editor(signed_in) or VIEWERS in _groups(signed_in))


def require_viewer(user: AnyUser) -> None:
    """Raises `Forbidden` unless the user may read the desk."""
    if not is_viewer(user):
        raise Forbidden(API_NEEDS_VIEWER, page_message=NEEDS_VIEWER)


def viewer_required(view: Callable[..., Any]) -> Callable[..., Any]:
    @wraps(view)
    def wrapped(request: HttpRequest, *args: Any, **kwargs: Any) -> Any:
        require_viewer(request.user)
        return view(request, *args, **kwargs)

    return wrapped


def require_editor(user: AnyUser) -> None:
    """Raises `Forbidden` unless the user may review, submit and override claims. Pages and API
    handlers both call this (or the decorators below); the error is mapped to 403 once per door."""
    if not is_editor(user):
        raise Forbidden(API_NEEDS_EDITOR, page_message=NEEDS_EDITOR)


def require_admin(user: AnyUser) -> None:
    if not is_admin(user):
        raise Forbidden(API_NEEDS_ADMIN, page_message=NEEDS_ADMIN)


def editor_required(view: Callable[..., Any]) -> Callable[..., Any]:
    @wraps(view)
    def wrapped(request: HttpRequest, *args: Any, **kwargs: Any) -> Any:
        require_editor(request.user)
        return view(request, *args, **kwargs)

    return wrapped


def admin_required(view: Callable[..., Any]) -> Callable[..., Any]:
    @wraps(view)
    def wrapped(request: HttpRequest, *args: Any, **kwargs: Any) -> Any:
        require_admin(request.user)
        return view(request, *args, **kwargs)

    return wrapped


# Polled endpoints (every few seconds) read the role from the session, re-read at most this often,
# so that a poll costs no query for it; a role taken away stops the polling within a minute.
ROLE_CACHE_SECONDS = 60


def require_editor_request(request: HttpRequest) -> None:
    """`require_editor` for a page polled every few seconds: reads the role from the session."""
    if not request_is_editor(request):
        raise Forbidden(API_NEEDS_EDITOR, page_message=NEEDS_EDITOR)


def require_viewer_request(request: HttpRequest) -> None:
    """`require_viewer` for a page polled every few seconds: reads the role from the session."""
    if not _request_roles(request)["viewer"]:
        raise Forbidden(API_NEEDS_VIEWER, page_message=NEEDS_VIEWER)


def request_is_editor(request: HttpRequest) -> bool:
    return _request_roles(request)["editor"]


def _request_roles(request: HttpRequest) -> dict[str, bool]:
    user = request.user
    if not (user.is_authenticated and user.is_active):
        return {"editor": False, "viewer": False}
    if user.is_superuser:
        return {"editor": True, "viewer": True}
    cached = request.session.get("_claimcheck_role")
    now = time.time()
    if (
        isinstance(cached, dict)
        and cached.get("user") == user.pk
        and now - float(cached.get("at", 0)) < ROLE_CACHE_SECONDS
        and "viewer" in cached
    ):
        return {"editor": bool(cached.get("editor")), "viewer": bool(cached.get("viewer"))}
    roles = {"editor": is_editor(user), "viewer": is_viewer(user)}
    request.session["_claimcheck_role"] = {"user": user.pk, **roles, "at": now}
    return roles
