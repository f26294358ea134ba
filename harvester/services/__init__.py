"""Writes of the search app, its front door for the rest of ClaimCheck.

By subject: `runs` (one search, end to end, stored), `calls` (the providers of one search,
called at once) and `budgets` (spend against the daily and monthly budgets). The query
rewriter (which fills the rewrite cache) and the local index's writes are served from here
too, with the types callers hand them or get back: the query schema, the search run and the
error family. Reads are in `harvester.selectors`.
"""

from harvester.errors import (
    AllProvidersFailed,
    HarvestError,
    InvalidSearchRequest,
    RewriteFailed,
    RewriteInvalid,
)
from harvester.local_index import index_document, remove_document
from harvester.marks import url_marker_register
from harvester.models import SearchRun
from harvester.rewriter import (
    DETERMINISTIC,
    deterministic_rewrite,
    rewrite_query,
    translate_query,
)
from harvester.schema import MAX_KEYWORDS, QuerySchema, validate_schema
from harvester.services.budgets import Spend, budget_exhausted, current_spend
from harvester.services.calls import run_providers
from harvester.services.runs import search_run_execute

__all__ = [
    "DETERMINISTIC",
    "MAX_KEYWORDS",
    "AllProvidersFailed",
    "HarvestError",
    "InvalidSearchRequest",
    "QuerySchema",
    "RewriteFailed",
    "RewriteInvalid",
    "SearchRun",
    "Spend",
    "budget_exhausted",
    "current_spend",
    "deterministic_rewrite",
    "index_document",
    "remove_document",
    "rewrite_query",
    "run_providers",
    "search_run_execute",
    "translate_query",
    "url_marker_register",
    "validate_schema",
]
