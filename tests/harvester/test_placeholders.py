"""Placeholder expansion from the clock (property tests)."""

from __future__ import annotations

from datetime import date, timedelta

import pytest
from hypothesis import given
from hypothesis import strategies as st

from harvester.placeholders import expand
from harvester.schema import PLACEHOLDERS, SchemaError, validate_schema

days = st.dates(min_value=date(2000, 3, 1), max_value=date(2090, 12, 31))
plain = st.text(alphabet=st.characters(blacklist_characters="{}"), max_size=20)


@given(today=days, pieces=st.lists(st.one_of(st.sampled_from(PLACEHOLDERS), plain), max_size=8))
def test_every_allowed_placeholder_expands_and_none_remain(today: date, pieces: list[str]) -> None:
    expanded = expand(" ".join(pieces), today=today)
    assert "{" not in expanded and "}" not in expanded


@given(today=days)
def test_each_placeholder_means_its_date_relative_to_today(today: date) -> None:
    template = " ".join(PLACEHOLDERS)
    assert expand(template, today=today).split() == [
        today.isoformat(),
        (today - timedelta(days=1)).isoformat(),
        (today - timedelta(days=7)).isoformat(),
        today.isoformat(),
        (today - timedelta(days=30)).isoformat(),
        today.isoformat(),
    ]


@given(today=days, name=st.text(alphabet="ABCDEFGHIJKLMNOPQRSTUVWXYZ_0123456789", max_size=12))
def test_an_unknown_placeholder_always_fails(today: date, name: str) -> None:
    token = "{" + name + "}"
    if token in PLACEHOLDERS:
        return
    with pytest.raises(SchemaError, match="unknown placeholder"):
        expand(f"x after:{token}", today=today)


@pytest.mark.parametrize("stray", ["after:{TODAY", "before:TODAY}", "{{TODAY}}", "a } b"])
def test_stray_braces_fail(stray: str) -> None:
    with pytest.raises(SchemaError):
        expand(stray, today=date(2025, 9, 12))


@given(today=days)
def test_a_schema_expands_into_literal_dates_and_keeps_everything_else(today: date) -> None:
    template = validate_schema(
        {
            "keywords": ["AI Act"],
            "filters": {
                "date_after": "{LAST_MONTH_START}",
                "date_before": "{TODAY}",
                "sites": [".eu"],
            },
        }
    )
    expanded = expand(template, today=today)
    assert expanded.filters.after() == today - timedelta(days=30)
    assert expanded.filters.before() == today
    assert expanded.keywords == template.keywords
    assert expanded.filters.sites == [".eu"]
    assert template.filters.date_after == "{LAST_MONTH_START}"  # the template is untouched


def test_an_unexpanded_schema_date_cannot_be_read_as_a_date() -> None:
    template = validate_schema({"keywords": ["x"], "filters": {"date_after": "{TODAY}"}})
    with pytest.raises(SchemaError, match="not been expanded"):
        template.filters.after()
