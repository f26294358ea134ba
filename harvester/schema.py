"""The provider-neutral query schema: the only thing a rewriter produces, and what every
provider adapter compiles into its own dialect.

Validation is strict on purpose: a model that gets creative is caught here, before any
provider is paid for a query. Every rejection names the field it is about.

The date placeholders are the only relative-time vocabulary a template may hold; this module
says which they are and where they may stand, `harvester.placeholders` expands them.
"""

from __future__ import annotations

import re
from datetime import date
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError, field_validator, model_validator
from pydantic_core import PydanticCustomError

MAX_KEYWORDS = 12
MAX_SITES = 20
MAX_KEYWORD_CHARS = 200
MAX_QUERY_CHARS = 512
MAX_RESULTS_LIMIT = 100

_ISO_639_1_CODES = """
    aa ab ae af ak am an ar as av ay az ba be bg bh bi bm bn bo br bs ca ce ch co cr cs cu cv
    cy da de dv dz ee el en eo es et eu fa ff fi fj fo fr fy ga gd gl gn gu gv ha he hi ho hr ht
    hu hy hz ia id ie ig ii ik io is it iu ja jv ka kg ki kj kk kl km kn ko kr ks ku kv kw ky la
    lb lg li ln lo lt lu lv mg mh mi mk ml mn mr ms mt my na nb nd ne ng nl nn no nr nv ny oc oj
    om or os pa pi pl ps pt qu rm rn ro ru rw sa sc sd se sg si sk sl sm sn so sq sr ss st su sv
    sw ta te tg th ti tk tl tn to tr ts tt tw ty ug uk ur uz ve vi vo wa wo xh yi yo za zh
    zu"""
ISO_639_1 = frozenset(_ISO_639_1_CODES.split())
_LABEL = r"[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?"
_SITE = re.compile(rf"^\.?{_LABEL}(?:\.{_LABEL})*$")
_ISO_DATE = re.compile(r"^\d{4}-\d{2}-\d{2}$")
_GEO = re.compile(r"^[A-Za-z]{2}$")

PLACEHOLDERS = (
    "{TODAY}",
    "{YESTERDAY}",
    "{LAST_WEEK_START}",
    "{LAST_WEEK_END}",
    "{LAST_MONTH_START}",
    "{LAST_MONTH_END}",
)
_BRACED = re.compile(r"\{[^{}]*\}")


class SchemaError(ValueError):
    """A schema, template or placeholder that fails validation. The message names the field."""


class QueryTooLong(SchemaError):
    """A schema that is sound but compiles to a query over MAX_QUERY_CHARS: shortening it (fewer
    keywords) can make it fit."""


QUERY_TOO_LONG = "query_too_long"


def placeholder_problem(text: str, *, allowed: bool = True) -> str | None:
    """Why `text` carries an unacceptable placeholder or brace, or None.

    With `allowed`, whitelisted placeholders are fine; without, any `{...}` is stray."""
    for match in _BRACED.finditer(text):
        token = match.group(0)
        if token in PLACEHOLDERS:
            if not allowed:
                return f"placeholder {token} is only allowed in date_after / date_before"
            continue
        return f"unknown placeholder {token}"
    stripped = _BRACED.sub("", text)
    if "{" in stripped or "}" in stripped:
        return "stray { or } (not a placeholder)"
    return None


class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True, str_strip_whitespace=True)


def _check_date(value: str | None) -> str | None:
    if value is None:
        return None
    if value in PLACEHOLDERS:
        return value
    problem = placeholder_problem(value)
    if problem:
        raise ValueError(problem)
    if not _ISO_DATE.match(value):
        raise ValueError(f"{value!r} is not a YYYY-MM-DD date or an allowed placeholder")
    try:
        date.fromisoformat(value)
    except ValueError:
        raise ValueError(f"{value!r} is not a real date") from None
    return value


class Filters(_Strict):
    sites: list[str] = Field(default_factory=list)
    date_after: str | None = None
    date_before: str | None = None
    lang: str | None = None
    geo: str | None = None
    max_results: int | None = None

    @field_validator("sites", mode="before")
    @classmethod
    def _sites(cls, value: Any) -> Any:
        if value is None:
            return []
        if not isinstance(value, list):
            raise ValueError("must be a list of domains or suffixes")
        if len(value) > MAX_SITES:
            raise ValueError(f"at most {MAX_SITES} sites (got {len(value)})")
        sites: list[str] = []
        for item in value:
            if not isinstance(item, str):
                raise ValueError("every site must be a string")
            problem = placeholder_problem(item, allowed=False)
            if problem:
                raise ValueError(f"{item!r}: {problem}")
            site = item.strip().lower().rstrip(".")
            try:
                site = ".".join(
                    label.encode("idna").decode("ascii") if label else ""
                    for label in site.split(".")
                )
            except UnicodeError:
                raise ValueError(f"{item!r} is not a domain or suffix") from None
            if not _SITE.match(site):
                raise ValueError(f"{item!r} is not a domain (example.com) or suffix (.eu)")
            if site not in sites:
                sites.append(site)
        return sites

    @field_validator("date_after", "date_before")
    @classmethod
    def _dates(cls, value: str | None) -> str | None:
        return _check_date(value)

    @field_validator("lang")
    @classmethod
    def _lang(cls, value: str | None) -> str | None:
        if value is None:
            return None
        lowered = value.lower()
        if lowered not in ISO_639_1:
            raise ValueError(f"{value!r} is not an ISO 639-1 language code")
        return lowered

    @field_validator("geo")
    @classmethod
    def _geo(cls, value: str | None) -> str | None:
        if value is None:
            return None
        if not _GEO.match(value):
            raise ValueError(f"{value!r} is not a two-letter region code (US, EU, ...)")
        return value.upper()

    @field_validator("max_results", mode="before")
    @classmethod
    def _max_results(cls, value: Any) -> Any:
        if value is None:
            return None
        if isinstance(value, bool) or not isinstance(value, int):
            raise ValueError("must be a whole number")
        if not 1 <= value <= MAX_RESULTS_LIMIT:
            raise ValueError(f"must be between 1 and {MAX_RESULTS_LIMIT} (got {value})")
        return value

    @model_validator(mode="after")
    def _ordered(self) -> Filters:
        after, before = self.date_after, self.date_before
        if after is None or before is None or after in PLACEHOLDERS or before in PLACEHOLDERS:
            return self
        if date.fromisoformat(after) > date.fromisoformat(before):
            raise ValueError(f"date_after {after} is later than date_before {before}")
        return self

    def after(self) -> date | None:
        return _literal(self.date_after, "date_after")

    def before(self) -> date | None:
        return _literal(self.date_before, "date_before")


def _literal(value: str | None, field: str) -> date | None:
    if value is None:
        return None
    if value in PLACEHOLDERS:
        raise SchemaError(f"filters.{field}: {value} has not been expanded")
    return date.fromisoformat(value)


class QuerySchema(_Strict):
    keywords: list[str]
    boolean: Literal["AND", "OR"] = "AND"
    filters: Filters = Field(default_factory=Filters)

    @field_validator("keywords", mode="before")
    @classmethod
    def _keywords(cls, value: Any) -> Any:
        if not isinstance(value, list):
            raise ValueError("must be a list of strings")
        if not value:
            raise ValueError("at least one keyword is required")
        if len(value) > MAX_KEYWORDS:
            raise ValueError(f"at most {MAX_KEYWORDS} keywords (got {len(value)})")
        keywords: list[str] = []
        for item in value:
            if not isinstance(item, str):
                raise ValueError("every keyword must be a string")
            problem = placeholder_problem(item, allowed=False)
            if problem:
                raise ValueError(f"{item!r}: {problem}")
            keyword = " ".join(item.split())
            if len(keyword) >= 2 and keyword[0] == keyword[-1] == '"':
                keyword = keyword[1:-1].strip()
            if not keyword:
                raise ValueError("keywords cannot be empty")
            if '"' in keyword:
                raise ValueError(f"{item!r}: a keyword cannot contain double quotes")
            if len(keyword) > MAX_KEYWORD_CHARS:
                raise ValueError(f"a keyword is over {MAX_KEYWORD_CHARS} characters")
            if keyword.lower() not in {k.lower() for k in keywords}:
                keywords.append(keyword)
        return keywords

    @field_validator("boolean", mode="before")
    @classmethod
    def _boolean(cls, value: Any) -> Any:
        if isinstance(value, str) and value.upper() in ("AND", "OR"):
            return value.upper()
        raise ValueError(f"must be AND or OR (got {value!r})")

    @model_validator(mode="after")
    def _length(self) -> QuerySchema:
        compiled = compile_query(self)
        if len(compiled) > MAX_QUERY_CHARS:
            raise PydanticCustomError(
                QUERY_TOO_LONG,
                "compiled query is {length} characters, over the {limit} limit",
                {"length": len(compiled), "limit": MAX_QUERY_CHARS},
            )
        return self

    def compile(self) -> str:
        """The neutral compiled form: what runs record as their rewritten template."""
        return compile_query(self)


def quote_keyword(keyword: str) -> str:
    """Phrases and anything an engine would read as an operator go in double quotes."""
    if any(ch.isspace() for ch in keyword) or keyword.startswith("-") or ":" in keyword:
        return f'"{keyword}"'
    return keyword


def compile_keywords(schema: QuerySchema) -> str:
    terms = [quote_keyword(k) for k in schema.keywords]
    if schema.boolean == "OR" and len(terms) > 1:
        return "(" + " OR ".join(terms) + ")"
    return " ".join(terms)


def compile_query(
    schema: QuerySchema,
    *,
    sites: bool = True,
    dates: bool = True,
    site_operator: str = "site:",
    after_operator: str = "after:",
    before_operator: str = "before:",
) -> str:
    """The query string in the common web-search dialect (Google-style operators)."""
    parts = [compile_keywords(schema)]
    filters = schema.filters
    if sites and filters.sites:
        terms = [f"{site_operator}{site}" for site in filters.sites]
        parts.append(terms[0] if len(terms) == 1 else "(" + " OR ".join(terms) + ")")
    if dates and filters.date_after:
        parts.append(f"{after_operator}{filters.date_after}")
    if dates and filters.date_before:
        parts.append(f"{before_operator}{filters.date_before}")
    return " ".join(parts)


def describe_error(error: ValidationError) -> str:
    """One line per problem, each naming its field: `filters.date_after: unknown placeholder`."""
    lines = []
    for item in error.errors():
        where = ".".join(str(part) for part in item["loc"] if not isinstance(part, int))
        if item["type"] == "extra_forbidden":
            message = "unknown field"
        elif item["type"] == "missing":
            message = "is required"
        else:
            message = str(item["msg"]).removeprefix("Value error, ")
        lines.append(f"{where}: {message}" if where else message)
    return "; ".join(lines)


def validate_schema(data: Any) -> QuerySchema:
    """Parse untrusted data (an LLM's JSON, a cached row) into a QuerySchema or raise
    SchemaError naming the offending field."""
    if isinstance(data, QuerySchema):
        return data
    if not isinstance(data, dict):
        raise SchemaError(f"the schema must be a JSON object, not {type(data).__name__}")
    try:
        return QuerySchema.model_validate(data)
    except ValidationError as exc:
        only_length = all(item["type"] == QUERY_TOO_LONG for item in exc.errors())
        raise (QueryTooLong if only_length else SchemaError)(describe_error(exc)) from exc
