"""An editor-confirmed verdict as schema.org ClaimReview JSON-LD, the markup search engines read
on a published fact-check (https://developers.google.com/search/docs/appearance/structured-data/
factcheck).

Only an editor's word goes out: a verdict kept (reviewed) or overridden. ClaimCheck's own
proposal is a proposal, and a newsroom that published it as its rating would be publishing what
no one on its staff has checked; such a claim has no ClaimReview (`NoClaimReview`). The rating
is the editor's outcome under the newsroom's own name for it (`CLAIMCHECK_RATING_NAMES`), the
author is the newsroom (`CLAIMCHECK_NEWSROOM_NAME` / `_URL`), and the claim's appearance is
where the desk first saw it said: its channel, or an earlier report of it from another channel
("also reported by"), when the channel is an address or at least a name."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import Any
from urllib.parse import urlsplit

from django.conf import settings
from django.http import HttpRequest
from django.urls import reverse

from claimcheck.errors import NotFound
from claims.models import Claim, ClaimStatus, EventKind, Outcome
from decisions.models import Override
from desk.selectors.claims import also_reported_by
from desk.selectors.verdict_card import EditorWord, VerdictCard, verdict_card

# Google reads a numeric rating on the scale its best and worst values set: False at the bottom,
# True at the top, and a claim the evidence could not settle between them.
RATING_VALUES = {Outcome.FALSE: 1, Outcome.INVALID: 2, Outcome.TRUE: 3}
WORST_RATING = 1
BEST_RATING = 3


class NoClaimReview(NotFound):
    """The claim has no editor's word on its current verdict, so there is nothing to publish."""

    def __init__(self, claim_id: int) -> None:
        super().__init__(
            f"claim {claim_id} has no ClaimReview: no editor has confirmed its verdict yet "
            "(keep it or override it first)"
        )


@dataclass(frozen=True)
class ReviewLinks:
    """The absolute addresses a ClaimReview names: the review's page (the claim page) and the
    site that stands in for the newsroom's when `CLAIMCHECK_NEWSROOM_URL` is not set."""

    page: str
    site: str


def review_links(*, request: HttpRequest, claim_id: int) -> ReviewLinks:
    """From `CLAIMCHECK_PUBLIC_URL` when set (a proxy may hide the public host from the
    request), else from the request itself."""
    page = reverse("claim_detail", kwargs={"pk": claim_id})
    base = str(getattr(settings, "CLAIMCHECK_PUBLIC_URL", "") or "").rstrip("/")
    if base:
        return ReviewLinks(page=f"{base}{page}", site=f"{base}/")
    return ReviewLinks(page=request.build_absolute_uri(page), site=request.build_absolute_uri("/"))


def rating_name(outcome: str) -> str:
    """The newsroom's name for an outcome (`CLAIMCHECK_RATING_NAMES`)."""
    names: dict[str, str] = getattr(settings, "CLAIMCHECK_RATING_NAMES", {})
    return names.get(outcome) or Outcome(outcome).label


def editor_word(*, claim: Claim, card: VerdictCard | None) -> EditorWord | None:
    """The editor's word on the claim's current verdict (an override, or the verdict kept), or
    None while only ClaimCheck has spoken."""
    if card is None or claim.status != ClaimStatus.DECIDED:
        return None
    return card.override or card.kept


def _iso(moment: datetime) -> str:
    return moment.replace(microsecond=0).isoformat()


def _is_address(channel: str) -> bool:
    parts = urlsplit(channel)
    return parts.scheme in {"http", "https"} and bool(parts.hostname)


def _appearance(channel: str) -> dict[str, Any]:
    """Where the claim was said: an address is the page itself; a channel that is only a name
    (`@newsdesk`, a feed's name) is named, with no address made up for it."""
    if _is_address(channel):
        return {"@type": "CreativeWork", "url": channel}
    return {"@type": "CreativeWork", "name": channel}


def appearances(*, claim: Claim, reported: list[Claim]) -> list[dict[str, Any]]:
    """Each channel the desk saw the claim in (this claim's and those of the same claim from
    other channels), first seen first, each once."""
    seen: set[str] = set()
    found = []
    for sighting in sorted([claim, *reported], key=lambda c: (c.created_at, c.pk)):
        channel = sighting.source_channel.strip()
        if channel and channel not in seen:
            seen.add(channel)
            found.append(_appearance(channel))
    return found


def claim_review_document(
    *, claim: Claim, card: VerdictCard | None, reported: list[Claim], links: ReviewLinks
) -> dict[str, Any] | None:
    """The ClaimReview of the claim's current verdict, or None when no editor has confirmed it.
    Reads nothing from the database: the caller brings the card and the other reports."""
    word = editor_word(claim=claim, card=card)
    if word is None or word.outcome not in Outcome.values:
        return None
    outcome = Outcome(word.outcome)
    confirmed_at = word.at or claim.reviewed_at or claim.changed_at or claim.updated_at
    item: dict[str, Any] = {"@type": "Claim"}
    seen_in = appearances(claim=claim, reported=reported)
    if seen_in:
        item["appearance"] = seen_in
        item["firstAppearance"] = seen_in[0]
    return {
        "@context": "https://schema.org",
        "@type": "ClaimReview",
        "url": links.page,
        "claimReviewed": claim.text,
        "datePublished": _iso(confirmed_at),
        "author": {
            "@type": "Organization",
            "name": settings.CLAIMCHECK_NEWSROOM_NAME,
            "url": settings.CLAIMCHECK_NEWSROOM_URL or links.site,
        },
        "reviewRating": {
            "@type": "Rating",
            "ratingValue": RATING_VALUES[outcome],
            "bestRating": BEST_RATING,
            "worstRating": WORST_RATING,
            "alternateName": rating_name(outcome),
        },
        "itemReviewed": item,
    }


def claim_review(*, claim: Claim, links: ReviewLinks) -> dict[str, Any]:
    """The claim's ClaimReview, or `NoClaimReview`. Loads only what it names: the current
    verdict, its overrides with their editors, the review steps and the other reports."""
    verdict = claim.verdicts.filter(run_number=claim.run_number).order_by("-decided_at").first()
    if verdict is None:
        raise NoClaimReview(claim.pk)
    overrides = list(
        Override.objects.filter(verdict__claim=claim)
        .select_related("editor")
        .order_by("-at", "-id")
    )
    reviews = list(claim.events.filter(kind=EventKind.REVIEW).order_by("sequence"))
    card = verdict_card(claim=claim, verdict=verdict, overrides=overrides, events=reviews)
    if editor_word(claim=claim, card=card) is None:
        raise NoClaimReview(claim.pk)
    # Only now: the other reports cost a scan of the claims around this one.
    document = claim_review_document(
        claim=claim, card=card, reported=also_reported_by(claim=claim), links=links
    )
    if document is None:
        raise NoClaimReview(claim.pk)
    return document
