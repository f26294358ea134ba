"""The domain admin pages: admins only; search, filter, edit in place, add, remove, import a CSV
after a preview, export; every change recorded with who and when."""

from __future__ import annotations

from typing import Any

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.test import Client
from django.test.client import encode_multipart
from django.urls import reverse

from registry.models import Domain, DomainAction, DomainChange, Tier
from tests.factories import DomainFactory
from tests.rawwsgi import wsgi_request

pytestmark = pytest.mark.django_db

HX = {"HX-Request": "true"}


def text(response: Any) -> str:
    return response.content.decode()


@pytest.fixture
def domain() -> Domain:
    made: Any = DomainFactory(name="wire.example", tier=Tier.WIRE)
    return made


def _gets(domain: Domain) -> list[str]:
    return [
        reverse("domains"),
        reverse("domain_import"),
        reverse("domain_export"),
        reverse("domain_changes"),
        reverse("domain_edit", args=[domain.pk]),
    ]


def _posts(domain: Domain) -> list[tuple[str, dict[str, str]]]:
    return [
        (reverse("domain_add"), {"new-name": "new.example", "new-tier": "other"}),
        (reverse("domain_edit", args=[domain.pk]), {f"d{domain.pk}-tier": "official"}),
        (reverse("domain_remove", args=[domain.pk]), {}),
        (reverse("domain_import"), {"action": "apply", "text": "name,tier\nx.example,wire\n"}),
    ]


def test_anonymous_visitors_are_sent_to_login(domain: Domain) -> None:
    client = Client()
    for url in _gets(domain):
        assert reverse("login") in client.get(url)["Location"], url
    for url, data in _posts(domain):
        assert reverse("login") in client.post(url, data)["Location"], url


@pytest.mark.parametrize("persona", ["outsider_client", "editor_client"])
def test_outsiders_and_editors_cannot_touch_the_registry(
    request: pytest.FixtureRequest, persona: str, domain: Domain
) -> None:
    client: Client = request.getfixturevalue(persona)
    before = set(Domain.objects.values_list("name", "tier"))
    for url in _gets(domain):
        assert client.get(url).status_code == 403, url
    for url, data in _posts(domain):
        assert client.post(url, data, headers=HX).status_code == 403, url
    assert set(Domain.objects.values_list("name", "tier")) == before
    refused = text(client.get(reverse("domains")))
    assert "This page needs the admin role" in refused
    assert "add you to the admins group" in refused and "editors group" not in refused


def test_admins_can_open_every_domain_page(admin_client_: Client, domain: Domain) -> None:
    for url in _gets(domain):
        assert admin_client_.get(url).status_code == 200, url


def test_the_list_searches_and_filters_by_tier_and_access(admin_client_: Client) -> None:
    DomainFactory(name="gov.example", tier=Tier.OFFICIAL)
    DomainFactory(name="spam.example", tier=Tier.OTHER, denied=True)
    DomainFactory(name="wire.example", tier=Tier.WIRE)

    def names(**params: str) -> set[str]:
        body = text(admin_client_.get(reverse("domains"), params))
        return {n for n in ("gov.example", "spam.example", "wire.example") if f">{n}<" in body}

    assert names(q="gov") == {"gov.example"}
    assert names(tier="wire") == {"wire.example"}
    assert names(access="denied") == {"spam.example"}
    assert "gov.example" in names(access="allowed")
    assert "spam.example" not in names(access="allowed")


def test_the_list_says_what_to_do_when_nothing_matches(admin_client_: Client) -> None:
    body = text(admin_client_.get(reverse("domains"), {"q": "nothing-like-this"}))
    assert "No domains match these filters." in body and "clear the filters" in body


def test_an_inline_edit_returns_the_form_row_then_the_saved_row(
    admin_client_: Client, admin_user: Any, domain: Domain
) -> None:
    form = admin_client_.get(reverse("domain_edit", args=[domain.pk]), headers=HX)
    assert text(form).lstrip().startswith(f'<tr id="domain-{domain.pk}" class="editing">')

    saved = admin_client_.post(
        reverse("domain_edit", args=[domain.pk]),
        {
            f"d{domain.pk}-tier": "official",
            f"d{domain.pk}-weight_override": "0.9",
            f"d{domain.pk}-denied": "on",
            f"d{domain.pk}-note": "state wire",
        },
        headers=HX,
    )

    assert saved.status_code == 200
    assert text(saved).lstrip().startswith(f'<tr id="domain-{domain.pk}">')
    domain.refresh_from_db()
    assert (domain.tier, domain.weight_override, domain.denied, domain.note) == (
        "official",
        0.9,
        True,
        "state wire",
    )
    assert domain.updated_by == admin_user
    change = DomainChange.objects.get()
    assert change.action == DomainAction.UPDATED and change.user == admin_user
    assert change.changes["tier"] == ["wire", "official"]
    assert change.changes["denied"] == [False, True]


def test_an_invalid_inline_edit_answers_422_with_the_errors_and_changes_nothing(
    admin_client_: Client, domain: Domain
) -> None:
    response = admin_client_.post(
        reverse("domain_edit", args=[domain.pk]),
        {f"d{domain.pk}-tier": "wire", f"d{domain.pk}-weight_override": "1.5"},
        headers=HX,
    )
    assert response.status_code == 422
    assert "less than or equal to 1" in text(response)
    domain.refresh_from_db()
    assert domain.weight_override is None
    assert DomainChange.objects.count() == 0


def test_cancel_brings_the_row_back_unchanged(admin_client_: Client, domain: Domain) -> None:
    response = admin_client_.get(reverse("domain_row", args=[domain.pk]), headers=HX)
    assert text(response).lstrip().startswith(f'<tr id="domain-{domain.pk}">')


def test_editing_without_javascript_uses_a_page_and_redirects(
    admin_client_: Client, domain: Domain
) -> None:
    assert "<title>Edit wire.example" in text(
        admin_client_.get(reverse("domain_edit", args=[domain.pk]))
    )
    response = admin_client_.post(
        reverse("domain_edit", args=[domain.pk]), {f"d{domain.pk}-tier": "trade"}
    )
    assert response.status_code == 302
    domain.refresh_from_db()
    assert domain.tier == Tier.TRADE


def test_a_domain_is_added_and_recorded(admin_client_: Client, admin_user: Any) -> None:
    response = admin_client_.post(
        reverse("domain_add"), {"new-name": "News.Example", "new-tier": "trade"}, follow=True
    )
    assert "news.example added." in text(response)
    added = Domain.objects.get(name="news.example")
    assert added.tier == Tier.TRADE and added.updated_by == admin_user
    change = DomainChange.objects.get()
    assert (change.action, change.name, change.user, change.via) == (
        "created",
        "news.example",
        admin_user,
        "web",
    )


def test_a_url_instead_of_a_domain_is_refused_on_the_name_field(admin_client_: Client) -> None:
    response = admin_client_.post(
        reverse("domain_add"), {"new-name": "https://x.example/", "new-tier": "wire"}
    )
    assert response.status_code == 422
    body = text(response)
    assert "give a domain name, not a URL" in body
    assert '<details class="card add-domain" open>' in body
    assert not Domain.objects.filter(name="x.example").exists()


def test_adding_a_domain_twice_is_refused(admin_client_: Client, domain: Domain) -> None:
    response = admin_client_.post(
        reverse("domain_add"), {"new-name": "wire.example", "new-tier": "other"}
    )
    assert response.status_code == 422
    assert "already in the registry" in text(response)
    assert Domain.objects.filter(name="wire.example").count() == 1


def test_removing_a_domain_removes_its_row_and_keeps_a_record(
    admin_client_: Client, admin_user: Any, domain: Domain
) -> None:
    response = admin_client_.post(reverse("domain_remove", args=[domain.pk]), headers=HX)
    assert response.status_code == 200
    # Nothing takes the row's place; the message box is swapped in out of band.
    assert text(response).strip().startswith('<div id="messages"')
    assert 'hx-swap-oob="true"' in text(response) and "wire.example removed." in text(response)
    assert not Domain.objects.filter(pk=domain.pk).exists()
    change = DomainChange.objects.get()
    assert change.action == DomainAction.DELETED and change.user == admin_user
    assert change.changes["tier"] == ["wire", None]
    history = text(admin_client_.get(reverse("domain_changes")))
    assert "wire.example" in history and "Removed" in history and "ada" in history


def test_the_weight_column_shows_the_tier_default_as_a_number(
    admin_client_: Client, domain: Domain
) -> None:
    body = text(admin_client_.get(reverse("domains")))
    assert "0.80 <span" in body and "(tier default)" in body
    assert ">tier<" not in body


def test_the_history_says_allowed_and_denied_not_python_booleans(admin_client_: Client) -> None:
    made = admin_client_.post(
        reverse("domain_add"), {"new-name": "spam.example", "new-tier": "other", "new-denied": "on"}
    )
    assert made.status_code in (200, 302), text(made)
    history = text(admin_client_.get(reverse("domain_changes")))
    assert "spam.example" in history and ">denied</strong>" in history
    assert "True" not in history and "False" not in history


CSV = (
    "name,tier,weight_override,denied,note\nwire.example,wire,,false,\n"
    "new.example,official,0.9,false,agency\nwire2.example,trade,,true,\n"
)


def test_an_import_shows_a_preview_and_changes_nothing_until_applied(
    admin_client_: Client, domain: Domain
) -> None:
    DomainFactory(name="wire2.example", tier=Tier.TRADE)
    upload = SimpleUploadedFile("domains.csv", CSV.encode(), content_type="text/csv")

    response = admin_client_.post(reverse("domain_import"), {"action": "preview", "file": upload})

    body = text(response)
    assert response.status_code == 200
    assert "1 added" in body and "1 changed" in body and "1 unchanged" in body
    assert "Apply 2 changes" in body
    assert not Domain.objects.filter(name="new.example").exists()


def test_applying_an_import_saves_every_line_and_records_each_change(
    admin_client_: Client, admin_user: Any, domain: Domain
) -> None:
    response = admin_client_.post(
        reverse("domain_import"), {"action": "apply", "text": CSV}, follow=True
    )
    assert "Import applied: 2 added, 0 changed." in text(response)
    assert Domain.objects.get(name="new.example").weight_override == 0.9
    assert Domain.objects.get(name="wire2.example").denied
    changes = DomainChange.objects.filter(via="csv import")
    assert {c.name for c in changes} == {"new.example", "wire2.example"}
    assert all(c.user == admin_user for c in changes)


def test_an_import_with_bad_lines_lists_each_and_cannot_be_applied(
    admin_client_: Client, domain: Domain
) -> None:
    bad = (
        "name,tier,weight_override\nok.example,wire,\nbad.example,celebrity,\n"
        "worse.example,wire,7\n"
    )
    preview = admin_client_.post(reverse("domain_import"), {"action": "preview", "text": bad})
    body = text(preview)
    assert preview.status_code == 422
    assert "Line 3" in body and "celebrity" in body
    assert "Line 4" in body and "between 0 and 1" in body
    assert "Apply" not in body

    applied = admin_client_.post(reverse("domain_import"), {"action": "apply", "text": bad})
    assert applied.status_code == 422
    assert not Domain.objects.filter(name="ok.example").exists()


@pytest.mark.parametrize("action", ["preview", "apply"])
def test_an_uploaded_file_with_a_nul_character_names_the_line_and_writes_nothing(
    admin_client_: Client, domain: Domain, action: str
) -> None:
    """Sent as a browser sends it, through the WSGI application's own multipart parsing."""
    csv = (
        b"name,tier,weight_override,denied,note\n"
        b"ok.example,wire,,false,\n"
        b"nul.example,wire,,false,a\x00b\n"
    )
    session = admin_client_.cookies["sessionid"].value
    page = wsgi_request("GET", reverse("domain_import"), headers={"Cookie": f"sessionid={session}"})
    cookies = [value.strip().split(";")[0] for value in page.header("Set-Cookie")]
    csrf = next(c.split("=", 1)[1] for c in cookies if c.startswith("csrftoken="))
    boundary = "claimcheck-upload"
    body = encode_multipart(
        boundary,
        {
            "csrfmiddlewaretoken": csrf,
            "action": action,
            "file": SimpleUploadedFile("domains.csv", csv, content_type="text/csv"),
        },
    )
    before = (Domain.objects.count(), DomainChange.objects.count())

    response = wsgi_request(
        "POST",
        reverse("domain_import"),
        body=body,
        headers={
            "Cookie": f"sessionid={session}; csrftoken={csrf}",
            "Content-Type": f"multipart/form-data; boundary={boundary}",
        },
    )

    assert response.status == 422, response.body[:300]
    assert "Line 3" in response.body.decode() and "NUL character" in response.body.decode()
    assert (Domain.objects.count(), DomainChange.objects.count()) == before


def test_an_empty_import_asks_for_a_file(admin_client_: Client) -> None:
    response = admin_client_.post(reverse("domain_import"), {"action": "preview", "text": ""})
    assert response.status_code == 422
    assert "Choose a CSV file or paste its lines." in text(response)


def test_the_export_is_the_registry_as_csv(admin_client_: Client, domain: Domain) -> None:
    response = admin_client_.get(reverse("domain_export"))
    assert response["Content-Type"].startswith("text/csv")
    assert "attachment" in response["Content-Disposition"]
    assert "wire.example,wire,,false," in text(response)


def test_a_note_with_script_renders_as_text(admin_client_: Client) -> None:
    DomainFactory(name="x.example", note="<script>alert(1)</script>")
    body = text(admin_client_.get(reverse("domains"), {"q": "x.example"}))
    assert "<script>alert" not in body and "&lt;script&gt;" in body


def test_the_list_runs_the_same_queries_for_few_or_many_domains(
    admin_client_: Client, admin_user: Any, django_assert_max_num_queries: Any
) -> None:
    Domain.objects.all().delete()
    for n in range(3):
        DomainFactory(name=f"a{n}.example", updated_by=admin_user)
    with django_assert_max_num_queries(50) as captured:
        admin_client_.get(reverse("domains"))
    few = len(captured.captured_queries)
    for n in range(60):
        DomainFactory(name=f"b{n}.example", updated_by=admin_user)
    with django_assert_max_num_queries(few):
        admin_client_.get(reverse("domains"))


def test_the_export_neutralizes_a_note_a_spreadsheet_would_run(admin_client_: Client) -> None:
    DomainFactory(name="formula.example", note="=cmd|' /C calc'!A0")
    body = text(admin_client_.get(reverse("domain_export")))
    assert "formula.example,other,,false,'=cmd" in body
    assert ",=cmd" not in body
