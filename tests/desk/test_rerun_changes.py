"""After a re-run the claim page says what changed: the outcome, sources added and removed."""

from __future__ import annotations

from typing import Any

import pytest
from django.test import Client
from django.urls import reverse

from claims.models import Outcome
from tests.factories import DecidedClaimFactory, VerdictFactory

pytestmark = pytest.mark.django_db


def _source(name: str, stance: str) -> dict[str, Any]:
    return {"url": f"https://{name}/story", "publisher": name, "stance": stance, "title": name}


def test_the_page_shows_the_outcome_and_sources_that_changed(editor_client: Client) -> None:
    claim: Any = DecidedClaimFactory(run_number=2, outcome=Outcome.FALSE)
    VerdictFactory(
        claim=claim,
        run_number=1,
        outcome=Outcome.TRUE,
        sources=[_source("old-wire.example", "support"), _source("gov.example", "support")],
    )
    VerdictFactory(
        claim=claim,
        run_number=2,
        outcome=Outcome.FALSE,
        sources=[_source("gov.example", "refute"), _source("new-paper.example", "refute")],
    )
    page = editor_client.get(reverse("claim_detail", args=[claim.pk])).content.decode()
    changes = page[page.index('id="run-changes"') :]
    changes = changes[: changes.index("</section>")]
    assert "Changed since run 1" in changes
    assert 'badge-true">True</span> → <span class="badge badge-false">False</span>' in changes
    added = changes[changes.index("changes-added") :]
    assert "new-paper.example" in added.split("</ul>")[0]
    removed = changes[changes.index("changes-removed") :]
    assert "old-wire.example" in removed.split("</ul>")[0]
    assert "1 source kept" in changes


def test_a_re_run_that_changed_nothing_says_so(editor_client: Client) -> None:
    claim: Any = DecidedClaimFactory(run_number=2)
    sources = [_source("gov.example", "support")]
    VerdictFactory(claim=claim, run_number=1, sources=sources)
    VerdictFactory(claim=claim, run_number=2, sources=sources)
    page = editor_client.get(reverse("claim_detail", args=[claim.pk])).content.decode()
    assert "Nothing: the same outcome from the same sources." in page


def test_a_first_run_has_no_changes_card(editor_client: Client) -> None:
    claim: Any = DecidedClaimFactory()
    VerdictFactory(claim=claim)
    page = editor_client.get(reverse("claim_detail", args=[claim.pk])).content.decode()
    assert 'id="run-changes"' not in page
