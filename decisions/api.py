"""JSON API routes of the decisions app (mounted under /api/ by claimcheck.api)."""

from ninja import Router

router = Router(tags=["decisions"])
