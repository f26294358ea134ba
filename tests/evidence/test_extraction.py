"""Extraction of text, metadata and dates from small hand-written pages (fixtures/html)."""

from __future__ import annotations

import json
from datetime import date
from pathlib import Path

from evidence.extraction import ExtractedDocument, extract_document

FIXTURES = Path(__file__).parent / "fixtures" / "html"


def _extract(name: str, url: str = "https://example.org/story") -> ExtractedDocument:
    return extract_document(
        content=(FIXTURES / name).read_bytes(), content_type="text/html; charset=utf-8", url=url
    )


def test_json_ld_date_published_wins_over_the_meta_tag() -> None:
    doc = _extract("jsonld_article.html")

    assert doc.published_at is not None
    assert doc.published_at.date() == date(2024, 3, 3)  # the meta tag says 2 March
    assert doc.date_source == "jsonld:datePublished"
    assert doc.modified_at is not None and doc.modified_at.date() == date(2024, 3, 5)


def test_the_event_date_in_the_text_is_kept_apart_from_the_publication_date() -> None:
    doc = _extract("jsonld_article.html")

    [event] = [m for m in doc.event_dates if m.source == "text"]
    assert event.when == date(2024, 3, 1)  # "approved ... on March 1", placed by the page date
    assert event.event_phrase == "approved"
    assert "harbour redevelopment plan on March 1" in event.sentence
    assert doc.published_at is not None and doc.published_at.date() == date(2024, 3, 3)


def test_title_text_headings_and_language_come_from_the_article() -> None:
    doc = _extract("jsonld_article.html")

    assert doc.title == "Council approves the harbour plan"
    assert "1,200 homes" in doc.text
    assert "Copyright City Gazette" not in doc.text  # boilerplate left out
    assert doc.headings[1:] == ["What the plan contains", "Reactions"]
    assert doc.language == "en"
    assert doc.metadata["author"] == "Ana Lima"
    assert doc.metadata["site_name"] == "City Gazette"


def test_metadata_is_json_and_carries_event_dates_and_headings_for_reuse() -> None:
    doc = _extract("jsonld_article.html")

    stored = json.loads(json.dumps(doc.metadata))
    assert stored["headings"] == doc.headings
    assert stored["event_dates"][0]["when"] == "2024-03-01"
    assert stored["event_dates"][0]["is_event"] is True
    assert stored["structured"]["jsonld"][0]["@type"] == "NewsArticle"


def test_an_article_meta_tag_gives_the_date_with_its_own_offset() -> None:
    doc = _extract("meta_only.html")

    assert doc.date_source == "meta:article:published_time"
    assert doc.published_at is not None
    # 21:15 in New York is already the 9th in UTC; the page's own calendar day is kept.
    assert doc.published_at.date() == date(2023, 11, 8)
    assert doc.published_at.utcoffset() is not None


def test_the_article_time_element_is_used_and_the_sidebar_one_ignored() -> None:
    doc = _extract("time_only.html")

    assert doc.date_source == "time"
    assert doc.published_at is not None and doc.published_at.date() == date(2022, 6, 15)


def test_a_date_only_printed_in_the_text_is_found_by_the_htmldate_fallback() -> None:
    doc = _extract("text_date.html")

    assert doc.date_source == "htmldate"
    assert doc.published_at is not None and doc.published_at.date() == date(2021, 5, 12)


def test_a_page_with_no_date_has_none() -> None:
    doc = _extract("no_date.html")

    assert doc.published_at is None
    assert doc.modified_at is None
    assert doc.date_source == ""
    assert doc.event_dates == []
    assert "slow fermentation" in doc.text


def test_a_date_in_the_url_path_comes_first() -> None:
    doc = _extract("meta_only.html", url="https://news.example.com/2023/11/07/mayor-elected")

    assert doc.date_source == "url"
    assert doc.published_at is not None and doc.published_at.date() == date(2023, 11, 7)


def test_a_page_that_shows_only_its_update_date_is_dated_by_it() -> None:
    doc = _extract("modified_shown.html")

    assert doc.date_source == "jsonld:dateModified"
    assert doc.published_at is not None and doc.published_at.date() == date(2020, 3, 12)


def test_plain_text_is_kept_as_it_is_with_its_event_dates() -> None:
    body = "Ferry strike ends\n\nThe union signed the agreement on 2 February 2024. Boats resume."

    doc = extract_document(content=body.encode(), content_type="text/plain", url="https://x.org/a")

    assert doc.text == body
    assert doc.title == "Ferry strike ends"
    assert doc.published_at is None
    assert [(m.when, m.event_phrase) for m in doc.event_dates] == [(date(2024, 2, 2), "signed")]


def test_bytes_are_decoded_with_the_encoding_given() -> None:
    html = "<html><body><article><p>" + "Le café a ouvert ses portes à Zürich. " * 8
    html += "</p></article></body></html>"

    doc = extract_document(
        content=html.encode("latin-1"), content_type="text/html", url="", encoding="latin-1"
    )

    assert "Le café a ouvert ses portes à Zürich." in doc.text


def test_nul_characters_are_dropped_from_plain_text() -> None:
    doc = extract_document(content=b"Line one\x00 and two", content_type="text/plain", url="")

    assert doc.text == "Line one and two"
