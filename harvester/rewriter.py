"""Text → provider-neutral schema, cached in `queries` by the original text.

With an LLM configured, the rewrite prompt (a file named in the config, its hash recorded)
produces the schema, validated strictly: junk is RewriteInvalid (400, no provider called), a
failed call RewriteFailed (502), never a fallback. With no LLM, a small deterministic rewriter
does the job. The cache keeps the template with its placeholders, so a cached rewrite stays
relative to "now"; it is redone when the rewriter (model) or the prompt has changed since.
"""

from __future__ import annotations

import calendar
import logging
import re
from dataclasses import dataclass
from datetime import date
from typing import Any

from django.db import IntegrityError, transaction
from pydantic import BaseModel, ConfigDict

from claimcheck.config import get_config
from claimcheck.textutil import STOPWORDS, words
from harvester.errors import RewriteFailed, RewriteInvalid
from harvester.models import Query
from harvester.schema import (
    MAX_KEYWORDS,
    MAX_QUERY_CHARS,
    QuerySchema,
    QueryTooLong,
    SchemaError,
    compile_query,
    validate_schema,
)
from integrations import llm

logger = logging.getLogger(__name__)

DETERMINISTIC = "deterministic"
MAX_QUERY_TEXT_CHARS = 2000


@dataclass(frozen=True)
class Rewrite:
    schema: QuerySchema  # the template: placeholders kept
    template: str
    rewriter: str
    prompt_hash: str = ""
    cached: bool = False
    cost_usd: float = 0.0


def normalize_query_text(text: str) -> str:
    return " ".join(text.split())


# --- deterministic ----------------------------------------------------------------------------

_MONTHS = {
    name.lower(): number
    for number in range(1, 13)
    for name in (calendar.month_name[number], calendar.month_abbr[number])
}
_MONTHS["sept"] = 9
_MONTH = r"(?P<month>" + "|".join(sorted(_MONTHS, key=len, reverse=True)) + r")\.?"
_PREP = r"(?:(?P<prep>since|after|from|before|until|till|by|prior to|on|in|between|and|to)\s+)?"
_ORD = r"(?:st|nd|rd|th)?"
_DAY_MONTH = rf"\b(?P<day>\d{{1,2}}){_ORD}\s+(?:of\s+)?{_MONTH},?\s+(?P<year>\d{{4}})\b"
_DATE_PATTERNS = (
    re.compile(_PREP + r"\b(?P<year>\d{4})-(?P<mon>\d{2})-(?P<day>\d{2})\b", re.I),
    re.compile(_PREP + _DAY_MONTH, re.I),
    re.compile(_PREP + rf"\b{_MONTH}\s+(?P<day>\d{{1,2}}){_ORD},?\s+(?P<year>\d{{4}})\b", re.I),
    re.compile(_PREP + rf"\b{_MONTH},?\s+(?P<year>\d{{4}})\b", re.I),
)
_LEAD = r"\b(?:(?:in|over|during)\s+the\s+)?"
_MONTH_SPAN = ("{LAST_MONTH_START}", "{LAST_MONTH_END}")
_WEEK_SPAN = ("{LAST_WEEK_START}", "{LAST_WEEK_END}")
_RELATIVE: tuple[tuple[re.Pattern[str], tuple[str, str | None]], ...] = (
    (re.compile(_LEAD + r"(?:last|past)\s+(?:30|thirty)\s+days\b", re.I), _MONTH_SPAN),
    (re.compile(_LEAD + r"(?:last|past)\s+(?:7|seven)\s+days\b", re.I), _WEEK_SPAN),
    (re.compile(_LEAD + r"(?:last|past|this)\s+month\b", re.I), _MONTH_SPAN),
    (re.compile(_LEAD + r"(?:last|past|this)\s+week\b", re.I), _WEEK_SPAN),
    (re.compile(r"\byesterday(?:'s)?\b", re.I), ("{YESTERDAY}", "{TODAY}")),
    (re.compile(r"\btoday(?:'s)?\b", re.I), ("{TODAY}", None)),
)
_QUOTED = re.compile(r'"([^"]+)"|“([^”]+)”')
_SITE = re.compile(r"\bsite:(\S+)", re.I)
# A comma breaks a segment, except as a thousands separator ("2,000").
_SEGMENT_BREAK = re.compile(
    r"[;:!?()\[\]{}|]|(?<!\d),|,(?!\d{3}(?!\d))|\s[-\u2013\u2014]\s|\.(?:\s|$)"
)
_CONNECTORS = frozenset({"of", "for", "and", "the", "de", "la", "du", "von", "van", "der"})


@dataclass(frozen=True)
class _DateMention:
    start: date
    end: date
    prep: str


def _mention(match: re.Match[str]) -> _DateMention | None:
    groups = match.groupdict()
    try:
        year = int(groups["year"])
        month = int(groups["mon"]) if groups.get("mon") else _MONTHS[groups["month"].lower()]
        if groups.get("day"):
            day = date(year, month, int(groups["day"]))
            start = end = day
        else:
            start = date(year, month, 1)
            end = date(year, month, calendar.monthrange(year, month)[1])
    except (KeyError, ValueError):
        return None
    return _DateMention(start=start, end=end, prep=(groups.get("prep") or "").lower())


def _dates(mentions: list[_DateMention]) -> tuple[str | None, str | None]:
    if not mentions:
        return None, None
    if len(mentions) >= 2:
        return min(m.start for m in mentions).isoformat(), max(m.end for m in mentions).isoformat()
    only = mentions[0]
    if only.prep in ("since", "after", "from"):
        return only.start.isoformat(), None
    if only.prep in ("before", "until", "till", "by", "prior to"):
        return None, only.end.isoformat()
    return only.start.isoformat(), only.end.isoformat()


# A number written with thousands separators ("2,000", "1,250.5", "12,000%") is one term: split
# at its commas it would be searched as "2" and "000".
_GROUPED_NUMBER = re.compile(r"(?<![\w.,])\d{1,3}(?:,\d{3})+(?:\.\d+)?%?(?![\w,])")


def _query_words(segment: str) -> list[str]:
    """`words`, with numbers written with thousands separators kept whole (decimals already
    are: "3.5%")."""
    tokens: list[str] = []
    start = 0
    for match in _GROUPED_NUMBER.finditer(segment):
        tokens.extend(words(segment[start : match.start()]))
        tokens.append(match.group())
        start = match.end()
    tokens.extend(words(segment[start:]))
    return tokens


def _segment_keywords(segment: str) -> list[str]:
    """Capitalized runs become one entity phrase ("European Central Bank", "Bank of England");
    other words and numbers stand alone; stopwords go."""
    tokens = _query_words(segment)
    keywords: list[str] = []
    run: list[str] = []

    def flush() -> None:
        while run and run[-1].lower() in _CONNECTORS:
            run.pop()
        if run:
            keywords.append(" ".join(run))
        run.clear()

    for index, token in enumerate(tokens):
        lowered = token.lower()
        upper_start = token[:1].isupper()
        if upper_start and lowered not in STOPWORDS:
            run.append(token)
            continue
        if run and lowered in _CONNECTORS and index + 1 < len(tokens):
            following = tokens[index + 1]
            if following[:1].isupper() and following.lower() not in STOPWORDS:
                run.append(token)
                continue
        flush()
        if lowered in STOPWORDS or (len(token) < 2 and not token.isdigit()):
            continue
        keywords.append(token)
    flush()
    return keywords


def deterministic_rewrite(text: str) -> QuerySchema:
    """Key phrases and entities, relative-date words as placeholders, explicit dates as
    literals. One explicit date bounds both ends (a day, or a whole month for "July 2024")
    unless a preposition says otherwise ("since", "before"); two dates make a range."""
    remaining = text
    keywords: list[str] = []
    for match in _QUOTED.finditer(remaining):
        phrase = " ".join((match.group(1) or match.group(2)).split())
        if phrase:
            keywords.append(phrase)
    remaining = _QUOTED.sub(" , ", remaining)

    sites = [m.group(1).strip("/.,").lower() for m in _SITE.finditer(remaining)]
    remaining = _SITE.sub(" , ", remaining)

    mentions: list[_DateMention] = []
    for pattern in _DATE_PATTERNS:
        for match in pattern.finditer(remaining):
            mention = _mention(match)
            if mention is not None:
                mentions.append(mention)
        remaining = pattern.sub(" , ", remaining)
    date_after, date_before = _dates(mentions)

    if date_after is None and date_before is None:
        for pattern, (after, before) in _RELATIVE:
            if pattern.search(remaining):
                date_after, date_before = after, before
                break
    for pattern, _ in _RELATIVE:
        remaining = pattern.sub(" , ", remaining)
    remaining = re.sub(r"\bbetween\b", " , ", remaining, flags=re.I)

    for segment in _SEGMENT_BREAK.split(remaining):
        keywords.extend(_segment_keywords(segment))

    unique: list[str] = []
    for keyword in keywords:
        if keyword.lower() not in {k.lower() for k in unique}:
            unique.append(keyword)
    if not unique:
        raise RewriteInvalid("the query has no searchable words", field="query")
    unique = [k[:200] for k in unique[:MAX_KEYWORDS]]
    data: dict[str, Any] = {
        "keywords": unique,
        "boolean": "AND",
        "filters": {"sites": sites[:20], "date_after": date_after, "date_before": date_before},
    }
    # Drop trailing keywords until the compiled query fits the length cap.
    while True:
        try:
            return validate_schema(data)
        except QueryTooLong as exc:
            if len(data["keywords"]) > 1:
                data["keywords"] = data["keywords"][:-1]
                continue
            raise RewriteInvalid(str(exc)) from exc
        except SchemaError as exc:
            raise RewriteInvalid(str(exc)) from exc


# --- LLM ---------------------------------------------------------------------------------------


class _AnyObject(BaseModel):
    """Accepts any JSON object, so that our own validator, not the gateway's, judges it and
    names the offending field."""

    model_config = ConfigDict(extra="allow")


def reply_schema() -> dict[str, Any]:
    """The JSON schema sent to a server that constrains replies to one: the query schema with
    the limits our validator checks written in (keywords that start with a letter or digit and
    hold no quotes or braces, ISO dates), so that a constrained reply also validates."""
    date = {
        "anyOf": [{"type": "string", "pattern": "^[0-9]{4}-[0-9]{2}-[0-9]{2}$"}, {"type": "null"}]
    }
    return {
        "type": "object",
        "properties": {
            "keywords": {
                "type": "array",
                "items": {"type": "string", "pattern": '^[A-Za-z0-9][^"{}\\\\]{0,59}$'},
                "minItems": 1,
                "maxItems": MAX_KEYWORDS,
            },
            "boolean": {"type": "string", "enum": ["AND", "OR"]},
            "filters": {
                "type": "object",
                "properties": {"date_after": date, "date_before": date},
                "additionalProperties": False,
            },
        },
        "required": ["keywords", "boolean"],
        "additionalProperties": False,
    }


def llm_rewrite(
    text: str, *, prompt: str, purpose: str = "rewrite"
) -> tuple[QuerySchema, str, float]:
    """(schema, model, cost). RewriteInvalid for junk, RewriteFailed for a failed call."""
    try:
        result = llm.complete_json(
            system=prompt,
            user=text,
            schema=_AnyObject,
            purpose=purpose,
            # A server that follows a schema is given the query schema's own.
            response_schema=reply_schema(),
        )
    except llm.LLMError as exc:
        if exc.kind == "bad_output":
            raise RewriteInvalid(exc.details or "the model's reply is not a JSON object") from exc
        raise RewriteFailed(f"{exc.kind}: {exc.details}" if exc.details else exc.kind) from exc
    try:
        schema = validate_schema(result.value.model_dump())
    except SchemaError as exc:
        raise RewriteInvalid(str(exc)) from exc
    return schema, result.model, result.cost_usd


# --- the cache ---------------------------------------------------------------------------------


def _current_rewriter(prompt_name: llm.PromptName = "rewrite") -> tuple[str, str, str]:
    """(rewriter name, prompt text, prompt hash) for the configuration in force."""
    config = get_config().llm
    if not llm.is_enabled(config):
        return DETERMINISTIC, "", ""
    try:
        prompt, prompt_hash = llm.load_prompt(prompt_name, config)
    except llm.LLMError as exc:
        raise RewriteFailed(exc.details) from exc
    return str(config.model), prompt, prompt_hash


def translate_query(*, text: str) -> Rewrite:
    """The search for a claim in another language, in English, by the configured LLM with the
    `translate` prompt: the query is translated, never the content read. Cached like a rewrite,
    under the text marked as a translation. Needs an LLM (RewriteFailed without one)."""
    if not llm.is_enabled(get_config().llm):
        raise RewriteFailed("translating a query needs an LLM")
    return rewrite_query(text=text, prompt_name="translate")


TRANSLATION_MARK = "[to English] "


def rewrite_query(*, text: str, prompt_name: llm.PromptName = "rewrite") -> Rewrite:
    """The template schema for `text`, from the cache when the same rewriter made it."""
    original = normalize_query_text(text)
    if not original:
        raise RewriteInvalid("must not be empty", field="query")
    if len(original) > MAX_QUERY_TEXT_CHARS:
        raise RewriteInvalid(f"longer than {MAX_QUERY_TEXT_CHARS} characters", field="query")
    rewriter, prompt, prompt_hash = _current_rewriter(prompt_name)
    cache_key = original if prompt_name == "rewrite" else TRANSLATION_MARK + original
    cached = Query.objects.filter(original_query=cache_key).first()
    if cached is not None and cached.rewriter == rewriter and cached.prompt_hash == prompt_hash:
        try:
            schema = validate_schema(cached.schema)
        except SchemaError:
            cached = None  # written by an older, looser version: rewrite afresh
        else:
            return Rewrite(
                schema=schema,
                template=cached.rewritten_template,
                rewriter=rewriter,
                prompt_hash=prompt_hash,
                cached=True,
            )
    cost = 0.0
    if rewriter == DETERMINISTIC:
        schema = deterministic_rewrite(original)
    else:
        schema, _model, cost = llm_rewrite(original, prompt=prompt, purpose=prompt_name)
    template = compile_query(schema)
    if len(template) > MAX_QUERY_CHARS:  # validate_schema checks this; kept for clarity
        raise RewriteInvalid(f"compiled query is over {MAX_QUERY_CHARS} characters")
    defaults = {
        "rewritten_template": template,
        "schema": schema.model_dump(),
        "rewriter": rewriter,
        "prompt_hash": prompt_hash,
    }
    try:
        with transaction.atomic():
            Query.objects.update_or_create(original_query=cache_key, defaults=defaults)
    except IntegrityError:
        # A concurrent request cached the same text first; its rewrite is as good as ours.
        logger.info("harvester: rewrite cached concurrently", extra={"rewriter": rewriter})
    return Rewrite(
        schema=schema,
        template=template,
        rewriter=rewriter,
        prompt_hash=prompt_hash,
        cost_usd=cost,
    )
