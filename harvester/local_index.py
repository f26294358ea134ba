"""The `local` provider's full-text index, owned by this app and fed by others.

The evidence app calls `index_document` every time it stores a page, the demo-corpus loader
for each demo document; the `local` provider calls `search_documents`. PostgreSQL keeps a
weighted tsvector (title A, text B) under a GIN index and ranks with ts_rank; SQLite keeps an
FTS5 table (porter stemming) and ranks with bm25(). Quoted phrases, plain words and OR work on
both; a leading `-word` exclusion is dropped rather than half-supported.
"""

from __future__ import annotations

import hashlib
import re
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import date, datetime, time, timedelta

from django.contrib.postgres.search import SearchQuery, SearchRank, SearchVector
from django.db import connection, transaction
from django.db.models import F, Q
from django.utils import timezone

from claimcheck.textutil import STOPWORDS, make_snippet
from harvester.models import LocalDocument
from harvester.schema import QuerySchema
from integrations.http.canonical import canonicalize_url, site_of

FTS_TABLE = "harvester_local_documents_fts"
PG_CONFIG = "english"
MAX_INDEXED_CHARS = 200_000
# FTS5 candidates fetched before the site / date filters apply in the ORM.
_SQLITE_CANDIDATES = 2000
# The table name is a constant of this module; every value travels as a query parameter.
_FTS_DELETE = f"DELETE FROM {FTS_TABLE} WHERE rowid = %s"  # noqa: S608
_FTS_INSERT = f"INSERT INTO {FTS_TABLE} (rowid, title, text) VALUES (%s, %s, %s)"  # noqa: S608
# Title hits weigh ten times text hits, like the A / B weights on PostgreSQL.
_FTS_SEARCH = (
    f"SELECT rowid, bm25({FTS_TABLE}, 10.0, 1.0) AS score FROM {FTS_TABLE} "  # noqa: S608
    f"WHERE {FTS_TABLE} MATCH %s ORDER BY score, rowid LIMIT %s"
)
_TOKEN = re.compile(r'"([^"]*)"|(\S+)')


@dataclass(frozen=True)
class LocalHit:
    url: str
    title: str
    snippet: str
    rank: int
    score: float
    published: datetime | None


@dataclass(frozen=True)
class Term:
    text: str
    phrase: bool


# A query is an AND of groups; each group is an OR of terms.
Groups = list[list[Term]]


def _aware(value: datetime | None) -> datetime | None:
    if value is not None and timezone.is_naive(value):
        return timezone.make_aware(value)
    return value


def index_document(
    *,
    url: str,
    title: str,
    text: str,
    published: datetime | None = None,
    language: str = "",
) -> None:
    """Add or replace the document at `url` (by canonical URL). Safe to call repeatedly."""
    canonical = canonicalize_url(url)
    url_hash = hashlib.sha1(canonical.encode("utf-8"), usedforsecurity=False).hexdigest()
    title = title.strip()[:2000]
    text = text[:MAX_INDEXED_CHARS]
    with transaction.atomic():
        document, _ = LocalDocument.objects.update_or_create(
            url_hash=url_hash,
            defaults={
                "url": canonical,
                "domain": site_of(canonical),
                "title": title,
                "text": text,
                "published": _aware(published),
                "language": language[:16],
                "indexed_at": timezone.now(),
            },
        )
        if connection.vendor == "postgresql":
            LocalDocument.objects.filter(pk=document.pk).update(
                search_vector=SearchVector("title", weight="A", config=PG_CONFIG)
                + SearchVector("text", weight="B", config=PG_CONFIG)
            )
        elif connection.vendor == "sqlite":
            with connection.cursor() as cursor:
                cursor.execute(_FTS_DELETE, [document.pk])
                cursor.execute(_FTS_INSERT, [document.pk, title, text])


def remove_document(*, url: str) -> None:
    """Take a page out of the index (when the retention sweep deletes the stored page)."""
    canonical = canonicalize_url(url)
    url_hash = hashlib.sha1(canonical.encode("utf-8"), usedforsecurity=False).hexdigest()
    with transaction.atomic():
        ids = list(LocalDocument.objects.filter(url_hash=url_hash).values_list("pk", flat=True))
        if ids and connection.vendor == "sqlite":
            with connection.cursor() as cursor:
                cursor.execute(_FTS_DELETE, [ids[0]])
        LocalDocument.objects.filter(pk__in=ids).delete()


def parse_query(query: str | QuerySchema) -> Groups:
    """Words, "quoted phrases" and OR (binding tighter than the implicit AND, as on the web)."""
    if isinstance(query, QuerySchema):
        terms = [Term(k, phrase=len(k.split()) > 1) for k in query.keywords]
        terms = [t for t in terms if t.phrase or t.text.lower() not in STOPWORDS] or terms
        return [terms] if query.boolean == "OR" else [[t] for t in terms]
    groups: Groups = []
    join_next = False
    for match in _TOKEN.finditer(query):
        phrase, word = match.group(1), match.group(2)
        if word is not None and word == "OR":
            join_next = bool(groups)
            continue
        if phrase is not None:
            text = " ".join(phrase.split())
            if not text:
                continue
            term = Term(text, phrase=len(text.split()) > 1)
        else:
            if word.startswith("-"):
                continue
            text = word.strip(".,;:!?()[]'")
            if not text or text.lower() in STOPWORDS:
                continue
            term = Term(text, phrase=False)
        if join_next:
            groups[-1].append(term)
        else:
            groups.append([term])
        join_next = False
    return groups


def _fts5_query(groups: Groups) -> str:
    def quoted(term: Term) -> str:
        return '"' + term.text.replace('"', '""') + '"'

    return " AND ".join("(" + " OR ".join(quoted(t) for t in group) + ")" for group in groups)


def _pg_query(groups: Groups) -> SearchQuery:
    combined: SearchQuery | None = None
    for group in groups:
        either: SearchQuery | None = None
        for term in group:
            one = SearchQuery(
                term.text, search_type="phrase" if term.phrase else "plain", config=PG_CONFIG
            )
            either = one if either is None else either | one
        assert either is not None
        combined = either if combined is None else combined & either
    assert combined is not None
    return combined


def _filters(sites: Sequence[str] | None, date_after: date | None, date_before: date | None) -> Q:
    condition = Q()
    if sites:
        site_q = Q()
        for site in sites:
            site = site.lower().strip()
            if site.startswith("."):
                site_q |= Q(domain__endswith=site)
            else:
                site_q |= Q(domain=site) | Q(domain__endswith="." + site)
        condition &= site_q
    if date_after is not None:
        condition &= Q(published__gte=timezone.make_aware(datetime.combine(date_after, time.min)))
    if date_before is not None:
        end = datetime.combine(date_before + timedelta(days=1), time.min)
        condition &= Q(published__lt=timezone.make_aware(end))
    return condition


def search_documents(
    *,
    query: str | QuerySchema,
    sites: Sequence[str] | None = None,
    date_after: date | None = None,
    date_before: date | None = None,
    limit: int = 10,
) -> list[LocalHit]:
    """Documents matching `query`, best first. With a date filter, undated documents are
    left out: a search restricted to a period asks for sources dated inside it."""
    groups = parse_query(query)
    if not groups or limit < 1:
        return []
    condition = _filters(sites, date_after, date_before)
    scored: list[tuple[LocalDocument, float]]
    if connection.vendor == "postgresql":
        search = _pg_query(groups)
        rows = (
            LocalDocument.objects.filter(condition, search_vector=search)
            .annotate(score=SearchRank(F("search_vector"), search))
            .order_by("-score", "id")[:limit]
        )
        scored = [(row, float(row.score)) for row in rows]
    else:
        with connection.cursor() as cursor:
            cursor.execute(_FTS_SEARCH, [_fts5_query(groups), _SQLITE_CANDIDATES])
            # bm25() is lower-is-better; negated so that higher is better on both engines.
            candidates = {row_id: -float(score) for row_id, score in cursor.fetchall()}
        documents = LocalDocument.objects.filter(condition, pk__in=list(candidates))
        pairs = [(doc, candidates[doc.pk]) for doc in documents]
        scored = sorted(pairs, key=lambda pair: (-pair[1], pair[0].pk))[:limit]
    terms = [term.text for group in groups for term in group]
    return [
        LocalHit(
            url=document.url,
            title=document.title,
            snippet=make_snippet(document.text, terms),
            rank=position,
            score=score,
            published=document.published,
        )
        for position, (document, score) in enumerate(scored, start=1)
    ]
