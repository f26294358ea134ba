"""The claim loop end to end on the demo corpus: budgets, resumption after a crash, failures."""

from __future__ import annotations

import ipaddress
import socket
from datetime import timedelta
from pathlib import Path
from typing import Any

import httpx
import pytest
import respx
import yaml
from django.utils import timezone

from claimcheck.config import ConfigError, load_config, reload_config
from claims.models import Claim, ClaimStatus, EventKind, PipelineEvent
from decisions.pipeline import claim_pipeline_run, loop
from decisions.services import claim_submit
from decisions.tasks import claims_sweep_stale
from demo.loader import demo_claims, demo_load
from harvester.models import SearchRun
from harvester.providers import base, limits
from integrations import http

pytestmark = pytest.mark.django_db

SEARCH_HOST = "search.example.org"
BATTERY = next(c for c in demo_claims() if "Battery Passport" in c.text)
# Never sufficient, so it searches until its budget is spent: many steps to interrupt.
# Short of the counting bar on every search: the search runs to its last query.
UNSETTLED = next(c for c in demo_claims() if "Riverton" in c.text)


def _submit(claim: Any, channel: str = "") -> Claim:
    created, _ = claim_submit(
        text=claim.text,
        timeframe_start=claim.timeframe_start,
        timeframe_end=claim.timeframe_end,
        source_channel=channel or claim.source_channel,
        enqueue=False,
    )
    return created


@pytest.mark.parametrize("claim", demo_claims()[:4], ids=lambda c: c.text[:40])
def test_a_demo_claim_stays_within_every_budget(claim: Any) -> None:
    demo_load()
    budgets = reload_config().budgets
    created = _submit(claim)
    claim_pipeline_run(claim_id=created.pk)
    created.refresh_from_db()
    assert created.status == ClaimStatus.DECIDED
    assert 1 <= created.queries_used <= budgets.max_queries
    assert created.crawls_used <= budgets.total_crawls
    crawls = created.events.filter(kind=EventKind.CRAWL)
    per_turn: dict[int, int] = {}
    for event in crawls:
        per_turn[event.payload["attempt"]] = per_turn.get(event.payload["attempt"], 0) + 1
    assert all(n <= budgets.crawls_per_turn for n in per_turn.values())
    kinds = list(created.events.values_list("kind", flat=True))
    assert kinds[0] == EventKind.QUEUED and kinds[-1] == EventKind.VERDICT
    assert EventKind.SEARCH in kinds and EventKind.GATE in kinds and EventKind.DECISION in kinds
    verdict = created.verdicts.get()
    assert verdict.debug["total_queries"] == created.queries_used


@pytest.fixture
def paid_search(settings: Any, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Any:
    """A paid web provider beside the local index, imitated with respx; the test counts its
    calls. Only its host resolves: every other host stays unreachable, as offline."""

    def resolve(host: str, port: int) -> list[Any]:
        if host == SEARCH_HOST:
            return [ipaddress.ip_address("93.184.216.34")]
        raise socket.gaierror(socket.EAI_NONAME, "Name or service not known")

    monkeypatch.setattr(http.addresses, "resolve", resolve)
    monkeypatch.setattr(base, "BACKOFF_BASE_S", 0.001)
    limits.reset_provider_state()
    config = yaml.safe_load((Path(settings.BASE_DIR) / "claimcheck/default.yaml").read_text())
    config["search"]["cascade_order"] = ["local", "searxng"]
    # Search until the budget is spent, so that there are many steps to interrupt.
    config["budgets"]["dry_attempts"] = config["budgets"]["max_queries"]
    config["search"]["providers"]["searxng"] = {
        "base_url": f"https://{SEARCH_HOST}",
        "cost_per_query_usd": 0.01,
    }
    path = tmp_path / "pipeline.yaml"
    path.write_text(yaml.safe_dump(config), encoding="utf-8")
    settings.CLAIMCHECK_CONFIG = str(path)
    reload_config()
    with respx.mock(assert_all_called=False) as mock:
        route = mock.get(f"https://{SEARCH_HOST}/search").mock(
            return_value=httpx.Response(200, json={"results": []})
        )
        yield route
    limits.reset_provider_state()


class Killed(BaseException):
    """Stands for the process dying: not an Exception, so no handler in the pipeline sees it."""


def test_a_task_killed_after_its_second_search_resumes_without_repeating_a_call(
    paid_search: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    demo_load()
    # The reference: the same claim, run once without interruption.
    reference = _submit(UNSETTLED, channel="@reference")
    expected = claim_pipeline_run(claim_id=reference.pk)
    assert expected is not None
    calls_uninterrupted = paid_search.call_count
    searches_uninterrupted = SearchRun.objects.filter(claim=reference).count()
    assert calls_uninterrupted == searches_uninterrupted >= 3

    paid_search.reset()
    claim = _submit(UNSETTLED, channel="@killed")
    real_search_step = loop.search_step

    def dies_after_second_search(run: Any, attempt: int, schema: Any, tweak: str) -> Any:
        result = real_search_step(run, attempt, schema, tweak)
        if attempt == 2:
            raise Killed
        return result

    monkeypatch.setattr(loop, "search_step", dies_after_second_search)
    with pytest.raises(Killed):
        claim_pipeline_run(claim_id=claim.pk)
    claim.refresh_from_db()
    assert claim.status == ClaimStatus.RUNNING
    assert SearchRun.objects.filter(claim=claim).count() == 2
    assert paid_search.call_count == 2

    # A live task is not taken over; one silent for longer than a task may run is.
    monkeypatch.setattr(loop, "search_step", real_search_step)
    assert claim_pipeline_run(claim_id=claim.pk) is None
    Claim.objects.filter(pk=claim.pk).update(updated_at=timezone.now() - timedelta(hours=1))
    resumed = claim_pipeline_run(claim_id=claim.pk)

    assert resumed is not None
    assert resumed.outcome == expected.outcome
    assert resumed.support_total == expected.support_total
    assert paid_search.call_count == calls_uninterrupted  # searches 1 and 2 were not sent again
    assert SearchRun.objects.filter(claim=claim).count() == searches_uninterrupted
    keys = [e.payload.get("key") for e in claim.events.all() if e.payload.get("key")]
    assert len(keys) == len(set(keys)), "a resumed step wrote its event twice"


def _budgets(settings: Any, **changes: float) -> None:
    config = yaml.safe_load(Path(settings.CLAIMCHECK_CONFIG).read_text())
    config["budgets"].update(changes)
    Path(settings.CLAIMCHECK_CONFIG).write_text(yaml.safe_dump(config), encoding="utf-8")
    reload_config()


def test_a_claim_out_of_working_time_is_decided_with_what_it_has_and_says_why(
    paid_search: Any, settings: Any, monkeypatch: pytest.MonkeyPatch, editor_client: Any
) -> None:
    demo_load()
    _budgets(settings, claim_deadline_s=30)
    ticks = iter(range(0, 10_000, 20))  # 20 s of work between two looks at the clock
    monkeypatch.setattr(loop, "_clock", lambda: float(next(ticks)))
    claim = _submit(UNSETTLED)
    verdict = claim_pipeline_run(claim_id=claim.pk)
    assert verdict is not None
    assert paid_search.call_count == 2  # the second look (40 s) ends the search
    stopped = claim.events.get(payload__out_of_time__isnull=False)
    assert stopped.kind == EventKind.DECISION
    assert stopped.message == (
        "Out of time: the claim's time budget of 30 s is spent;"
        " deciding with the evidence read so far"
    )
    assert stopped.sequence < claim.events.get(kind=EventKind.VERDICT).sequence
    page = editor_client.get(f"/claims/{claim.pk}/").content.decode()
    assert "Out of time: the claim&#x27;s time budget of 30 s is spent" in page


def test_a_resumed_run_is_decided_once_its_first_step_is_older_than_the_cap(
    paid_search: Any, settings: Any
) -> None:
    demo_load()
    _budgets(settings, claim_cap_s=120)
    claim = _submit(UNSETTLED)
    # A worker began this run ten minutes ago and died after its first step.
    begun = PipelineEvent.objects.create(
        claim=claim,
        sequence=100,
        kind=EventKind.QUERY,
        message="First query: (written by the worker that died)",
        payload={"run": claim.run_number, "key": f"{claim.run_number}:compose"},
    )
    PipelineEvent.objects.filter(pk=begun.pk).update(
        created_at=timezone.now() - timedelta(minutes=10)
    )
    verdict = claim_pipeline_run(claim_id=claim.pk)
    assert verdict is not None
    assert paid_search.call_count == 1
    stopped = claim.events.get(payload__out_of_time__isnull=False)
    assert "the run started over 120 s ago" in stopped.message


def test_the_deadline_cannot_exceed_the_cap(settings: Any, tmp_path: Path) -> None:
    path = tmp_path / "bad.yaml"
    path.write_text("budgets:\n  claim_deadline_s: 90\n  claim_cap_s: 60\n", encoding="utf-8")
    with pytest.raises(ConfigError, match="claim_deadline_s cannot exceed claim_cap_s"):
        load_config(path)


def test_the_sweep_requeues_a_claim_whose_worker_died(monkeypatch: pytest.MonkeyPatch) -> None:
    sent: list[tuple[Any, ...]] = []
    monkeypatch.setattr("django_q.tasks.async_task", lambda *args, **kw: sent.append(args))
    live, _ = claim_submit(text="A claim being worked on", enqueue=False)
    dead, _ = claim_submit(text="A claim whose worker died", enqueue=False)
    Claim.objects.filter(pk__in=[live.pk, dead.pk]).update(status=ClaimStatus.RUNNING)
    Claim.objects.filter(pk=dead.pk).update(updated_at=timezone.now() - timedelta(hours=2))
    assert claims_sweep_stale() == 1
    assert sent == [("decisions.tasks.claim_run", dead.pk)]
    dead.refresh_from_db()
    assert dead.status == ClaimStatus.QUEUED


def test_a_decided_claim_is_not_run_again() -> None:
    demo_load()
    claim = _submit(BATTERY)
    assert claim_pipeline_run(claim_id=claim.pk) is not None
    assert claim_pipeline_run(claim_id=claim.pk) is None
    assert claim.verdicts.count() == 1


def test_when_every_provider_fails_the_claim_fails_with_their_reasons(
    paid_search: Any, settings: Any
) -> None:
    config = yaml.safe_load(Path(settings.CLAIMCHECK_CONFIG).read_text())
    config["search"]["cascade_order"] = ["searxng"]
    Path(settings.CLAIMCHECK_CONFIG).write_text(yaml.safe_dump(config))
    reload_config()
    paid_search.mock(return_value=httpx.Response(403, text="forbidden"))
    claim = _submit(BATTERY)
    assert claim_pipeline_run(claim_id=claim.pk) is None
    claim.refresh_from_db()
    assert claim.status == ClaimStatus.FAILED
    assert "searxng" in claim.error
    assert claim.events.filter(kind=EventKind.ERROR).exists()


def test_a_fact_check_counts_as_evidence_only_from_a_publisher_in_the_registry(
    settings: Any, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from evidence import factcheck
    from evidence.factcheck import API_URL
    from evidence.models import Evidence, FactCheckMatch, Method
    from tests.factories import DomainFactory

    demo_load()
    DomainFactory(name="factdesk.example", tier="trade")

    def resolve(host: str, port: int) -> list[Any]:
        if host == "factchecktools.googleapis.com":
            return [ipaddress.ip_address("142.250.74.10")]
        raise socket.gaierror(socket.EAI_NONAME, "Name or service not known")

    monkeypatch.setattr(http.addresses, "resolve", resolve)
    monkeypatch.setenv("FACTCHECK_TEST_KEY", "fc-key")
    config = yaml.safe_load((Path(settings.BASE_DIR) / "claimcheck/default.yaml").read_text())
    config["factcheck"] = {
        "enabled": True,
        "api_key_env": "FACTCHECK_TEST_KEY",
        "min_claim_length": 5,
    }
    path = tmp_path / "pipeline.yaml"
    path.write_text(yaml.safe_dump(config), encoding="utf-8")
    settings.CLAIMCHECK_CONFIG = str(path)
    reload_config()
    factcheck.reset_rate_limiter()
    answer = {
        "claims": [
            {
                "text": BATTERY.text,
                "claimReview": [
                    {
                        "publisher": {"name": "Fact Desk", "site": "factdesk.example"},
                        "url": "https://factdesk.example/checks/battery",
                        "textualRating": "False",
                    },
                    {
                        "publisher": {"name": "Unknown Checks", "site": "unknown-checks.example"},
                        "url": "https://unknown-checks.example/battery",
                        "textualRating": "False",
                    },
                ],
            }
        ]
    }
    with respx.mock(assert_all_called=True) as mock:
        mock.get(url__startswith=API_URL).mock(return_value=httpx.Response(200, json=answer))
        claim = _submit(BATTERY)
        verdict = claim_pipeline_run(claim_id=claim.pk)

    assert verdict is not None
    assert set(FactCheckMatch.objects.filter(claim=claim).values_list("publisher", flat=True)) == {
        "Fact Desk",
        "Unknown Checks",
    }
    counted = Evidence.objects.filter(claim=claim, method=Method.FACTCHECK)
    assert [(e.domain, e.stance, e.weight) for e in counted] == [
        ("factdesk.example", "refute", 0.6)
    ]
    event = claim.events.get(kind=EventKind.FACTCHECK)
    assert (event.payload["matches"], event.payload["counted"]) == (2, 1)
