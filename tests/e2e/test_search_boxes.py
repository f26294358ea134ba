"""The search boxes of the list pages in a real browser. Typing on after a pause sends a new
search while the last may still be out: the new one is answered at once, and the old answer,
which would show rows for words no longer in the box, is called off."""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

import pytest
from playwright.sync_api import expect

from registry.services import alias_create
from tests.e2e.test_review_desk import sign_in
from tests.factories import DecidedClaimFactory, DomainFactory, SearchRunFactory

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def _claims() -> None:
    DecidedClaimFactory(text="Kyiv opened a new metro line in 2024")
    DecidedClaimFactory(text="Google was fined by the European Commission in 2018")


def _search_runs() -> None:
    SearchRunFactory(query="Kyiv metro line 2024")
    SearchRunFactory(query="Google fine European Commission")


def _domains() -> None:
    DomainFactory(name="kyiv-metro.example")
    DomainFactory(name="google-fines.example")


def _aliases() -> None:
    alias_create(name="Kyiv", alias="Kyyiv Metro", kind="place")
    alias_create(name="Alphabet", alias="Google", kind="organization")


@pytest.mark.parametrize(
    ("path", "results", "make_rows"),
    [
        ("/", "#claim-results", _claims),
        ("/search-runs/", "#run-results", _search_runs),
        ("/domains/", "#domain-results", _domains),
        ("/domains/aliases/", "#alias-results", _aliases),
    ],
    ids=["claims", "search-runs", "domains", "aliases"],
)
def test_a_new_search_is_not_kept_waiting_by_one_still_out(
    live_server: Any,
    page: Any,
    admin_user: Any,
    path: str,
    results: str,
    make_rows: Callable[[], None],
) -> None:
    make_rows()
    held: list[Any] = []

    def hold_the_first_search(route: Any) -> None:
        if "q=Kyiv" in route.request.url and not held:
            held.append(route)  # its answer is let through only after the second search's
        else:
            route.continue_()

    sign_in(page, live_server, admin_user)
    page.goto(f"{live_server.url}{path}")
    page.route(lambda url: "q=" in url, hold_the_first_search)
    search = page.locator("#f-q")
    with page.expect_request(lambda request: "q=Kyiv" in request.url) as first:
        search.fill("Kyiv")
    search.fill("Google")
    rows = page.locator(f"{results} tbody tr")
    expect(rows).to_have_count(1)
    expect(rows.first).to_contain_text("Google", ignore_case=True)

    held[0].continue_()
    assert first.value.response() is None, "the first search was still answered"
    expect(rows).to_have_count(1)
    expect(rows.first).to_contain_text("Google", ignore_case=True)
    expect(page).to_have_url(re.compile(r"[?&]q=Google(&|$)"))
