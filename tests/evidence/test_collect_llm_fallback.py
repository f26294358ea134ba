"""A page the LLM fails to read is read by this machine's reader: once, with the timeline saying
why, and the failed call is not sent again. A reply with some bad findings is no failure: the
rest are kept, and the bad ones counted for the dashboard."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
import respx
from django.utils import timezone

from claimcheck.models import ModelReplyDay
from claims.models import Claim, EventKind, PipelineEvent
from evidence.models import Method
from evidence.services import Lead, collect_evidence
from integrations.llm import llm_mock
from tests.evidence.budget_story import HTML, OFFICIAL, budget_claim, budget_page
from tests.evidence.factories import use_config

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("fake_dns")]


@pytest.fixture
def claim(settings: Any, tmp_path: Path) -> Claim:
    use_config(settings, tmp_path, "llm:\n  model: openai/gpt-4o-mini\n")
    return budget_claim()


@pytest.mark.parametrize(
    "reply",
    [
        "Sure! The page supports the claim.",
        'Here it is: {"findings": [{"quote": "The Senate", "stance": "support"',
        '{"verdict": "support"}',
    ],
    ids=["prose", "cut-off", "wrong-keys"],
)
def test_a_reply_that_is_not_the_json_asked_for_ends_in_the_offline_reader(
    web: respx.MockRouter, claim: Claim, reply: str
) -> None:
    web.get(OFFICIAL).respond(200, headers=HTML, text=budget_page())

    with llm_mock([reply]) as mock:
        rows = collect_evidence(claim=claim, leads=[Lead(url=OFFICIAL)], attempt=1)
        again = collect_evidence(claim=claim, leads=[Lead(url=OFFICIAL)], attempt=1)

    assert mock.purposes == ["stance"]  # one call; a resumed step does not send it again
    assert rows and {row.method for row in rows} == {Method.MODEL}
    assert [row.pk for row in again] == [row.pk for row in rows]
    [event] = PipelineEvent.objects.filter(claim=claim, kind=EventKind.EVIDENCE)
    assert "this machine's reader read it" in event.message
    assert str(event.payload["llm_error"]).startswith("bad_output: ")
    # Each row says what read it, and why not the configured model.
    for row in rows:
        assert row.read_by == ""
        assert row.read_offline_because.startswith("bad_output: ")
        assert row.reader_words.startswith(
            "read by this machine's stance model: the model server could not read it (bad_output"
        )


def test_a_page_the_model_read_names_the_model_by_its_configured_name(
    web: respx.MockRouter, claim: Claim
) -> None:
    web.get(OFFICIAL).respond(200, headers=HTML, text=budget_page())
    quote = "The Senate approved the budget bill on 5 March 2024 by 60 votes to 38"
    finding = {"quote": quote, "stance": "support", "score": 0.9, "confidence": "high"}
    reply = json.dumps({"findings": [finding | {"event_date": None}]})

    with llm_mock([reply]):
        rows = collect_evidence(claim=claim, leads=[Lead(url=OFFICIAL)], attempt=1)

    [row] = [row for row in rows if row.method == Method.LLM]
    assert row.read_by == "openai/gpt-4o-mini"
    assert row.read_offline_because == ""
    assert row.reader_words == "read by openai/gpt-4o-mini on the model server"
    assert not PipelineEvent.objects.filter(claim=claim, kind=EventKind.EVIDENCE).exists()


def test_findings_clipped_or_refused_are_counted_for_the_day_and_the_rest_kept(
    web: respx.MockRouter, claim: Claim
) -> None:
    web.get(OFFICIAL).respond(200, headers=HTML, text=budget_page())
    approved = "The Senate approved the budget bill on 5 March 2024 by 60 votes to 38"
    reply = {
        "findings": [
            {"quote": approved, "stance": "support", "score": 1.2, "confidence": "high"},
            {"quote": approved, "stance": "agrees", "score": 0.9, "confidence": "high"},
            {"quote": "The bill was vetoed.", "stance": "refute", "score": 0.7},
        ]
    }

    with llm_mock([json.dumps(reply)]) as mock:
        rows = collect_evidence(claim=claim, leads=[Lead(url=OFFICIAL)], attempt=1)
        collect_evidence(claim=claim, leads=[Lead(url=OFFICIAL)], attempt=1)

    assert mock.purposes == ["stance"]  # the resumed step reads nothing again, counts nothing
    [row] = rows
    assert row.method == Method.LLM and row.stance_score == 1.0
    [day] = ModelReplyDay.objects.all()
    assert (day.day, day.purpose, day.clipped, day.refused) == (
        timezone.localdate(),
        "stance",
        1,
        2,
    )
    assert not PipelineEvent.objects.filter(claim=claim, payload__has_key="llm_error").exists()
