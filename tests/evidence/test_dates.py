"""Dates written in text: explicit ones always, partial ones only when a reference places them,
and whether an event phrase stands next to them."""

from __future__ import annotations

from datetime import date

import pytest

from evidence.dates import DatedMention, find_text_dates


def _whens(text: str, reference: date | None = None) -> list[date]:
    return [m.when for m in find_text_dates(text, reference=reference)]


@pytest.mark.parametrize(
    "text",
    [
        "The law was signed on 1 March 2024.",
        "The law was signed on March 1, 2024.",
        "The law was signed on March 1st 2024.",
        "The law was signed on 2024-03-01.",
        "The law was signed on the 1st of March 2024.",
        "The law was signed on Mar. 1, 2024.",
    ],
)
def test_it_reads_explicit_dates_in_the_usual_english_formats(text: str) -> None:
    assert _whens(text) == [date(2024, 3, 1)]


def test_a_month_and_year_is_kept_with_month_precision() -> None:
    [mention] = find_text_dates("The scheme launched in June 2023.", reference=None)

    assert mention.when == date(2023, 6, 1)
    assert mention.precision == "month"
    assert mention.phrase == "June 2023"


def test_a_date_without_a_year_needs_a_reference_date() -> None:
    text = "The board approved the merger on March 1."

    assert _whens(text) == []
    assert _whens(text, reference=date(2024, 3, 3)) == [date(2024, 3, 1)]


def test_a_yearless_date_takes_the_year_closest_to_the_reference() -> None:
    text = "The deal closed on December 20."

    assert _whens(text, reference=date(2024, 1, 5)) == [date(2023, 12, 20)]


def test_a_weekday_is_read_only_with_a_reference_and_lands_in_the_week_before_it() -> None:
    text = "The minister resigned on Tuesday."

    assert _whens(text) == []
    [mention] = find_text_dates(text, reference=date(2024, 3, 8))  # a Friday
    assert mention.when == date(2024, 3, 5)
    assert mention.source == "text:relative"


def test_lower_case_may_is_a_verb_not_a_month() -> None:
    assert _whens("Prices may 12 percent rise, analysts said in 2024.") == []


def test_impossible_and_ambiguous_dates_are_skipped() -> None:
    assert _whens("It happened on February 30, 2024 or on 03/04/2024.") == []


def test_an_event_phrase_next_to_the_date_marks_it_as_an_event() -> None:
    [mention] = find_text_dates("Parliament passed the bill on 4 April 2024.", reference=None)

    assert mention.is_event
    assert mention.event_phrase == "passed"
    assert mention.sentence == "Parliament passed the bill on 4 April 2024."


def test_a_date_with_no_event_phrase_is_not_an_event() -> None:
    [mention] = find_text_dates("The weather on 4 April 2024 was mild.", reference=None)

    assert not mention.is_event


def test_a_dateline_is_the_pages_own_date_not_an_event() -> None:
    mentions = find_text_dates(
        "Published March 3, 2024. The council approved the plan on March 1.",
        reference=date(2024, 3, 3),
    )

    assert [(m.when, m.is_event) for m in mentions] == [
        (date(2024, 3, 3), False),
        (date(2024, 3, 1), True),
    ]


def test_each_mention_keeps_its_own_sentence() -> None:
    text = "Dr. Lee spoke on 2 May 2022. The treaty entered into force on 1 June 2022."

    first, second = find_text_dates(text, reference=None)

    assert first.sentence == "Dr. Lee spoke on 2 May 2022."
    assert second.sentence == "The treaty entered into force on 1 June 2022."
    assert second.is_event and not first.is_event


def test_a_mention_survives_a_round_trip_through_json() -> None:
    [mention] = find_text_dates("The company was founded on 9 July 2001.", reference=None)

    assert DatedMention.from_json(mention.as_json()) == mention
    assert DatedMention.from_json({"when": "not a date"}) is None


def test_today_is_the_day_the_page_was_published() -> None:
    text = "Kyiv City Council today approved the budget of Kyiv for 2025."

    assert _whens(text) == []
    [mention] = find_text_dates(text, reference=date(2024, 12, 12))
    assert mention.when == date(2024, 12, 12)
    assert mention.source == "text:relative"
    assert mention.is_event and mention.event_phrase == "approved"
