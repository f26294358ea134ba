"""Running the providers of one search: which are called, every one at once, each call
recorded before it is sent, and a paid one skipped once the budget is spent."""

from __future__ import annotations

import asyncio
import logging
from concurrent.futures import ThreadPoolExecutor
from decimal import Decimal

from claimcheck.config import PipelineConfig
from claims.models import Claim
from harvester.errors import InvalidSearchRequest
from harvester.models import ProviderCall, ProviderStatus
from harvester.providers import get_provider
from harvester.providers.base import (
    HttpProvider,
    Provider,
    ProviderConfigError,
    ProviderOutcome,
)
from harvester.providers.local import LocalProvider
from harvester.schema import QuerySchema
from harvester.services.budgets import budget_exhausted

# Named for the package, as its log lines always were.
logger = logging.getLogger("harvester.services")

BUDGET_EXHAUSTED = "budget exhausted"


def provider_names(config: PipelineConfig, forced: str | None) -> list[str]:
    search = config.search
    forced = forced or (search.provider if search.provider != "auto" else None)
    if forced:
        section = search.providers.get(forced)  # type: ignore[call-overload]
        if section is None:
            message = f"provider {forced!r} is not configured"
            raise InvalidSearchRequest(message, field="options.provider")
        if not section.enabled:
            message = f"provider {forced!r} is disabled"
            raise InvalidSearchRequest(message, field="options.provider")
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
    """A row for each call, committed before it is sent. A claim's step keeps one row per
    provider: a call its dead worker recorded is sent again on that row, counted once."""
    if claim is None or attempt is None:
        return [
            ProviderCall.objects.create(
                provider=provider.name, cost_usd=Decimal(str(provider.config.cost_per_query_usd))
            )
            for provider in providers
        ]
    recorded = []
    resent = []
    for provider in providers:
        call, created = ProviderCall.objects.get_or_create(
            claim=claim,
            attempt=attempt,
            provider=provider.name,
            defaults={"cost_usd": Decimal(str(provider.config.cost_per_query_usd))},
        )
        if not created:
            resent.append(provider.name)
        recorded.append(call)
    if resent:
        # Their answer died with the worker that sent them: sent once more, on the same row.
        logger.warning(
            "harvester: resending calls lost with a worker",
            extra={"claim_id": claim.pk, "attempt": attempt, "providers": sorted(resent)},
        )
    return recorded
