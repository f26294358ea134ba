"""Earlier claims that say the same thing as a text, and those that are only related.

A claim is indexed when it is stored (`claim_index`, called by the claims service, whatever the
door: desk, API, `verify`, batch), one `ClaimKey` row per part of what it asserts. A match reads
the index for claims sharing the text's rarer parts (entities, numbers, content words: years and
months are shared by too many to pick candidates by), then compares each candidate's parts:

- **same**: nothing conflicts (no other number, year, month, party or place, direction or
  negation: `similar_signature.conflict`) and enough is shared. In one language, a weighted share
  of all the parts; across languages, where content words cannot meet, the parts that read alike
  in any language: the same parties and places, and numbers and dates that agree.
- **related**: a shared subject, but another assertion or not enough in common to be sure.

The score is the weighted Dice coefficient of the two claims' parts (entities weigh most, then
numbers, then words), from 0 to 1; in another language, of the parts that cross languages.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from django.db import transaction
from django.db.models import Q

from claims.models import Claim, ClaimStatus
from decisions.models import ClaimKey, ClaimRestatement, ClaimSameness
from decisions.similar_signature import Signature, conflict, from_keys, signature

# How much each kind of part counts (the index's prefix: entity, other name, number, year,
# month, day, word).
WEIGHTS = {"e": 3.0, "o": 1.5, "n": 2.0, "y": 1.0, "m": 1.0, "d": 1.0, "w": 1.0}
# Parts too common to find candidates by (every claim of a year shares it).
_NOT_FOR_LOOKUP = ("y:", "m:", "d:")
SAME_SCORE = 0.6
RELATED_SCORE = 0.25
CANDIDATES = 200
# The most claims one part of a text reads from the index.
PER_KEY = 500


@dataclass(frozen=True)
class SimilarClaim:
    id: int
    text: str
    relation: str
    """"same" or "related"."""
    score: float
    outcome: str | None
    decided_by: str | None
    """"editor" (kept or overridden), "claimcheck" (decided, not reviewed), or None."""
    why: str = ""
    """For a related claim that shares much: what keeps it from being the same."""

    def as_json(self) -> dict[str, object]:
        return {
            "id": self.id,
            "text": self.text,
            "relation": self.relation,
            "score": self.score,
            "outcome": self.outcome,
            "decided_by": self.decided_by,
        }


def _language(text: str, language: str | None) -> str:
    if language is not None:
        return language
    from claimcheck.language import detect_language

    return detect_language(text).code


def claim_index(claim: Claim) -> None:
    """Write the claim's parts to the index (again, if its text was indexed before)."""
    keys = sorted(set(signature(claim.text, language=claim.language).keys()))
    with transaction.atomic():
        ClaimKey.objects.filter(claim=claim).delete()
        ClaimKey.objects.bulk_create([ClaimKey(claim=claim, key=key[:120]) for key in keys])


def restatement_record(claim: Claim) -> None:
    """Point a newly stored claim at the first claim of its group when an earlier claim says
    the same (the queue groups them); a claim matching nothing earlier starts a group."""
    best = next(
        (
            s
            for s in similar_claims(text=claim.text, language=claim.language, exclude=claim.pk)
            if s.relation == "same" and s.id < claim.pk
        ),
        None,
    )
    if best is not None:
        ClaimRestatement.objects.update_or_create(
            claim=claim, defaults={"of_id": group_of(best.id), "by_editor": False}
        )


def group_of(claim_id: int) -> int:
    """The first claim of the group `claim_id` is in: itself, or the claim it restates."""
    first = ClaimRestatement.objects.filter(claim_id=claim_id).values_list("of_id", flat=True)
    return first.first() or claim_id


def _weight(keys: set[str]) -> float:
    return sum(WEIGHTS[key.split(":", 1)[0]] for key in keys)


def _crossing(keys: set[str]) -> set[str]:
    """The parts that read alike in any language: all but the content words."""
    return {key for key in keys if not key.startswith("w:")}


def _score(mine: set[str], theirs: set[str], *, same_language: bool) -> float:
    if not same_language:
        mine, theirs = _crossing(mine), _crossing(theirs)
    total = _weight(mine) + _weight(theirs)
    return round(2 * _weight(mine & theirs) / total, 3) if total else 0.0


def _relation(
    mine: Signature, theirs: Signature, score: float, *, same_language: bool
) -> tuple[str | None, str]:
    why = conflict(mine, theirs)
    if same_language:
        if not why and score >= SAME_SCORE:
            return "same", ""
        return ("related", why) if score >= RELATED_SCORE else (None, why)
    # Across languages only names, numbers and dates meet: the same claim names the same
    # parties and agrees on every number and date either gives.
    agrees = (
        not why
        and mine.parties
        and mine.parties == theirs.parties
        and mine.numbers == theirs.numbers
        and (mine.years or mine.numbers or mine.months)
        and score >= SAME_SCORE
    )
    if agrees:
        return "same", ""
    return ("related", why) if score >= RELATED_SCORE else (None, why)


def _candidates(lookup: list[str], *, exclude: int | None) -> list[int]:
    """The claims sharing most of these parts, rarer parts counting more. Each part reads at
    most PER_KEY of its claims (the newest) from the index: a word every claim has costs no more
    than a name only one has, so a match stays fast however many claims are stored."""
    scores: dict[int, float] = {}
    for key in lookup:
        rows = ClaimKey.objects.filter(key=key)
        if exclude is not None:
            rows = rows.exclude(claim_id=exclude)
        ids = list(rows.order_by("-claim_id").values_list("claim_id", flat=True)[:PER_KEY])
        weight = WEIGHTS[key.split(":", 1)[0]] / math.log2(2 + len(ids))
        for claim_id in ids:
            scores[claim_id] = scores.get(claim_id, 0.0) + weight
    return sorted(scores, key=lambda claim_id: (-scores[claim_id], -claim_id))[:CANDIDATES]


def _marks(claim_id: int | None) -> dict[int, bool]:
    """The editors' word on the pairs `claim_id` is in: the other claim, and whether the same."""
    if claim_id is None:
        return {}
    marks: dict[int, bool] = {}
    for first, second, same in ClaimSameness.objects.filter(
        Q(claim_id=claim_id) | Q(other_id=claim_id)
    ).values_list("claim_id", "other_id", "same"):
        marks[second if first == claim_id else first] = same
    return marks


def _decided_by(claim: Claim) -> str | None:
    if claim.status != ClaimStatus.DECIDED:
        return None
    return "editor" if claim.reviewed_at is not None else "claimcheck"


def similar_claims(
    *, text: str, language: str | None = None, exclude: int | None = None, limit: int = 10
) -> list[SimilarClaim]:
    """Stored claims that say the same as `text` or are related to it, best first: the same
    ones before the related ones, each by score, then the newer first. `exclude`: the claim
    whose text it is, left out, and whose pairs an editor marked (`ClaimSameness`) are as
    marked: the same, or at most related."""
    language = _language(text, language)
    mine = signature(text, language=language)
    my_keys = set(mine.keys())
    lookup = [key for key in my_keys if not key.startswith(_NOT_FOR_LOOKUP)] or list(my_keys)
    if not lookup:
        return []
    candidates = _candidates(lookup, exclude=exclude)
    # An editor's word on a pair stands over the matcher's reading.
    marks = _marks(exclude)
    candidates += [pk for pk, same in marks.items() if same and pk not in candidates]
    keys: dict[int, set[str]] = {}
    for claim_id, key in ClaimKey.objects.filter(claim_id__in=candidates).values_list(
        "claim_id", "key"
    ):
        keys.setdefault(claim_id, set()).add(key)
    found = []
    for claim in Claim.objects.filter(pk__in=candidates).only(
        "id", "text", "language", "status", "outcome", "reviewed_at"
    ):
        theirs = keys.get(claim.pk, set())
        same_language = claim.language == language or not claim.language or not language
        score = _score(my_keys, theirs, same_language=same_language)
        marked = marks.get(claim.pk)
        relation, why = "same", "an editor marked them the same"
        if not marked:
            if score < RELATED_SCORE:
                continue
            read, why = _relation(
                mine,
                from_keys(theirs, text=claim.text, language=claim.language),
                score,
                same_language=same_language,
            )
            if read is None:
                continue
            relation = read
            if marked is False and relation == "same":
                relation, why = "related", "an editor marked them not the same"
        found.append(
            SimilarClaim(
                id=claim.pk,
                text=claim.text,
                relation=relation,
                score=score,
                outcome=claim.outcome or None,
                decided_by=_decided_by(claim),
                why=why,
            )
        )
    found.sort(key=lambda s: (s.relation != "same", -s.score, -s.id))
    return found[:limit]
