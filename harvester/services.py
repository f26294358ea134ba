"""Search runs: rewrite → expand placeholders → every provider at once → merge → store.

`search_run_execute` is the one entry point, used by the API, the `harvest` command and the
claim pipeline. A run where every provider fails is still stored (status failed, with each
provider's reason in its metrics) and then AllProvidersFailed is raised, so that dashboards
count failures and the API still answers 502.
"""

from __future__ import annotations

import asyncio
import hashlib
import logging
import time
from collections import Counter
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from datetime import datetime
from decimal import Decimal

from django.conf import settings
from django.contrib.auth.models import User
from django.db import IntegrityError, transaction
from django.db.models import Sum
from django.utils import timezone

from claimcheck.config import PipelineConfig, get_config
from claimcheck.language import detect_language
from claims.models import Claim
from harvester.errors import (
    AllProvidersFailed,
    HarvestError,
    InvalidSearchRequest,
    RewriteFailed,
    RewriteInvalid,
)
from harvester.merge import merge_outcomes
from harvester.models import (
    ProcessedResult,
    ProviderCall,
    ProviderStatus,
    RawResult,
    RunStatus,
    SearchRun,
)
from harvester.placeholders import expand
from harvester.providers import get_provider
from harvester.providers.base import (
    HttpProvider,
    Provider,
    ProviderConfigError,
    ProviderOutcome,
)
from harvester.providers.local import LocalProvider
from harvester.rewriter import Rewrite, normalize_query_text, rewrite_query
from harvester.schema import QuerySchema, SchemaError, validate_schema

__all__ = [
    "AllProvidersFailed",
    "HarvestError",
    "InvalidSearchRequest",
    "RewriteFailed",
    "RewriteInvalid",
    "search_run_execute",
]

logger = logging.getLogger(__name__)

BUDGET_EXHAUSTED = "budget exhausted"
PIPELINE_REWRITER = "pipeline"


def _log_query(text: str) -> dict[str, str]:
    """The query for a log line: as is, or only a short hash when scrubbing is configured."""
    if getattr(settings, "CLAIMCHECK_SCRUB_QUERY_LOGS", False):
        return {"query_sha256": hashlib.sha256(text.encode("utf-8")).hexdigest()[:16]}
    return {"query": text}


# --- budgets -----------------------------------------------------------------------------------


@dataclass(frozen=True)
class Spend:
    today: Decimal
    month: Decimal


def current_spend(*, now: datetime | None = None) -> Spend:
    """Provider spend (runs) plus LLM spend (claims) for today and this calendar month."""
    now = timezone.localtime(now)
    day_start = now.replace(hour=0, minute=0, second=0, microsecond=0)
    month_start = day_start.replace(day=1)

    def total(since: datetime) -> Decimal:
        runs = SearchRun.objects.filter(run_timestamp__gte=since).aggregate(s=Sum("cost_usd"))
        claims = Claim.objects.filter(created_at__gte=since).aggregate(s=Sum("cost_usd"))
        # Calls sent but never stored in a run: in flight now, or lost with a dead worker.
        unstored = ProviderCall.objects.filter(sent_at__gte=since, run=None).aggregate(
            s=Sum("cost_usd")
        )
        return Decimal(runs["s"] or 0) + Decimal(claims["s"] or 0) + Decimal(unstored["s"] or 0)

    return Spend(today=total(day_start), month=total(month_start))


def budget_exhausted(config: PipelineConfig) -> bool:
    spend = current_spend()
    budgets = config.budgets
    return spend.today >= Decimal(str(budgets.daily_usd)) or spend.month >= Decimal(
        str(budgets.monthly_usd)
    )


# --- running the providers ---------------------------------------------------------------------


def _provider_names(config: PipelineConfig, forced: str | None) -> list[str]:
    search = config.search
    forced = forced or (search.provider if search.provider != "auto" else None)
    if forced:
        section = search.providers.get(forced)  # type: ignore[call-overload]
        if section is None:
            raise InvalidSearchRequest(f"provider {forced!r} is not configured")
        if not section.enabled:
            raise InvalidSearchRequest(f"provider {forced!r} is disabled")
        return [forced]
    return [name for name in search.cascade_order if search.providers[name].enabled]


async def _guarded(provider: HttpProvider, schema: QuerySchema, limit: int) -> ProviderOutcome:
    try:
        return await provider.search(schema, max_results=limit)
    except Exception as exc:
        # A bug in one adapter must not sink the others' answers; it is logged in full.
        logger.exception("harvester: provider crashed", extra={"provider": provider.name})
        outcome = ProviderOutcome(provider=provider.name)
        return provider.failed(outcome, f"internal error: {type(exc).__name__}")


def _gather(
    providers: list[HttpProvider], schema: QuerySchema, limit: int
) -> list[ProviderOutcome]:
    async def run_all() -> list[ProviderOutcome]:
        return list(await asyncio.gather(*(_guarded(p, schema, limit) for p in providers)))

    return asyncio.run(run_all())


def run_providers(
    *,
    names: list[str],
    schema: QuerySchema,
    limit: int,
    config: PipelineConfig,
    calls: list[ProviderCall] | None = None,
    claim: Claim | None = None,
    attempt: int | None = None,
) -> list[ProviderOutcome]:
    """Call every named provider at once; outcomes come back in the order of `names`.

    HTTP providers run concurrently on an event loop in a helper thread while the local
    index is queried here, in the caller's thread, where its database connection (and
    transaction) lives. Each HTTP call is recorded (a ProviderCall, appended to `calls`) and
    committed before any is sent."""
    outcomes: dict[str, ProviderOutcome] = {}
    remote: list[HttpProvider] = []
    local: LocalProvider | None = None
    paid_blocked: bool | None = None
    for name in names:
        section = config.search.providers[name]  # type: ignore[index]
        try:
            provider: Provider = get_provider(name, section)
        except ProviderConfigError as exc:
            outcomes[name] = ProviderOutcome(
                provider=name, status=ProviderStatus.FAILED, reason=str(exc)
            )
            continue
        if provider.paid:
            if paid_blocked is None:
                paid_blocked = budget_exhausted(config)
            if paid_blocked:
                outcomes[name] = ProviderOutcome(
                    provider=name,
                    status=ProviderStatus.SKIPPED,
                    query_used=provider.compile(schema),
                    reason=BUDGET_EXHAUSTED,
                )
                continue
        if isinstance(provider, LocalProvider):
            local = provider
        elif isinstance(provider, HttpProvider):
            remote.append(provider)
    if remote:
        recorded = _calls_record(providers=remote, claim=claim, attempt=attempt)
        if calls is not None:
            calls.extend(recorded)
        with ThreadPoolExecutor(max_workers=1, thread_name_prefix="harvester") as pool:
            future = pool.submit(_gather, remote, schema, limit)
            if local is not None:
                outcomes[local.name] = local.search_sync(schema, max_results=limit)
            for outcome in future.result():
                outcomes[outcome.provider] = outcome
    elif local is not None:
        outcomes[local.name] = local.search_sync(schema, max_results=limit)
    return [outcomes[name] for name in names if name in outcomes]


def _calls_record(
    *, providers: list[HttpProvider], claim: Claim | None, attempt: int | None
) -> list[ProviderCall]:
    if claim is not None and attempt is not None:
        lost = list(
            ProviderCall.objects.filter(claim=claim, attempt=attempt, run=None).values_list(
                "provider", flat=True
            )
        )
        if lost:
            # Their answer died with the worker that sent them: they are sent once more, and
            # the budget counts both.
            logger.warning(
                "harvester: resending calls lost with a worker",
                extra={"claim_id": claim.pk, "attempt": attempt, "providers": sorted(set(lost))},
            )
    return [
        ProviderCall.objects.create(
            provider=provider.name,
            claim=claim,
            attempt=attempt,
            cost_usd=Decimal(str(provider.config.cost_per_query_usd)),
        )
        for provider in providers
    ]


# --- the service -------------------------------------------------------------------------------


def _apply_options(
    schema: QuerySchema, *, max_results: int | None, lang: str | None
) -> QuerySchema:
    if max_results is None and lang is None:
        return schema
    data = schema.model_dump()
    if max_results is not None:
        data["filters"]["max_results"] = max_results
    if lang is not None and not data["filters"].get("lang"):
        data["filters"]["lang"] = lang
    try:
        return validate_schema(data)
    except SchemaError as exc:
        raise RewriteInvalid(str(exc)) from exc


def _store(
    *,
    text: str,
    rewrite: Rewrite,
    expanded: QuerySchema,
    forced: str | None,
    limit: int,
    outcomes: list[ProviderOutcome],
    claim: Claim | None,
    attempt: int | None,
    user: User | None,
    latency_ms: int,
) -> SearchRun:
    merged = merge_outcomes(outcomes)
    answered = [o for o in outcomes if o.ok]
    if not answered:
        status = RunStatus.FAILED
    elif len(answered) < len(outcomes):
        status = RunStatus.PARTIAL
    else:
        status = RunStatus.OK
    provider_cost = sum(o.cost_usd for o in outcomes)
    histogram = Counter(m.confidence for m in merged)
    run_config = {
        "providers": [o.provider for o in outcomes],
        "forced_provider": forced,
        "max_results": limit,
        "rewriter": rewrite.rewriter,
        "prompt_hash": rewrite.prompt_hash,
        "rewrite_cached": rewrite.cached,
        "rewrite_cost_usd": rewrite.cost_usd,
        "provider_cost_usd": provider_cost,
        "today": timezone.localdate().isoformat(),
        "schema": expanded.model_dump(),
        "template_schema": rewrite.schema.model_dump(),
        "errors": {o.provider: o.reason for o in outcomes if not o.ok},
        "confidence_histogram": {str(k): v for k, v in sorted(histogram.items())},
    }
    user_id = user.pk if user is not None and getattr(user, "is_authenticated", False) else None
    with transaction.atomic():
        run = SearchRun.objects.create(
            query=text,
            rewritten_template=rewrite.template,
            config=run_config,
            providers_used=[o.provider for o in answered],
            final_queries={o.provider: o.query_used for o in outcomes if o.query_used},
            provider_metrics={o.provider: o.metrics() for o in outcomes},
            status=status,
            latency_ms=latency_ms,
            cost_usd=Decimal(str(round(provider_cost + rewrite.cost_usd, 6))),
            claim=claim,
            attempt=attempt,
            created_by_id=user_id,
        )
        RawResult.objects.bulk_create(
            RawResult(
                run=run,
                provider=outcome.provider,
                url=hit.url,
                title=hit.title,
                snippet=hit.snippet,
                rank=hit.rank if hit.rank is not None and hit.rank >= 0 else None,
                published=hit.published,
                meta=hit.raw,
            )
            for outcome in answered
            for hit in outcome.hits
        )
        ProcessedResult.objects.bulk_create(
            ProcessedResult(
                run=run,
                url=m.url,
                providers=m.providers,
                confidence=m.confidence,
                dedupe_hash=m.dedupe_hash,
                best_rank=m.best_rank,
                title=m.title,
                snippet=m.snippet,
                published=m.published,
                language=detect_language(f"{m.title} {m.snippet}").code,
            )
            for m in merged
        )
    return run


def _log_run(run: SearchRun, outcomes: list[ProviderOutcome]) -> None:
    for outcome in outcomes:
        logger.info(
            "harvester: provider finished",
            extra={
                "run_id": run.pk,
                "provider": outcome.provider,
                "latency_ms": outcome.latency_ms,
                "status": str(outcome.status),
                "count": len(outcome.hits),
                "error": outcome.reason,
                "attempts": outcome.attempts,
            },
        )
        logger.debug(
            "harvester: provider query",
            extra={"run_id": run.pk, "provider": outcome.provider} | _log_query(outcome.query_used),
        )
    logger.info(
        "harvester: run stored",
        extra={
            "run_id": run.pk,
            "latency_ms": run.latency_ms,
            "status": run.status,
            "providers_used": run.providers_used,
            "total_unique": run.processed_results.count(),
        }
        | _log_query(run.query),
    )


def search_run_execute(
    *,
    query: str | None = None,
    schema: QuerySchema | None = None,
    claim: Claim | None = None,
    attempt: int | None = None,
    provider: str | None = None,
    max_results: int | None = None,
    user: User | None = None,
    lang: str | None = None,
) -> SearchRun:
    """Run one search and store it: one SearchRun, its raw rows, its processed rows.

    Give `query` (text, rewritten and cached) or `schema` (composed by the claim pipeline;
    recorded with its compiled neutral form as the template). With `claim` and `attempt`,
    an existing run for that pair is returned without calling any provider.

    Raises RewriteInvalid (bad query, schema or placeholder; no provider called),
    RewriteFailed (the LLM failed), InvalidSearchRequest, or AllProvidersFailed (after the
    failed run is stored).
    """
    if claim is not None and attempt is not None:
        existing = SearchRun.objects.filter(claim=claim, attempt=attempt).first()
        if existing is not None:
            return existing
    started = time.monotonic()
    config = get_config()
    text = normalize_query_text(query or "")
    if schema is not None:
        template = validate_schema(schema)
        rewrite = Rewrite(schema=template, template=template.compile(), rewriter=PIPELINE_REWRITER)
        text = text or rewrite.template
    else:
        rewrite = rewrite_query(text=text)
    template = _apply_options(rewrite.schema, max_results=max_results, lang=lang)
    try:
        expanded = expand(template, today=timezone.localdate())
    except SchemaError as exc:
        raise RewriteInvalid(str(exc)) from exc
    names = _provider_names(config, provider)
    limit = expanded.filters.max_results or config.search.max_results
    calls: list[ProviderCall] = []
    outcomes = (
        run_providers(
            names=names,
            schema=expanded,
            limit=limit,
            config=config,
            calls=calls,
            claim=claim,
            attempt=attempt,
        )
        if names
        else []
    )
    latency_ms = int((time.monotonic() - started) * 1000)
    try:
        run = _store(
            text=text,
            rewrite=rewrite,
            expanded=expanded,
            forced=provider,
            limit=limit,
            outcomes=outcomes,
            claim=claim,
            attempt=attempt,
            user=user,
            latency_ms=latency_ms,
        )
    except IntegrityError:
        if claim is None or attempt is None:
            raise
        # Another worker stored this (claim, attempt) while we searched: theirs stands.
        return SearchRun.objects.get(claim=claim, attempt=attempt)
    # The calls' cost now counts through the run (a failed call costs nothing there).
    ProviderCall.objects.filter(pk__in=[c.pk for c in calls]).update(run=run)
    _log_run(run, outcomes)
    if run.status == RunStatus.FAILED:
        raise AllProvidersFailed({o.provider: o.reason for o in outcomes}, run_id=run.pk)
    return run
