"""The claims API: reading and submitting claims (`claims`), an editor's writes on one claim
(`review`), and a confirmed verdict as schema.org ClaimReview (`claimreview`). Their answers'
schemas are in `schemas`."""

from ninja import Router

from desk.api.claimreview import router as claimreview_router
from desk.api.claims import router as claims_router
from desk.api.review import router as review_router

router = Router()
router.add_router("", claims_router)
router.add_router("", review_router)
router.add_router("", claimreview_router)

__all__ = ["router"]
