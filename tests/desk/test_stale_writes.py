"""Two editors, one truth: every change of a claim's state is made against the version the
editor saw. Through the API (`ETag` / `If-Match`, 412) and the desk's forms (the version they
carry), a write on a claim that changed since is refused, says what changed, and changes
nothing; the audit trail records the outcome an override actually replaced."""

from __future__ import annotations

import json
import threading
from typing import Any

import pytest
from django.db import close_old_connections, connection
from django.test import Client
from django.urls import reverse

from claimcheck.models import ApiToken
from claims.errors import StaleClaim
from claims.models import Claim, ClaimStatus, Outcome
from decisions.models import Override
from decisions.services import verdict_override
from tests.desk.desk import HX, text
from tests.factories import UserFactory, VerdictFactory

pytestmark = pytest.mark.django_db


def _client_for(user: Any) -> Client:
    """An API client of its own: requests carry `user`'s bearer token."""
    _, raw = ApiToken.issue(user=user, name="tests")
    return Client(headers={"Authorization": f"Bearer {raw}"})


def _post(client: Client, path: str, body: Any = None, **headers: str) -> Any:
    data = "" if body is None else json.dumps(body)
    return client.post(path, data=data, content_type="application/json", headers=headers)


def _editor(name: str) -> Any:
    return UserFactory(username=name, groups=["editors"])


def _state(claim: Claim) -> tuple[Any, ...]:
    claim.refresh_from_db()
    return (claim.version, claim.status, claim.assigned_to_id, claim.reviewed_at, claim.run_number)


def _decided() -> Claim:
    verdict: Any = VerdictFactory(outcome=Outcome.FALSE, claim__outcome=Outcome.FALSE)
    return verdict.claim


# --- the API ------------------------------------------------------------------------------------


def test_a_claim_read_through_the_api_carries_its_version_as_an_etag(api: Client) -> None:
    claim = _decided()

    response = api.get(f"/api/claims/{claim.pk}")

    assert response.status_code == 200
    assert response.headers["ETag"] == f'"{claim.pk}.{claim.version}"'
    assert response.json()["version"] == claim.version


def test_an_override_sent_on_what_was_read_before_another_editors_is_refused_with_412(
    api: Client, editor: Any
) -> None:
    claim = _decided()
    seen = api.get(f"/api/claims/{claim.pk}").headers["ETag"]
    other = _editor("editor2")
    verdict_override(claim=claim, editor=other, to_outcome=Outcome.INVALID, reason="Too vague.")

    stale = _post(
        api,
        f"/api/claims/{claim.pk}/override",
        {"outcome": "true", "reason": "The ministry confirmed it."},
        If_Match=seen,
    )

    assert stale.status_code == 412
    body = stale.json()
    assert body["error"] == "stale"
    assert body["current"]["outcome"] == "invalid"
    assert body["current"]["set_by"] == "editor2"
    assert body["current"]["set_at"]
    assert "editor2 changed the outcome from False to Invalid" in body["details"]
    assert stale.headers["ETag"] == body["current"]["etag"] != seen
    claim.refresh_from_db()
    assert claim.outcome == Outcome.INVALID
    assert Override.objects.count() == 1

    fresh = _post(
        api,
        f"/api/claims/{claim.pk}/override",
        {"outcome": "true", "reason": "The ministry confirmed it."},
        If_Match=stale.headers["ETag"],
    )

    assert fresh.status_code == 201
    claim.refresh_from_db()
    assert claim.outcome == Outcome.TRUE
    latest = Override.objects.select_related("editor").first()
    assert latest is not None and latest.editor == editor
    # The audit trail names the outcome actually replaced: editor2's, not ClaimCheck's.
    assert latest.from_outcome == Outcome.INVALID
    assert fresh.headers["ETag"] == f'"{claim.pk}.{claim.version}"'


@pytest.mark.parametrize("header", ['"999999.1"', "garbage", 'W/"{pk}.0"'])
def test_an_if_match_naming_no_version_of_the_claim_is_refused(api: Client, header: str) -> None:
    claim = _decided()

    response = _post(
        api,
        f"/api/claims/{claim.pk}/override",
        {"outcome": "true", "reason": "Confirmed."},
        If_Match=header.format(pk=claim.pk),
    )

    assert response.status_code == 412
    assert not Override.objects.exists()


def test_a_write_without_if_match_is_made_on_the_claim_as_it_is(api: Client) -> None:
    claim = _decided()

    response = _post(api, f"/api/claims/{claim.pk}/review", If_Match="*")

    assert response.status_code == 200
    assert response.json()["last_change"]["change"].endswith("kept the verdict (False)")
    assert _post(api, f"/api/claims/{_decided().pk}/take").status_code == 200


@pytest.mark.parametrize("action", ["review", "take", "release", "rerun"])
def test_every_write_on_a_stale_version_answers_412_and_changes_nothing(
    api: Client, action: str
) -> None:
    claim = _decided()
    seen = api.get(f"/api/claims/{claim.pk}").headers["ETag"]
    other = _editor("editor2")
    take = _post(_client_for(other), f"/api/claims/{claim.pk}/take")
    assert take.status_code == 200
    claim.refresh_from_db()
    before = (
        claim.version,
        claim.status,
        claim.assigned_to_id,
        claim.reviewed_at,
        claim.run_number,
    )

    response = _post(api, f"/api/claims/{claim.pk}/{action}", If_Match=seen)

    assert response.status_code == 412, response.content
    assert response.json()["current"]["change"] == "editor2 took the claim"
    claim.refresh_from_db()
    assert _state(claim) == before


def test_a_comment_does_not_change_the_version(api: Client) -> None:
    claim = _decided()

    response = _post(api, f"/api/claims/{claim.pk}/comments", {"text": "Checked the registry."})

    assert response.status_code == 201
    assert response.json()["text"] == "Checked the registry."
    assert Claim.objects.get(pk=claim.pk).version == claim.version


# --- the desk's forms ---------------------------------------------------------------------------


def test_a_stale_override_form_changes_nothing_and_says_what_changed(
    editor_client: Client,
) -> None:
    claim = _decided()
    page = text(editor_client.get(reverse("claim_detail", args=[claim.pk])))
    assert f'name="version" value="{claim.version}"' in page
    other = _editor("editor2")
    verdict_override(claim=claim, editor=other, to_outcome=Outcome.INVALID, reason="Too vague.")

    response = editor_client.post(
        reverse("claim_override", args=[claim.pk]),
        {"outcome": "true", "reason": "Confirmed by the ministry.", "version": claim.version},
        headers=HX,
    )

    assert response.status_code == 422
    body = text(response)
    assert "editor2 changed the outcome from False to Invalid" in body
    assert "s ago" in body
    # The form is ready again: the reason kept, and drawn on the version now shown.
    assert "Confirmed by the ministry." in body
    claim.refresh_from_db()
    assert f'name="version" value="{claim.version}"' in body
    assert claim.outcome == Outcome.INVALID and Override.objects.count() == 1


def test_a_stale_keep_is_not_recorded_as_keeping_a_verdict_the_editor_never_saw(
    editor_client: Client,
) -> None:
    claim = _decided()
    seen = claim.version
    other = _editor("editor2")
    verdict_override(claim=claim, editor=other, to_outcome=Outcome.TRUE, reason="Confirmed.")

    response = editor_client.post(
        reverse("claim_review", args=[claim.pk]), {"version": seen}, headers=HX
    )

    assert response.status_code == 409
    assert "editor2 changed the outcome from False to True" in text(response)
    assert not claim.events.filter(message__contains="kept").exists()


def test_a_bulk_action_leaves_the_stale_claims_alone_and_names_them(
    editor_client: Client,
) -> None:
    fresh, stale = _decided(), _decided()
    versions = {f"version-{c.pk}": c.version for c in (fresh, stale)}
    other = _editor("editor2")
    verdict_override(claim=stale, editor=other, to_outcome=Outcome.TRUE, reason="Confirmed.")

    response = editor_client.post(
        reverse("claims_bulk"),
        {"ids": [fresh.pk, stale.pk], "action": "review", **versions},
        follow=True,
    )

    body = text(response)
    assert "1 claim marked reviewed" in body
    assert "1 left alone because another editor or ClaimCheck changed it" in body
    assert f"#{stale.pk}" in body
    fresh.refresh_from_db()
    stale.refresh_from_db()
    assert fresh.reviewed_at is not None
    assert not stale.events.filter(message__contains="kept").exists()


def test_the_verdict_card_says_whose_outcome_an_override_replaced(
    editor_client: Client, editor: Any
) -> None:
    claim = _decided()
    other = _editor("editor2")
    verdict_override(claim=claim, editor=other, to_outcome=Outcome.INVALID, reason="Too vague.")
    verdict_override(claim=claim, editor=editor, to_outcome=Outcome.TRUE, reason="Confirmed.")

    body = text(editor_client.get(reverse("claim_detail", args=[claim.pk])))

    assert "changed it from editor2's Invalid (ClaimCheck proposed False)" in body


# --- two editors in the same instant ------------------------------------------------------------


@pytest.mark.skipif(
    connection.vendor != "postgresql",
    reason="real concurrent writers: PostgreSQL's row locks (SQLite serialises every write)",
)
@pytest.mark.django_db(transaction=True)
def test_two_editors_overriding_in_the_same_instant_lose_nothing() -> None:
    """20 trials of two threads, each its own connection, overriding one claim on the version
    both read: exactly one lands, the other is refused as stale, and the trail names each."""
    editors = [_editor(f"racer{n}") for n in (1, 2)]
    for _ in range(20):
        claim = _decided()
        seen = claim.version
        results = _race(claim, seen, [(editors[0], Outcome.TRUE), (editors[1], Outcome.INVALID)])

        landed = [r for r in results if r.startswith("landed")]
        refused = [r for r in results if r.startswith("stale")]
        assert len(landed) == 1 and len(refused) == 1, results
        claim.refresh_from_db()
        winner = landed[0].split(":")[1]
        assert claim.outcome == winner and refused[0] == f"stale:{winner}"
        assert claim.version == seen + 1
        overrides = list(Override.objects.filter(verdict__claim=claim))
        assert len(overrides) == 1 and overrides[0].from_outcome == Outcome.FALSE
        assert claim.status == ClaimStatus.DECIDED


def _race(claim: Claim, seen: int, writers: list[tuple[Any, str]]) -> list[str]:
    """Each writer overrides `claim` on version `seen` in a thread (and a connection) of its
    own, all released at once; what each got."""
    barrier = threading.Barrier(len(writers))
    results: list[str] = []

    def write(editor: Any, outcome: str) -> None:
        try:
            barrier.wait()
            verdict_override(
                claim=claim,
                editor=editor,
                to_outcome=outcome,
                reason=f"{editor.username} read it",
                expected_version=seen,
            )
            results.append(f"landed:{outcome}")
        except StaleClaim as exc:
            results.append(f"stale:{exc.current.outcome}")
        finally:
            close_old_connections()
            connection.close()

    threads = [threading.Thread(target=write, args=writer) for writer in writers]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=30)
    return results
