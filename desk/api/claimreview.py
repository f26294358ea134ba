"""JSON API for a claim's ClaimReview: the editor-confirmed verdict as schema.org JSON-LD, to
paste into (or generate) the newsroom's published fact-check. A reader of the claim may read
it; a claim no editor has confirmed has none (404)."""

from __future__ import annotations

import json
from typing import Any

from django.core.serializers.json import DjangoJSONEncoder
from django.http import HttpResponse
from ninja import Router

from claimcheck.roles import AuthenticatedHttpRequest
from claimcheck.schemas import ErrorOut
from desk import selectors

router = Router(tags=["claims"])

JSON_LD = "application/ld+json"


@router.get(
    "/claims/{claim_id}/claimreview",
    response={200: dict[str, Any], 401: ErrorOut, 403: ErrorOut, 404: ErrorOut},
    summary="An editor-confirmed verdict as schema.org ClaimReview JSON-LD",
    description="The claim's current verdict as an editor kept or overrode it, as "
    "`application/ld+json`: `claimReviewed` the claim's text, `reviewRating` the editor's outcome "
    "(`alternateName` the newsroom's name for it, `CLAIMCHECK_RATING_NAMES`; `ratingValue` 1 "
    "False, 2 not decidable, 3 True), `author` the newsroom (`CLAIMCHECK_NEWSROOM_NAME`, "
    "`CLAIMCHECK_NEWSROOM_URL`), `datePublished` when the editor confirmed it, `url` the claim "
    "page, and `itemReviewed` the claim with where the desk first saw it said, when its channel "
    "is known. A claim no editor has kept or overridden (or one re-run since) answers 404: "
    "ClaimCheck's own proposal is never published as a rating.",
)
def get_claim_review(request: AuthenticatedHttpRequest, claim_id: int) -> HttpResponse:
    claim = selectors.claim_for_viewer(user=request.user, claim_id=claim_id)
    document = selectors.claim_review(
        claim=claim, links=selectors.review_links(request=request, claim_id=claim.pk)
    )
    return HttpResponse(
        json.dumps(document, cls=DjangoJSONEncoder, ensure_ascii=False),
        content_type=f"{JSON_LD}; charset=utf-8",
    )
