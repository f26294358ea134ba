"""JSON API for claims: submit (one or many), read status and verdict, list. The writes on one
claim (override, review, take, release, rerun, comment) are `desk.api.review`."""

from __future__ import annotations

from datetime import UTC, date, datetime, time
from typing import Annotated, Any

from django.contrib.auth.models import User
from django.http import HttpResponse
from ninja import Query, Router, Schema, Status
from pydantic import Field

from claimcheck.daterange import FilterDate, SaneDate, SaneDateTime
from claimcheck.errors import ApplicationError
from claimcheck.roles import AuthenticatedHttpRequest, require_editor, require_viewer
from claimcheck.schemas import OFFSET_MAX, BlankIsNone, ErrorOut, InputSchema
from claims.models import Claim, ClaimStatus, Outcome
from decisions.models import Override
from decisions.selectors import claim_counting, similar_claims
from decisions.services import claim_submit, claims_submit_many
from desk import selectors
from desk.api.schemas import (
    ClaimDetailOut,
    ClaimPageOut,
    ClaimsCreatedOut,
)
from evidence.entities import extract_entities

router = Router(tags=["claims"])


class ClaimIn(InputSchema):
    text: str = Field(max_length=20_000)
    timeframe_start: SaneDateTime | SaneDate | None = None
    timeframe_end: SaneDateTime | SaneDate | None = None
    source_channel: str = ""


def _aware(value: datetime | date | None, *, end: bool) -> datetime | None:
    if value is None:
        return None
    if not isinstance(value, datetime):
        return datetime.combine(value, time.max if end else time.min, tzinfo=UTC)
    return value if value.tzinfo else value.replace(tzinfo=UTC)


def _label(outcome: str) -> str | None:
    return Outcome(outcome).label if outcome else None


def _fact_check(claim: Claim) -> dict[str, Any] | None:
    if claim.fact_check_score is None:
        return None
    return {
        "score": claim.fact_check_score,
        "tier": claim.fact_check_tier,
        "note": claim.fact_check_note,
    }


def _decided_by(claim: Claim) -> str | None:
    if claim.overridden:
        return "editor"
    return "claimcheck" if claim.outcome else None


def claim_summary(claim: Claim, *, proposed: str = "") -> dict[str, Any]:
    """`proposed` is ClaimCheck's outcome for an overridden claim (the others show their own).
    The top level is what the claim shows, so once an editor has overridden it, its outcome is
    the editor's and it carries no confidence: ClaimCheck's, which describes its own outcome,
    stays under `proposed` with that outcome."""
    machine = proposed if claim.overridden else claim.outcome
    return {
        "id": claim.pk,
        "text": claim.text,
        "version": claim.version,
        "last_change": {
            "by": claim.changed_by.get_username() if claim.changed_by else "ClaimCheck",
            "at": claim.changed_at,
            "change": claim.change_note,
        },
        "status": claim.status,
        "outcome": _label(claim.outcome),
        "overridden": claim.overridden,
        "decided_by": _decided_by(claim),
        "timeframe_start": claim.timeframe_start,
        "timeframe_end": claim.timeframe_end,
        "source_channel": claim.source_channel,
        "origin": claim.origin,
        "language": claim.language,
        "language_confidence": claim.language_confidence,
        "created_at": claim.created_at,
        "decided_at": claim.decided_at,
        "error": claim.error,
        "queries_used": claim.queries_used,
        "crawls_used": claim.crawls_used,
        "evidence_count": claim.evidence_count,
        "fact_check": None if claim.overridden else _fact_check(claim),
        "proposed": {"outcome": Outcome(machine).label, "fact_check": _fact_check(claim)}
        if machine
        else None,
    }


def etag(claim: Claim) -> str:
    """The claim's version as an entity tag: "ID.VERSION"."""
    return f'"{claim.pk}.{claim.version}"'


def override_json(override: Override) -> dict[str, Any]:
    return {
        "id": override.pk,
        "editor": override.editor.get_username(),
        "from_outcome": Outcome(override.from_outcome).label,
        "to_outcome": Outcome(override.to_outcome).label,
        "reason": override.reason,
        "at": override.at,
    }


def _lean(lean: Any) -> dict[str, Any] | None:
    if not isinstance(lean, dict):
        return None
    return {**lean, "outcome": Outcome(lean["outcome"]).label}


def claim_payload(claim: Claim) -> dict[str, Any]:
    detail = selectors.claim_history(claim=claim)
    verdict = detail.verdict
    overrides = [override_json(o) for o in detail.overrides]
    card = detail.card
    editor = None if card is None else card.override
    return {
        **claim_summary(claim, proposed="" if card is None else card.proposed),
        "editor_verdict": None
        if editor is None
        else {
            "outcome": editor.outcome_label,
            "editor": editor.editor,
            "reason": editor.reason,
            "at": editor.at,
        },
        "result": None
        if verdict is None
        else {
            "outcome": Outcome(verdict.outcome).label,
            "reason": verdict.reason,
            "proof": selectors.shown_proof(verdict, detail.overrides),
            "sources": verdict.sources,
            "unsided": verdict.unsided,
            "lean": _lean(verdict.lean),
            "weighed": verdict.proposal,
            "debug": verdict.debug,
            "support_total": verdict.support_total,
            "refute_total": verdict.refute_total,
            "decided_at": verdict.decided_at,
        },
        "override": overrides[0] if overrides else None,
        "overrides": overrides,
        "events": [
            {
                "sequence": e.sequence,
                "kind": e.kind,
                "message": e.message,
                "payload": e.payload,
                "at": e.created_at,
            }
            for e in detail.events
        ],
        "fact_checks": [
            {
                "publisher": f.publisher,
                "rating": f.rating,
                "url": f.url,
                "review_date": f.review_date.isoformat() if f.review_date else None,
            }
            for f in detail.fact_checks
        ],
        "also_reported_by": [
            {"id": c.pk, "source_channel": c.source_channel, "outcome": _label(c.outcome)}
            for c in detail.also_reported_by
        ],
        "entities": [
            {"text": e.text, "name": e.name, "kind": e.kind}
            for e in extract_entities(claim.text, language=claim.language)
        ],
        "evidence": _evidence_rows(claim, verdict.proposal if verdict else None),
        "similar": [
            s.as_json()
            for s in similar_claims(text=claim.text, language=claim.language, exclude=claim.pk)
        ],
    }


def _evidence_rows(claim: Claim, proposal: dict[str, Any] | None) -> list[dict[str, Any]]:
    """The current run's rows with their counts, and how the weighed proposal read each
    ("" for a row it did not weigh)."""
    counting = claim_counting(claim=claim)
    weighed = selectors.weighed_words(proposal, counting.shown)
    return [
        row | {"weighed": weighed.get(shown.pk, "")}
        for shown, row in zip(counting.shown, counting.as_json(), strict=True)
    ]


def _created(claim: Claim, created: bool) -> dict[str, Any]:
    return {
        "id": claim.pk,
        "status": claim.status,
        "created": created,
        "url": f"/api/claims/{claim.pk}",
    }


@router.post(
    "/claims",
    response={202: ClaimsCreatedOut, 400: ErrorOut, 403: ErrorOut, 422: ErrorOut, 503: ErrorOut},
    summary="Submit one claim or a list; each is checked in the background",
)
def create_claims(
    request: AuthenticatedHttpRequest, payload: ClaimIn | list[ClaimIn]
) -> Status[Any]:
    require_editor(request.user)
    items = payload if isinstance(payload, list) else [payload]
    if not items:
        raise ApplicationError("no claims given: send one claim or a list of them")
    if len(items) == 1:
        item = items[0]
        claim, created = claim_submit(
            text=item.text,
            timeframe_start=_aware(item.timeframe_start, end=False),
            timeframe_end=_aware(item.timeframe_end, end=True),
            source_channel=item.source_channel,
            user=request.user,
        )
        results = [(claim, created)]
    else:
        results = _submit_many(items, request.user)
    return Status(
        202, {"ids": [c.pk for c, _ in results], "claims": [_created(c, n) for c, n in results]}
    )


def _submit_many(items: list[ClaimIn], user: User) -> list[tuple[Claim, bool]]:
    """A list in one request is all or nothing, like a pasted batch."""
    fields = [
        (
            index,
            {
                "text": item.text,
                "timeframe_start": _aware(item.timeframe_start, end=False),
                "timeframe_end": _aware(item.timeframe_end, end=True),
                "source_channel": item.source_channel,
            },
        )
        for index, item in enumerate(items)
    ]
    return claims_submit_many(items=fields, user=user)


@router.get(
    "/claims/{claim_id}",
    response={200: ClaimDetailOut, 403: ErrorOut, 404: ErrorOut},
    summary="A claim: status, events so far, the verdict when decided, overrides",
    description="The top level is what the claim shows. Once an editor has overridden it "
    "(`overridden` is true, `decided_by` is `editor`), `outcome` is the editor's, `fact_check` "
    "is null (ClaimCheck's confidence never describes an editor's outcome) and "
    "`editor_verdict` says who set it, when and why; `proposed` is what ClaimCheck proposed, "
    "with `fact_check`, its confidence in that proposal. Before any override (`decided_by` is "
    "`claimcheck`) the top-level `outcome` and `fact_check` are ClaimCheck's, the same as "
    "`proposed`. `result` is ClaimCheck's verdict: its outcome, proof (led by the editor's "
    "verdict once overridden) and sources. `override` and `overrides` are the history of "
    "overrides, newest first. The `ETag` header names the claim's version: send it back as "
    "`If-Match` on a write (override, review, take, release, rerun) and the write is refused "
    "with 412 if another editor or ClaimCheck changed the claim since.",
)
def get_claim(
    request: AuthenticatedHttpRequest, response: HttpResponse, claim_id: int
) -> Status[Any]:
    claim = selectors.claim_for_viewer(user=request.user, claim_id=claim_id)
    response["ETag"] = etag(claim)
    return Status(200, claim_payload(claim))


class ClaimFilters(Schema):
    status: Annotated[ClaimStatus | None, BlankIsNone] = None
    outcome: str | None = None
    created_from: FilterDate = Field(None, alias="from")
    created_to: FilterDate = Field(None, alias="to")
    q: str | None = None
    limit: int = Field(50, ge=1, le=200)
    offset: int = Field(0, ge=0, le=OFFSET_MAX)


@router.get(
    "/claims",
    response={200: ClaimPageOut, 403: ErrorOut, 422: ErrorOut},
    summary="Claims, newest first, filtered by status, outcome and creation date",
    description="Each claim as in `GET /api/claims/{claim_id}` without its history: `outcome` "
    "is the editor's when `overridden` (with no `fact_check`), and `proposed` (with its "
    "`fact_check`) is ClaimCheck's.",
)
def list_claims(request: AuthenticatedHttpRequest, filters: Query[ClaimFilters]) -> Status[Any]:
    require_viewer(request.user)
    outcome = (filters.outcome or "").lower()
    if outcome and outcome not in Outcome.values:
        raise ApplicationError(
            f"outcome must be one of {', '.join(Outcome.values)}", field="outcome"
        )
    claims = selectors.claim_queue(
        status=filters.status or "",
        outcome=outcome,
        q=filters.q or "",
        created_from=filters.created_from,
        created_to=filters.created_to,
    )
    page = list(claims[filters.offset : filters.offset + filters.limit])
    proposed = selectors.proposed_outcomes(claims=page)
    return Status(
        200,
        {
            "count": claims.count(),
            "limit": filters.limit,
            "offset": filters.offset,
            "items": [claim_summary(c, proposed=proposed.get(c.pk, "")) for c in page],
        },
    )
