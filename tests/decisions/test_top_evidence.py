"""A claim shows and weighs only its best rows of each side (`retention.max_per_side`): the
verdict, the claim page and the API agree on them. The search provider and the pages are
imitated with respx; nothing else is reachable."""

from __future__ import annotations

import ipaddress
import socket
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
import respx
import yaml
from django.test import Client
from django.urls import reverse

from claimcheck.config import reload_config
from claims.models import Claim, ClaimStatus
from decisions.pipeline import claim_pipeline_run
from decisions.services import claim_submit
from evidence.models import Evidence, Stance
from harvester.providers import base, limits
from integrations import http
from tests.evidence.factories import article_html

pytestmark = pytest.mark.django_db

SEARCH_HOST = "search.example.org"
CLAIM = "The Senate approved the harbour budget bill by 60 votes in March 2024."
SNIPPET = "The Senate approved the harbour budget bill on 5 March 2024 by 60 votes to 38."
PAGES = {
    "https://senate.gov/press/harbour-budget-bill": (
        f"{SNIPPET} The bill funds the new harbour wall, the ferry terminal and a pay rise for "
        "port staff. It now goes to the lower house, which is expected to vote before summer."
    ),
    "https://reuters.com/world/harbour-budget-bill-passes": (
        f"{SNIPPET} Senators from both parties backed the measure after a debate that ran late "
        "into the night, and port unions welcomed the money for the harbour wall."
    ),
    "https://apnews.com/article/harbour-budget-senate-vote": (
        f"{SNIPPET} Opposition senators said the spending plans were not matched by new "
        "revenue, while the finance minister promised a smaller deficit within three years."
    ),
}
HTML = {"content-type": "text/html; charset=utf-8"}
PUBLIC_HOSTS = {SEARCH_HOST, "senate.gov", "reuters.com", "apnews.com"}


def _config(settings: Any, tmp_path: Path, *, max_per_side: int | None) -> None:
    config = yaml.safe_load((Path(settings.BASE_DIR) / "claimcheck/default.yaml").read_text())
    config["search"]["cascade_order"] = ["searxng"]
    config["search"]["providers"] = {"searxng": {"base_url": f"https://{SEARCH_HOST}"}}
    config["factcheck"]["enabled"] = False
    if max_per_side is not None:
        config["retention"]["max_per_side"] = max_per_side
    path = tmp_path / "pipeline.yaml"
    path.write_text(yaml.safe_dump(config), encoding="utf-8")
    settings.CLAIMCHECK_CONFIG = str(path)
    reload_config()


@pytest.fixture
def web(monkeypatch: pytest.MonkeyPatch) -> Iterator[respx.MockRouter]:
    """Three publishers whose search snippets and pages all confirm the claim."""

    def resolve(host: str, port: int) -> list[Any]:
        if host in PUBLIC_HOSTS:
            return [ipaddress.ip_address("93.184.216.34")]
        raise socket.gaierror(socket.EAI_NONAME, "Name or service not known")

    monkeypatch.setattr(http.addresses, "resolve", resolve)
    monkeypatch.setattr(base, "BACKOFF_BASE_S", 0.001)
    limits.reset_provider_state()
    with respx.mock(assert_all_called=False) as mock:
        hits = [
            {"url": url, "title": "Harbour budget bill passes", "content": SNIPPET} for url in PAGES
        ]
        mock.get(f"https://{SEARCH_HOST}/search").mock(
            return_value=httpx.Response(200, json={"results": hits})
        )
        for url, text in PAGES.items():
            mock.get(url).respond(200, headers=HTML, text=article_html(title="Budget", text=text))
        yield mock
    limits.reset_provider_state()


def _run() -> Claim:
    claim, _ = claim_submit(text=CLAIM, enqueue=False)
    claim_pipeline_run(claim_id=claim.pk)
    claim.refresh_from_db()
    assert claim.status == ClaimStatus.DECIDED
    return claim


def test_with_the_shipped_limit_all_three_publishers_are_weighed(
    web: respx.MockRouter, settings: Any, tmp_path: Path
) -> None:
    _config(settings, tmp_path, max_per_side=None)

    claim = _run()
    verdict = claim.verdicts.get()

    assert verdict.outcome == "true", verdict.proof_markdown
    assert verdict.support_total == pytest.approx(2.6)
    assert len(verdict.sources) == 3


def test_a_claim_weighs_only_its_best_rows_of_a_side(
    web: respx.MockRouter, settings: Any, tmp_path: Path
) -> None:
    _config(settings, tmp_path, max_per_side=2)

    claim = _run()
    verdict = claim.verdicts.get()

    assert verdict.outcome == "true", verdict.proof_markdown
    assert verdict.support_total == pytest.approx(1.8)
    publishers = [s["publisher"] for s in verdict.sources]
    assert publishers[0] == "senate.gov" and len(publishers) == 2
    assert Evidence.objects.filter(claim=claim, stance=Stance.SUPPORT).count() == 3


def test_the_claim_page_and_the_api_show_the_rows_the_verdict_weighed(
    web: respx.MockRouter,
    settings: Any,
    tmp_path: Path,
    editor_client: Client,
    api: Client,
) -> None:
    _config(settings, tmp_path, max_per_side=2)
    claim = _run()
    verdict = claim.verdicts.get()
    weighed = {s["url"] for s in verdict.sources}
    left_out = Evidence.objects.filter(claim=claim).exclude(url__in=weighed).get()

    page = editor_client.get(reverse("claim_detail", args=[claim.pk])).content.decode()
    body = api.get(f"/api/claims/{claim.pk}").json()

    for row in Evidence.objects.filter(claim=claim, url__in=weighed):
        assert f'id="evidence-{row.pk}"' in page
    assert f'id="evidence-{left_out.pk}"' not in page
    assert "1 more row took a side below the best 2 of its side" in page
    assert {s["url"] for s in body["result"]["sources"]} == weighed
    assert body["result"]["support_total"] == pytest.approx(1.8)
    assert body["evidence_count"] == 2
