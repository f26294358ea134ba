"""People from the desk: an admin adds a viewer or an editor (the password shown once works),
sets a new password, deactivates an account and issues and revokes API tokens from the People
page; nobody else may open it. A viewer reads the desk and can change nothing."""

from __future__ import annotations

import re
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.test import Client
from django.urls import reverse

from claimcheck.models import ApiToken
from claims.models import Outcome
from decisions.models import Override
from tests.desk.desk import text
from tests.factories import UserFactory, VerdictFactory

pytestmark = pytest.mark.django_db

SECRET = re.compile(r'<code class="secret-value" id="secret-value">([^<]+)</code>')


def _signs_in(username: str, password: str) -> bool:
    """Through the login page, as the person would."""
    response = Client().post(reverse("login"), {"username": username, "password": password})
    return response.status_code == 302


def _secret(response: Any) -> str:
    found = SECRET.search(text(response))
    assert found, text(response)[:2000]
    return found.group(1)


def test_an_admin_adds_a_viewer_whose_password_shown_once_signs_in(admin_client_: Client) -> None:
    response = admin_client_.post(reverse("people"), {"username": "vera", "role": "viewer"})

    assert response.status_code == 200
    password = _secret(response)
    assert "shown this once" in text(response)
    assert _signs_in("vera", password)
    assert password not in text(admin_client_.get(reverse("people")))


def test_a_taken_name_is_refused_beside_its_field_and_adds_nobody(
    admin_client_: Client, editor: Any
) -> None:
    before = User.objects.count()

    response = admin_client_.post(
        reverse("people"), {"username": editor.username, "role": "editor"}
    )

    assert response.status_code == 422
    assert "has an account already" in text(response)
    assert User.objects.count() == before


def test_a_new_password_and_a_deactivation_take_effect(admin_client_: Client, editor: Any) -> None:
    response = admin_client_.post(reverse("person_password", args=[editor.pk]))
    password = _secret(response)
    assert _signs_in(editor.username, password)

    admin_client_.post(reverse("person_active", args=[editor.pk]), {"active": "off"})

    assert not User.objects.get(pk=editor.pk).is_active
    assert not _signs_in(editor.username, password)


def test_a_token_issued_on_the_page_works_until_it_is_revoked(
    admin_client_: Client, editor: Any
) -> None:
    response = admin_client_.post(
        reverse("person_token", args=[editor.pk]), {"name": "newsroom bot"}
    )
    raw = _secret(response)
    api = Client(headers={"Authorization": f"Bearer {raw}"})
    assert api.get("/api/me").json()["username"] == editor.username

    token = ApiToken.objects.get(user=editor, name="newsroom bot")
    admin_client_.post(reverse("person_token_revoke", args=[editor.pk, token.pk]))

    assert api.get("/api/me").status_code == 401


@pytest.mark.parametrize("who", ["editor_client", "outsider_client"])
def test_only_an_admin_opens_the_people_page(who: str, request: pytest.FixtureRequest) -> None:
    client: Client = request.getfixturevalue(who)

    assert client.get(reverse("people")).status_code == 403
    assert client.post(reverse("people"), {"username": "x", "role": "admin"}).status_code == 403
    assert not User.objects.filter(username="x").exists()


def test_a_viewer_reads_the_desk_and_changes_nothing() -> None:
    viewer: Any = UserFactory(username="vera", groups=["viewers"])
    verdict: Any = VerdictFactory(outcome=Outcome.TRUE)
    claim = verdict.claim
    client = Client()
    client.force_login(viewer)

    queue = client.get(reverse("home"))
    page = client.get(reverse("claim_detail", args=[claim.pk]))

    assert queue.status_code == 200 and claim.text in text(queue)
    assert 'id="bulk-form"' in text(queue) and "Mark reviewed" not in text(queue)
    assert page.status_code == 200 and "Override the outcome" not in text(page)
    assert client.get(reverse("dashboard")).status_code == 200
    refused = client.post(
        reverse("claim_override", args=[claim.pk]), {"outcome": "false", "reason": "no"}
    )
    assert refused.status_code == 403
    assert not Override.objects.exists()
