"""The snippet gate: from one page of search results, decide / crawl / refine.

Each result is scored: its domain's authority weight, +0.3 for cue words in the title or URL
("press release", "official results", "decision", ...), +0.2 when the snippet shows an explicit
date, +0.2 when the provider's date falls inside the claim's timeframe. The gate says "verify" when
the evidence in snippets would reach sufficiency (the pages behind them are then checked before
a snippet counts), "crawl" with the best picks (the results the search ranked highest among those
about the claim, never two of one registrable domain, never a denied or social one), or
"refine" when nothing worth reading shows. How much a result is about the claim is the share of
the claim's words its title, URL and snippet show, the words few results show weighing most.
"""

from __future__ import annotations

import calendar
import math
import re
from dataclasses import dataclass, field, replace
from datetime import datetime
from typing import Literal
from urllib.parse import unquote

from claimcheck.language import MIXED_CONFIDENCE, LanguageGuess, detect_language
from claimcheck.words import tokens
from decisions.types import ClaimQuestion
from evidence.entities import Entity, entity_overlap, extract_entities
from evidence.services import Lead
from integrations.http.canonical import canonicalize_url
from registry.hosts import publisher_of
from registry.weighing import DomainRule, weigh_source

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
# Kept low: a snippet is a few lines, and a long claim's own pages share a tenth to a quarter
# of its words there.
MIN_CRAWL_RELEVANCE = 0.1
# And a share of the best relevance among the results that could be read: a page far less about
# the claim than another result is not worth a crawl for its authority alone. With the search's
# first two results spared this floor, the gate read an own page for 108 of 149 calibration
# AVeriTeC claims (107 without) and for 44 of 73 Climate-FEVER claims (47 without).
RELATIVE_CRAWL_RELEVANCE = 0.4


@dataclass(frozen=True)
class ScoredLead:
    lead: Lead
    rule: DomainRule
    score: float
    cues: tuple[str, ...]
    snippet_date: bool
    in_window: bool | None
    relevance: float = 1.0
    """The share of the claim's content words found in the title, URL and snippet, each word
    weighed by how rare it is among the results (`rarity_weighted`)."""
    publisher: str | None = None
    """The registrable domain that published it; None for an address or an internal host."""
    rank: int = 0
    """Its place in the search's results (0 first): the engine's own judgement of how much
    the page, which it has read whole, is about the query."""
    searches: int = 1
    """How many of the claim's searches, each worded otherwise, returned it."""

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


# How much one of the claim's words tells whether a result is about the claim. A name or a
# number (not a year) tells most; a date word least: many stories of the same month share
# "October 2024" and nothing else with the claim.
NAME_WEIGHT = 2.0
DATE_WEIGHT = 0.5
_DATE_WORDS = frozenset(
    name.lower()
    for names in (calendar.month_name, calendar.month_abbr, calendar.day_name)
    for name in names
    if name
)
_RAW_WORD = re.compile(r"[^\W_]+(?:[.,][0-9]+)*")
# What a sentence's (or a quotation's) first word follows: its capital marks no name.
_SENTENCE_OPENERS = ".!?:\"'\u201c\u2018"
_YEAR = re.compile(r"^(?:19|20)\d\d$")


def is_date_word(word: str) -> bool:
    """A year, or the name of a month or a weekday."""
    return bool(_YEAR.match(word)) or word.lower().rstrip(".") in _DATE_WORDS


def _word_weight(raw: str, *, initial: bool) -> float:
    if is_date_word(raw):
        return DATE_WEIGHT
    if raw[:1].isdigit() or (raw[:1].isupper() and not initial):
        return NAME_WEIGHT
    return 1.0


def claim_word_weights(text: str) -> dict[str, float]:
    """The claim's content words (stemmed, as `tokens` gives them) and their weights. A
    capital letter marks a name except at the start of a sentence."""
    weights: dict[str, float] = {}
    for match in _RAW_WORD.finditer(text):
        before = text[: match.start()].rstrip()
        initial = not before or before[-1] in _SENTENCE_OPENERS
        for word in tokens(match.group()):
            weight = _word_weight(match.group(), initial=initial)
            weights[word] = max(weights.get(word, 0.0), weight)
    return weights


def shown_words(lead: Lead) -> set[str]:
    """The words a result shows: its title, URL and snippet. The URL is read decoded:
    "El_Ni%C3%B1o" names El Niño."""
    return set(tokens(f"{lead.title} {unquote(lead.url)} {lead.snippet}"))


def word_share(lead: Lead, claim_words: dict[str, float]) -> float:
    """The weighted share of the claim's content words in a result's title, URL and snippet."""
    total = sum(claim_words.values())
    if not total:
        return 1.0
    shown = shown_words(lead)
    return sum(weight for word, weight in claim_words.items() if word in shown) / total


def rarity_weighted(claim_words: dict[str, float], leads: list[Lead]) -> dict[str, float]:
    """The claim's word weights, each scaled by how rare the word is among one search's
    results (1 + ln(results / results showing it), as an inverse document frequency). The
    search asked for the claim's words, so a word every result shows tells nothing about which
    of them is about the claim; a word few show tells most. "Obama Biden ... got clemency": a
    page of clemency statistics shows only "clemency", and ten pages on the two names show
    "Obama" and "Biden". A word no result shows weighs as one shown once."""
    if len(leads) < 2:
        return claim_words
    shown = [shown_words(lead) for lead in leads]
    return {
        word: weight * (1.0 + math.log(len(leads) / max(1, sum(word in s for s in shown))))
        for word, weight in claim_words.items()
    }


@dataclass(frozen=True)
class ClaimTerms:
    """What a result is compared with: the claim's content words (with their weights), its
    entities and language."""

    words: dict[str, float]
    entities: list[Entity]
    language: LanguageGuess

    @classmethod
    def of(cls, question: ClaimQuestion) -> ClaimTerms:
        return cls(
            words=claim_word_weights(question.text),
            entities=extract_entities(question.text, language=question.language),
            language=LanguageGuess(question.language, question.language_confidence),
        )


def lead_relevance(lead: Lead, claim: ClaimTerms) -> float:
    """How much a result is about the claim: the weighted share of the claim's words in its
    title, URL and snippet. A result in another language than the claim shares no words with
    it; how far it names the claim's entities (their overlap, compared across spelling and
    script) is then the measure.

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
    terms = ClaimTerms.of(question)
    claim = replace(terms, words=rarity_weighted(terms.words, leads))
    scored = []
    for rank, lead in enumerate(leads):
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
                rank,
            )
        )
    # A stable sort: equal scores keep the providers' merged order.
    return sorted(scored, key=lambda s: -s.score)


def _page_key(url: str) -> str:
    """The address a page is read under (pages read are kept by canonical URL)."""
    try:
        return canonicalize_url(url)
    except ValueError:
        return url


def reading_order(item: ScoredLead) -> tuple[int, int, float, float]:
    """Results worth reading, best first: as the search ranked them (it read the whole page,
    the gate only its snippet), then the one more of the claim's searches returned, then the
    more about the claim, then the heavier source. Ordered by relevance first instead, the gate
    read an own page for 99 of 149 calibration AVeriTeC claims, against 107 in this order."""
    return (item.rank, -item.searches, -item.relevance, -item.score)


def select_for_crawl(
    *, scored: list[ScoredLead], crawled: set[str], limit: int, allow_other: bool
) -> list[ScoredLead]:
    """The results to read now: official, wire or trade sources (or, when allowed, other ones
    too), never denied or social ones, never two of one registrable domain, only results
    nearly as much about the claim as the best of them, in reading order."""
    tiers = (*AUTHORITATIVE, "other") if allow_other else AUTHORITATIVE
    readable = [
        s for s in scored if s.usable and s.tier in tiers and _page_key(s.lead.url) not in crawled
    ]
    # The best of all the results, read or not: once the page most about the claim has been
    # read, the ones far less about it do not become worth reading.
    best = max((s.relevance for s in scored if s.usable and s.tier in tiers), default=0.0)
    floor = max(MIN_CRAWL_RELEVANCE, RELATIVE_CRAWL_RELEVANCE * best)
    candidates = sorted((s for s in readable if s.relevance >= floor), key=reading_order)
    picks: list[ScoredLead] = []
    domains: set[str] = set()
    for item in candidates:
        if len(picks) >= limit:
            break
        if item.rule.registrable in domains:
            continue
        picks.append(item)
        domains.add(item.rule.registrable)
    return picks


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
