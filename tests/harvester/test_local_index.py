"""The local full-text index, on whichever database the suite runs against (both in CI)."""

from __future__ import annotations

from datetime import UTC, date, datetime

import pytest

from harvester.local_index import index_document, parse_query, remove_document, search_documents
from harvester.models import LocalDocument
from harvester.schema import validate_schema

pytestmark = pytest.mark.django_db


@pytest.fixture
def corpus() -> None:
    index_document(
        url="https://commission.europa.eu/news/ai-act-in-force",
        title="AI Act enters into force",
        text="The European Artificial Intelligence Act entered into force on 1 August 2024. "
        "It sets rules for AI systems placed on the single market.",
        published=datetime(2024, 8, 1, 9, tzinfo=UTC),
        language="en",
    )
    index_document(
        url="https://www.reuters.com/markets/ecb-rates?utm_source=feed",
        title="ECB raises interest rates",
        text="The European Central Bank raised its key interest rates by a quarter point. "
        "Act now, analysts said, before the intelligence of markets catches up.",
        published=datetime(2023, 9, 14, 12, tzinfo=UTC),
    )
    index_document(
        url="https://blog.example.org/ai-notes",
        title="Notes",
        text="Some notes mention the AI Act only in passing, far below. " + "filler " * 200,
    )


def urls(**kwargs: object) -> list[str]:
    return [hit.url for hit in search_documents(limit=10, **kwargs)]  # type: ignore[arg-type]


def test_added_documents_are_found_by_their_words(corpus: None) -> None:
    assert urls(query="interest rates") == ["https://reuters.com/markets/ecb-rates"]


def test_stemming_matches_other_forms_of_a_word(corpus: None) -> None:
    assert urls(query="raising rate") == ["https://reuters.com/markets/ecb-rates"]


def test_a_quoted_phrase_matches_only_adjacent_words(corpus: None) -> None:
    # "act" and "intelligence" both occur in the ECB story, but not as this phrase.
    assert "https://reuters.com/markets/ecb-rates" in urls(query="intelligence act")
    assert urls(query='"intelligence act"') == ["https://commission.europa.eu/news/ai-act-in-force"]


def test_title_matches_rank_above_matches_deep_in_the_text(corpus: None) -> None:
    found = search_documents(query='"AI Act"', limit=10)
    assert [hit.url for hit in found] == [
        "https://commission.europa.eu/news/ai-act-in-force",
        "https://blog.example.org/ai-notes",
    ]
    assert [hit.rank for hit in found] == [1, 2]
    assert found[0].score > found[1].score


def test_or_widens_and_the_schema_keywords_work_as_a_query(corpus: None) -> None:
    assert sorted(urls(query="ECB OR Artificial")) == [
        "https://commission.europa.eu/news/ai-act-in-force",
        "https://reuters.com/markets/ecb-rates",
    ]
    assert urls(query="ECB Artificial") == []
    either = validate_schema({"keywords": ["interest rates", "single market"], "boolean": "OR"})
    both = validate_schema({"keywords": ["interest rates", "single market"]})
    assert sorted(urls(query=either)) == [
        "https://commission.europa.eu/news/ai-act-in-force",
        "https://reuters.com/markets/ecb-rates",
    ]
    assert urls(query=both) == []


def test_site_and_date_filters_narrow_the_results(corpus: None) -> None:
    assert urls(query="european", sites=["europa.eu"]) == [
        "https://commission.europa.eu/news/ai-act-in-force"
    ]
    assert urls(query="european", sites=[".com"]) == ["https://reuters.com/markets/ecb-rates"]
    assert urls(query="european", date_after=date(2024, 1, 1)) == [
        "https://commission.europa.eu/news/ai-act-in-force"
    ]
    assert urls(query="european", date_before=date(2023, 9, 14)) == [
        "https://reuters.com/markets/ecb-rates"
    ]


def test_snippets_are_a_short_window_around_the_matched_words(corpus: None) -> None:
    [hit] = [h for h in search_documents(query='"AI Act"', limit=10) if "notes" in h.url]
    assert "AI Act" in hit.snippet
    assert len(hit.snippet) < 300


def test_indexing_the_same_url_again_replaces_the_document(corpus: None) -> None:
    index_document(
        url="http://reuters.com/markets/ecb-rates/",
        title="ECB holds rates",
        text="The central bank kept its deposit rate unchanged.",
    )
    assert LocalDocument.objects.filter(domain="reuters.com").count() == 1
    assert urls(query="unchanged") == ["https://reuters.com/markets/ecb-rates"]
    assert urls(query="quarter point") == []


def test_removed_documents_are_no_longer_found(corpus: None) -> None:
    remove_document(url="https://www.reuters.com/markets/ecb-rates")
    assert urls(query="interest rates") == []


def test_queries_of_only_stopwords_or_punctuation_find_nothing_instead_of_failing(
    corpus: None,
) -> None:
    assert urls(query="the of and") == []
    assert urls(query='"" ( ) *') == []
    assert parse_query('a OR "b c" -d e') == parse_query('a OR "b c" e')
