"""Search runs: rewrite → expand placeholders → every provider at once → merge → store.

`search_run_execute` is the one entry point, used by the API, the `harvest` command and the
claim pipeline. A run where every provider fails is still stored (status failed, with each
provider's reason in its metrics) and then AllProvidersFailed is raised, so that dashboards
count failures and the API still answers 502.
"""

from __future__ import annotations

import hashlib
import logging
import time
from collections import Counter
from decimal import Decimal

from django.conf import settings
from django.contrib.auth.models import User
from django.db import IntegrityError, transaction
from django.utils import timezone

from claimcheck.config import get_config
from claimcheck.language import detect_language
from claims.models import Claim
from harvester.errors import AllProvidersFailed, InvalidSearchRequest, RewriteInvalid
from harvester.merge import merge_outcomes
from harvester.models import (
    ProcessedResult,
    ProviderCall,
    RawResult,
    RunStatus,
    SearchRun,
)
from harvester.placeholders import expand
from harvester.providers.base import ProviderOutcome
from harvester.rewriter import Rewrite, normalize_query_text, rewrite_query
from harvester.schema import QuerySchema, SchemaError, validate_schema
from harvester.services.calls import provider_names, run_providers

# Named for the package, as its log lines always were.
logger = logging.getLogger("harvester.services")

PIPELINE_REWRITER = "pipeline"


def _log_query(text: str) -> dict[str, str]:
    """The query for a log line: as is, or only a short hash when scrubbing is configured."""
    if getattr(settings, "CLAIMCHECK_SCRUB_QUERY_LOGS", False):
        return {"query_sha256": hashlib.sha256(text.encode("utf-8")).hexdigest()[:16]}
    return {"query": text}


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
        # The client's own options, named as it sent them.
        field = "options.maxResults" if "max_results" in str(exc) else "options.lang"
        raise InvalidSearchRequest(str(exc), field=field) from exc


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
    names = provider_names(config, provider)
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
