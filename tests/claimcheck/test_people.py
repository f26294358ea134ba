"""Managing people: an admin adds a viewer, an editor or an admin (first password shown once),
changes a role, sets a new password, deactivates an account (its tokens stop at once) and
issues and revokes API tokens; bad input changes nothing."""

from __future__ import annotations

import io
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.core.management import CommandError, call_command

from claimcheck.models import ApiToken
from claimcheck.people import (
    PersonError,
    person_active_set,
    person_add,
    person_password_reset,
    person_role_change,
    role_of,
    token_issue,
    token_revoke,
)
from claimcheck.roles import is_admin, is_editor, is_viewer

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize(
    ("role", "viewer", "editor", "admin"),
    [("viewer", True, False, False), ("editor", True, True, False), ("admin", True, True, True)],
)
def test_a_person_added_with_a_role_can_sign_in_with_the_password_shown_once(
    role: str, viewer: bool, editor: bool, admin: bool
) -> None:
    user, password = person_add(username="dana", role=role)

    assert user.check_password(password) and user.is_active
    assert (is_viewer(user), is_editor(user), is_admin(user)) == (viewer, editor, admin)
    assert role_of(user) == role


@pytest.mark.parametrize(
    ("username", "role", "field"),
    [("", "editor", "username"), ("has space", "editor", "username"), ("ok", "boss", "role")],
)
def test_bad_input_adds_nobody(username: str, role: str, field: str) -> None:
    with pytest.raises(PersonError) as refused:
        person_add(username=username, role=role)

    assert refused.value.field == field
    assert not User.objects.exists()


def test_a_taken_name_is_a_conflict(editor: Any) -> None:
    with pytest.raises(PersonError) as refused:
        person_add(username=editor.username.upper(), role="viewer")

    assert refused.value.status == 409


def test_a_role_change_and_a_new_password_take_effect(editor: Any) -> None:
    person_role_change(user=editor, role="viewer")
    editor = User.objects.get(pk=editor.pk)
    password = person_password_reset(user=editor)

    assert role_of(editor) == "viewer" and not is_editor(editor)
    assert User.objects.get(pk=editor.pk).check_password(password)


def test_the_last_admin_keeps_the_role_and_the_account(admin_user: Any) -> None:
    with pytest.raises(PersonError):
        person_role_change(user=admin_user, role="editor")
    with pytest.raises(PersonError):
        person_active_set(user=admin_user, active=False)

    assert is_admin(User.objects.get(pk=admin_user.pk))


def test_a_deactivated_account_cannot_use_its_token_and_a_revoked_token_stops(
    editor: Any, admin_user: Any
) -> None:
    _, raw = token_issue(user=editor, name="newsroom bot")
    assert ApiToken.authenticate(raw) is not None

    person_active_set(user=editor, active=False, by=admin_user)
    assert ApiToken.authenticate(raw) is None
    with pytest.raises(PersonError):
        token_issue(user=editor, name="another")

    person_active_set(user=editor, active=True, by=admin_user)
    token = ApiToken.authenticate(raw)
    assert token is not None
    token_revoke(token=token)
    assert ApiToken.authenticate(raw) is None


def test_nobody_deactivates_themselves(admin_user: Any) -> None:
    person_add(username="second", role="admin")
    with pytest.raises(PersonError):
        person_active_set(user=admin_user, active=False, by=admin_user)


def test_the_command_adds_lists_and_refuses_with_a_clear_line() -> None:
    out = io.StringIO()
    call_command("people", "add", "sam", "--role", "viewer", stdout=out)
    assert "Added sam (viewer). Password, shown once:" in out.getvalue()
    password = out.getvalue().split()[-1]
    assert User.objects.get(username="sam").check_password(password)

    listing = io.StringIO()
    call_command("people", "list", stdout=listing)
    assert "sam\tviewer\tactive" in listing.getvalue()

    with pytest.raises(CommandError, match="has an account already"):
        call_command("people", "add", "SAM", stdout=io.StringIO())
    with pytest.raises(CommandError, match="no user named"):
        call_command("people", "password", "nobody", stdout=io.StringIO())
