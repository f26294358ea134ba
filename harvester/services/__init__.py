"""Writes of the search app, its front door for the rest of ClaimCheck.

By subject: `runs` (one search, end to end, stored), `calls` (the providers of one search,
called at once) and `budgets` (spend against the daily and monthly budgets).
"""

from harvester.errors import (
    AllProvidersFailed,
    HarvestError,
    InvalidSearchRequest,
    RewriteFailed,
    RewriteInvalid,
)
from harvester.services.budgets import Spend, budget_exhausted, current_spend
from harvester.services.calls import run_providers
from harvester.services.runs import search_run_execute

__all__ = [
    "AllProvidersFailed",
    "HarvestError",
    "InvalidSearchRequest",
    "RewriteFailed",
    "RewriteInvalid",
    "Spend",
    "budget_exhausted",
    "current_spend",
    "run_providers",
    "search_run_execute",
]
