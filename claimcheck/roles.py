"""Who may do what. Editors review and override verdicts; admins also curate domains."""

from __future__ import annotations

from collections.abc import Callable
from functools import wraps
from typing import Any

from django.contrib.auth.models import AbstractBaseUser, AnonymousUser
from django.core.exceptions import PermissionDenied

EDITORS = "editors"
ADMINS = "admins"

User = AbstractBaseUser | AnonymousUser


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


def editor_required(view: Callable[..., Any]) -> Callable[..., Any]:
    @wraps(view)
    def wrapped(request: Any, *args: Any, **kwargs: Any) -> Any:
        if not is_editor(request.user):
            raise PermissionDenied("Editors only.")
        return view(request, *args, **kwargs)

    return wrapped


def admin_required(view: Callable[..., Any]) -> Callable[..., Any]:
    @wraps(view)
    def wrapped(request: Any, *args: Any, **kwargs: Any) -> Any:
        if not is_admin(request.user):
            raise PermissionDenied("Admins only.")
        return view(request, *args, **kwargs)

    return wrapped
