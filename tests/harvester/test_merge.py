"""The greedy merge (property tests): confidence is the number of distinct providers, one
row per canonical URL, never more processed rows than raw ones."""

from __future__ import annotations

from datetime import UTC, datetime

from hypothesis import given
from hypothesis import strategies as st

from harvester.merge import merge_outcomes
from harvester.models import ProviderStatus
from harvester.providers.base import ProviderHit, ProviderOutcome
from integrations.http.canonical import canonicalize_url

PAGES = ["a", "b", "c", "d"]
SPELLINGS = [
    "https://example.org/{p}",
    "http://www.example.org/{p}/",
    "https://example.org/{p}?utm_source=feed",
    "https://EXAMPLE.org/{p}#top",
]
PROVIDERS = ["serper", "brave", "searxng", "local"]

hit = st.builds(
    lambda page, spelling, rank, title, day: ProviderHit(
        url=spelling.format(p=page),
        title=title,
        snippet=title * 2,
        rank=rank,
        published=datetime(2024, 1, day, tzinfo=UTC) if day else None,
    ),
    page=st.sampled_from(PAGES),
    spelling=st.sampled_from(SPELLINGS),
    rank=st.integers(min_value=1, max_value=20),
    title=st.text(max_size=10),
    day=st.integers(min_value=0, max_value=28),
)
outcome = st.builds(
    lambda name, hits, ok: ProviderOutcome(
        provider=name,
        status=ProviderStatus.OK if ok else ProviderStatus.FAILED,
        hits=hits if ok else [],
    ),
    name=st.sampled_from(PROVIDERS),
    hits=st.lists(hit, max_size=8),
    ok=st.booleans(),
)


@given(outcomes=st.lists(outcome, max_size=5, unique_by=lambda o: o.provider))
def test_merge_properties_hold_for_any_mix_of_answers(outcomes: list[ProviderOutcome]) -> None:
    merged = merge_outcomes(outcomes)
    raw_count = sum(len(o.hits) for o in outcomes if o.ok)
    assert len(merged) <= raw_count
    assert len({m.url for m in merged}) == len(merged)
    assert len({m.dedupe_hash for m in merged}) == len(merged)
    for row in merged:
        found_by = {
            o.provider
            for o in outcomes
            if o.ok
            for h in o.hits
            if canonicalize_url(h.url) == row.url
        }
        assert row.confidence == len(found_by) == len(set(row.providers))
        assert set(row.providers) == found_by
        ranks = [
            h.rank for o in outcomes if o.ok for h in o.hits if canonicalize_url(h.url) == row.url
        ]
        assert row.best_rank == min(r for r in ranks if r is not None)
    assert [m.confidence for m in merged] == sorted((m.confidence for m in merged), reverse=True)


def test_the_merged_row_keeps_the_longest_title_and_snippet_and_the_earliest_date() -> None:
    early = datetime(2024, 7, 1, tzinfo=UTC)
    late = datetime(2024, 8, 1, tzinfo=UTC)
    outcomes = [
        ProviderOutcome(
            provider="serper",
            hits=[
                ProviderHit(
                    url="https://x.org/a",
                    title="Short",
                    snippet="a longer snippet",
                    rank=3,
                    published=late,
                )
            ],
        ),
        ProviderOutcome(
            provider="brave",
            hits=[
                ProviderHit(
                    url="http://www.x.org/a/",
                    title="A longer title",
                    snippet="s",
                    rank=1,
                    published=early,
                )
            ],
        ),
        ProviderOutcome(provider="gdelt", status=ProviderStatus.FAILED, reason="HTTP 500"),
    ]
    [row] = merge_outcomes(outcomes)
    assert row.url == "https://x.org/a"
    assert row.providers == ["serper", "brave"]
    assert row.confidence == 2
    assert (row.title, row.snippet, row.best_rank, row.published) == (
        "A longer title",
        "a longer snippet",
        1,
        early,
    )


def test_urls_that_are_not_http_are_left_out_of_the_merge() -> None:
    outcomes = [
        ProviderOutcome(
            provider="yacy",
            hits=[ProviderHit(url="ftp://x.org/file"), ProviderHit(url="https://x.org/")],
        )
    ]
    assert [m.url for m in merge_outcomes(outcomes)] == ["https://x.org/"]
