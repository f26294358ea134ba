"""Query composition and refinement for the claim loop: one deterministic tweak a turn.

The first query comes from the harvester's rewriter (the deterministic one, or the LLM when one is
configured), narrowed to the claim's key terms and restricted to dates around its timeframe.
Each later attempt applies the next tweak of a fixed sequence; a tweak that would repeat a query
already sent is skipped, so no paid search is wasted on a duplicate.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from datetime import timedelta
from typing import NamedTuple

from claimcheck.language import LanguageGuess, language_name
from claimcheck.textutil import STOPWORDS, words
from decisions.gate import is_date_word
from decisions.types import ClaimQuestion
from evidence.entities import extract_entities
from harvester.services import (
    DETERMINISTIC,
    MAX_KEYWORDS,
    QuerySchema,
    RewriteFailed,
    RewriteInvalid,
    deterministic_rewrite,
    rewrite_query,
    translate_query,
    validate_schema,
)
from integrations import llm
from registry.entity_keys import is_cyrillic
from registry.models import Domain, Tier

# Reports of an event appear after it; announcements of it may come a little before.
DATES_BEFORE = timedelta(days=30)
DATES_AFTER = timedelta(days=90)
MAX_SITES = 20
CORE_TERMS = 6
# The names and numbers query: at most this many words, all of them required up to NAMES_ALL_OF.
NAME_TERMS = 6
NAMES_ALL_OF = 4

_NUMBER = re.compile(r"\b\d[\d.,]*\d\b|\b\d\b")
_CAPITALIZED = re.compile(r"\b([A-Z][\w'\u2019-]+(?:\s+[A-Z][\w'\u2019-]+)*)")


@dataclass(frozen=True)
class ComposedQuery:
    schema: QuerySchema
    tweak: str


def _is_entity(keyword: str) -> bool:
    return keyword[:1].isupper() or any(ch.isdigit() for ch in keyword)


def _core_terms(keywords: list[str]) -> list[str]:
    """Entities and numbers first, then other words, at most CORE_TERMS."""
    entities = [k for k in keywords if _is_entity(k)]
    others = [k for k in keywords if not _is_entity(k)]
    return (entities + others)[:CORE_TERMS]


def _date_filters(question: ClaimQuestion) -> dict[str, str | None]:
    """Publication dates worth searching. A window with a start bounds both ways: reports of
    an event in it appear soon after it. A timeframe with only an end ("by March 2024") does
    not: what happened before the end may be reported at any time since, and a publication-date
    filter would also drop every undated page. It is left unfiltered."""
    if question.timeframe_start is None:
        return {"date_after": None, "date_before": None}
    after = (question.timeframe_start - DATES_BEFORE).date().isoformat()
    before = (
        (question.timeframe_end + DATES_AFTER).date().isoformat()
        if question.timeframe_end
        else None
    )
    return {"date_after": after, "date_before": before}


THIS_MACHINE = "this machine's rewriter"


@dataclass(frozen=True)
class FirstQuery:
    """The claim's first query and what wrote it: the model on the model server, or this
    machine's rewriter (with `llm_error`, why the model server's rewrite was not used)."""

    schema: QuerySchema
    written_by: str
    llm_error: str = ""


def first_query(*, question: ClaimQuestion) -> FirstQuery:
    """The first query. With a model server configured it rewrites the claim; when it cannot
    (down, too slow, a reply that is not a query), this machine's rewriter writes it and the
    claim goes on: the model server is a guest, not a pillar. Its rewrite is not cached, so the
    model server is asked again for the next claim."""
    try:
        rewrite = rewrite_query(text=question.text)
    except (RewriteFailed, RewriteInvalid) as exc:
        if not llm.is_enabled():
            raise
        schema = deterministic_rewrite(" ".join(question.text.split()))
        return FirstQuery(_narrowed(schema, question), THIS_MACHINE, llm_error=str(exc))
    by = THIS_MACHINE if rewrite.rewriter == DETERMINISTIC else f"{rewrite.rewriter} (model server)"
    return FirstQuery(_narrowed(rewrite.schema, question), by)


def compose_initial_query(*, question: ClaimQuestion) -> QuerySchema:
    return first_query(question=question).schema


def _narrowed(schema: QuerySchema, question: ClaimQuestion) -> QuerySchema:
    keywords = _core_terms(schema.keywords)
    filters = {
        **schema.filters.model_dump(),
        "sites": schema.filters.sites,
        **_date_filters(question),
    }
    return validate_schema({"keywords": keywords, "boolean": "AND", "filters": filters})


def _question_language(question: ClaimQuestion) -> LanguageGuess:
    return LanguageGuess(question.language, question.language_confidence)


def english_names(question: ClaimQuestion) -> list[str]:
    """The claim's entities by the names English pages use (the alias table's or gazetteer's,
    else transliterated), and its numbers, which read the same in any language."""
    names: list[str] = []
    for entity in extract_entities(question.text, language=question.language):
        if entity.name.lower() not in {n.lower() for n in names}:
            names.append(entity.name)
    numbers = [w for w in _NUMBER.findall(question.text) if w not in names]
    return (names[: MAX_KEYWORDS - 2] + numbers[:2])[:MAX_KEYWORDS]


def english_query(*, question: ClaimQuestion, base: QuerySchema) -> ComposedQuery | None:
    """The claim's search in English, for a claim in another language or a mix of languages
    (one the detector is unsure of, or English naming someone in Cyrillic), or None for an
    English claim.

    With an LLM configured, a claim in a language other than English or Russian has its query
    translated (never the content read). Without one, and for a Russian claim, whose words
    English pages do not share, the query is the English or transliterated names of the
    claim's entities and its numbers."""
    language = _question_language(question)
    if not language.known:
        return None
    if language.code == "en":
        if not is_cyrillic(question.text):
            return None
        # "Зеленский said that ...": English words, but a name English pages spell otherwise.
        spelt = english_names(question)
        by_name = _with(base, keywords=spelt, boolean="AND" if len(spelt) <= 3 else "OR")
        if not spelt or by_name is None or by_name.compile() == base.compile():
            return None
        return ComposedQuery(by_name, "the claim names some of its entities in Cyrillic")
    name = language_name(language.code)
    unsure = f" (detected {name} at {language.confidence:.2f})" if language.mixed else ""
    failed = ""
    if llm.is_enabled() and language.needs_english_search():
        try:
            rewrite = translate_query(text=question.text)
        except (RewriteFailed, RewriteInvalid) as exc:
            failed = f"the model server could not translate it: {exc}"
        else:
            data = rewrite.schema.model_dump()
            data["keywords"] = _core_terms(list(rewrite.schema.keywords))
            data["filters"] = {**data["filters"], **_date_filters(question), "lang": "en"}
            schema = validate_schema(data)
            return ComposedQuery(
                schema,
                f"the claim is in {name}{unsure}: its query in English, "
                f"translated by {rewrite.rewriter} (model server)",
            )
    names = english_names(question)
    if not names:
        return None
    named = _with(base, keywords=names, boolean="AND" if len(names) <= 3 else "OR")
    if named is None or named.compile() == base.compile():
        return None
    if failed:
        how = failed
    elif language.needs_english_search():
        how = "no LLM to translate"
    else:
        how = "names in English"
    return ComposedQuery(named, f"the claim is in {name}{unsure}: its names in English ({how})")


def _sites_for(tier: str) -> list[str]:
    names = (
        Domain.objects.filter(tier=tier, denied=False)
        .order_by("name")
        .values_list("name", flat=True)
    )
    return [name.lstrip(".") if name.startswith(".") else name for name in names[:MAX_SITES]]


def snippet_entities(texts: Iterable[str], *, exclude: Iterable[str]) -> list[str]:
    """Capitalized names that recur in result titles and snippets but are not yet searched."""
    known = {word.lower() for phrase in exclude for word in phrase.split()}
    counts: Counter[str] = Counter()
    for text in texts:
        for match in _CAPITALIZED.findall(text or ""):
            name = match.strip()
            if len(name) > 2 and not {w.lower() for w in name.split()} <= known:
                counts[name] += 1
    return [name for name, n in counts.most_common() if n >= 2]


def _with(base: QuerySchema, **changes: object) -> QuerySchema | None:
    data = base.model_dump()
    filters = data["filters"]
    for key, value in changes.items():
        if key in filters:
            filters[key] = value
        else:
            data[key] = value
    try:
        return validate_schema(data)
    except ValueError:
        return None


def _timeframe_terms(question: ClaimQuestion) -> list[str]:
    start, end = question.timeframe_start, question.timeframe_end
    if start and end and (start.year, start.month) == (end.year, end.month):
        return [start.strftime("%B %Y")]
    when = start or end
    return [str(when.year)] if when else []


def _is_name_or_number(word: str) -> bool:
    return word[:1].isupper() or any(ch.isdigit() for ch in word)


def claim_words(text: str) -> list[str]:
    """The claim's content words one by one, names and numbers first (in the claim's order),
    then the other words longest first (a long word is most often a rare one), at most
    MAX_KEYWORDS. Single words rather than phrases: a page that words the story otherwise
    ("Buhari's daughters", "the Fauci interview") still shares them, and a search engine ranks
    pages by how many of them, and how rare ones, they share."""
    unique: list[str] = []
    for token in words(text):
        word = token.strip("'\u2019.")
        if (len(word) < 2 and not word.isdigit()) or word.lower() in STOPWORDS:
            continue
        if word.lower() not in {u.lower() for u in unique}:
            unique.append(word)
    names = [w for w in unique if _is_name_or_number(w)]
    others = sorted((w for w in unique if not _is_name_or_number(w)), key=len, reverse=True)
    return (names + others)[:MAX_KEYWORDS]


def _names_and_numbers(base: QuerySchema, question: ClaimQuestion) -> QuerySchema | None:
    """The claim's names and numbers, word by word, at any date: all of them when they are
    few, else any of them (a long claim names more than one page names at once). Its dates
    are left out: a page may date the event otherwise, and that is worth finding."""
    names = [
        w for w in claim_words(question.text) if _is_name_or_number(w) and not is_date_word(w)
    ][:NAME_TERMS]
    if not names:
        return None
    boolean = "AND" if len(names) <= NAMES_ALL_OF else "OR"
    return _with(base, keywords=names, boolean=boolean, date_after=None, date_before=None)


def _dated(base: QuerySchema) -> bool:
    return base.filters.date_after is not None or base.filters.date_before is not None


class Tweak(NamedTuple):
    name: str
    build: Callable[[], QuerySchema | None]
    narrows: bool = False
    """It asks for the first query's words and more: worth a search only when the first query
    found something to narrow (on the 155 AVeriTeC calibration claims, adding a name to a first
    query that had found nothing found something once in 68 searches)."""


def _tweaks(base: QuerySchema, question: ClaimQuestion, snippets: list[str]) -> list[Tweak]:
    """The refinements, most useful first. A claim's own pages rarely share every one of its
    terms, so any of its words comes first; then the claimed event at any date (a claim that
    dates an event wrongly is refuted by pages dated outside its window, which the first
    searches filter out); then its names and numbers; then narrower or narrowed searches."""
    entities = snippet_entities(snippets, exclude=base.keywords)
    words_any = _with(base, boolean="OR", keywords=claim_words(question.text))
    return [
        Tweak("any of the claim's words", lambda: words_any),
        Tweak(
            "the claimed event at any date",
            lambda: _with(base, date_after=None, date_before=None) if _dated(base) else None,
        ),
        Tweak(
            "the claim's names and numbers, any date",
            lambda: _names_and_numbers(base, question),
        ),
        Tweak(
            "add a name seen in results",
            lambda: _with(base, keywords=[*base.keywords[:5], entities[0]]) if entities else None,
            narrows=True,
        ),
        Tweak(
            "add the timeframe",
            lambda: (
                _with(base, keywords=[*base.keywords, *_timeframe_terms(question)])
                if _timeframe_terms(question)
                else None
            ),
            narrows=True,
        ),
        Tweak(
            "official sites only",
            lambda: _with(base, boolean="OR", sites=_sites_for(Tier.OFFICIAL)),
        ),
        Tweak("wire services only", lambda: _with(base, boolean="OR", sites=_sites_for(Tier.WIRE))),
        Tweak("trade press only", lambda: _with(base, boolean="OR", sites=_sites_for(Tier.TRADE))),
        Tweak("any date", lambda: _with(base, boolean="OR", date_after=None, date_before=None)),
    ]


def refine_query(
    *,
    base: QuerySchema,
    attempt: int,
    question: ClaimQuestion,
    snippets: list[str],
    sent: set[str],
    empty: frozenset[str] = frozenset(),
) -> ComposedQuery | None:
    """The query for `attempt` (2, 3, ...): the next tweak in the sequence that yields a query
    not sent before, or None when every tweak has been tried. When the first query found
    nothing (`empty` holds the compiled queries that every provider answered with no result),
    the tweaks that narrow it are skipped: a search spent on them is one the claim goes
    without."""
    base_found_nothing = base.compile() in empty
    for tweak in _tweaks(base, question, snippets)[max(0, attempt - 2) :]:
        if tweak.narrows and base_found_nothing:
            continue
        schema = tweak.build()
        if schema is not None and schema.compile() not in sent:
            return ComposedQuery(schema, tweak.name)
    return None
