"""In a real browser: log in, see the navigation, log out."""

from typing import Any

import pytest
from playwright.sync_api import expect

from tests.conftest import PASSWORD

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_an_editor_logs_in_sees_the_nav_and_logs_out(
    live_server: Any, page: Any, editor: Any, screenshot: Any
) -> None:
    page.goto(f"{live_server.url}/")
    assert "/login/" in page.url
    screenshot("login")

    page.get_by_label("Username").fill("edna")
    page.get_by_label("Password").fill(PASSWORD)
    page.get_by_role("button", name="Log in").click()

    expect(page.get_by_role("heading", name="Claims")).to_be_visible()
    nav = page.get_by_role("navigation", name="Main")
    for label in ("Claims", "Search runs", "Dashboard"):
        expect(nav.get_by_role("link", name=label)).to_be_visible()
    expect(nav.get_by_role("link", name="Domains")).to_have_count(0)  # admins only
    expect(page).to_have_title("Claims · ClaimCheck")
    screenshot("claims-empty")

    page.get_by_text("edna").first.click()
    page.get_by_role("button", name="Log out").click()
    page.wait_for_url("**/login/")
    page.goto(f"{live_server.url}/dashboard/")
    assert "/login/" in page.url


def test_a_wrong_password_keeps_the_user_on_the_login_page(
    live_server: Any, page: Any, editor: Any
) -> None:
    page.goto(f"{live_server.url}/login/")
    page.get_by_label("Username").fill("edna")
    page.get_by_label("Password").fill("not-the-password")
    page.get_by_role("button", name="Log in").click()
    expect(page.get_by_role("alert")).to_contain_text("Your username and password")


def test_five_wrong_passwords_are_each_answered_and_the_sixth_try_is_locked(
    live_server: Any, page: Any, editor: Any
) -> None:
    page.goto(f"{live_server.url}/login/")
    for attempt in range(1, 6):
        page.get_by_label("Username").fill("edna")
        page.get_by_label("Password").fill(f"wrong-{attempt}")
        page.get_by_role("button", name="Log in").click()
        alert = page.get_by_role("alert")
        expect(alert).to_contain_text("Your username and password didn't match")
        if attempt < 5:
            expect(alert).not_to_contain_text("locked")
    expect(page.get_by_role("alert")).to_contain_text("wrong 5 times")
    expect(page.get_by_role("alert")).to_contain_text("locked on this connection for 15 minutes")

    page.get_by_label("Username").fill("edna")
    page.get_by_label("Password").fill(PASSWORD)
    page.get_by_role("button", name="Log in").click()
    expect(page.get_by_role("heading", name="Too many failed logins")).to_be_visible()
