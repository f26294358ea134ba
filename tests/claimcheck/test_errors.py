"""The application's error family, mapped to HTTP once for the API and once for pages."""

from __future__ import annotations

import json
from typing import Any

import pytest
from django import forms
from django.http import HttpRequest, HttpResponse
from django.test import Client, RequestFactory, override_settings
from django.urls import include, path

from claimcheck.errors import ApplicationError, Forbidden, NotFound, form_error
from claimcheck.models import ApiToken
from claimcheck.roles import NEEDS_ADMIN, require_admin, require_editor
from config.api import api
from desk import selectors


class Conflict(ApplicationError):
    status = 409
    error = "conflict"


def _refuse(request: HttpRequest, kind: str) -> HttpResponse:
    errors: dict[str, ApplicationError] = {
        "conflict": Conflict("the claim is being checked", field="status"),
        "missing": NotFound("no claim 7"),
        "admins": Forbidden("this needs the admins group", page_message=NEEDS_ADMIN),
    }
    raise errors[kind]


urlpatterns = [path("refuse/<str:kind>/", _refuse), path("", include("config.urls"))]


def test_the_api_answers_a_refusal_with_its_status_label_and_field() -> None:
    request = RequestFactory().get("/api/claims/7")
    response = api.on_exception(request, Conflict("the claim is being checked", field="status"))
    assert response.status_code == 409
    assert json.loads(response.content) == {
        "error": "conflict",
        "details": [{"field": "status", "message": "the claim is being checked"}],
    }


def test_the_api_answers_input_at_fault_as_a_422_with_a_list_of_fields() -> None:
    request = RequestFactory().post("/api/claims")
    response = api.on_exception(request, ApplicationError("too short", field="text"))
    assert response.status_code == 422
    assert json.loads(response.content) == {
        "error": "invalid request",
        "details": [{"field": "text", "message": "too short"}],
    }


def test_the_api_answers_a_refusal_without_a_field_with_its_message() -> None:
    response = api.on_exception(RequestFactory().get("/api/x"), NotFound("no claim 7"))
    assert response.status_code == 404
    assert json.loads(response.content) == {"error": "not found", "details": "no claim 7"}


@override_settings(ROOT_URLCONF=__name__)
@pytest.mark.parametrize(
    ("kind", "status", "says"),
    [
        ("conflict", 409, "the claim is being checked"),
        ("missing", 404, "Nothing here"),
        ("admins", 403, "This page needs the admin role"),
    ],
)
def test_a_page_shows_a_refusal_no_view_handled_with_its_status(
    editor_client: Client, kind: str, status: int, says: str
) -> None:
    response = editor_client.get(f"/refuse/{kind}/")
    assert response.status_code == status
    assert says in response.content.decode()


def test_role_checks_raise_forbidden_with_a_line_for_the_api_and_a_page_message(
    editor: Any, admin_user: Any
) -> None:
    require_editor(editor)
    require_admin(admin_user)
    with pytest.raises(Forbidden) as raised:
        require_admin(editor)
    assert raised.value.message == "this needs the admins group"
    assert raised.value.page_message == NEEDS_ADMIN


class _Form(forms.Form):
    text = forms.CharField()


def test_form_error_puts_the_refusal_beside_its_field_or_above_the_form() -> None:
    form = _Form(data={"text": "x"})
    assert form.is_valid()
    form_error(form, ApplicationError("too short", field="text"))
    form_error(form, ApplicationError("the queue is down", field="queue"))
    assert form.errors["text"] == ["too short"]
    assert form.non_field_errors() == ["the queue is down"]


@pytest.mark.django_db
@pytest.mark.parametrize(
    "path",
    ["/api/claims/999999", "/api/search-runs/999999", "/api/domains/nowhere.example"],
)
def test_an_outsider_is_refused_before_learning_whether_a_thing_exists(
    outsider: Any, path: str
) -> None:
    _, raw = ApiToken.issue(user=outsider, name="tests")
    response = Client(headers={"Authorization": f"Bearer {raw}"}).get(path)
    assert response.status_code == 403
    assert response.json()["error"] == "forbidden"


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("path", "details"),
    [
        ("/api/claims/999999", "no claim 999999"),
        ("/api/search-runs/999999", "no search run 999999"),
        ("/api/domains/nowhere.example", "no domain 'nowhere.example'"),
    ],
)
def test_a_missing_thing_is_a_404_in_the_api_shape(
    admin_api_token: str, path: str, details: str
) -> None:
    response = Client(headers={"Authorization": f"Bearer {admin_api_token}"}).get(path)
    assert response.status_code == 404
    assert response.json() == {"error": "not found", "details": details}


@pytest.mark.django_db
def test_a_crash_in_a_handler_is_a_500_in_the_api_shape(
    api: Client, monkeypatch: pytest.MonkeyPatch
) -> None:
    def crash(**kwargs: Any) -> None:
        raise RuntimeError("boom")

    monkeypatch.setattr(selectors, "claim_for_viewer", crash)
    response = api.get("/api/claims/1")
    assert response.status_code == 500
    assert response.json() == {"error": "unexpected error", "details": "RuntimeError"}
