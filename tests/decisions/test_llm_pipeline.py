"""A claim through the whole pipeline with the LLM on a real model server (llama.cpp, the 135M
SmolLM2): the query rewritten, the pages embedded and read, the proof written, all by it; and
when the server is too slow, killed mid-claim, or cut off at max_tokens, the step it failed is
done by the offline reader or the plain proof, the timeline says so, no call is sent twice and
the claim is decided. The search provider and the pages are imitated with respx (the outside
web); the model server is real. What the tiny model judges is not asserted."""

from __future__ import annotations

import html
import ipaddress
import logging
import re
import socket
import threading
from collections import Counter
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
import respx

from claims.models import Claim, ClaimStatus, EventKind, Outcome
from decisions.pipeline import claim_pipeline_run
from decisions.services import claim_submit
from evidence.models import Evidence, Method, Stance
from harvester.models import Query
from harvester.providers import base, limits
from harvester.rewriter import rewrite_query
from integrations import http
from integrations.llm.local_server import LITELLM_MODEL
from tests.evidence.factories import article_html
from tests.llm_server import ModelServer, use_model_server

pytestmark = [pytest.mark.django_db, pytest.mark.llm_server]

SEARCH_HOST = "search.example.org"
CLAIM = "The Senate approved the harbour budget bill by 60 votes in March 2024."
STORY = (
    "The Senate approved the harbour budget bill on 5 March 2024 by 60 votes to 38. The bill "
    "funds the new harbour wall, the ferry terminal and a pay rise for port staff. It now goes "
    "to the lower house, which is expected to vote before the summer."
)
WIRE_STORY = (
    "The Senate approved the harbour budget bill on 5 March 2024 by 60 votes to 38. Senators "
    "from both parties backed the measure after a debate that ran late into the night."
)
OFFICIAL = "https://senate.gov/press/harbour-budget-bill"
WIRE = "https://reuters.com/world/harbour-budget-bill-passes"
HTML = {"content-type": "text/html; charset=utf-8"}
# A snippet too thin to decide on: the pages are read.
SNIPPET = "News from the harbour."
PUBLIC_HOSTS = {SEARCH_HOST, "senate.gov", "reuters.com"}
# Small budgets: one search, the two pages; each LLM call is a few seconds on one thread.
BUDGETS = {"max_queries": 1, "crawls_per_turn": 2, "total_crawls": 2, "min_crawls": 0}


@pytest.fixture
def web(monkeypatch: pytest.MonkeyPatch) -> Iterator[respx.MockRouter]:
    """A SearXNG search and two pages, on hosts that resolve to a public address; the model
    server on loopback is reached for real."""

    def resolve(host: str, port: int) -> list[Any]:
        if host in PUBLIC_HOSTS:
            return [ipaddress.ip_address("93.184.216.34")]
        raise socket.gaierror(socket.EAI_NONAME, "Name or service not known")

    monkeypatch.setattr(http.addresses, "resolve", resolve)
    monkeypatch.setattr(base, "BACKOFF_BASE_S", 0.001)
    limits.reset_provider_state()
    with respx.mock(assert_all_called=False) as mock:
        mock.route(host="127.0.0.1").pass_through()
        hits = [
            {"url": url, "title": "Harbour budget bill passes", "content": SNIPPET}
            for url in (OFFICIAL, WIRE)
        ]
        mock.get(f"https://{SEARCH_HOST}/search").mock(
            return_value=httpx.Response(200, json={"results": hits})
        )
        mock.get(OFFICIAL).respond(200, headers=HTML, text=article_html(title="Budget", text=STORY))
        mock.get(WIRE).respond(
            200, headers=HTML, text=article_html(title="Passed", text=WIRE_STORY)
        )
        yield mock
    limits.reset_provider_state()


def _use(settings: Any, server: ModelServer, tmp_path: Path, **llm: Any) -> None:
    use_model_server(settings, server, tmp_path, budgets=BUDGETS, **llm)
    # The search provider is the imitated SearXNG alone.
    path = Path(settings.CLAIMCHECK_CONFIG)
    text = path.read_text(encoding="utf-8")
    text = text.replace("cascade_order:\n  - local", "cascade_order:\n  - searxng")
    text = text.replace(
        "providers:\n    local: {}",
        f"providers:\n    searxng:\n      base_url: https://{SEARCH_HOST}",
    )
    path.write_text(text, encoding="utf-8")
    from claimcheck.config import reload_config

    config = reload_config()
    assert config.search.cascade_order == ["searxng"]
    assert config.factcheck.enabled is False


def _run() -> Claim:
    claim, _ = claim_submit(text=CLAIM, enqueue=False)
    claim_pipeline_run(claim_id=claim.pk)
    claim.refresh_from_db()
    return claim


def _calls(caplog: pytest.LogCaptureFixture, message: str) -> Counter[str]:
    return Counter(
        str(getattr(r, "purpose", "")) for r in caplog.records if r.getMessage() == message
    )


def _assert_decided_with_a_well_formed_verdict(claim: Claim) -> Any:
    assert claim.status == ClaimStatus.DECIDED, claim.events.values_list("message", flat=True)
    verdict = claim.verdicts.get()
    assert verdict.outcome in Outcome.values
    assert verdict.proof_markdown.strip()
    for row in Evidence.objects.filter(claim=claim):
        assert row.stance in Stance.values
        assert row.source_quote in (STORY + " " + WIRE_STORY + " " + SNIPPET)
    assert claim.events.filter(kind=EventKind.VERDICT).exists()
    return verdict


def test_a_claim_is_rewritten_read_embedded_and_proved_by_the_model_server(
    settings: Any,
    tmp_path: Path,
    llm_server: ModelServer,
    web: respx.MockRouter,
    caplog: pytest.LogCaptureFixture,
) -> None:
    _use(settings, llm_server, tmp_path)
    caplog.set_level(logging.INFO, logger="integrations.llm")

    claim = _run()

    verdict = _assert_decided_with_a_well_formed_verdict(claim)
    answered = _calls(caplog, "llm call")
    assert answered["rewrite"] == 1
    assert answered["stance"] == 2  # each page read once
    assert answered["embed"] >= 2  # each page's chunks, and the leads before
    assert answered["proof"] == 1
    assert Query.objects.get().rewriter == LITELLM_MODEL
    # Each step says what did it: the model, by the name it is configured under.
    first = claim.events.get(kind=EventKind.QUERY, message__startswith="First query")
    assert first.payload["written_by"] == f"{LITELLM_MODEL} (model server)"
    assert "llm_error" not in first.payload
    for row in Evidence.objects.filter(claim=claim, method=Method.LLM):
        assert row.read_by == LITELLM_MODEL
        assert row.reader_words == f"read by {LITELLM_MODEL} on the model server"
    # Replies held to the schema parse: no page fell back to the offline reader.
    assert not _calls(caplog, "llm call failed")
    assert not claim.events.filter(message__contains="this machine's reader read it").exists()
    assert set(Evidence.objects.filter(claim=claim).values_list("method", flat=True)) <= {
        Method.LLM,
        Method.SNIPPET,
    }
    debug = verdict.debug if isinstance(verdict.debug, dict) else {}
    if "proof_llm_error" not in debug:  # the model's proof stood: it is not the template's
        assert not verdict.proof_markdown.startswith("**Claim:**")
        assert debug["proof_by"] == f"{LITELLM_MODEL} (model server)"
    else:  # it cited what it was not given: the timeline says the plain proof stands
        assert claim.events.filter(message__contains="the plain proof stands").exists()


def _rewrite_cached(settings: Any, server: ModelServer, tmp_path: Path) -> None:
    """The query rewritten by the model beforehand, as a claim run again finds it: the failures
    below then meet the reading and the proof (a failed rewrite is the test after them)."""
    _use(settings, server, tmp_path)
    rewrite_query(text=CLAIM)


def _assert_read_offline_and_proved_plainly(
    claim: Claim, caplog: pytest.LogCaptureFixture, kind: str
) -> None:
    verdict = _assert_decided_with_a_well_formed_verdict(claim)
    offline = claim.events.filter(
        kind=EventKind.EVIDENCE, message__contains="this machine's reader read it"
    )
    assert {e.payload["url"] for e in offline} == {OFFICIAL, WIRE}
    assert {str(e.payload["llm_error"]).split(":")[0] for e in offline} == {kind}
    assert Method.LLM not in set(
        Evidence.objects.filter(claim=claim).values_list("method", flat=True)
    )
    assert str(verdict.debug["proof_llm_error"]).startswith(f"{kind}: ")
    assert verdict.proof_markdown.startswith("**Claim:**")
    assert claim.events.filter(kind=EventKind.VERDICT, message__contains="the plain proof stands")
    # Nothing asked twice: one failed call for each page and one for the proof, no retries.
    failed = _calls(caplog, "llm call failed") + _calls(caplog, "llm embedding failed")
    # (a reply cut off at max_tokens came back, with its tokens: it is logged as a call)
    made = failed + _calls(caplog, "llm call")
    assert made["proof"] == 1
    assert made["stance"] <= 2
    assert not _calls(caplog, "llm call refused; asked again")


def test_a_server_too_slow_for_the_timeout_leaves_each_step_to_the_offline_parts(
    settings: Any,
    tmp_path: Path,
    llm_server: ModelServer,
    web: respx.MockRouter,
    caplog: pytest.LogCaptureFixture,
) -> None:
    _rewrite_cached(settings, llm_server, tmp_path)
    _use(settings, llm_server, tmp_path, timeout_s=0.01)
    caplog.set_level(logging.INFO, logger="integrations.llm")

    claim = _run()

    _assert_read_offline_and_proved_plainly(claim, caplog, "timeout")


def test_replies_cut_off_at_max_tokens_leave_each_step_to_the_offline_parts(
    settings: Any,
    tmp_path: Path,
    llm_server: ModelServer,
    web: respx.MockRouter,
    caplog: pytest.LogCaptureFixture,
) -> None:
    _rewrite_cached(settings, llm_server, tmp_path)
    # Embeddings are left to this machine, so that each page's reading is what fails.
    _use(settings, llm_server, tmp_path, max_tokens=16, embedding_model=None)
    caplog.set_level(logging.INFO, logger="integrations.llm")

    claim = _run()

    _assert_read_offline_and_proved_plainly(claim, caplog, "bad_output")
    assert _calls(caplog, "llm call")["stance"] == 2  # each page read once, cut off


def test_a_server_killed_mid_claim_leaves_the_rest_to_the_offline_parts(
    settings: Any,
    tmp_path: Path,
    own_llm_server: ModelServer,
    web: respx.MockRouter,
    caplog: pytest.LogCaptureFixture,
) -> None:
    _rewrite_cached(settings, own_llm_server, tmp_path)
    caplog.set_level(logging.INFO, logger="integrations.llm")

    class KillOnFirstEmbedding(logging.Handler):
        """Kills the server a moment after the claim's first page is embedded: during the
        reading of that page."""

        fired = False

        def emit(self, record: logging.LogRecord) -> None:
            if not self.fired and getattr(record, "purpose", "") == "embed":
                self.fired = True
                threading.Timer(0.3, own_llm_server.kill).start()

    killer = KillOnFirstEmbedding()
    logging.getLogger("integrations.llm").addHandler(killer)
    try:
        claim = _run()
    finally:
        logging.getLogger("integrations.llm").removeHandler(killer)

    assert killer.fired
    verdict = _assert_decided_with_a_well_formed_verdict(claim)
    offline = claim.events.filter(
        kind=EventKind.EVIDENCE, message__contains="this machine's reader read it"
    )
    assert offline.exists()
    assert {str(e.payload["llm_error"]).split(":")[0] for e in offline} == {"unavailable"}
    assert str(verdict.debug["proof_llm_error"]).startswith("unavailable: ")
    assert claim.events.filter(kind=EventKind.VERDICT, message__contains="the plain proof stands")
    failed = _calls(caplog, "llm call failed") + _calls(caplog, "llm embedding failed")
    assert failed["proof"] == 1
    assert sum(failed.values()) == 1 + offline.count()  # each failed call made once
    assert not _calls(caplog, "llm call refused; asked again")


def test_a_claim_whose_model_server_is_down_is_decided_by_this_machine_and_says_so(
    settings: Any,
    tmp_path: Path,
    web: respx.MockRouter,
    editor_client: Any,
) -> None:
    """No model server answers at its address: the query is written by this machine's
    rewriter, the pages read by its reader, the proof by its template, and each step, the
    evidence rows and the claim page say so and why. Nothing is blank and the claim is decided."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]  # closed again: nothing listens there
    _use(settings, ModelServer(port=port, pid=0, ready_s=0.0, log=tmp_path / "none"), tmp_path)

    claim = _run()

    verdict = _assert_decided_with_a_well_formed_verdict(claim)
    first = claim.events.get(kind=EventKind.QUERY, message__startswith="First query")
    assert first.payload["written_by"] == "this machine's rewriter"
    assert str(first.payload["llm_error"]).startswith("unavailable")
    assert not Query.objects.exists()  # the fallback is not cached as the model's rewrite
    read = Evidence.objects.filter(claim=claim).exclude(method=Method.SNIPPET)
    assert read.exists()
    for row in read:
        assert row.read_by == ""
        assert row.read_offline_because.startswith("unavailable")
    assert verdict.debug["proof_by"] == "this machine's template"
    assert str(verdict.debug["proof_llm_error"]).startswith("unavailable")

    page = html.unescape(re.sub(r"<[^>]+>", "", editor_client.get(f"/claims/{claim.pk}/").text))
    assert "Written by this machine's rewriter: the model server could not write it" in page
    assert "This machine's reader read senate.gov: the model server could not read it" in page
    assert "Read by this machine's stance model: the model server could not read it" in page
    assert "Proof written by this machine's template: the model server could not" in page
