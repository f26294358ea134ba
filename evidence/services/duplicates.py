"""Near-duplicate evidence of one claim is kept once.

The same statement often reaches a claim's run more than once: its sentence read from a search
snippet and again on the page, one page under two addresses that canonical URLs do not merge
(a print or AMP version, a moved story), a page whose summary repeats its first paragraph.
Shown and weighed as rows of their own, such copies fill the claim page, push other sources
out of the top rows of a side, and make one statement look like several. So a quote at least
`retention.dedupe_similarity` alike (`evidence.quotes`) to another of the same run is kept once:
the better row stands for the statement, and each copy is stored with `duplicate_of` pointing at
it. Nothing is deleted: a copy stays in the database (so collecting again finds it by its
address and stores nothing new, and the record of where the statement was found is whole),
but it is neither shown nor counted apart.

Rows are one statement only when they could stand in for each other in the decision: the same
site, the same original publisher when it is a reprint (`syndicated_from`), the same stance,
the same answer to "inside the timeframe?" and the same weight. The same quote on two sites is
therefore never folded here, not even two reprints of one wire story. That is syndication,
which `syndication_mark` already judges on the text around the quote (a wire byline, a copied
story) and which the decision counts once, as the original publisher; two outlets quoting one
official sentence in stories of their own stay two sources, as before. And since the decision
counts a publisher once per side with its best row, and the kept row counts whenever one of its
copies would (read if a copy was, at least as sure, the same weight and timeframe answer),
folding them changes no side's total and no side's publishers: only the rows shown, and how
many of a side's best rows (`retention.max_per_side`) one statement takes.

The better row, kept: one read where it was published over a lead, a lead not yet checked over
one that failed its check, the surer stance reading, the fuller text (page over snippet), the
higher stance score, then the one stored first. The copies are marked again after every write
that can change this (new rows, syndication marks, snippet checks), so a page read after its
snippet takes the snippet's place.
"""

from __future__ import annotations

from collections import defaultdict

from django.db import transaction

from claimcheck.config import get_config
from claims.models import Claim
from evidence.models import CONFIDENCE_RANK, ContentDepth, Evidence, Method, VerificationStatus
from evidence.quotes import same_statement

_DEPTH_RANK: dict[str, int] = {
    ContentDepth.FULL: 2,
    ContentDepth.PARTIAL: 1,
    ContentDepth.SNIPPET: 0,
}
# A published fact-check's row quotes the claim it reviewed, not a page: never folded.
_QUOTED = [m for m in Method.values if m != Method.FACTCHECK]

_Key = tuple[str, str, str, bool | None, float]


def _interchangeable(row: Evidence) -> _Key:
    """Rows that could stand in for each other in the decision share this key."""
    return row.domain, row.syndicated_from, row.stance, row.in_window, row.weight


def _better_first(row: Evidence) -> tuple[bool, bool, int, int, float, int]:
    failed = row.verification_status == VerificationStatus.FAILED
    return (
        not row.was_read,
        failed,
        -CONFIDENCE_RANK.get(row.confidence, 0),
        -_DEPTH_RANK.get(row.content_depth, 0),
        -row.stance_score,
        row.pk,
    )


def duplicates_mark(*, claim: Claim) -> int:
    """Mark the copies among the evidence of the claim's current run: each points at the row
    kept for its statement, and a row that is nobody's copy points nowhere. Returns how many
    rows changed. Safe to run any number of times: the same rows give the same marks."""
    threshold = get_config().retention.dedupe_similarity
    with transaction.atomic():
        rows = list(
            Evidence.objects.select_for_update()
            .filter(claim=claim, attempt__gt=claim.attempt_offset, method__in=_QUOTED)
            .exclude(source_quote="")
            .order_by("id")
        )
        groups: dict[_Key, list[Evidence]] = defaultdict(list)
        for row in rows:
            groups[_interchangeable(row)].append(row)
        changed = 0
        for group in groups.values():
            kept: list[Evidence] = []
            for row in sorted(group, key=_better_first):
                twin = next(
                    (
                        k
                        for k in kept
                        if same_statement(k.source_quote, row.source_quote, threshold=threshold)
                    ),
                    None,
                )
                if twin is None:
                    kept.append(row)
                target = twin.pk if twin is not None else None
                if row.duplicate_of_id != target:
                    Evidence.objects.filter(pk=row.pk).update(duplicate_of=target)
                    row.duplicate_of_id = target
                    changed += 1
    return changed
