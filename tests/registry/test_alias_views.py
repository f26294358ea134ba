"""The entity alias pages: admins only; search and filter the table, add an alias, edit one in
place, remove one, import a CSV file after a preview, export it."""

from __future__ import annotations

import csv
import io
import re
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.core.files.uploadedfile import SimpleUploadedFile
from django.test import Client
from django.urls import reverse

from evidence.entities import entity_overlap, extract_entities
from registry.models import EntityAlias, EntityKind

pytestmark = pytest.mark.django_db

HX = {"HX-Request": "true"}


def text(response: Any) -> str:
    return response.content.decode()


@pytest.fixture
def kiev() -> EntityAlias:
    """An alias of the shipped table."""
    return EntityAlias.objects.get(alias="Kiev")


def _gets(item: EntityAlias) -> list[str]:
    return [
        reverse("aliases"),
        reverse("alias_import"),
        reverse("alias_export"),
        reverse("alias_edit", args=[item.pk]),
        reverse("alias_row", args=[item.pk]),
    ]


def _posts(item: EntityAlias) -> list[tuple[str, dict[str, str]]]:
    return [
        (reverse("alias_add"), {"new-name": "Alphabet", "new-alias": "Google"}),
        (
            reverse("alias_edit", args=[item.pk]),
            {f"a{item.pk}-name": "Kyiv", f"a{item.pk}-alias": "Kiew", f"a{item.pk}-kind": "place"},
        ),
        (reverse("alias_remove", args=[item.pk]), {}),
        (reverse("alias_import"), {"action": "apply", "text": "name,alias\nAlphabet,Google\n"}),
    ]


def _table() -> set[tuple[str, str, str, str]]:
    return set(EntityAlias.objects.values_list("name", "alias", "kind", "note"))


# --- who may come in ----------------------------------------------------------------------------


def test_anonymous_visitors_are_sent_to_login(kiev: EntityAlias) -> None:
    client = Client()
    for url in _gets(kiev):
        assert reverse("login") in client.get(url)["Location"], url
    for url, data in _posts(kiev):
        assert reverse("login") in client.post(url, data)["Location"], url


@pytest.mark.parametrize("persona", ["outsider_client", "editor_client"])
def test_outsiders_and_editors_get_the_403_page_and_change_nothing(
    request: pytest.FixtureRequest, persona: str, kiev: EntityAlias
) -> None:
    client: Client = request.getfixturevalue(persona)
    before = _table()
    for url in _gets(kiev):
        assert client.get(url, headers=HX).status_code == 403, url
    for url, data in _posts(kiev):
        assert client.post(url, data, headers=HX).status_code == 403, url
    assert _table() == before
    refused = text(client.get(reverse("aliases")))
    assert "This page needs the admin role" in refused


def test_admins_reach_the_aliases_from_the_domains_page_and_the_nav(
    admin_client_: Client, editor_client: Client
) -> None:
    domains = text(admin_client_.get(reverse("domains")))
    assert f'<a class="button" href="{reverse("aliases")}">Entity aliases</a>' in domains
    assert f'<a href="{reverse("aliases")}" >Aliases</a>' in domains
    aliases = admin_client_.get(reverse("aliases"))
    assert aliases.status_code == 200
    assert f'<a href="{reverse("aliases")}" aria-current="page">Aliases</a>' in text(aliases)
    assert reverse("aliases") not in text(editor_client.get(reverse("home")))


# --- the list -----------------------------------------------------------------------------------


_NAME_CELL = re.compile(r'<td class="alias-name">([^<]*)</td>')
_ALIAS_CELL = re.compile(r'<td class="alias-alias">([^<]*)</td>')


def _aliases_shown(client: Client, **params: str) -> list[str]:
    return _ALIAS_CELL.findall(text(client.get(reverse("aliases"), params)))


def test_the_list_is_sorted_by_name_then_alias(admin_client_: Client) -> None:
    body = text(admin_client_.get(reverse("aliases")))
    table = list(EntityAlias.objects.order_by("name", "alias").values_list("name", "alias"))
    assert len(table) > 20
    assert list(zip(_NAME_CELL.findall(body), _ALIAS_CELL.findall(body), strict=True)) == table


def test_a_search_finds_a_name_an_alias_or_a_note_ignoring_case(admin_client_: Client) -> None:
    admin_client_.post(
        reverse("alias_add"),
        {"new-name": "Alphabet", "new-alias": "Google", "new-kind": "organization",
         "new-note": "Parent Company"},
    )  # fmt: skip
    assert _aliases_shown(admin_client_, q="KHARKIV") == ["Kharkov", "Харків"]
    assert _aliases_shown(admin_client_, q="odessa") == ["Odessa"]
    assert _aliases_shown(admin_client_, q="parent company") == ["Google"]
    assert _aliases_shown(admin_client_, q="kharkiv", kind="person") == []
    assert set(_aliases_shown(admin_client_, kind="organization")) >= {"Google"}
    assert {"Kiev", "Google"}.isdisjoint(_aliases_shown(admin_client_, kind="person"))


def test_a_search_by_htmx_answers_with_the_results_alone(admin_client_: Client) -> None:
    response = admin_client_.get(reverse("aliases"), {"q": "Kiev"}, headers=HX)
    assert text(response).lstrip().startswith('<section id="alias-results"')
    assert "<html" not in text(response)


def test_the_list_says_what_to_do_when_nothing_matches(admin_client_: Client) -> None:
    body = text(admin_client_.get(reverse("aliases"), {"q": "nothing like this"}))
    assert "No aliases match these filters." in body and "clear the filters" in body


def test_a_note_with_script_renders_as_text(admin_client_: Client) -> None:
    EntityAlias.objects.create(name="X", alias="Xylo", key="xilo", note="<script>alert(1)</script>")
    body = text(admin_client_.get(reverse("aliases"), {"q": "xylo"}))
    assert "<script>alert" not in body and "&lt;script&gt;" in body


def test_the_list_runs_the_same_queries_for_few_or_many_aliases(
    admin_client_: Client, admin_user: User, django_assert_max_num_queries: Any
) -> None:
    EntityAlias.objects.all().delete()
    for n in range(3):
        EntityAlias.objects.create(name=f"N{n}", alias=f"A{n}", key=f"a{n}", updated_by=admin_user)
    with django_assert_max_num_queries(50) as captured:
        admin_client_.get(reverse("aliases"))
    few = len(captured.captured_queries)
    for n in range(60):
        EntityAlias.objects.create(name=f"M{n}", alias=f"B{n}", key=f"b{n}", updated_by=admin_user)
    with django_assert_max_num_queries(few):
        admin_client_.get(reverse("aliases"))


# --- add ----------------------------------------------------------------------------------------


def test_an_admin_adds_an_alias_and_it_joins_the_two_names_at_once(
    admin_client_: Client, admin_user: User
) -> None:
    claim, page = "Shares of Alphabet rose", "Shares of Google rose"
    assert entity_overlap(extract_entities(claim), extract_entities(page)) == 0.0

    response = admin_client_.post(
        reverse("alias_add"),
        {"new-name": "Alphabet", "new-alias": " Google ", "new-kind": "organization"},
        follow=True,
    )

    assert "Google added as an alias of Alphabet." in text(response)
    assert response.redirect_chain[-1][0] == f"{reverse('aliases')}?q=Google"
    assert _aliases_shown(admin_client_, q="Google") == ["Google"]
    added = EntityAlias.objects.get(alias="Google")
    assert (added.name, added.kind, added.updated_by) == ("Alphabet", "organization", admin_user)
    assert entity_overlap(extract_entities(claim), extract_entities(page)) == 1.0


def test_adding_a_spelling_the_table_has_names_the_alias_already_there(
    admin_client_: Client, kiev: EntityAlias
) -> None:
    before = _table()

    response = admin_client_.post(
        reverse("alias_add"), {"new-name": "Somewhere Else", "new-alias": "KIEV"}
    )

    assert response.status_code == 422
    body = text(response)
    assert "KIEV is spelt like Kiev, already an alias of Kyiv" in body
    assert f'href="{reverse("alias_edit", args=[kiev.pk])}">Edit that alias</a>' in body
    assert '<details class="card add-alias" open>' in body
    assert 'value="Somewhere Else"' in body
    assert _table() == before


@pytest.mark.parametrize(
    ("data", "message"),
    [
        ({"new-name": "", "new-alias": "Google"}, "This field is required."),
        ({"new-name": "Alphabet", "new-alias": "--"}, "alias: has no letters to match on"),
        ({"new-name": "Alphabet", "new-alias": "Google", "new-kind": "company"}, "valid choice"),
        ({"new-name": "Alphabet", "new-alias": "G" * 201}, "at most 200 characters"),
    ],
)
def test_an_invalid_alias_answers_422_with_the_error_on_the_form(
    admin_client_: Client, data: dict[str, str], message: str
) -> None:
    before = _table()

    response = admin_client_.post(reverse("alias_add"), data)

    assert response.status_code == 422
    assert message in text(response)
    assert _table() == before


# --- edit ---------------------------------------------------------------------------------------


def test_an_inline_edit_returns_the_form_row_then_the_saved_row(
    admin_client_: Client, admin_user: User, kiev: EntityAlias
) -> None:
    url = reverse("alias_edit", args=[kiev.pk])
    form = admin_client_.get(url, headers=HX)
    assert text(form).lstrip().startswith(f'<tr id="alias-{kiev.pk}" class="editing">')
    assert 'value="Kiev"' in text(form)

    saved = admin_client_.post(
        url,
        {
            f"a{kiev.pk}-name": "Kyiv",
            f"a{kiev.pk}-alias": "Kiev",
            f"a{kiev.pk}-kind": "place",
            f"a{kiev.pk}-note": "the Russian spelling",
        },
        headers=HX,
    )

    assert saved.status_code == 200
    assert text(saved).lstrip().startswith(f'<tr id="alias-{kiev.pk}">')
    assert "the Russian spelling" in text(saved)
    kiev.refresh_from_db()
    assert (kiev.note, kiev.updated_by) == ("the Russian spelling", admin_user)


def test_an_inline_edit_into_another_alias_answers_422_in_place(
    admin_client_: Client, kiev: EntityAlias
) -> None:
    response = admin_client_.post(
        reverse("alias_edit", args=[kiev.pk]),
        {f"a{kiev.pk}-name": "Kyiv", f"a{kiev.pk}-alias": "Odessa", f"a{kiev.pk}-kind": "place"},
        headers=HX,
    )
    assert response.status_code == 422
    assert text(response).lstrip().startswith(f'<tr id="alias-{kiev.pk}" class="editing">')
    assert "Odessa is already an alias of Odesa" in text(response)
    kiev.refresh_from_db()
    assert kiev.alias == "Kiev"


def test_cancel_brings_the_row_back_unchanged(admin_client_: Client, kiev: EntityAlias) -> None:
    response = admin_client_.get(reverse("alias_row", args=[kiev.pk]), headers=HX)
    assert text(response).lstrip().startswith(f'<tr id="alias-{kiev.pk}">')
    without_htmx = admin_client_.get(reverse("alias_row", args=[kiev.pk]))
    assert without_htmx["Location"] == f"{reverse('aliases')}?q=Kiev"


def test_editing_without_javascript_uses_a_page_and_redirects(
    admin_client_: Client, kiev: EntityAlias
) -> None:
    url = reverse("alias_edit", args=[kiev.pk])
    assert "<title>Edit Kiev" in text(admin_client_.get(url))
    invalid = admin_client_.post(url, {f"a{kiev.pk}-name": "", f"a{kiev.pk}-alias": "Kiev"})
    assert invalid.status_code == 422 and "<title>Edit Kiev" in text(invalid)

    response = admin_client_.post(
        url, {f"a{kiev.pk}-name": "Kyiv", f"a{kiev.pk}-alias": "Kiew", f"a{kiev.pk}-kind": "place"}
    )

    assert response.status_code == 302
    kiev.refresh_from_db()
    assert kiev.alias == "Kiew"


def test_an_alias_that_is_gone_is_404(admin_client_: Client, kiev: EntityAlias) -> None:
    pk = kiev.pk
    kiev.delete()
    assert admin_client_.get(reverse("alias_edit", args=[pk])).status_code == 404
    assert admin_client_.post(reverse("alias_remove", args=[pk])).status_code == 404


# --- remove -------------------------------------------------------------------------------------


def test_removing_an_alias_asks_first_then_takes_its_row_away(
    admin_client_: Client, kiev: EntityAlias
) -> None:
    listed = text(admin_client_.get(reverse("aliases"), {"q": "Kiev"}))
    assert 'hx-confirm="Remove Kiev, an alias of Kyiv?"' in listed
    assert f'<form method="post" action="{reverse("alias_remove", args=[kiev.pk])}"' in listed

    response = admin_client_.post(reverse("alias_remove", args=[kiev.pk]), headers=HX)

    assert response.status_code == 200
    # Nothing takes the row's place; the message box is swapped in out of band.
    assert text(response).strip().startswith('<div id="messages"')
    assert "Kiev removed; it no longer stands for Kyiv." in text(response)
    assert not EntityAlias.objects.filter(pk=kiev.pk).exists()


def test_removing_without_javascript_redirects_to_the_list(
    admin_client_: Client, kiev: EntityAlias
) -> None:
    response = admin_client_.post(reverse("alias_remove", args=[kiev.pk]), follow=True)
    assert "Kiev removed" in text(response)
    assert admin_client_.get(reverse("alias_remove", args=[kiev.pk])).status_code == 405


# --- import and export --------------------------------------------------------------------------

CSV = (
    "name,alias,kind,note\n"
    "Kyiv,Kiev,place,\n"  # as it is
    "Odesa,Odessa,place,the Russian spelling\n"  # a new note
    "Alphabet,Google,organization,\n"  # new
    "Alphabet,Alphabet Inc.,organization,\n"  # new
)


def test_an_import_shows_a_preview_and_writes_nothing_until_applied(
    admin_client_: Client,
) -> None:
    before = _table()
    upload = SimpleUploadedFile("aliases.csv", CSV.encode(), content_type="text/csv")

    response = admin_client_.post(reverse("alias_import"), {"action": "preview", "file": upload})

    body = text(response)
    assert response.status_code == 200
    assert "2 added" in body and "1 changed" in body and "1 unchanged" in body
    assert "Apply 3 changes" in body
    changed = body.split('<tr class="change-changed">', 1)[1].split("</tr>", 1)[0]
    assert "Odessa" in changed and '<span class="muted small">note</span>' in changed
    assert _table() == before


def test_applying_an_import_saves_every_line(admin_client_: Client, admin_user: User) -> None:
    response = admin_client_.post(
        reverse("alias_import"), {"action": "apply", "text": CSV}, follow=True
    )

    assert "Import applied: 2 added, 1 changed." in text(response)
    assert EntityAlias.objects.get(alias="Odessa").note == "the Russian spelling"
    google = EntityAlias.objects.get(alias="Google")
    assert (google.name, google.updated_by) == ("Alphabet", admin_user)


def test_a_bad_csv_names_every_bad_line_and_imports_nothing(admin_client_: Client) -> None:
    bad = (
        "name,alias,kind\nAlphabet,Google,organization\nKharkiv,Kharkov,city\n"
        ",Nameless,\nSomewhere,KIEV,place,extra,fields\n"
    )
    before = _table()

    preview = admin_client_.post(reverse("alias_import"), {"action": "preview", "text": bad})

    body = text(preview)
    assert preview.status_code == 422
    assert "3 lines have problems" in body
    assert "Line 3</span>: kind: &#x27;city&#x27; is not one of" in body
    assert "Line 4</span>: name: must not be empty" in body
    assert "Line 5</span>: 5 fields, the header has 3" in body
    assert "Apply" not in body

    applied = admin_client_.post(reverse("alias_import"), {"action": "apply", "text": bad})
    assert applied.status_code == 422
    assert _table() == before


def test_an_empty_import_asks_for_a_file(admin_client_: Client) -> None:
    response = admin_client_.post(reverse("alias_import"), {"action": "preview", "text": " "})
    assert response.status_code == 422
    assert "Choose a CSV file or paste its lines." in text(response)


def test_the_export_downloads_the_table_as_csv_a_spreadsheet_will_not_run(
    admin_client_: Client,
) -> None:
    EntityAlias.objects.create(name="Formula", alias="Formulae", key="formulae", note="=1+1")

    response = admin_client_.get(reverse("alias_export"))

    assert response["Content-Type"] == "text/csv; charset=utf-8"
    assert response["Content-Disposition"] == 'attachment; filename="aliases.csv"'
    rows = list(csv.reader(io.StringIO(text(response))))
    assert rows[0] == ["name", "alias", "kind", "note"]
    assert ["Kyiv", "Kiev", EntityKind.PLACE, ""] in rows
    assert ["Formula", "Formulae", "other", "'=1+1"] in rows
    assert len(rows) == EntityAlias.objects.count() + 1
