"""Every filtered list says how many rows it holds, and how many match as the filters change;
an alphabetical list pages with Previous / Next, a list in time order with Newer / Older."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from playwright.sync_api import expect

from registry.models import Domain
from registry.services import alias_create
from tests.e2e.test_review_desk import sign_in
from tests.factories import DecidedClaimFactory, DomainFactory, SearchRunFactory

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def _claims() -> None:
    DecidedClaimFactory(text="Kyiv opened a new metro line in 2024")
    DecidedClaimFactory(text="Google was fined by the European Commission in 2018")
    DecidedClaimFactory(text="Google opened an office in Kyiv")


def _search_runs() -> None:
    SearchRunFactory(query="Kyiv metro line 2024")
    SearchRunFactory(query="Google fine European Commission")
    SearchRunFactory(query="Google office Kyiv")


def _domains() -> None:
    Domain.objects.all().delete()
    DomainFactory(name="kyiv-metro.example")
    DomainFactory(name="google-fines.example")
    DomainFactory(name="google-kyiv.example")


def _aliases() -> None:
    alias_create(name="Kyiv", alias="Kyyiv Metro", kind="place")
    alias_create(name="Alphabet", alias="Google", kind="organization")
    alias_create(name="Alphabet", alias="Google Kyiv", kind="organization")


@pytest.mark.parametrize(
    ("path", "results", "make_rows", "many", "one"),
    [
        ("/", "#claim-results", _claims, "claims", "claim"),
        ("/search-runs/", "#run-results", _search_runs, "search runs", "search run"),
        ("/domains/", "#domain-results", _domains, "domains", "domain"),
        ("/domains/aliases/", "#alias-results", _aliases, "aliases", "alias"),
    ],
    ids=["claims", "search-runs", "domains", "aliases"],
)
def test_a_list_counts_its_rows_and_what_matches_its_filters(
    live_server: Any,
    page: Any,
    admin_user: Any,
    path: str,
    results: str,
    make_rows: Callable[[], None],
    many: str,
    one: str,
) -> None:
    make_rows()
    sign_in(page, live_server, admin_user)
    page.goto(f"{live_server.url}{path}?q=Google")
    count = page.locator(f"{results} .result-count")
    expect(count).to_have_text(f"2 {many} match these filters")
    expect(page.locator(f"{results} tbody tr")).to_have_count(2)
    page.locator("#f-q").fill("metro")
    expect(count).to_have_text(f"1 {one} matches these filters")
    page.locator("#f-q").fill("")
    expect(count).to_have_text(f"3 {many}")


def test_the_alphabetical_domain_list_pages_with_previous_and_next(
    live_server: Any, page: Any, admin_user: Any
) -> None:
    Domain.objects.all().delete()
    Domain.objects.bulk_create(Domain(name=f"site{n:03}.example") for n in range(105))
    sign_in(page, live_server, admin_user)
    page.goto(f"{live_server.url}/domains/")
    expect(page.locator("#domain-results .result-count")).to_have_text(
        "105 domains · 1\u2013100 on this page"
    )
    expect(page.get_by_role("link", name="Older →")).to_have_count(0)
    page.get_by_role("link", name="Next →").click()
    expect(page.locator("#domain-results tbody tr")).to_have_count(5)
    expect(page.locator("#domain-results tbody tr").first).to_contain_text("site100.example")
    page.get_by_role("link", name="← Previous").click()
    expect(page.locator("#domain-results tbody tr").first).to_contain_text("site000.example")


def test_the_queue_pages_newest_first_with_newer_and_older(
    live_server: Any, page: Any, editor: Any
) -> None:
    DecidedClaimFactory.create_batch(51)
    sign_in(page, live_server, editor)
    page.goto(f"{live_server.url}/")
    expect(page.locator("#claim-results .result-count")).to_have_text(
        "51 claims · 1\u201350 on this page"
    )
    page.get_by_role("link", name="Older →").click()
    expect(page.locator("#claim-results tbody tr")).to_have_count(1)
    expect(page.get_by_role("link", name="← Newer")).to_be_visible()
