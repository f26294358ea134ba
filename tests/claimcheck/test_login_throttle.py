"""Repeated wrong passwords lock that username out from that address; pages send a
Content-Security-Policy that allows no inline script, and no template holds one."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest
from django.conf import settings
from django.test import Client

from tests.conftest import PASSWORD
from tests.factories import UserFactory

pytestmark = pytest.mark.django_db


def login(client: Client, username: str, password: str) -> Any:
    return client.post("/login/", {"username": username, "password": password})


def test_wrong_passwords_lock_the_account_even_for_the_right_one(editor: Any) -> None:
    client = Client()
    for _ in range(settings.AXES_FAILURE_LIMIT):
        assert login(client, "edna", "wrong-guess").status_code == 200
    response = login(client, "edna", PASSWORD)
    assert response.status_code == 429
    assert "Too many failed logins" in response.content.decode()
    assert client.get("/").status_code == 302  # still not signed in


def test_each_wrong_password_up_to_the_limit_is_answered_as_one(editor: Any) -> None:
    """The README's "after 5 wrong passwords": five answers of "didn't match", the fifth saying
    the username is now locked, and only the sixth attempt refused."""
    assert settings.AXES_FAILURE_LIMIT == 5
    client = Client()
    answers = [login(client, "edna", f"wrong-{n}") for n in range(1, 6)]
    assert [r.status_code for r in answers] == [200] * 5
    assert all("username and password didn" in r.content.decode() for r in answers)
    assert ["locked on this" in r.content.decode() for r in answers] == [False] * 4 + [True]
    assert "wrong 5 times" in answers[-1].content.decode()
    sixth = login(client, "edna", "wrong-6")
    assert sixth.status_code == 429
    assert "Too many failed logins" in sixth.content.decode()


def test_a_lockout_leaves_other_users_alone(editor: Any) -> None:
    UserFactory(username="ada", groups=["admins"])
    client = Client()
    for _ in range(settings.AXES_FAILURE_LIMIT):
        login(client, "edna", "wrong-guess")
    assert login(client, "ada", PASSWORD).status_code == 302


def test_a_success_before_the_limit_resets_the_count(editor: Any) -> None:
    client = Client()
    for _ in range(settings.AXES_FAILURE_LIMIT - 1):
        login(client, "edna", "wrong-guess")
    assert login(client, "edna", PASSWORD).status_code == 302
    client.post("/logout/")
    for _ in range(settings.AXES_FAILURE_LIMIT - 1):
        assert login(client, "edna", "wrong-guess").status_code == 200
    assert login(client, "edna", PASSWORD).status_code == 302


@pytest.mark.parametrize("url", ["/login/", "/", "/claims/new/", "/admin/login/"])
def test_pages_send_a_policy_that_allows_no_inline_script(editor_client: Client, url: str) -> None:
    policy = editor_client.get(url)["Content-Security-Policy"]
    directives = dict(part.strip().split(" ", 1) for part in policy.split(";"))
    assert directives["script-src"] == "'self'"
    assert "'unsafe-inline'" not in directives["script-src"]
    assert "'unsafe-eval'" not in policy
    assert directives["object-src"] == "'none'"


def test_no_template_holds_an_inline_script_or_event_handler() -> None:
    inline_script = re.compile(r"<script(?![^>]*\bsrc=)(?![^>]*application/json)[^>]*>", re.I)
    handler = re.compile(r"\son[a-z]+\s*=", re.I)
    found = []
    for path in Path(settings.BASE_DIR, "templates").rglob("*.html"):
        text = path.read_text(encoding="utf-8")
        if inline_script.search(text) or handler.search(text) or "javascript:" in text:
            found.append(str(path))
    assert found == []


def test_no_template_asks_htmx_to_evaluate_script() -> None:
    """Trigger filters (`change[...]`), hx-on and js: values are run with eval, which the
    policy refuses; htmx would then silently ignore the trigger."""
    evaluated = re.compile(r'hx-trigger="[^"]*\[|hx-on|hx-vals=.js:|hx-vars', re.I)
    found = [
        str(path)
        for path in Path(settings.BASE_DIR, "templates").rglob("*.html")
        if evaluated.search(path.read_text(encoding="utf-8"))
    ]
    assert found == []
