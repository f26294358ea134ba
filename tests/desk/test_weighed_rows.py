"""A verdict the weighing reached rests on readings below the counting bar: the evidence table
says, on each row the proposal read, that it was weighed, how sure its reading was and how far
it moved the proposal, next to why it did not count."""

from __future__ import annotations

from typing import Any

import pytest
from django.test import Client
from django.urls import reverse

from claims.models import Outcome
from decisions.models import VerdictReason
from evidence.models import Stance
from registry.models import Tier
from tests.factories import DecidedClaimFactory, EvidenceFactory, PageFactory, VerdictFactory

pytestmark = pytest.mark.django_db


def _reading(url: str, publisher: str, probability: float, weight: float = 1.0) -> dict[str, Any]:
    return {
        "side": "refute",
        "publisher": publisher,
        "weight": weight,
        "probability": probability,
        "url": url,
        "named": 1.0,
    }


def _row_html(page: str, pk: int) -> str:
    start = page.index(f'<tbody id="evidence-{pk}"')
    return page[start : page.index("</tbody>", start)]


def _weighed_claim() -> tuple[Any, dict[str, Any]]:
    """A False verdict reached by the weighing, on three refuting rows below the counting bar
    (two of them one publisher's) and a row that takes no side."""
    claim: Any = DecidedClaimFactory(
        text="The Authority cleared the Halden Rail merger", outcome=Outcome.FALSE
    )
    agency: Any = PageFactory(url="https://agency.example/ruling", domain="agency.example")
    again: Any = PageFactory(url="https://agency.example/ruling-2", domain="agency.example")
    wire: Any = PageFactory(url="https://wire.example/story", domain="wire.example")
    unread: Any = PageFactory(url="https://trade.example/note", domain="trade.example")
    rows: dict[str, Any] = {
        "agency": EvidenceFactory(
            claim=claim, page=agency, stance=Stance.REFUTE, confidence="low", source_quote="a"
        ),
        "again": EvidenceFactory(
            claim=claim, page=again, stance=Stance.REFUTE, confidence="low", source_quote="b"
        ),
        "wire": EvidenceFactory(
            claim=claim,
            page=wire,
            stance=Stance.REFUTE,
            tier=Tier.WIRE,
            weight=0.8,
            confidence="low",
            source_quote="c",
        ),
        "unread": EvidenceFactory(
            claim=claim, page=unread, stance=Stance.NEUTRAL, source_quote="d"
        ),
    }
    proposal = {
        "probabilities": {"true": 0.04, "false": 0.83, "invalid": 0.13},
        "proposed": "false",
        "lean": "false",
        "text": "False, 0.83",
        "thresholds": {"true": 1.01, "false": 0.52},
        "moved": "false",
        "movers": [
            {
                "publisher": "agency.example",
                "side": "refute",
                "url": agency.url,
                "weight": 1.0,
                "probability": 0.6,
                "change": 0.31,
                "text": "agency.example (refutes, weight 1.0, read 0.60 sure): +0.31 to P(False)",
            }
        ],
        "readings": [
            _reading(agency.url, "agency.example", 0.6),
            _reading(again.url, "agency.example", 0.4),
            _reading(wire.url, "wire.example", 0.5, weight=0.8),
        ],
    }
    VerdictFactory(
        claim=claim,
        outcome=Outcome.FALSE,
        reason=VerdictReason.WEIGHED,
        support_total=0.0,
        refute_total=0.0,
        proposal=proposal,
    )
    return claim, rows


def test_the_rows_a_weighed_verdict_rests_on_say_they_were_weighed(editor_client: Client) -> None:
    claim, rows = _weighed_claim()
    page = editor_client.get(reverse("claim_detail", args=[claim.pk])).content.decode()

    agency_row = _row_html(page, rows["agency"].pk)
    assert "Not counted: below the reader" in agency_row
    assert (
        "Weighed with the others: refutes (likely right: 60%); with it the chance of False is "
        "0.31 higher" in agency_row
    )
    assert (
        "Weighed with the others: refutes (likely right: 40%); agency.example weighs once, "
        "with its stronger reading" in _row_html(page, rows["again"].pk)
    )
    wire_row = _row_html(page, rows["wire"].pk)
    assert "Weighed with the others: refutes (likely right: 50%)" in wire_row
    assert "chance" not in wire_row
    assert "Weighed" not in _row_html(page, rows["unread"].pk)


def test_the_api_says_how_the_proposal_read_each_row(api: Client) -> None:
    claim, rows = _weighed_claim()
    body = api.get(f"/api/claims/{claim.pk}").json()
    weighed = {row["id"]: row["weighed"] for row in body["evidence"]}
    assert weighed[rows["agency"].pk] == (
        "Weighed with the others: refutes (likely right: 60%); with it the chance of False is "
        "0.31 higher"
    )
    assert weighed[rows["wire"].pk] == "Weighed with the others: refutes (likely right: 50%)"
    assert weighed[rows["unread"].pk] == ""
    assert all(row["counted"] is False for row in body["evidence"])


def test_a_verdict_stored_before_weighing_marks_no_row(editor_client: Client) -> None:
    claim: Any = DecidedClaimFactory(text="The Authority cleared the merger")
    row: Any = EvidenceFactory(claim=claim, stance=Stance.REFUTE, source_quote="a")
    VerdictFactory(claim=claim, proposal=None)
    page = editor_client.get(reverse("claim_detail", args=[claim.pk])).content.decode()
    assert "Weighed:" not in _row_html(page, row.pk)
