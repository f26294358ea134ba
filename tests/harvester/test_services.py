"""search_run_execute: the greedy run, what it stores, budgets, and resuming by (claim, attempt)."""

from __future__ import annotations

import logging
from decimal import Decimal
from typing import Any, cast

import pytest
import respx

from claims.models import Claim
from desk.selectors import dashboard_data
from harvester.errors import AllProvidersFailed, InvalidSearchRequest, RewriteInvalid
from harvester.local_index import index_document
from harvester.models import (
    ImmutableRowError,
    ProcessedResult,
    ProviderCall,
    RawResult,
    RunStatus,
    SearchRun,
)
from harvester.schema import validate_schema
from harvester.services import current_spend, search_run_execute
from tests.factories import ClaimFactory, SearchRunFactory
from tests.harvester import samples
from tests.harvester.conftest import UseConfig, providers_config

pytestmark = pytest.mark.django_db

SERPER = "https://google.serper.dev/search"
BRAVE = "https://api.search.brave.com/res/v1/web/search"


@pytest.fixture
def three_providers(use_config: UseConfig, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("TEST_SERPER_KEY", "serper-secret")
    monkeypatch.setenv("TEST_BRAVE_KEY", "brave-secret")
    use_config(
        providers_config(
            {
                "serper": {"api_key_env": "TEST_SERPER_KEY", "cost_per_query_usd": 0.001},
                "brave": {"api_key_env": "TEST_BRAVE_KEY", "retries": 0},
                "local": {},
            }
        )
    )
    index_document(
        url="https://commission.europa.eu/news/ai-act-enters-force-2024-08-01_en",
        title="AI Act enters into force",
        text="The EU AI Act entered into force on 1 August 2024.",
    )


def test_every_provider_is_asked_and_the_results_merge_by_canonical_url(
    three_providers: None,
) -> None:
    with respx.mock() as mock:
        mock.post(SERPER).respond(200, json=samples.SERPER)
        mock.get(url__startswith=BRAVE).respond(200, json=samples.BRAVE)
        run = search_run_execute(query="EU AI Act")
    assert run.status == RunStatus.OK
    assert run.providers_used == ["serper", "brave", "local"]
    assert RawResult.objects.filter(run=run).count() == 2 + 2 + 1
    rows = {row.url: row for row in ProcessedResult.objects.filter(run=run)}
    assert len(rows) == 3
    commission = rows["https://commission.europa.eu/news/ai-act-enters-force-2024-08-01_en"]
    assert commission.providers == ["serper", "local"]
    assert commission.confidence == 2
    parliament = rows["https://europarl.europa.eu/topics/en/article/20230601STO93804"]
    assert parliament.providers == ["serper", "brave"]
    assert parliament.title == "EU AI Act: first regulation on artificial intelligence | Topics"
    assert parliament.published is not None  # brave's page_age; serper gave none
    assert run.final_queries == {
        "serper": '"EU AI Act"',
        "brave": '"EU AI Act"',
        "local": '"EU AI Act"',
    }
    assert set(run.provider_metrics) == {"serper", "brave", "local"}
    assert run.provider_metrics["brave"]["count"] == 2
    assert run.cost_usd == Decimal("0.001")
    assert run.config["confidence_histogram"] == {"1": 1, "2": 2}


def test_raw_rows_keep_the_url_exactly_as_the_provider_returned_it(three_providers: None) -> None:
    with respx.mock() as mock:
        mock.post(SERPER).respond(200, json=samples.SERPER)
        mock.get(url__startswith=BRAVE).respond(200, json=samples.BRAVE_EMPTY)
        run = search_run_execute(query="EU AI Act")
    raw = RawResult.objects.get(run=run, provider="serper", rank=2)
    assert raw.url == samples.SERPER["organic"][1]["link"]
    assert raw.meta == samples.SERPER["organic"][1]
    with pytest.raises(ImmutableRowError):
        raw.save()
    processed = ProcessedResult.objects.filter(run=run).first()
    assert processed is not None
    processed.title = "changed"
    with pytest.raises(ImmutableRowError):
        processed.save()


def test_a_partial_failure_keeps_the_answers_of_the_others(three_providers: None) -> None:
    with respx.mock() as mock:
        mock.post(SERPER).respond(200, json=samples.SERPER)
        mock.get(url__startswith=BRAVE).respond(503)
        run = search_run_execute(query="EU AI Act")
    assert run.status == RunStatus.PARTIAL
    assert run.providers_used == ["serper", "local"]
    assert run.provider_metrics["brave"]["status"] == "failed"
    assert run.provider_metrics["brave"]["error"] == "HTTP 503"


def test_when_every_provider_fails_the_run_is_stored_as_failed_and_the_error_names_each(
    use_config: UseConfig, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("TEST_SERPER_KEY", "serper-secret")
    use_config(
        providers_config(
            {
                "serper": {"api_key_env": "TEST_SERPER_KEY", "retries": 0},
                "brave": {"api_key_env": "NOPE_KEY"},
            }
        )
    )
    with respx.mock() as mock:
        mock.post(SERPER).respond(403)
        with pytest.raises(AllProvidersFailed) as caught:
            search_run_execute(query="EU AI Act")
    assert caught.value.reasons == {"serper": "HTTP 403", "brave": "no API key"}
    run = SearchRun.objects.get()
    assert caught.value.run_id == run.pk
    assert run.status == RunStatus.FAILED
    assert not run.raw_results.exists()


def test_a_forced_provider_is_the_only_one_asked(three_providers: None) -> None:
    with respx.mock(assert_all_called=False) as mock:
        serper = mock.post(SERPER).respond(200, json=samples.SERPER)
        run = search_run_execute(query="EU AI Act", provider="local")
    assert not serper.called
    assert run.providers_used == ["local"]
    with pytest.raises(InvalidSearchRequest, match="not configured"):
        search_run_execute(query="EU AI Act", provider="yacy")


def test_an_unsupported_placeholder_fails_before_any_provider_is_called(
    three_providers: None,
) -> None:
    bad = validate_schema({"keywords": ["x"], "filters": {"date_after": "{TODAY}"}}).model_copy(
        update={"filters": validate_schema({"keywords": ["x"]}).filters.model_copy(
            update={"date_after": "{NEXT_WEEK}"})}
    )  # fmt: skip
    with respx.mock(assert_all_called=False) as mock:
        serper = mock.post(SERPER).respond(200, json=samples.SERPER)
        with pytest.raises(RewriteInvalid, match="unknown placeholder"):
            search_run_execute(schema=bad)
    assert not serper.called
    assert not SearchRun.objects.exists()


def test_a_composed_schema_is_recorded_with_its_compiled_form_as_the_template(
    three_providers: None,
) -> None:
    schema = validate_schema(
        {"keywords": ["AI Act"], "filters": {"date_after": "{LAST_MONTH_START}", "sites": [".eu"]}}
    )
    run = search_run_execute(schema=schema, provider="local")
    assert run.rewritten_template == '"AI Act" site:.eu after:{LAST_MONTH_START}'
    assert run.config["rewriter"] == "pipeline"
    assert "{" not in run.final_queries["local"]


def test_the_same_claim_attempt_returns_the_stored_run_without_calling_providers(
    three_providers: None,
) -> None:
    claim = cast(Claim, ClaimFactory())
    with respx.mock() as mock:
        serper = mock.post(SERPER).respond(200, json=samples.SERPER)
        mock.get(url__startswith=BRAVE).respond(200, json=samples.BRAVE)
        first = search_run_execute(query="EU AI Act", claim=claim, attempt=1)
        again = search_run_execute(query="EU AI Act", claim=claim, attempt=1)
    assert again.pk == first.pk
    assert serper.call_count == 1
    assert SearchRun.objects.filter(claim=claim).count() == 1


def test_paid_providers_are_skipped_once_the_daily_budget_is_spent(three_providers: None) -> None:
    SearchRunFactory(cost_usd=Decimal("5.00"))
    with respx.mock(assert_all_called=False) as mock:
        serper = mock.post(SERPER).respond(200, json=samples.SERPER)
        mock.get(url__startswith=BRAVE).respond(200, json=samples.BRAVE)
        run = search_run_execute(query="EU AI Act")
    assert not serper.called
    assert run.provider_metrics["serper"]["status"] == "skipped"
    assert run.provider_metrics["serper"]["error"] == "budget exhausted"
    assert run.providers_used == ["brave", "local"]  # free providers still run
    assert run.cost_usd == 0


def test_logs_carry_run_provider_and_latency_and_scrub_the_query_when_configured(
    three_providers: None, caplog: pytest.LogCaptureFixture, settings: Any
) -> None:
    settings.CLAIMCHECK_SCRUB_QUERY_LOGS = True
    with caplog.at_level(logging.DEBUG, logger="harvester"):
        run = search_run_execute(query="secret diagnosis of Jane Roe", provider="local")
    provider_lines = [r for r in caplog.records if r.getMessage() == "harvester: provider finished"]
    assert provider_lines
    assert provider_lines[0].run_id == run.pk  # type: ignore[attr-defined]
    assert provider_lines[0].provider == "local"  # type: ignore[attr-defined]
    assert hasattr(provider_lines[0], "latency_ms")
    for record in caplog.records:
        assert "Jane Roe" not in str(record.__dict__)


class WorkerKilled(BaseException):
    """What a SIGKILL looks like from inside a call: nothing after it runs."""


def test_a_call_lost_with_its_worker_counts_and_its_resend_after_the_restart_counts_once(
    three_providers: None,
) -> None:
    claim: Claim = ClaimFactory.create()
    schema = validate_schema({"keywords": ["EU AI Act"]})

    def killed(request: Any) -> Any:
        raise WorkerKilled

    with respx.mock(assert_all_called=False) as mock:
        mock.post(SERPER).mock(side_effect=killed)
        mock.get(url__startswith=BRAVE).respond(200, json=samples.BRAVE)
        with pytest.raises(WorkerKilled):
            search_run_execute(schema=schema, claim=claim, attempt=1)
    assert not SearchRun.objects.filter(claim=claim).exists()
    lost = ProviderCall.objects.filter(claim=claim, attempt=1, run=None)
    assert sorted(lost.values_list("provider", flat=True)) == ["brave", "serper"]
    assert current_spend().today == Decimal("0.001")  # the lost paid call is counted
    lost_rows = list(lost)

    with respx.mock() as mock:
        serper = mock.post(SERPER).respond(200, json=samples.SERPER)
        mock.get(url__startswith=BRAVE).respond(200, json=samples.BRAVE)
        run = search_run_execute(schema=schema, claim=claim, attempt=1)
    assert serper.call_count == 1  # resumed: sent once more, its answer was lost
    # The resend is the same recorded call, now answered: one call in the budget.
    assert set(ProviderCall.objects.filter(claim=claim, attempt=1)) == set(lost_rows)
    assert ProviderCall.objects.filter(run=run).count() == 2
    assert current_spend().today == Decimal("0.001")
    assert dashboard_data().spend_today == Decimal("0.001")

    again = search_run_execute(schema=schema, claim=claim, attempt=1)
    assert again.pk == run.pk
    assert ProviderCall.objects.filter(claim=claim).count() == 2  # a stored run calls nobody
