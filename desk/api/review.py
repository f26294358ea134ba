"""JSON API for an editor's writes on one claim: override its outcome, keep its verdict
(review), take it, release it, re-run it, comment on it.

Each write that changes the claim's state is made against the version the client read: send
the `ETag` of `GET /api/claims/{claim_id}` back as `If-Match`, and a claim that changed since is
refused with 412, the claim as it is now, and nothing changed. A write without `If-Match` (or
with `*`) is made on the claim as it is. Each answer carries the claim's new `ETag`."""

from __future__ import annotations

from typing import Any

from django.http import HttpRequest, HttpResponse
from ninja import Router, Status

from claimcheck.roles import AuthenticatedHttpRequest
from claimcheck.schemas import ErrorOut, InputSchema
from claims.models import Claim
from decisions.models import Override
from decisions.services import (
    claim_mark_reviewed,
    claim_release,
    claim_rerun,
    claim_take,
    comment_add,
    verdict_override,
)
from desk import selectors
from desk.api.claims import claim_summary, etag, override_json
from desk.api.schemas import ClaimOut, CommentOut, OverrideOut, StaleOut

router = Router(tags=["claims"])

# A version no claim ever has (versions start at 1): an If-Match that names no version of this
# claim matches none, and the write is refused as stale.
NO_VERSION = 0

REFUSALS: dict[int, Any] = {
    403: ErrorOut,
    404: ErrorOut,
    409: ErrorOut,
    412: StaleOut,
    422: ErrorOut,
}


def if_match(request: HttpRequest, claim_id: int) -> int | None:
    """The version `If-Match` names for this claim: None when the header is absent or `*` (the
    write is made on the claim as it is), NO_VERSION when it names no version of this claim."""
    raw = request.headers.get("If-Match")
    if raw is None or raw.strip() == "*":
        return None
    for tag in raw.split(","):
        claim_part, _, version = tag.strip().removeprefix("W/").strip('"').partition(".")
        if claim_part == str(claim_id) and version.isdigit():
            return int(version)
    return NO_VERSION


def _answer(response: HttpResponse, claim_id: int, status: int) -> Status[Any]:
    claim = selectors.claim_get(claim_id=claim_id)
    response["ETag"] = etag(claim)
    return Status(status, claim_summary(claim, proposed=_proposed(claim)))


def _proposed(claim: Claim) -> str:
    return selectors.proposed_outcomes(claims=[claim]).get(claim.pk, "")


class OverrideIn(InputSchema):
    outcome: str
    reason: str


class CommentIn(InputSchema):
    text: str


class ActionIn(InputSchema):
    """The body of a write that needs nothing but the claim: none, or an empty object (a field
    sent to it is refused like any unknown field)."""


@router.post(
    "/claims/{claim_id}/override",
    response={201: OverrideOut, 400: ErrorOut} | REFUSALS,
    summary="Change a decided claim's outcome, with a reason (editors); the original stays",
)
def override_claim(
    request: AuthenticatedHttpRequest, response: HttpResponse, claim_id: int, payload: OverrideIn
) -> Status[Any]:
    claim = selectors.claim_for_editor(user=request.user, claim_id=claim_id)
    override = verdict_override(
        claim=claim,
        editor=request.user,
        to_outcome=payload.outcome.strip().lower(),
        reason=payload.reason,
        expected_version=if_match(request, claim_id),
    )
    response["ETag"] = etag(selectors.claim_get(claim_id=claim_id))
    return Status(201, override_json(Override.objects.select_related("editor").get(pk=override.pk)))


@router.post(
    "/claims/{claim_id}/review",
    response={200: ClaimOut} | REFUSALS,
    summary="Keep a decided claim's verdict: the claim is marked reviewed (editors)",
)
def review_claim(
    request: AuthenticatedHttpRequest,
    response: HttpResponse,
    claim_id: int,
    payload: ActionIn | None = None,
) -> Status[Any]:
    claim = selectors.claim_for_editor(user=request.user, claim_id=claim_id)
    claim_mark_reviewed(
        claim=claim, editor=request.user, expected_version=if_match(request, claim_id)
    )
    return _answer(response, claim_id, 200)


@router.post(
    "/claims/{claim_id}/take",
    response={200: ClaimOut} | REFUSALS,
    summary="Take a claim to review it, so that other editors know (editors)",
)
def take_claim(
    request: AuthenticatedHttpRequest,
    response: HttpResponse,
    claim_id: int,
    payload: ActionIn | None = None,
) -> Status[Any]:
    claim = selectors.claim_for_editor(user=request.user, claim_id=claim_id)
    claim_take(claim=claim, editor=request.user, expected_version=if_match(request, claim_id))
    return _answer(response, claim_id, 200)


@router.post(
    "/claims/{claim_id}/release",
    response={200: ClaimOut} | REFUSALS,
    summary="Give a claim you took back to the pool (its holder, or an admin)",
)
def release_claim(
    request: AuthenticatedHttpRequest,
    response: HttpResponse,
    claim_id: int,
    payload: ActionIn | None = None,
) -> Status[Any]:
    claim = selectors.claim_for_editor(user=request.user, claim_id=claim_id)
    claim_release(claim=claim, editor=request.user, expected_version=if_match(request, claim_id))
    return _answer(response, claim_id, 200)


@router.post(
    "/claims/{claim_id}/rerun",
    response={202: ClaimOut, 503: ErrorOut} | REFUSALS,
    summary="Check a decided or failed claim again; its earlier verdicts stay (editors)",
)
def rerun_claim(
    request: AuthenticatedHttpRequest,
    response: HttpResponse,
    claim_id: int,
    payload: ActionIn | None = None,
) -> Status[Any]:
    claim = selectors.claim_for_editor(user=request.user, claim_id=claim_id)
    claim_rerun(claim=claim, user=request.user, expected_version=if_match(request, claim_id))
    return _answer(response, claim_id, 202)


@router.post(
    "/claims/{claim_id}/comments",
    response={201: CommentOut, 403: ErrorOut, 404: ErrorOut, 422: ErrorOut},
    summary="Add a comment to a claim's discussion (editors); it changes not the claim's state",
)
def comment_claim(
    request: AuthenticatedHttpRequest, claim_id: int, payload: CommentIn
) -> Status[Any]:
    claim = selectors.claim_for_editor(user=request.user, claim_id=claim_id)
    comment = comment_add(claim=claim, author=request.user, text=payload.text)
    return Status(
        201,
        {
            "id": comment.pk,
            "author": request.user.get_username(),
            "text": comment.text,
            "at": comment.at,
        },
    )
