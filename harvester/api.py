"""JSON API routes of the harvester app (mounted under /api/ by claimcheck.api)."""

from ninja import Router

router = Router(tags=["harvester"])
