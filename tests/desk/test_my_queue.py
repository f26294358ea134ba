"""An editor's saved view of the queue: kept per editor, filters and order only."""

from __future__ import annotations

from typing import Any

import pytest
from django.test import Client

from decisions.models import SavedQueue

pytestmark = pytest.mark.django_db

QUERY = "status=decided&needs_review=on&sort=-support&page=3&since=99-1&q=&shoe=size"


def test_saving_keeps_the_filters_and_order_and_my_queue_opens_them(
    editor_client: Client, editor: Any
) -> None:
    response = editor_client.post("/claims/mine/", {"query": QUERY})
    kept = "needs_review=on&sort=-support&status=decided"
    assert response.status_code == 302 and response["Location"] == f"/?{kept}"
    assert SavedQueue.objects.get(user=editor).query == kept
    assert editor_client.get("/claims/mine/")["Location"] == f"/?{kept}"
    page = editor_client.get(f"/?{kept}").content.decode()
    assert 'id="is-my-queue"' in page and 'id="save-my-queue"' not in page

    # Saving again replaces it.
    editor_client.post("/claims/mine/", {"query": "outcome=false"})
    assert SavedQueue.objects.get(user=editor).query == "outcome=false"


def test_each_editor_has_their_own_and_none_is_no_redirect_loop(
    editor_client: Client, admin_client_: Client, editor: Any
) -> None:
    editor_client.post("/claims/mine/", {"query": "outcome=true"})
    answer = admin_client_.get("/claims/mine/")
    assert answer["Location"] == "/"
    assert 'id="my-queue-link"' not in admin_client_.get("/").content.decode()
    assert 'id="my-queue-link"' in editor_client.get("/").content.decode()


def test_filters_that_do_not_validate_are_not_saved(editor_client: Client, editor: Any) -> None:
    response = editor_client.post("/claims/mine/", {"query": "created_from=2025-02-31"})
    assert response.status_code == 302
    assert not SavedQueue.objects.filter(user=editor).exists()
    long = "q=" + "x" * 1200
    editor_client.post("/claims/mine/", {"query": long})
    assert not SavedQueue.objects.filter(user=editor).exists()


def test_an_outsider_cannot_save_a_queue(outsider_client: Client) -> None:
    assert outsider_client.post("/claims/mine/", {"query": "outcome=true"}).status_code == 403
    assert not SavedQueue.objects.exists()
