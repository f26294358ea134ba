"""JSON API routes of the evidence app (mounted under /api/ by claimcheck.api)."""

from ninja import Router

router = Router(tags=["evidence"])
