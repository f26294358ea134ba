"""The claims API: reading and submitting claims (`claims`), and an editor's writes on one
claim (`review`). Their answers' schemas are in `schemas`."""

from ninja import Router

from desk.api.claims import router as claims_router
from desk.api.review import router as review_router

router = Router()
router.add_router("", claims_router)
router.add_router("", review_router)

__all__ = ["router"]
