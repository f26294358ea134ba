"""The rewriter: deterministic without an LLM, strict with one, cached by original text."""

from __future__ import annotations

import litellm
import pytest

from harvester.errors import RewriteFailed, RewriteInvalid
from harvester.models import Query
from harvester.rewriter import deterministic_rewrite, rewrite_query
from integrations.llm import llm_mock, load_prompt
from tests.harvester.conftest import UseConfig

LLM = {"model": "openai/gpt-4o-mini"}
MONTH = ("{LAST_MONTH_START}", "{LAST_MONTH_END}")
GOOD_JSON = (
    '{"keywords": ["AI regulation", "AI Act"], "boolean": "OR", '
    '"filters": {"sites": [".eu"], "date_after": "{LAST_WEEK_START}", '
    '"date_before": "{LAST_WEEK_END}", "lang": "en"}}'
)


@pytest.mark.parametrize(
    ("text", "keywords", "after", "before"),
    [
        (
            "latest EU AI regulation updates in the last week",
            ["EU AI", "regulation"],
            "{LAST_WEEK_START}",
            "{LAST_WEEK_END}",
        ),
        ("inflation figures today", ["inflation", "figures"], "{TODAY}", None),
        ("What did the Senate vote yesterday?", ["Senate", "vote"], "{YESTERDAY}", "{TODAY}"),
        ("vaccine uptake this month", ["vaccine", "uptake"], *MONTH),
        ("flood warnings past 30 days", ["flood", "warnings"], *MONTH),
        ("Bank of England rate decision last month", ["Bank of England", "rate", "decision"],
         "{LAST_MONTH_START}", "{LAST_MONTH_END}"),
        ("ECB rates on 2024-07-01", ["ECB", "rates"], "2024-07-01", "2024-07-01"),
        ("ECB rates on 1 July 2024", ["ECB", "rates"], "2024-07-01", "2024-07-01"),
        ('"AI Act" in July 2024', ["AI Act"], "2024-07-01", "2024-07-31"),
        ("Tesla recalls between 2024-03-01 and 2024-04-15", ["Tesla", "recalls"],
         "2024-03-01", "2024-04-15"),
        ("unemployment since March 5, 2023", ["unemployment"], "2023-03-05", None),
        ("GDP growth 3.5% in 2023", ["GDP", "growth", "3.5%", "2023"], None, None),
    ],
)  # fmt: skip
def test_the_deterministic_rewriter_finds_phrases_and_turns_dates_into_filters(
    text: str, keywords: list[str], after: str | None, before: str | None
) -> None:
    schema = deterministic_rewrite(text)
    assert schema.keywords == keywords
    assert (schema.filters.date_after, schema.filters.date_before) == (after, before)


def test_site_operators_in_the_text_become_site_filters() -> None:
    schema = deterministic_rewrite("AI Act site:europa.eu")
    assert schema.filters.sites == ["europa.eu"]
    assert schema.keywords == ["AI Act"]


@pytest.mark.parametrize(
    ("text", "keywords"),
    [
        ("2,000", ["2,000"]),
        ("The ministry hired 2,000 nurses", ["ministry", "hired", "2,000", "nurses"]),
        (
            "Exports reached 1,250.5 tonnes, up 3.5%",
            ["Exports", "reached", "1,250.5", "tonnes", "3.5%"],
        ),
        ("In 2024, 300 people came", ["2024", "300", "people", "came"]),
        ("items 1,2,3", ["items", "1", "2", "3"]),
    ],
)
def test_a_number_with_separators_or_decimals_stays_one_term(
    text: str, keywords: list[str]
) -> None:
    assert deterministic_rewrite(text).keywords == keywords


def test_text_with_nothing_to_search_for_is_invalid() -> None:
    with pytest.raises(RewriteInvalid, match="no searchable words"):
        deterministic_rewrite("what is the latest on it?")


@pytest.mark.django_db
def test_without_an_llm_the_rewrite_is_deterministic_and_cached_by_text() -> None:
    first = rewrite_query(text="  EU  AI regulation last week ")
    assert first.rewriter == "deterministic"
    assert not first.cached
    again = rewrite_query(text="EU AI regulation last week")
    assert again.cached
    assert (
        again.template
        == first.template
        == '"EU AI" regulation after:{LAST_WEEK_START} before:{LAST_WEEK_END}'
    )
    row = Query.objects.get()
    assert row.original_query == "EU AI regulation last week"
    assert row.schema["filters"]["date_after"] == "{LAST_WEEK_START}"  # the template, not dates


@pytest.mark.django_db
def test_with_an_llm_the_prompt_produces_the_schema_and_its_hash_is_recorded(
    use_config: UseConfig,
) -> None:
    use_config({"llm": LLM})
    with llm_mock([GOOD_JSON]) as mock:
        rewrite = rewrite_query(text="latest EU AI regulation updates in the last week")
    assert mock.purposes == ["rewrite"]
    assert rewrite.template == (
        '("AI regulation" OR "AI Act") site:.eu after:{LAST_WEEK_START} before:{LAST_WEEK_END}'
    )
    assert rewrite.rewriter == LLM["model"]
    assert rewrite.prompt_hash == load_prompt("rewrite")[1]
    with llm_mock([]):  # a second model call would raise LLMMockExhausted
        cached = rewrite_query(text="latest EU AI regulation updates in the last week")
    assert cached.cached
    assert cached.schema == rewrite.schema


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("reply", "message"),
    [
        (
            '{"keywords": ["x"], "filters": {"date_after": "{PAST_2_WEEKS}"}}',
            "unknown placeholder {PAST_2_WEEKS}",
        ),
        ('{"keywords": ["x"], "sort": "date"}', "sort: unknown field"),
        ("Sure! Here are some keywords: AI, Act", "not valid JSON"),
        ('["AI Act"]', "Input should be an object"),
    ],
)  # fmt: skip
def test_junk_from_the_llm_is_an_invalid_rewrite_and_is_not_cached(
    use_config: UseConfig, reply: str, message: str
) -> None:
    use_config({"llm": LLM})
    with llm_mock([reply]), pytest.raises(RewriteInvalid) as caught:
        rewrite_query(text="anything at all")
    assert message in caught.value.details
    assert not Query.objects.exists()


@pytest.mark.django_db
def test_a_failed_llm_call_is_a_rewrite_failure_with_no_fallback(use_config: UseConfig) -> None:
    use_config({"llm": LLM})
    timeout = litellm.Timeout(
        message="timeout after 5s", model="gpt-4o-mini", llm_provider="openai"
    )
    with llm_mock([timeout]), pytest.raises(RewriteFailed, match="timeout"):
        rewrite_query(text="anything at all")
    assert not Query.objects.exists()


@pytest.mark.django_db
def test_a_cached_deterministic_rewrite_is_redone_once_an_llm_is_configured(
    use_config: UseConfig,
) -> None:
    rewrite_query(text="EU AI regulation")
    use_config({"llm": LLM})
    with llm_mock([GOOD_JSON]):
        rewrite = rewrite_query(text="EU AI regulation")
    assert not rewrite.cached
    assert Query.objects.get().rewriter == LLM["model"]
