"""Who can reach what: pages need a user with the right group, the API a bearer token."""

from typing import Any

import pytest
from django.core.management import call_command
from django.test import Client
from django.urls import reverse

from claimcheck.models import ApiToken

pytestmark = pytest.mark.django_db

EDITOR_PAGES = ["home", "dashboard", "search_runs"]
ADMIN_PAGES = ["domains"]
# Pages a viewer may read as well: the queue and the dashboard.
VIEWER_PAGES = ["home", "dashboard"]


@pytest.mark.parametrize("name", EDITOR_PAGES + ADMIN_PAGES)
def test_anonymous_users_are_sent_to_login(client: Client, name: str) -> None:
    url = reverse(name)
    response = client.get(url)
    assert response.status_code == 302
    assert response["Location"].startswith(reverse("login"))
    assert f"next={url}" in response["Location"]


@pytest.mark.parametrize("name", EDITOR_PAGES + ADMIN_PAGES)
def test_an_outsider_without_a_group_gets_403(outsider_client: Client, name: str) -> None:
    response = outsider_client.get(reverse(name))
    assert response.status_code == 403
    if name in ADMIN_PAGES:
        assert b"add you to the admins group" in response.content
    elif name in VIEWER_PAGES:
        assert b"a role on the desk (viewer, editor or admin)" in response.content
    else:
        assert b"add you to the editors group" in response.content


@pytest.mark.parametrize("name", EDITOR_PAGES)
def test_editors_can_open_editor_pages(editor_client: Client, name: str) -> None:
    response = editor_client.get(reverse(name))
    assert response.status_code == 200
    for label in (b"Claims", b"Search runs", b"Dashboard"):
        assert label in response.content
    # Editors are not shown a link to a page they may not open.
    assert b'href="/domains/"' not in response.content


@pytest.mark.parametrize("name", ADMIN_PAGES)
def test_editors_cannot_open_admin_pages(editor_client: Client, name: str) -> None:
    assert editor_client.get(reverse(name)).status_code == 403


@pytest.mark.parametrize("name", EDITOR_PAGES + ADMIN_PAGES)
def test_admins_can_open_every_page(admin_client_: Client, name: str) -> None:
    response = admin_client_.get(reverse(name))
    assert response.status_code == 200
    assert b'href="/domains/"' in response.content


def test_the_login_page_and_healthz_need_no_user(client: Client) -> None:
    assert client.get(reverse("login")).status_code == 200
    assert client.get(reverse("healthz")).status_code == 200


def test_logging_in_with_a_bad_password_says_so(client: Client, editor: Any) -> None:
    response = client.post(reverse("login"), {"username": "edna", "password": "wrong"})
    assert response.status_code == 200
    assert b"didn&#x27;t match" in response.content or b"didn't match" in response.content


def test_logout_ends_the_session(editor_client: Client) -> None:
    editor_client.post(reverse("logout"))
    assert editor_client.get(reverse("home")).status_code == 302


def test_api_calls_without_a_token_get_401(client: Client) -> None:
    response = client.get("/api/me")
    assert response.status_code == 401
    assert response.json()["error"] == "unauthorized"


def test_api_calls_with_a_wrong_token_get_401(client: Client, api_token: str) -> None:
    response = client.get("/api/me", headers={"Authorization": f"Bearer {api_token}x"})
    assert response.status_code == 401


def test_api_calls_with_a_session_but_no_token_get_401(editor_client: Client) -> None:
    assert editor_client.get("/api/me").status_code == 401


def test_api_calls_with_a_valid_token_see_their_user(api: Client) -> None:
    response = api.get("/api/me")
    assert response.status_code == 200
    assert response.json() == {"username": "edna", "editor": True, "admin": False}


def test_a_revoked_token_no_longer_works(
    client: Client, editor: Any, capsys: pytest.CaptureFixture[str]
) -> None:
    call_command("apitoken", "create", "edna", "--name", "ci")
    raw = capsys.readouterr().out.strip().splitlines()[-1]
    headers = {"Authorization": f"Bearer {raw}"}
    assert client.get("/api/me", headers=headers).status_code == 200
    token = ApiToken.objects.get(name="ci")
    assert token.digest != raw and raw not in token.digest
    call_command("apitoken", "revoke", token.prefix)
    assert client.get("/api/me", headers=headers).status_code == 401


def test_the_openapi_docs_are_served_without_any_cdn(editor_client: Client) -> None:
    response = editor_client.get("/api/docs")
    assert response.status_code == 200
    assert b"cdn." not in response.content
    assert b"/static/ninja/" in response.content


def test_the_openapi_docs_need_a_signed_in_user(client: Client) -> None:
    assert client.get("/api/docs").status_code == 302
