"""The entity alias pages in a real browser: an admin comes from the domains page, adds an
alias, is told plainly when a spelling is taken, finds the alias by search, edits it in place
and removes it."""

from __future__ import annotations

import re
from typing import Any

import pytest
from playwright.sync_api import expect

from registry.models import EntityAlias
from registry.services import alias_create
from tests.e2e.test_review_desk import sign_in

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_an_admin_adds_an_alias_finds_it_by_search_and_removes_it(
    live_server: Any, page: Any, admin_user: Any, screenshot: Any
) -> None:
    sign_in(page, live_server, admin_user)
    page.goto(f"{live_server.url}/domains/")
    page.get_by_role("link", name="Entity aliases").click()
    expect(page).to_have_title("Entity aliases · ClaimCheck")

    add = page.locator("details.add-alias")
    add.locator("summary").click()
    add.get_by_label("Name").fill("Alphabet")
    add.get_by_label("Alias").fill("Google")
    add.get_by_label("Kind").select_option("organization")
    add.get_by_label("Note").fill("parent company")
    add.get_by_role("button", name="Add alias").click()
    expect(page.get_by_text("Google added as an alias of Alphabet.")).to_be_visible()
    google = EntityAlias.objects.get(alias="Google")
    assert (google.name, google.kind, google.updated_by) == ("Alphabet", "organization", admin_user)

    add.locator("summary").click()
    add.get_by_label("Name").fill("Somewhere Else")
    add.get_by_label("Alias").fill("GOOGLE")
    add.get_by_role("button", name="Add alias").click()
    expect(add.locator(".errorlist")).to_contain_text(
        "GOOGLE is spelt like Google, already an alias of Alphabet"
    )
    expect(add.get_by_role("link", name="Edit that alias")).to_be_visible()
    screenshot("alias-add-clash")
    assert EntityAlias.objects.filter(alias__iexact="google").count() == 1

    # One alias the search leaves out, whether or not the default table is still loaded: one
    # row is left only once the search's answer is in, so nothing below races that answer (a
    # late one would put a removed row back).
    alias_create(name="Ukrainian Railways", alias="Ukrzaliznytsia", kind="organization")
    page.get_by_role("navigation", name="Main").get_by_role("link", name="Aliases").click()
    rows = page.locator("#alias-results tbody tr")
    expect(rows.filter(has_text="Ukrzaliznytsia")).to_have_count(1)
    page.get_by_role("searchbox", name="Search").fill("PARENT COMP")
    expect(rows).to_have_count(1)
    expect(page).to_have_url(f"{live_server.url}/domains/aliases/?q=PARENT%20COMP&kind=")
    row = page.locator(f"#alias-{google.pk}")
    expect(row).to_contain_text("Alphabet")
    expect(row).to_contain_text("Organization")
    screenshot("aliases-search")

    row.get_by_role("link", name="Edit Google").click()
    row.get_by_label("Note").fill("its parent company since 2015")
    row.get_by_role("button", name="Save").click()
    expect(row).to_contain_text("its parent company since 2015")
    expect(row.get_by_role("link", name="Edit Google")).to_be_visible()

    row.get_by_role("button", name="Remove Google").click()
    expect(page.locator("#confirm-question")).to_have_text("Remove Google, an alias of Alphabet?")
    page.locator("#confirm").get_by_role("button", name="Confirm").click()
    expect(page.get_by_text("Google removed; it no longer stands for Alphabet.")).to_be_visible()
    expect(rows).to_have_count(0)
    screenshot("aliases-removed")
    assert not EntityAlias.objects.filter(alias="Google").exists()


def test_a_search_for_one_city_does_not_find_another_whose_name_ends_like_it(
    live_server: Any, page: Any, admin_user: Any
) -> None:
    EntityAlias.objects.all().delete()
    alias_create(name="Kyiv", alias="Київ", kind="place")
    alias_create(name="Kharkiv", alias="Харків", kind="place")
    sign_in(page, live_server, admin_user)
    page.goto(f"{live_server.url}/domains/aliases/")
    page.locator("#f-kind").select_option("place")
    page.locator("#f-q").fill("kyiv")
    rows = page.locator("#alias-results tbody tr")
    expect(page.locator("#alias-results .result-count")).to_have_text(
        "1 alias matches these filters"
    )
    expect(rows).to_have_count(1)
    expect(rows.first).to_contain_text("Київ")


def test_a_filtered_alias_list_is_in_its_address_and_opens_again_filtered(
    live_server: Any, page: Any, admin_user: Any
) -> None:
    EntityAlias.objects.all().delete()
    alias_create(user=admin_user, name="Kyiv", alias="Kiev", kind="place")
    alias_create(user=admin_user, name="Alphabet", alias="Google", kind="organization")
    sign_in(page, live_server, admin_user)
    page.goto(f"{live_server.url}/domains/aliases/")
    results = page.locator("#alias-results")
    expect(results).to_contain_text("Google")

    page.locator("#f-kind").select_option("place")
    expect(results).not_to_contain_text("Google")
    expect(page).to_have_url(re.compile(r"[?&]kind=place(&|$)"))
    page.locator("#f-q").fill("kie")
    expect(page).to_have_url(re.compile(r"[?&]q=kie(&|$)"))
    shared = page.url

    other = page.context.new_page()
    other.goto(shared)
    expect(other.locator("#f-kind")).to_have_value("place")
    expect(other.locator("#f-q")).to_have_value("kie")
    expect(other.locator("#alias-results")).to_contain_text("Kiev")
    expect(other.locator("#alias-results")).not_to_contain_text("Google")


@pytest.mark.parametrize(
    ("path", "noun"), [("/domains/add/", "domain"), ("/domains/aliases/add/", "alias")]
)
def test_the_add_address_opened_directly_shows_the_add_form(
    live_server: Any, page: Any, admin_user: Any, path: str, noun: str
) -> None:
    sign_in(page, live_server, admin_user)
    response = page.goto(f"{live_server.url}{path}")
    assert response is not None and response.status == 200
    form = page.locator(f"details.add-{noun}")
    expect(form).to_have_attribute("open", "")
    expect(form.get_by_role("button", name=f"Add {noun}")).to_be_visible()
