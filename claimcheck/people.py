"""Who may use the desk, managed by an admin: add a person with a role, change the role, set a
new password, deactivate or reactivate an account, issue and revoke API tokens. The desk's
People pages and `manage.py people` call these; each refuses bad input with `PersonError`
before it changes anything, and a password or a token is returned once, never stored in clear.

Roles are groups (`claimcheck.roles`): a viewer reads the desk, an editor also reviews,
submits and overrides, an admin also curates the registry and manages people."""

from __future__ import annotations

import re
import secrets
from dataclasses import dataclass

from django.contrib.auth.models import Group, User
from django.db import transaction
from django.utils import timezone

from claimcheck.errors import ApplicationError
from claimcheck.models import ApiToken
from claimcheck.roles import ADMINS, EDITORS, VIEWERS

ROLES = {
    "viewer": (VIEWERS,),
    "editor": (EDITORS,),
    "admin": (EDITORS, ADMINS),
}
ROLE_NAMES = tuple(ROLES)
_ROLE_GROUPS = (VIEWERS, EDITORS, ADMINS)
USERNAME = re.compile(r"^[\w.@+-]{1,150}$")
TOKEN_NAME_MAX = 100


class PersonError(ApplicationError):
    """A person's change that cannot be made: bad input (422) or a state that refuses it
    (409: the name is taken, the last admin would lose the role)."""

    def __init__(self, message: str, *, field: str = "", conflict: bool = False) -> None:
        super().__init__(message, field=field)
        if conflict:
            self.status = 409
            self.error = "conflict"


@dataclass(frozen=True)
class Person:
    user: User
    role: str
    tokens: list[ApiToken]


def role_of(user: User) -> str:
    """The person's role: admin, editor, viewer, or "" for none."""
    return _role_in(user)


def new_password() -> str:
    return secrets.token_urlsafe(12)


def _role_set(user: User, role: str) -> None:
    if role not in ROLES:
        raise PersonError(f"the role is one of {', '.join(ROLE_NAMES)}", field="role")
    groups = {name: Group.objects.get_or_create(name=name)[0] for name in _ROLE_GROUPS}
    user.groups.remove(*groups.values())
    user.groups.add(*(groups[name] for name in ROLES[role]))


def _other_active_admins(user: User) -> bool:
    admins = User.objects.filter(is_active=True).exclude(pk=user.pk)
    return admins.filter(is_superuser=True).exists() or admins.filter(groups__name=ADMINS).exists()


@transaction.atomic
def person_add(*, username: str, role: str, email: str = "") -> tuple[User, str]:
    """A new active account with `role`; returns it with its first password, shown once."""
    name = (username or "").strip()
    if not USERNAME.match(name):
        raise PersonError("a username is 1 to 150 letters, digits and . @ + - _", field="username")
    if role not in ROLES:
        raise PersonError(f"the role is one of {', '.join(ROLE_NAMES)}", field="role")
    if User.objects.filter(username__iexact=name).exists():
        raise PersonError(f"{name} has an account already", field="username", conflict=True)
    password = new_password()
    user = User.objects.create_user(username=name, email=(email or "").strip(), password=password)
    _role_set(user, role)
    return user, password


@transaction.atomic
def person_role_change(*, user: User, role: str) -> None:
    """Give the person another role. The last active admin keeps the role."""
    if role != "admin" and role_of(user) == "admin" and not _other_active_admins(user):
        raise PersonError("this is the last admin: make another admin first", conflict=True)
    _role_set(user, role)


def person_password_reset(*, user: User) -> str:
    """A new password for the account, returned once; the old one stops working."""
    password = new_password()
    user.set_password(password)
    user.save(update_fields=["password"])
    return password


@transaction.atomic
def person_active_set(*, user: User, active: bool, by: User | None = None) -> None:
    """Deactivate an account (it cannot sign in, and its API tokens stop working at once) or
    reactivate it. Nobody deactivates themselves, nor the last active admin."""
    if not active:
        if by is not None and by.pk == user.pk:
            raise PersonError("you cannot deactivate your own account", conflict=True)
        if role_of(user) == "admin" and not _other_active_admins(user):
            raise PersonError("this is the last admin: make another admin first", conflict=True)
    user.is_active = active
    user.save(update_fields=["is_active"])


def token_issue(*, user: User, name: str) -> tuple[ApiToken, str]:
    """An API token for the account; the raw token is returned once."""
    cleaned = (name or "").strip()
    if not cleaned or len(cleaned) > TOKEN_NAME_MAX:
        raise PersonError(
            f"say what the token is for, in at most {TOKEN_NAME_MAX} characters", field="name"
        )
    if not user.is_active:
        raise PersonError("the account is deactivated: reactivate it first", conflict=True)
    return ApiToken.issue(user=user, name=cleaned)


def token_revoke(*, token: ApiToken) -> None:
    """The token stops working at once; it stays listed as revoked."""
    if token.revoked_at is None:
        token.revoked_at = timezone.now()
        token.save(update_fields=["revoked_at"])


def people() -> list[Person]:
    """Every account, by name, with its role and its tokens (newest first)."""
    users = list(User.objects.order_by("username").prefetch_related("groups"))
    tokens: dict[int, list[ApiToken]] = {}
    for token in ApiToken.objects.order_by("-created_at", "-id"):
        tokens.setdefault(token.user_id, []).append(token)
    return [Person(user=u, role=_role_in(u), tokens=tokens.get(u.pk, [])) for u in users]


def _role_in(user: User) -> str:
    """The role, from the user's groups (prefetched where many are listed)."""
    names = {group.name for group in user.groups.all()}
    if user.is_superuser or ADMINS in names:
        return "admin"
    if EDITORS in names:
        return "editor"
    return "viewer" if VIEWERS in names else ""
