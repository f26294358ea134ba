"""The claims API: submit, read, list, override. Bad input gets a clear error and no change."""

from __future__ import annotations

import json
from typing import Any

import pytest
from django.test import Client

from claimcheck.models import ApiToken
from claims.models import Claim
from decisions.models import Override
from tests.factories import ClaimFactory, DecidedClaimFactory, UserFactory, VerdictFactory

pytestmark = pytest.mark.django_db


def post(client: Client, url: str, body: Any) -> Any:
    return client.post(url, data=json.dumps(body), content_type="application/json")


@pytest.fixture
def outsider_api(outsider: Any) -> Client:
    _, raw = ApiToken.issue(user=outsider, name="t")
    return Client(headers={"Authorization": f"Bearer {raw}"})


def test_one_claim_is_accepted_with_202_and_its_id(api: Client) -> None:
    response = post(
        api,
        "/api/claims",
        {
            "text": "The EU AI Act entered into force on 1 August 2024",
            "timeframe_start": "2024-07-01",
            "timeframe_end": "2024-08-31",
            "source_channel": "@eu",
        },
    )
    assert response.status_code == 202, response.content
    body = response.json()
    claim = Claim.objects.get(pk=body["ids"][0])
    assert body["claims"][0] == {
        "id": claim.pk,
        "status": "queued",
        "created": True,
        "url": f"/api/claims/{claim.pk}",
    }
    assert claim.timeframe_start is not None and claim.timeframe_end is not None
    assert claim.timeframe_start.isoformat() == "2024-07-01T00:00:00+00:00"
    assert claim.timeframe_end.date().isoformat() == "2024-08-31"
    assert claim.created_by is not None and claim.created_by.username == "edna"


def test_a_list_of_claims_is_accepted_together(api: Client) -> None:
    response = post(api, "/api/claims", [{"text": "First claim"}, {"text": "Second claim"}])
    assert response.status_code == 202
    assert len(response.json()["ids"]) == 2


@pytest.mark.parametrize(
    ("body", "status"),
    [
        ({"text": ""}, 422),
        ({"text": "x" * 2001}, 422),
        ({"text": "ok", "timeframe_start": "2024-05-01", "timeframe_end": "2024-04-01"}, 422),
        ({"text": "ok", "colour": "red"}, 422),
        ({"text": "ok", "timeframe_start": "not a date"}, 422),
        ({}, 422),
        ([{"text": "fine"}, {"text": ""}], 422),
        ([], 422),
    ],
)
def test_bad_claims_get_an_error_and_change_nothing(api: Client, body: Any, status: int) -> None:
    response = post(api, "/api/claims", body)
    assert response.status_code == status, response.content
    payload = response.json()
    assert payload["error"] and payload["details"]
    assert Claim.objects.count() == 0


def test_a_claim_reads_back_with_events_and_no_result_yet(api: Client) -> None:
    claim_id = post(api, "/api/claims", {"text": "Something happened"}).json()["ids"][0]
    body = api.get(f"/api/claims/{claim_id}").json()
    assert body["status"] == "queued" and body["result"] is None and body["override"] is None
    assert [e["kind"] for e in body["events"]] == ["queued"]


def test_a_decided_claim_reads_back_with_its_agent_result(api: Client) -> None:
    verdict = VerdictFactory.create(
        sources=[
            {"url": "https://a.example/x", "title": "A", "pub_date": "2024-08-01", "excerpt": "q"}
        ],
        debug={"total_queries": 2, "total_pages_visited": 3},
    )
    body = api.get(f"/api/claims/{verdict.claim_id}").json()
    result = body["result"]
    assert result["outcome"] == "True"
    assert result["sources"][0]["url"] == "https://a.example/x"
    assert result["debug"] == {"total_queries": 2, "total_pages_visited": 3}
    assert result["proof"] == verdict.proof_markdown


def test_an_unknown_claim_is_404(api: Client) -> None:
    assert api.get("/api/claims/999999").status_code == 404


def test_the_list_filters_by_status_and_outcome(api: Client) -> None:
    ClaimFactory.create_batch(2)
    DecidedClaimFactory.create(outcome="false")
    DecidedClaimFactory.create(outcome="true")
    assert api.get("/api/claims").json()["count"] == 4
    assert api.get("/api/claims?status=queued").json()["count"] == 2
    falses = api.get("/api/claims?outcome=false").json()
    assert falses["count"] == 1 and falses["items"][0]["outcome"] == "False"
    assert api.get("/api/claims?outcome=maybe").status_code == 422
    assert api.get("/api/claims?status=sleeping").status_code == 422
    assert api.get("/api/claims?from=&to=").json()["count"] == 4
    # A filter left empty, as a form sends it, filters nothing.
    assert api.get("/api/claims?status=&outcome=&q=").json()["count"] == 4
    paged = api.get("/api/claims?limit=1&offset=1").json()
    assert paged["count"] == 4 and len(paged["items"]) == 1


def test_an_editor_token_overrides_a_verdict(api: Client) -> None:
    verdict = VerdictFactory.create(outcome="true")
    response = post(
        api, f"/api/claims/{verdict.claim_id}/override", {"outcome": "false", "reason": "Retracted"}
    )
    assert response.status_code == 201, response.content
    assert response.json()["from_outcome"] == "True" and response.json()["to_outcome"] == "False"
    body = api.get(f"/api/claims/{verdict.claim_id}").json()
    assert body["outcome"] == "False" and body["result"]["outcome"] == "True"
    assert body["override"]["reason"] == "Retracted"


def test_the_api_shows_the_editors_outcome_in_the_proof_and_an_invalid_verdicts_lean(
    api: Client,
) -> None:
    leaning = VerdictFactory.create(
        outcome="invalid",
        claim__outcome="invalid",
        reason="insufficient",
        proof_markdown="**Verdict: Invalid**, because the sources found do not reach it.",
        lean={
            "outcome": "true",
            "weight": 1.0,
            "sources": ["agency.gov"],
            "text": "leans True: 1.0 from one official source (agency.gov)",
        },
    )
    body = api.get(f"/api/claims/{leaning.claim_id}").json()
    assert body["result"]["lean"] == {
        "outcome": "True",
        "weight": 1.0,
        "sources": ["agency.gov"],
        "text": "leans True: 1.0 from one official source (agency.gov)",
    }
    post(api, f"/api/claims/{leaning.claim_id}/override", {"outcome": "true", "reason": "Known"})
    body = api.get(f"/api/claims/{leaning.claim_id}").json()
    assert body["result"]["proof"].startswith("**Editor verdict: True**, was Invalid.")
    assert "Pipeline verdict: Invalid" in body["result"]["proof"]
    same = post(api, f"/api/claims/{leaning.claim_id}/override", {"outcome": "true", "reason": "x"})
    assert same.status_code == 409
    assert "already True" in same.json()["details"][0]["message"]


def test_an_override_needs_the_editor_group(outsider_api: Client) -> None:
    verdict = VerdictFactory.create()
    response = post(
        outsider_api,
        f"/api/claims/{verdict.claim_id}/override",
        {"outcome": "false", "reason": "r"},
    )
    assert response.status_code == 403
    assert Override.objects.count() == 0


def test_an_override_without_a_reason_is_422(api: Client) -> None:
    verdict = VerdictFactory.create()
    response = post(
        api, f"/api/claims/{verdict.claim_id}/override", {"outcome": "false", "reason": ""}
    )
    assert response.status_code == 422
    assert response.json()["details"] == [
        {"field": "reason", "message": "say why the verdict is changed"}
    ]


def test_an_undecided_claim_cannot_be_overridden(api: Client) -> None:
    claim = ClaimFactory.create()
    response = post(api, f"/api/claims/{claim.pk}/override", {"outcome": "false", "reason": "r"})
    assert response.status_code == 409


def test_claims_need_a_token_and_a_group(client: Client, outsider_api: Client) -> None:
    assert client.get("/api/claims").status_code == 401
    assert outsider_api.get("/api/claims").status_code == 403
    assert post(outsider_api, "/api/claims", {"text": "x"}).status_code == 403


def test_an_admin_token_can_use_the_claims_api(admin_api_token: str) -> None:
    admin = Client(headers={"Authorization": f"Bearer {admin_api_token}"})
    assert admin.get("/api/claims").status_code == 200
    UserFactory()  # unrelated users change nothing


@pytest.mark.parametrize("body", [{"text": "x"}, [{"text": "A fine claim"}, {"text": "the ?"}]])
def test_a_claim_with_no_searchable_words_is_refused_with_422_and_the_reason(
    api: Client, body: Any
) -> None:
    response = post(api, "/api/claims", body)
    assert response.status_code == 422, response.content
    assert "no words to search for" in json.dumps(response.json()["details"])
    assert Claim.objects.count() == 0


def test_an_overridden_claim_says_which_outcome_is_the_editors_and_which_claimchecks(
    api: Client,
) -> None:
    verdict = VerdictFactory.create(
        outcome="true",
        claim__fact_check_score=0.9,
        claim__fact_check_tier="high",
        claim__fact_check_note="two sources agree",
    )
    plain = VerdictFactory.create(outcome="false", claim__outcome="false")
    post(api, f"/api/claims/{verdict.claim_id}/override", {"outcome": "false", "reason": "Gone"})

    body = api.get(f"/api/claims/{verdict.claim_id}").json()

    confidence = {"score": 0.9, "tier": "high", "note": "two sources agree"}
    assert body["outcome"] == "False" and body["overridden"] is True
    assert body["decided_by"] == "editor"
    assert body["fact_check"] is None  # the top level is the editor's: no "high 0.9" beside it
    assert body["proposed"] == {"outcome": "True", "fact_check": confidence}
    editor = body["editor_verdict"]
    assert (editor["outcome"], editor["editor"], editor["reason"]) == ("False", "edna", "Gone")
    assert editor["at"] == body["override"]["at"]
    untouched = api.get(f"/api/claims/{plain.claim_id}").json()
    assert untouched["editor_verdict"] is None
    assert untouched["decided_by"] == "claimcheck"
    assert untouched["proposed"] == {"outcome": "False", "fact_check": None}

    listed = {item["id"]: item for item in api.get("/api/claims").json()["items"]}
    assert listed[verdict.claim_id]["outcome"] == "False"
    assert listed[verdict.claim_id]["fact_check"] is None
    assert listed[verdict.claim_id]["proposed"] == {"outcome": "True", "fact_check": confidence}
    assert listed[plain.claim_id]["proposed"] == {"outcome": "False", "fact_check": None}
    queued = api.get(f"/api/claims/{ClaimFactory.create().pk}").json()
    assert queued["proposed"] is None and queued["decided_by"] is None


def test_a_claim_claimcheck_decided_keeps_its_confidence_at_the_top(api: Client) -> None:
    """Clients that read `outcome` and `fact_check` at the top level of a claim no editor
    changed read ClaimCheck's verdict there, as they always did."""
    verdict = VerdictFactory.create(
        outcome="true", claim__fact_check_score=0.9, claim__fact_check_tier="high"
    )
    body = api.get(f"/api/claims/{verdict.claim_id}").json()
    assert (body["outcome"], body["overridden"]) == ("True", False)
    assert body["decided_by"] == "claimcheck"
    assert body["fact_check"] == {"score": 0.9, "tier": "high", "note": ""}
    assert body["fact_check"] == body["proposed"]["fact_check"]


def test_the_api_docs_say_whose_outcome_is_whose(editor_client: Client) -> None:
    schema = editor_client.get("/api/openapi.json").json()
    described = schema["paths"]["/api/claims/{claim_id}"]["get"]["description"]
    assert "`editor_verdict`" in described and "`proposed`" in described
    fields = schema["components"]["schemas"]["ClaimDetailOut"]["properties"]
    assert "never given in an editor's outcome" in fields["fact_check"]["description"]
    assert "editor" in fields["decided_by"]["description"]


def test_a_claim_says_whether_the_command_line_checked_it(api: Client) -> None:
    claim_id = post(api, "/api/claims", {"text": "Something happened"}).json()["ids"][0]
    assert api.get(f"/api/claims/{claim_id}").json()["origin"] == "desk"
    Claim.objects.filter(pk=claim_id).update(origin="cli")
    assert api.get(f"/api/claims/{claim_id}").json()["origin"] == "cli"
