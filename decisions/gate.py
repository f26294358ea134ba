"""The snippet gate: from one page of search results, decide / crawl / refine.

Each result is scored: its domain's authority weight, +0.3 for cue words in the title or URL
("press release", "official results", "decision", ...), +0.2 when the snippet shows an explicit
date, +0.2 when the provider's date falls inside the claim's timeframe. The gate says "verify" when
the evidence in snippets would reach sufficiency (the pages behind them are then checked before
a snippet counts), "crawl" with the best picks
(one official plus one independent source, never two of one registrable domain, never a denied or
social one), or "refine" when nothing worth reading shows.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from datetime import datetime
from typing import Literal
from urllib.parse import unquote

from claimcheck.language import MIXED_CONFIDENCE, LanguageGuess, detect_language
from decisions.decide import ClaimQuestion
from evidence.domains import DomainRule, publisher_of, weigh_source
from evidence.entities import Entity, entity_overlap, extract_entities
from evidence.rerank import tokens
from evidence.services import Lead

CUES = (
    "press release",
    "official results",
    "official",
    "order",
    "decision",
    "ruling",
    "announces",
    "announcement",
    "statement",
    "approved",
    "adopted",
    "regulation",
    "report",
    "box score",
    "results",
    "pdf",
    "filing",
)
_CUE_RE = re.compile(r"\b(" + "|".join(re.escape(c) for c in CUES) + r")\b", re.I)
_DATE_RE = re.compile(
    r"\b(?:(?:19|20)\d\d-[01]\d-[0-3]\d|(?:jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec)[a-z]*"
    r"\.?\s+(?:[0-3]?\d,?\s+)?(?:19|20)\d\d|[0-3]?\d\s+(?:jan|feb|mar|apr|may|jun|jul|aug|sep|oct"
    r"|nov|dec)[a-z]*\.?\s+(?:19|20)\d\d|(?:19|20)\d\d)\b",
    re.I,
)
AUTHORITATIVE = ("official", "wire", "trade")
# The share of the claim's content words a result's title and snippet must show to be worth a
# crawl. Authority says how much a page would count, not whether it is about the claim: an
# official page that shares one word with the claim spends a crawl (of four) and reads nothing.
MIN_CRAWL_RELEVANCE = 0.25
# And a share of the best relevance among the results that could be read: a page far less about
# the claim than another result is not worth a crawl for its authority alone.
RELATIVE_CRAWL_RELEVANCE = 0.6


@dataclass(frozen=True)
class ScoredLead:
    lead: Lead
    rule: DomainRule
    score: float
    cues: tuple[str, ...]
    snippet_date: bool
    in_window: bool | None
    relevance: float = 1.0
    """The share of the claim's content words found in the title, URL and snippet."""
    publisher: str | None = None
    """The registrable domain that published it; None for an address or an internal host."""

    @property
    def tier(self) -> str:
        return self.rule.tier

    @property
    def usable(self) -> bool:
        return self.publisher is not None and not self.rule.denied and self.rule.tier != "social"

    @property
    def worth_reading(self) -> bool:
        """A result that could be read and is enough about the claim to be worth a crawl."""
        return self.usable and self.relevance >= MIN_CRAWL_RELEVANCE


@dataclass(frozen=True)
class GateDecision:
    status: Literal["verify", "crawl", "refine"]
    why: str
    picks: tuple[ScoredLead, ...] = ()
    scored: tuple[ScoredLead, ...] = field(default=())


def _in_window(when: datetime | None, question: ClaimQuestion) -> bool | None:
    if when is None or not question.has_timeframe:
        return None
    if question.timeframe_start and when < question.timeframe_start:
        return False
    return not (question.timeframe_end and when > question.timeframe_end)


def word_share(lead: Lead, claim_words: set[str]) -> float:
    """The share of the claim's content words in a result's title, URL and snippet. The URL is
    read decoded: "El_Ni%C3%B1o" names El Niño."""
    if not claim_words:
        return 1.0
    url = unquote(lead.url)
    return len(claim_words & set(tokens(f"{lead.title} {url} {lead.snippet}"))) / len(claim_words)


@dataclass(frozen=True)
class ClaimTerms:
    """What a result is compared with: the claim's content words, its entities and language."""

    words: set[str]
    entities: list[Entity]
    language: LanguageGuess

    @classmethod
    def of(cls, question: ClaimQuestion) -> ClaimTerms:
        return cls(
            words=set(tokens(question.text)),
            entities=extract_entities(question.text, language=question.language),
            language=LanguageGuess(question.language, question.language_confidence),
        )


def lead_relevance(lead: Lead, claim: ClaimTerms) -> float:
    """How much a result is about the claim: the share of the claim's words in its title, URL
    and snippet. A result in another language than the claim shares no words with it; how far
    it names the claim's entities (their overlap, compared across spelling and script) is then
    the measure.

    Within one language the entity overlap is not added: the claim's names are among its
    words already, and a result that shares the names but not the rest is most often about
    something else those people or places did. Blending it in read more such pages on the
    visible AVeriTeC and Climate-FEVER claims, and the reader figure fell on both."""
    words = word_share(lead, claim.words)
    if not claim.entities or not claim.language.known or claim.language.mixed:
        return words
    text = f"{lead.title} {lead.snippet}"
    lead_language = detect_language(text)
    if lead_language.confidence < MIXED_CONFIDENCE or lead_language.code == claim.language.code:
        return words
    overlap = entity_overlap(claim.entities, extract_entities(text, language=lead_language.code))
    return max(words, overlap or 0.0)


def score_leads(*, leads: list[Lead], question: ClaimQuestion) -> list[ScoredLead]:
    claim = ClaimTerms.of(question)
    scored = []
    for lead in leads:
        rule = weigh_source(lead.url)
        cues = tuple(sorted({m.lower() for m in _CUE_RE.findall(f"{lead.title} {lead.url}")}))
        has_date = bool(_DATE_RE.search(lead.snippet))
        in_window = _in_window(lead.published, question)
        score = rule.weight + (0.3 if cues else 0) + (0.2 if has_date else 0)
        score += 0.2 if in_window else 0
        relevance = round(lead_relevance(lead, claim), 3)
        scored.append(
            ScoredLead(
                lead,
                rule,
                round(score, 3),
                cues,
                has_date,
                in_window,
                relevance,
                publisher_of(lead.url),
            )
        )
    # A stable sort: equal scores keep the providers' merged order.
    return sorted(scored, key=lambda s: -s.score)


def select_for_crawl(
    *, scored: list[ScoredLead], crawled: set[str], limit: int, allow_other: bool
) -> list[ScoredLead]:
    """One official source if there is one, then independent ones (wire or trade, or, when
    allowed, other), never two of one registrable domain, never denied or social ones, and
    only results nearly as much about the claim as the best of them."""
    tiers = (*AUTHORITATIVE, "other") if allow_other else AUTHORITATIVE
    readable = [s for s in scored if s.usable and s.tier in tiers and s.lead.url not in crawled]
    best = max((s.relevance for s in readable), default=0.0)
    floor = max(MIN_CRAWL_RELEVANCE, RELATIVE_CRAWL_RELEVANCE * best)
    # Most about the claim first; authority breaks ties (a stable sort keeps the score order).
    candidates = sorted((s for s in readable if s.relevance >= floor), key=lambda s: -s.relevance)
    picks: list[ScoredLead] = []
    domains: set[str] = set()

    def take(item: ScoredLead) -> None:
        picks.append(item)
        domains.add(item.rule.registrable)

    official = next((s for s in candidates if s.tier == "official"), None)
    if official is not None:
        take(official)
    # Corroboration first comes from outside the officials (a wire or the trade press), then
    # from whatever else is left, best score first.
    independent = [s for s in candidates if s.tier in ("wire", "trade")]
    for item in [*independent, *candidates]:
        if len(picks) >= limit:
            break
        if item.rule.registrable in domains or item in picks:
            continue
        take(item)
    return picks[:limit]


def snippet_gate(
    *,
    scored: list[ScoredLead],
    snippets_sufficient: bool,
    crawled: set[str],
    crawls_left: int,
    per_turn: int,
    allow_other: bool,
) -> GateDecision:
    if snippets_sufficient:
        # Snippets are leads: the pages behind them are checked before they count.
        return GateDecision(
            "verify",
            "snippets would reach sufficiency: check them on their pages",
            (),
            tuple(scored),
        )
    if crawls_left <= 0:
        return GateDecision("refine", "the crawl budget is spent", (), tuple(scored))
    picks = select_for_crawl(
        scored=scored, crawled=crawled, limit=min(per_turn, crawls_left), allow_other=allow_other
    )
    if picks:
        names = ", ".join(f"{p.rule.registrable} ({p.tier})" for p in picks)
        return GateDecision("crawl", f"worth reading: {names}", tuple(picks), tuple(scored))
    if not scored:
        return GateDecision("refine", "no results", (), ())
    return GateDecision(
        "refine", "no authoritative result that has not been read already", (), tuple(scored)
    )
