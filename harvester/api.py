"""JSON API routes of the harvester app (mounted under /api/ by config.api)."""

from __future__ import annotations

import logging
from datetime import datetime
from typing import Any

from ninja import Field, Query, Router, Schema, Status

from claimcheck.daterange import FilterDate
from claimcheck.roles import AuthenticatedHttpRequest, require_editor
from claimcheck.schemas import OFFSET_MAX, ErrorOut, InputSchema
from harvester.errors import InvalidSearchRequest
from harvester.marks import results_marked
from harvester.models import SearchRun
from harvester.selectors import processed_results, provider_counts, search_run_for_editor
from harvester.selectors import search_run_list as select_runs
from harvester.services import search_run_execute

logger = logging.getLogger(__name__)

router = Router(tags=["harvester"])


class SearchOptionsIn(InputSchema):
    lang: str | None = None
    max_results: int | None = Field(None, alias="maxResults")
    provider: str | None = None


class SearchRunIn(InputSchema):
    query: str
    options: SearchOptionsIn | None = None


class UrlOut(Schema):
    url: str
    providers: list[str]
    confidence: int
    best_rank: int | None
    title: str
    snippet: str
    published: datetime | None
    marks: list[str] = Field(
        default_factory=list,
        description='e.g. "denied": the domain list denies it; it is never read or counted',
    )


class MetaOut(Schema):
    counts: dict[str, int]
    total_unique: int
    errors: dict[str, str]
    latency_ms: int
    status: str


class SearchRunOut(Schema):
    run_id: int
    query: str
    rewritten_template: str
    timestamp: datetime
    final_queries: dict[str, str]
    providers_used: list[str]
    urls: list[UrlOut]
    meta: MetaOut


class SearchRunSummaryOut(Schema):
    run_id: int
    query: str
    rewritten_template: str
    timestamp: datetime
    status: str
    providers_used: list[str]
    total_unique: int
    latency_ms: int


class SearchRunPageOut(Schema):
    count: int
    limit: int
    offset: int
    items: list[SearchRunSummaryOut]


def run_payload(run: SearchRun) -> dict[str, Any]:
    rows = processed_results(run=run)
    return {
        "run_id": run.pk,
        "query": run.query,
        "rewritten_template": run.rewritten_template,
        "timestamp": run.run_timestamp,
        "final_queries": run.final_queries,
        "providers_used": run.providers_used,
        "urls": [
            {
                "url": row.url,
                "providers": row.providers,
                "confidence": row.confidence,
                "best_rank": row.best_rank,
                "title": row.title,
                "snippet": row.snippet,
                "published": row.published,
                "marks": marks,
            }
            for row, marks in results_marked(rows)
        ],
        "meta": {
            "counts": provider_counts(run=run),
            "total_unique": len(rows),
            "errors": (run.config or {}).get("errors", {}),
            "latency_ms": run.latency_ms,
            "status": run.status,
        },
    }


@router.post(
    "/search-runs",
    response={
        201: SearchRunOut,
        400: ErrorOut,
        403: ErrorOut,
        422: ErrorOut,
        500: ErrorOut,
        502: ErrorOut,
    },
    summary="Run a search: rewrite, query every provider at once, merge, store",
)
def create_search_run(request: AuthenticatedHttpRequest, payload: SearchRunIn) -> Status:
    """A provider failure (HarvestError) is answered by the API root with its payload, which
    carries each provider's reason beside the {"error", "details"} pair."""
    require_editor(request.user)
    if not payload.query.strip():
        raise InvalidSearchRequest("must not be empty", field="query")
    options = payload.options or SearchOptionsIn.model_validate({})
    run = search_run_execute(
        query=payload.query,
        provider=options.provider,
        max_results=options.max_results,
        lang=options.lang,
        user=request.user,
    )
    return Status(201, run_payload(run))


@router.get(
    "/search-runs/{run_id}",
    response={200: SearchRunOut, 403: ErrorOut, 404: ErrorOut},
    summary="One run with its merged results",
)
def get_search_run(request: AuthenticatedHttpRequest, run_id: int) -> Status:
    run = search_run_for_editor(user=request.user, run_id=run_id)
    return Status(200, run_payload(run))


@router.get(
    "/search-runs",
    response={200: SearchRunPageOut, 403: ErrorOut},
    summary="Runs by original query and day range, newest first",
)
def list_search_runs(
    request: AuthenticatedHttpRequest,
    query: str | None = None,
    date_from: FilterDate = Query(None, alias="from"),  # noqa: B008
    date_to: FilterDate = Query(None, alias="to"),  # noqa: B008
    limit: int = Query(50, ge=1, le=200),
    offset: int = Query(0, ge=0, le=OFFSET_MAX),
) -> Status:
    require_editor(request.user)
    runs = select_runs(query=query, date_from=date_from, date_to=date_to)
    page = runs[offset : offset + limit]
    return Status(
        200,
        {
            "count": runs.count(),
            "limit": limit,
            "offset": offset,
            "items": [
                {
                    "run_id": run.pk,
                    "query": run.query,
                    "rewritten_template": run.rewritten_template,
                    "timestamp": run.run_timestamp,
                    "status": run.status,
                    "providers_used": run.providers_used,
                    "total_unique": run.total_unique,  # type: ignore[attr-defined]
                    "latency_ms": run.latency_ms,
                }
                for run in page
            ],
        },
    )
