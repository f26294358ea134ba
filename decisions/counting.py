"""What counted and why, row by row: one claim run's stored evidence weighed exactly as the
claim loop weighs it for the decision, so that the claim page's evidence table, the API, the
timeline and `manage.py verify` all say the same thing about every row.

The rows go through the loop's own path: each statement once (a copy, `duplicate_of`, stands
aside), in the order stored, each side's best rows (`decisions.ranking.top_per_side`), then the
decision's own weighing (`decisions.decide.weigh`: `hit_counts`, `compute_totals` and its
best-per-publisher rule, the conflict rule). Nothing here decides anything: a row counts
when the decision counted its hit, so the counted rows' weights add up to the decision's totals.
A row that did not count says why, in the words an editor reads on it (`decisions.uncounted`).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field, replace

from decisions.decide import hit_fails, weigh
from decisions.hits import evidence_hit
from decisions.ranking import top_per_side
from decisions.types import (
    REFUTE,
    SIDES,
    SUPPORT,
    ClaimQuestion,
    EvidenceHit,
    HitCount,
    NotCounted,
    SearchHistory,
    Weighing,
)
from decisions.uncounted import (
    against_words,
    conflict_words,
    counted_label,
    not_counted_label,
    side_word,
    why_words,
)
from evidence.models import Evidence, Method, VerificationStatus


@dataclass(frozen=True)
class RowCount:
    """One row's count: for which side and with which weight it counted, or why not."""

    row_id: int
    stance: str
    weight: float
    """The weight it counts (or would count) with: its publisher's (a reprint's original's)."""
    why: NotCounted | None
    """None when it counted."""
    words: str = ""
    """Why it did not count, as an editor reads it."""
    against: str = ""
    """How the conflict rule weighed it against a side that reached the agreement score."""
    pair: str = ""
    """What another reading of the same address read the other way, and whether that counted."""

    @property
    def counted(self) -> bool:
        return self.why is None

    @property
    def label(self) -> str:
        if self.counted:
            return counted_label(stance=self.stance, weight=self.weight)
        return not_counted_label(self.words)

    def as_json(self) -> dict[str, object]:
        return {
            "counted": self.counted,
            "side": self.stance if self.counted else None,
            "counted_weight": round(self.weight, 3) if self.counted else 0.0,
            "why": None if self.why is None else self.why.value,
            "why_text": self.words,
            "label": self.label,
            "weighed_against": self.against,
            "pair": self.pair,
        }


@dataclass(frozen=True)
class ConflictRow:
    """A row on either side of a conflict, with the weight the conflict rule gave it."""

    row_id: int
    domain: str
    stance: str
    weight: float
    counted: bool
    words: str


@dataclass(frozen=True)
class Counting:
    """A run's rows as the decision weighs them."""

    weighing: Weighing
    rows: dict[int, RowCount]
    """Every row given, by id."""
    shown: list[Evidence]
    """What the claim page shows: each statement once, each side's best rows, every row that
    took no side; heaviest first."""
    copies: int = 0
    beyond_top: int = 0
    conflict: str = ""
    """Why the sides conflict, in words ("" when they do not)."""
    conflict_rows: list[ConflictRow] = field(default_factory=list)

    @property
    def support_total(self) -> float:
        return self.weighing.totals.support.total

    @property
    def refute_total(self) -> float:
        return self.weighing.totals.refute.total

    def shown_with_counts(self) -> list[tuple[Evidence, RowCount]]:
        return [(row, self.rows[row.pk]) for row in self.shown]

    def as_json(self) -> list[dict[str, object]]:
        """The rows shown, each with its count, as the API gives them."""
        return [
            {
                "id": row.pk,
                "url": row.url,
                "domain": row.domain,
                "tier": row.tier,
                "weight": row.weight,
                "stance": row.stance,
                "confidence": row.confidence,
                "read": row.was_read,
                "read_by": row.reader_words,
                "model": row.read_by or None,
                "syndicated_from": row.syndicated_from,
                "about_claim": row.about_claim,
                "quote": row.source_quote[:500],
                **count.as_json(),
            }
            for row, count in self.shown_with_counts()
        ]

    def agrees_with(self, *, support: float, refute: float) -> bool:
        """Whether these totals are the ones stored (a verdict weighed before the registry or
        the settings changed may differ)."""
        return abs(self.support_total - support) < 1e-6 and abs(self.refute_total - refute) < 1e-6


def _lead_words(row: Evidence, pages_read: frozenset[str] = frozenset()) -> str:
    if row.method == Method.SNIPPET and row.url in pages_read:
        return "a lead, not read itself: its page was read, and the page's own reading stands"
    if row.method != Method.SNIPPET:
        return "a lead, not read (only a snippet of its page could be read)"
    if row.verification_status == VerificationStatus.UNVERIFIED:
        return "a lead, not read (its snippet is not checked on its page yet)"
    return "a lead, not read (its snippet was not found on its page)"


def _row_count(
    row: Evidence, count: HitCount, weighing: Weighing, pages_read: frozenset[str]
) -> RowCount:
    words = why_words(count, min_confidence=weighing.min_confidence)
    if count.why == NotCounted.LEAD:
        words = _lead_words(row, pages_read)
    elif not row.about_claim:
        words = "read, not about this claim (another event, party or product)"
    return RowCount(
        row_id=row.pk,
        stance=row.stance,
        weight=count.hit.weight,
        why=count.why,
        words=words,
        against=against_words(count, weighing.opposition),
    )


def _own(
    row: Evidence, hit: EvidenceHit, *, question: ClaimQuestion, min_confidence: str
) -> tuple[NotCounted | None, str]:
    own = hit_fails(hit=hit, question=question, min_confidence=min_confidence)
    if own is None:
        return None, ""
    if own == NotCounted.LEAD:
        return own, _lead_words(row)
    return own, why_words(HitCount(hit=hit, why=own), min_confidence=min_confidence)


def own_why(row: Evidence, *, question: ClaimQuestion, min_confidence: str) -> str:
    """Why a row cannot count, whatever else its run holds: the part of the decision's rule
    its own reading fails ("" when it passes, and counts unless its publisher counts with a
    better row)."""
    return _own(row, evidence_hit(row), question=question, min_confidence=min_confidence)[1]


def _aside(
    row: Evidence, why: NotCounted, words: str, *, question: ClaimQuestion, min_confidence: str
) -> RowCount:
    """A row the decision never saw. One below its side's best rows says first what its own
    reading fails, if anything."""
    hit = evidence_hit(row)
    if why == NotCounted.BEYOND_TOP:
        own, own_words = _own(row, hit, question=question, min_confidence=min_confidence)
        if own is not None:
            why, words = own, own_words
    return RowCount(row_id=row.pk, stance=row.stance, weight=hit.weight, why=why, words=words)


def _reading(row: Evidence) -> str:
    return "snippet" if row.method == Method.SNIPPET else "page"


def _pair_notes(shown: list[Evidence], rows: dict[int, RowCount]) -> None:
    """Where one address reads both sides (its snippet one way, its page the other), each of
    its rows says what the other read and whether that counted."""
    by_url: dict[str, list[Evidence]] = {}
    for row in shown:
        if row.stance in SIDES:
            by_url.setdefault(row.url, []).append(row)
    for group in by_url.values():
        for row in group:
            others = [o for o in group if o.stance != row.stance]
            notes = []
            for other in others:
                count = rows[other.pk]
                kind = _reading(other)
                what = "another reading of its page" if kind == _reading(row) else f"its {kind}"
                verdict = "and counted" if count.counted else f"not counted: {count.words}"
                notes.append(f"{what} read {side_word(other.stance)}, {verdict}")
            if notes:
                pair = "; ".join(notes)
                rows[row.pk] = replace(rows[row.pk], pair=pair[:1].upper() + pair[1:])


def _conflict_rows(weighing: Weighing, row_of: dict[int, Evidence]) -> list[ConflictRow]:
    """The rows on each side of a conflict: the counted rows of both sides when both reach
    the agreement score; else the sufficient side's counted rows and every reading weighed
    against it."""
    if not weighing.conflicting:
        return []
    opposition = weighing.opposition
    chosen = [
        c
        for c in weighing.counts
        if (c.counted and (opposition is None or c.hit.stance == opposition.side)) or c.against
    ]
    order = {SUPPORT: 0, REFUTE: 1}
    chosen.sort(key=lambda c: (order.get(c.hit.stance, 2), -c.hit.weight))
    return [
        ConflictRow(
            row_id=row_of[id(c.hit)].pk,
            domain=row_of[id(c.hit)].domain,
            stance=c.hit.stance,
            weight=c.hit.weight,
            counted=c.counted,
            words=why_words(c, min_confidence=weighing.min_confidence),
        )
        for c in chosen
    ]


def count_rows(
    *,
    question: ClaimQuestion,
    rows: Sequence[Evidence],
    attempt_offset: int,
    min_confidence: str,
    limit: int,
    threshold: float,
    max_opposition: float | None,
) -> Counting:
    """Each of a claim's rows counted as the decision of its current run (the rows after
    `attempt_offset`) counts it; rows of earlier runs are not weighed in it."""
    current = sorted((r for r in rows if r.attempt > attempt_offset), key=lambda r: r.pk)
    distinct = [r for r in current if r.duplicate_of_id is None]
    hits = [evidence_hit(r) for r in distinct]
    kept = top_per_side(
        items=list(range(len(distinct))),
        hit_of=hits.__getitem__,
        question=question,
        min_confidence=min_confidence,
        limit=limit,
    )
    weighing = weigh(
        question=question,
        history=SearchHistory(evidence=[hits[i] for i in kept]),
        threshold=threshold,
        min_confidence=min_confidence,
        max_opposition=max_opposition,
    )
    counts: dict[int, RowCount] = {}
    row_of: dict[int, Evidence] = {}
    pages_read = frozenset(r.url for r in current if r.was_read and r.method != Method.SNIPPET)
    for i, count in zip(kept, weighing.counts, strict=True):
        counts[distinct[i].pk] = _row_count(distinct[i], count, weighing, pages_read)
        row_of[id(count.hit)] = distinct[i]
    kept_set = set(kept)
    beyond = [row for i, row in enumerate(distinct) if i not in kept_set]
    by_id = {r.pk: r for r in rows}
    for row in beyond:
        words = f"below the best {limit} rows of its side (only those are weighed)"
        counts[row.pk] = _aside(
            row, NotCounted.BEYOND_TOP, words, question=question, min_confidence=min_confidence
        )
    for row in current:
        if row.duplicate_of_id is not None:
            original = by_id.get(row.duplicate_of_id)
            source = f" of {original.domain}" if original is not None else ""
            words = f"a copy of another row{source} (the same statement, counted once there)"
            counts[row.pk] = _aside(
                row, NotCounted.COPY, words, question=question, min_confidence=min_confidence
            )
    for row in rows:
        if row.attempt <= attempt_offset:
            words = "from an earlier run (not weighed in this one)"
            counts[row.pk] = _aside(
                row, NotCounted.OLDER_RUN, words, question=question, min_confidence=min_confidence
            )
    shown = sorted((distinct[i] for i in kept), key=lambda r: (-r.weight, r.pk))
    _pair_notes(shown, counts)
    return Counting(
        weighing=weighing,
        rows=counts,
        shown=shown,
        copies=len(current) - len(distinct),
        beyond_top=len(beyond),
        conflict=conflict_words(weighing),
        conflict_rows=_conflict_rows(weighing, row_of),
    )
