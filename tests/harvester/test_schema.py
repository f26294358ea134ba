"""The provider-neutral schema: strict, and every rejection names its field."""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from harvester.schema import (
    MAX_QUERY_CHARS,
    PLACEHOLDERS,
    QueryTooLong,
    SchemaError,
    validate_schema,
)

keyword = st.text(
    alphabet=st.characters(
        whitelist_categories=("L", "N"), whitelist_characters=" -.%'", max_codepoint=0x2FF
    ),
    min_size=1,
    max_size=20,
).filter(lambda k: k.strip() and not k.strip().startswith("-"))
iso_date = st.dates().map(lambda d: d.isoformat()).filter(lambda d: len(d) == 10)


def test_the_seed_example_is_accepted_and_compiles_to_the_neutral_form() -> None:
    schema = validate_schema(
        {
            "keywords": ["AI regulation", "AI Act"],
            "boolean": "OR",
            "filters": {
                "sites": [".eu"],
                "date_after": "{LAST_WEEK_START}",
                "date_before": "{LAST_WEEK_END}",
                "lang": "en",
                "geo": "EU",
                "max_results": 10,
            },
        }
    )
    assert schema.compile() == (
        '("AI regulation" OR "AI Act") site:.eu after:{LAST_WEEK_START} before:{LAST_WEEK_END}'
    )


@pytest.mark.parametrize(
    ("data", "message"),
    [
        ({"keywords": []}, "keywords: at least one keyword"),
        ({}, "keywords: is required"),
        ({"keywords": ["x"] * 13}, "keywords: at most 12"),
        ({"keywords": ["x"], "mode": "fast"}, "mode: unknown field"),
        ({"keywords": ["x"], "filters": {"site": ["a.com"]}}, "filters.site: unknown field"),
        ({"keywords": ["x"], "boolean": "NOT"}, "boolean: must be AND or OR"),
        ({"keywords": ["x {TODAY}"]}, "keywords: 'x {TODAY}': placeholder {TODAY} is only"),
        ({"keywords": ["x {FOO}"]}, "unknown placeholder {FOO}"),
        (
            {"keywords": ["x"], "filters": {"date_after": "{PAST_2_WEEKS}"}},
            "filters.date_after: unknown placeholder {PAST_2_WEEKS}",
        ),
        ({"keywords": ["x"], "filters": {"date_before": "{TODAY"}}, "filters.date_before: stray"),
        ({"keywords": ["x"], "filters": {"date_after": "2024-02-30"}}, "not a real date"),
        ({"keywords": ["x"], "filters": {"date_after": "01/07/2024"}}, "not a YYYY-MM-DD"),
        (
            {
                "keywords": ["x"],
                "filters": {"date_after": "2024-08-01", "date_before": "2024-07-01"},
            },
            "later than date_before",
        ),
        ({"keywords": ["x"], "filters": {"sites": ["a.com"] * 21}}, "filters.sites: at most 20"),
        ({"keywords": ["x"], "filters": {"sites": ["http://a.com/x"]}}, "filters.sites"),
        ({"keywords": ["x"], "filters": {"lang": "english"}}, "filters.lang"),
        ({"keywords": ["x"], "filters": {"geo": "USA"}}, "filters.geo"),
        ({"keywords": ["x"], "filters": {"max_results": 0}}, "filters.max_results"),
        ({"keywords": ["x"], "filters": {"max_results": 1000}}, "filters.max_results"),
        ({"keywords": ['a "b" c']}, "double quotes"),
        ({"keywords": ["y" * 150, "z" * 150, "w" * 150, "v" * 150]}, "over the 512 limit"),
        ([], "must be a JSON object"),
    ],
)
def test_bad_schemas_are_rejected_with_a_message_naming_the_field(data: Any, message: str) -> None:
    with pytest.raises(SchemaError) as caught:
        validate_schema(data)
    assert message in str(caught.value)


@given(
    keywords=st.lists(keyword, min_size=1, max_size=12),
    boolean=st.sampled_from(["AND", "OR", "and", "or"]),
    after=st.one_of(st.none(), st.sampled_from(PLACEHOLDERS), iso_date),
    sites=st.lists(st.sampled_from(["example.com", ".eu", "news.bbc.co.uk", ".gov"]), max_size=5),
)
def test_well_formed_schemas_are_accepted_and_their_compiled_query_is_capped(
    keywords: list[str], boolean: str, after: str | None, sites: list[str]
) -> None:
    schema = validate_schema(
        {"keywords": keywords, "boolean": boolean, "filters": {"date_after": after, "sites": sites}}
    )
    assert 1 <= len(schema.keywords) <= 12
    assert schema.boolean in ("AND", "OR")
    assert len(schema.compile()) <= MAX_QUERY_CHARS
    assert validate_schema(schema.model_dump()) == schema


@given(keywords=st.lists(keyword, min_size=13, max_size=20, unique_by=str.lower))
def test_more_than_twelve_keywords_are_always_rejected(keywords: list[str]) -> None:
    with pytest.raises(SchemaError, match="keywords"):
        validate_schema({"keywords": keywords})


@given(
    field=st.text(alphabet="abcdefghijklmnopqrstuvwxyz_", min_size=1, max_size=10).filter(
        lambda f: f not in ("keywords", "boolean", "filters")
    )
)
def test_any_unknown_top_level_field_is_rejected_by_name(field: str) -> None:
    with pytest.raises(SchemaError, match=f"{field}: unknown field"):
        validate_schema({"keywords": ["x"], field: 1})


@given(token=st.text(alphabet="ABCDEFGHIJKLMNOPQRSTUVWXYZ_", min_size=1, max_size=15))
def test_only_whitelisted_placeholders_pass_in_dates(token: str) -> None:
    value = "{" + token + "}"
    data = {"keywords": ["x"], "filters": {"date_before": value}}
    if value in PLACEHOLDERS:
        assert validate_schema(data).filters.date_before == value
    else:
        with pytest.raises(SchemaError, match=r"filters\.date_before: unknown placeholder"):
            validate_schema(data)


def test_a_schema_too_long_when_compiled_is_told_apart_by_its_type() -> None:
    long = {"keywords": ["y" * 150, "z" * 150, "w" * 150, "v" * 150]}
    with pytest.raises(QueryTooLong, match="over the 512 limit"):
        validate_schema(long)
    with pytest.raises(SchemaError) as raised:
        validate_schema({**long, "boolean": "XOR"})
    assert not isinstance(raised.value, QueryTooLong)
