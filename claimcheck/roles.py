"""Who may do what. Editors review and override verdicts; admins also curate domains."""

from __future__ import annotations

import time
from collections.abc import Callable
from functools import wraps
from typing import Any

from django.contrib.auth.models import AbstractBaseUser, AnonymousUser
from django.contrib.auth.models import User as AuthUser
from django.http import HttpRequest

from claimcheck.errors import Forbidden

EDITORS = "editors"
ADMINS = "admins"

User = AbstractBaseUser | AnonymousUser


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
# What the API says: the same rule in a line.
API_NEEDS_EDITOR = "this needs the editors group"
API_NEEDS_ADMIN = "this needs the admins group"


def _groups(user: Any) -> set[str]:
    cached = getattr(user, "_claimcheck_groups", None)
    if cached is None:
        cached = set(user.groups.values_list("name", flat=True)) if user.is_authenticated else set()
        user._claimcheck_groups = cached
    return cached


def is_admin(user: Any) -> bool:
    return bool(user.is_authenticated and user.is_active) and (
        bool(user.is_superuser) or ADMINS in _groups(user)
    )


def is_editor(user: Any) -> bool:
    """Admins can do everything editors can."""
    return is_admin(user) or (
        bool(user.is_authenticated and user.is_active) and EDITORS in _groups(user)
    )


def require_editor(user: Any) -> None:
    """Raises `Forbidden` unless the user may review, submit and override claims. Pages and API
    handlers both call this (or the decorators below); the error is mapped to 403 once per door."""
    if not is_editor(user):
        raise Forbidden(API_NEEDS_EDITOR, page_message=NEEDS_EDITOR)


def require_admin(user: Any) -> None:
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


def request_is_editor(request: Any) -> bool:
    user = request.user
    if not (user.is_authenticated and user.is_active):
        return False
    if user.is_superuser:
        return True
    cached = request.session.get("_claimcheck_role")
    now = time.time()
    if (
        isinstance(cached, dict)
        and cached.get("user") == user.pk
        and now - float(cached.get("at", 0)) < ROLE_CACHE_SECONDS
    ):
        return bool(cached.get("editor"))
    editor = is_editor(user)
    request.session["_claimcheck_role"] = {"user": user.pk, "editor": editor, "at": now}
    return editor
