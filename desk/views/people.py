"""People, for admins: who may use the desk, in what role; add a person, change a role, set a
new password, deactivate or reactivate an account, issue and revoke API tokens. A new password
or token is shown once, on the page that answers the form, and never again."""

from __future__ import annotations

from typing import Any

from django import forms
from django.contrib import messages
from django.contrib.auth.models import User
from django.http import Http404, HttpResponse
from django.shortcuts import redirect, render
from django.views.decorators.http import require_http_methods, require_POST

from claimcheck.errors import ApplicationError, form_error
from claimcheck.forms import DeskForm
from claimcheck.models import ApiToken
from claimcheck.people import (
    ROLE_NAMES,
    TOKEN_NAME_MAX,
    people,
    person_active_set,
    person_add,
    person_password_reset,
    person_role_change,
    token_issue,
    token_revoke,
)
from claimcheck.roles import AuthenticatedHttpRequest, admin_required

ROLE_CHOICES = [(name, name.capitalize()) for name in ROLE_NAMES]


class PersonForm(DeskForm):
    username = forms.CharField(label="Username", max_length=150)
    role = forms.ChoiceField(label="Role", choices=ROLE_CHOICES, initial="editor")
    email = forms.EmailField(label="Email (optional)", required=False)


class TokenForm(DeskForm):
    name = forms.CharField(label="What the token is for", max_length=TOKEN_NAME_MAX)


def _page(
    request: AuthenticatedHttpRequest,
    *,
    form: PersonForm | None = None,
    secret: dict[str, str] | None = None,
    status: int = 200,
) -> HttpResponse:
    context: dict[str, Any] = {
        "nav": "people",
        "people": people(),
        "form": form or PersonForm(),
        "roles": ROLE_CHOICES,
        "secret": secret,
    }
    return render(request, "desk/people.html", context, status=status)


def _person(pk: int) -> User:
    user = User.objects.filter(pk=pk).first()
    if user is None:
        raise Http404("no such person")
    return user


@admin_required
@require_http_methods(["GET", "POST"])
def people_list(request: AuthenticatedHttpRequest) -> HttpResponse:
    if request.method != "POST":
        return _page(request)
    form = PersonForm(request.POST)
    if form.is_valid():
        try:
            user, password = person_add(**form.cleaned_data)
        except ApplicationError as exc:
            form_error(form, exc)
        else:
            return _page(
                request,
                secret={
                    "what": f"{user.username}'s password",
                    "value": password,
                    "how": f"Give it to {user.username}; they sign in with it at /login/.",
                },
            )
    return _page(request, form=form, status=422)


def _act(request: AuthenticatedHttpRequest, done: str, act: Any) -> HttpResponse:
    try:
        act()
    except ApplicationError as exc:
        messages.error(request, f"Nothing changed: {exc.message}.")
    else:
        messages.success(request, done)
    return redirect("people")


@admin_required
@require_POST
def person_role(request: AuthenticatedHttpRequest, pk: int) -> HttpResponse:
    user = _person(pk)
    role = request.POST.get("role", "")
    return _act(
        request,
        f"{user.username} is now {role}.",
        lambda: person_role_change(user=user, role=role),
    )


@admin_required
@require_POST
def person_active(request: AuthenticatedHttpRequest, pk: int) -> HttpResponse:
    user = _person(pk)
    active = request.POST.get("active") == "on"
    state = "can sign in again" if active else "is deactivated: no sign-in, no API"
    return _act(
        request,
        f"{user.username} {state}.",
        lambda: person_active_set(user=user, active=active, by=request.user),
    )


@admin_required
@require_POST
def person_password(request: AuthenticatedHttpRequest, pk: int) -> HttpResponse:
    user = _person(pk)
    password = person_password_reset(user=user)
    return _page(
        request,
        secret={
            "what": f"{user.username}'s new password",
            "value": password,
            "how": "The old one no longer works. Give this one to them.",
        },
    )


@admin_required
@require_POST
def person_token(request: AuthenticatedHttpRequest, pk: int) -> HttpResponse:
    user = _person(pk)
    form = TokenForm(request.POST)
    if not form.is_valid():
        messages.error(request, "Nothing issued: say what the token is for.")
        return redirect("people")
    try:
        token, raw = token_issue(user=user, name=form.cleaned_data["name"])
    except ApplicationError as exc:
        messages.error(request, f"Nothing issued: {exc.message}.")
        return redirect("people")
    return _page(
        request,
        secret={
            "what": f"API token “{token.name}” for {user.username}",
            "value": raw,
            "how": "Send it as Authorization: Bearer <token>. It is not shown again.",
        },
    )


@admin_required
@require_POST
def person_token_revoke(request: AuthenticatedHttpRequest, pk: int, token_id: int) -> HttpResponse:
    token = ApiToken.objects.filter(pk=token_id, user_id=pk).first()
    if token is None:
        raise Http404("no such token")
    return _act(request, f"Token {token.prefix}… revoked.", lambda: token_revoke(token=token))
