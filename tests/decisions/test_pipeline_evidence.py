"""What counts as evidence in the claim loop: search results are leads, internal addresses are
never sources, a snippet counts only once found on its live page, and search ends when it stops
paying. The search provider and the pages are imitated with respx; nothing else is reachable."""

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

from claimcheck.config import reload_config
from claims.models import ClaimStatus, EventKind
from decisions.pipeline import claim_pipeline_run
from decisions.services import claim_submit
from evidence.models import Evidence, VerificationStatus
from harvester.providers import base, limits
from integrations import http
from tests.evidence.factories import article_html

pytestmark = pytest.mark.django_db

SEARCH_HOST = "search.example.org"
CLAIM = "The Senate approved the harbour budget bill by 60 votes in March 2024."
SNIPPET = "The Senate approved the harbour budget bill on 5 March 2024 by 60 votes to 38."
STORY = (
    f"{SNIPPET} The bill funds the new harbour wall, the ferry terminal and a pay rise for "
    "port staff. It now goes to the lower house, which is expected to vote before the summer. "
    "Opposition senators said the spending plans were not matched by new revenue. The finance "
    "minister said the deficit would still fall over the next three years."
)
WIRE_STORY = (
    f"{SNIPPET} Senators from both parties backed the measure after a debate that ran late "
    "into the night, and port unions welcomed the money for the harbour wall. Analysts expect "
    "the lower house to pass it without changes before its summer recess."
)
OFFICIAL = "https://senate.gov/press/harbour-budget-bill"
WIRE = "https://reuters.com/world/harbour-budget-bill-passes"
HTML = {"content-type": "text/html; charset=utf-8"}
PUBLIC_HOSTS = {SEARCH_HOST, "senate.gov", "reuters.com"}


@pytest.fixture
def web(settings: Any, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Any]:
    """A SearXNG provider alone (no local index), with the hosts above resolving to public
    addresses; any other name does not resolve."""

    def resolve(host: str, port: int) -> list[Any]:
        if host in PUBLIC_HOSTS:
            return [ipaddress.ip_address("93.184.216.34")]
        raise socket.gaierror(socket.EAI_NONAME, "Name or service not known")

    monkeypatch.setattr(http.addresses, "resolve", resolve)
    monkeypatch.setattr(base, "BACKOFF_BASE_S", 0.001)
    limits.reset_provider_state()
    config = yaml.safe_load((Path(settings.BASE_DIR) / "claimcheck/default.yaml").read_text())
    config["search"]["cascade_order"] = ["searxng"]
    config["search"]["providers"] = {"searxng": {"base_url": f"https://{SEARCH_HOST}"}}
    config["factcheck"]["enabled"] = False
    path = tmp_path / "pipeline.yaml"
    path.write_text(yaml.safe_dump(config), encoding="utf-8")
    settings.CLAIMCHECK_CONFIG = str(path)
    reload_config()
    with respx.mock(assert_all_called=False) as mock:
        yield mock
    limits.reset_provider_state()


def _results(mock: Any, urls: list[str], snippet: str = SNIPPET) -> Any:
    hits = [{"url": url, "title": "Harbour budget bill passes", "content": snippet} for url in urls]
    return mock.get(f"https://{SEARCH_HOST}/search").mock(
        return_value=httpx.Response(200, json={"results": hits})
    )


def _run() -> Any:
    claim, _ = claim_submit(text=CLAIM, enqueue=False)
    verdict = claim_pipeline_run(claim_id=claim.pk)
    claim.refresh_from_db()
    assert claim.status == ClaimStatus.DECIDED
    return claim, verdict


def test_results_at_internal_addresses_never_decide_a_claim(web: Any) -> None:
    internal = [
        "http://127.0.0.1/harbour-budget",
        "http://2130706433/harbour-budget",
        "http://[::ffff:127.0.0.1]/harbour-budget",
        "http://localhost/harbour-budget",
    ]
    _results(web, internal)

    claim, verdict = _run()

    assert verdict.outcome == "invalid"
    assert verdict.reason == "no_sources"
    assert not Evidence.objects.filter(claim=claim).exists()
    for url in internal:
        assert url not in verdict.proof_markdown
    assert verdict.sources == [] and verdict.unsided == []


def test_snippets_from_two_publishers_count_once_found_on_their_live_pages(web: Any) -> None:
    _results(web, [OFFICIAL, WIRE])
    web.get(OFFICIAL).respond(200, headers=HTML, text=article_html(title="Budget", text=STORY))
    web.get(WIRE).respond(
        200, headers=HTML, text=article_html(title="Bill passes", text=WIRE_STORY)
    )

    claim, verdict = _run()

    assert verdict.outcome == "true", verdict.proof_markdown
    checks = claim.events.filter(kind=EventKind.VERIFY)
    assert {e.payload["verified"] for e in checks} == {True}
    assert {s["publisher"] for s in verdict.sources} == {"senate.gov", "reuters.com"}


def test_snippets_that_their_pages_do_not_hold_never_count(web: Any) -> None:
    _results(web, [OFFICIAL, WIRE])
    elsewhere = article_html(
        title="Port news",
        text="The port authority opened a new ferry terminal on Monday. " * 12,
    )
    web.get(OFFICIAL).respond(200, headers=HTML, text=elsewhere)
    web.get(WIRE).respond(404, headers=HTML, text="gone")

    claim, verdict = _run()

    assert verdict.outcome == "invalid", verdict.proof_markdown
    snippets = Evidence.objects.filter(claim=claim, method="snippet")
    assert snippets.exists()
    assert not snippets.filter(verification_status=VerificationStatus.VERIFIED).exists()
    assert not [s for s in verdict.sources if s["url"] in (OFFICIAL, WIRE)]


def _budgets(settings: Any, tmp_path: Path, **budgets: int) -> None:
    config = yaml.safe_load(Path(settings.CLAIMCHECK_CONFIG).read_text(encoding="utf-8"))
    config["budgets"].update(budgets)
    path = tmp_path / "budgets.yaml"
    path.write_text(yaml.safe_dump(config), encoding="utf-8")
    settings.CLAIMCHECK_CONFIG = str(path)
    reload_config()


def test_search_stops_once_refinements_find_nothing_new(
    web: Any, settings: Any, tmp_path: Path
) -> None:
    _budgets(settings, tmp_path, min_crawls=1)
    route = _results(web, [OFFICIAL])
    web.get(OFFICIAL).respond(200, headers=HTML, text=article_html(title="Budget", text=STORY))

    claim, verdict = _run()

    # The first search finds the page; the first refinement finds nothing new.
    assert route.call_count == 2
    assert claim.queries_used == 2
    # One official page that states the claim, read as a sure support, is what a True from
    # the weighed proposal stands on.
    assert verdict.outcome == "true"
    assert verdict.reason == "weighed"
    assert claim.events.filter(kind=EventKind.DECISION, message__contains="stopped paying")


def test_a_claim_that_read_too_little_searches_on_while_queries_remain(web: Any) -> None:
    route = _results(web, [OFFICIAL])
    web.get(OFFICIAL).respond(200, headers=HTML, text=article_html(title="Budget", text=STORY))

    claim, verdict = _run()

    # One page read of the two it should read: every query allowed is sent.
    budgets = reload_config().budgets
    assert claim.crawls_used == 1 < budgets.min_crawls
    assert route.call_count == claim.queries_used == budgets.max_queries
    # What it read is then weighed: the one official page's sure support.
    assert (verdict.outcome, verdict.reason) == ("true", "weighed")
    assert not claim.events.filter(kind=EventKind.DECISION, message__contains="stopped paying")


def test_with_more_dry_attempts_allowed_search_goes_on_longer(
    web: Any, settings: Any, tmp_path: Path
) -> None:
    _budgets(settings, tmp_path, dry_attempts=3, max_queries=10, min_crawls=1)
    route = _results(web, [OFFICIAL])
    web.get(OFFICIAL).respond(200, headers=HTML, text=article_html(title="Budget", text=STORY))

    claim, _ = _run()

    assert route.call_count == claim.queries_used == 4


def test_a_listing_page_leads_to_one_click_down_to_the_story_it_lists(web: Any) -> None:
    hub = "https://senate.gov/press"
    listing = (
        "<!doctype html><html><head><title>Press releases | Senate</title></head><body><main>"
        "<h1>Press releases</h1><p>Releases of the Senate press office.</p><ul>"
        "<li>5 March 2024 <a href='/press/harbour-budget-bill'>Senate approves the harbour "
        "budget bill by 60 votes</a></li>"
        "<li>1 March 2024 <a href='/press/ferry-timetable'>New ferry timetable</a></li>"
        "</ul></main></body></html>"
    )
    _results(web, [hub], snippet="Press releases of the Senate: harbour budget bill, ferries")
    web.get(hub).respond(200, headers=HTML, text=listing)
    release = web.get(OFFICIAL).respond(
        200, headers=HTML, text=article_html(title="Budget", text=STORY)
    )

    claim, verdict = _run()

    assert release.called
    crawls = {e.payload["url"]: e.payload for e in claim.events.filter(kind=EventKind.CRAWL)}
    assert crawls[hub]["hub"] is True
    assert crawls[OFFICIAL]["via"] == hub
    # The listing's own search snippet stays a lead that never counts.
    assert not [row for row in Evidence.objects.filter(claim=claim, url=hub) if row.was_read]
    assert Evidence.objects.filter(claim=claim, url=OFFICIAL, stance="support").exists()
    # The release the listing led to is what the weighed True stands on.
    assert (verdict.outcome, verdict.reason) == ("true", "weighed")
    assert verdict.support_total == 1.0
