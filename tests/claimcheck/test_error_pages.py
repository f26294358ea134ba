"""With DJANGO_DEBUG off, as `scripts/run` and a deployment serve it, an unknown address, a
refused page and a fault each show the product's own page, never the framework's."""

from __future__ import annotations

from typing import Any

import pytest
from django.test import Client, override_settings

from desk import selectors

pytestmark = pytest.mark.django_db

PRODUCT = 'class="brand"'


@override_settings(DEBUG=False)
def test_an_unknown_address_shows_the_products_404(editor_client: Client) -> None:
    response = editor_client.get("/no-such-page/")

    assert response.status_code == 404
    body = response.content.decode()
    assert PRODUCT in body and "Nothing here" in body
    assert "Django" not in body and "URLconf" not in body


@override_settings(DEBUG=False)
def test_a_page_the_role_may_not_open_shows_the_products_403(outsider_client: Client) -> None:
    response = outsider_client.get("/dashboard/")

    assert response.status_code == 403
    body = response.content.decode()
    assert PRODUCT in body and "You can't open this page" in body
    assert "a role on the desk" in body


@override_settings(DEBUG=False)
def test_a_fault_shows_the_products_500_and_no_traceback(
    editor: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    def broken(**kwargs: Any) -> None:
        raise RuntimeError("a secret detail of the fault")

    monkeypatch.setattr(selectors, "dashboard_data", broken)
    client = Client(raise_request_exception=False)
    client.force_login(editor)

    response = client.get("/dashboard/")

    assert response.status_code == 500
    body = response.content.decode()
    assert PRODUCT in body and "Something went wrong" in body
    assert "a secret detail" not in body and "Traceback" not in body
