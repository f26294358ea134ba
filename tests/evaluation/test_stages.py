"""The evaluation's stage report: where each claim's own pages were lost (not found, found and
not read, read and misread, read and not counted) and the run's search and reading figures."""

from __future__ import annotations

from evaluation.runner import ClaimResult, EvidenceSeen
from evaluation.stages import claim_stage, render_stages, stage_report

OWN = "https://own.example/story"
OTHER = "https://other.example/page"
NAMES = {"true": "True", "false": "False", "invalid": "Invalid"}


def _row(*, stance: str, own: bool = True, counts: bool = True) -> EvidenceSeen:
    return EvidenceSeen(
        url=OWN if own else OTHER,
        domain="own.example" if own else "other.example",
        tier="other",
        weight=0.4,
        stance=stance,
        stance_score=0.9,
        in_window=None,
        event_at=None,
        published_at=None,
        method="page",
        quote="",
        own=own,
        counts=counts,
    )


def _claim(
    key: str,
    *,
    gold: str = "false",
    pages: tuple[str, ...] = (OWN,),
    found: tuple[str, ...] = (),
    read: tuple[str, ...] = (),
    rows: tuple[EvidenceSeen, ...] = (),
    queries: int = 3,
    crawls: int = 0,
    reason: str = "insufficient",
) -> ClaimResult:
    return ClaimResult(
        key=key,
        text="",
        gold=gold,
        gold_label=gold,
        predicted="invalid",
        status="decided",
        reason=reason,
        queries=queries,
        crawls=crawls,
        page_urls=list(pages),
        found_urls=list(found),
        read_urls=list(read),
        evidence_rows=list(rows),
    )


def test_a_claim_whose_own_page_no_search_returned_was_not_found() -> None:
    assert claim_stage(_claim("1", found=(OTHER,), read=(OTHER,))) == "not_found"


def test_a_claim_whose_own_page_was_a_result_but_never_read_was_found_and_not_read() -> None:
    assert claim_stage(_claim("1", found=(OWN, OTHER), read=(OTHER,))) == "found_not_read"


def test_an_own_page_read_the_wrong_way_or_as_neutral_is_misread() -> None:
    wrong = _claim("1", found=(OWN,), read=(OWN,), rows=(_row(stance="support"),))
    neutral = _claim("2", found=(OWN,), read=(OWN,), rows=(_row(stance="neutral"),))
    elsewhere = _claim(
        "3", found=(OWN,), read=(OWN, OTHER), rows=(_row(stance="refute", own=False),)
    )
    assert {claim_stage(c) for c in (wrong, neutral, elsewhere)} == {"read_misread"}


def test_the_labels_side_read_below_the_counting_bar_is_read_and_not_counted() -> None:
    weak = _claim("1", found=(OWN,), read=(OWN,), rows=(_row(stance="refute", counts=False),))
    counted = _claim("2", found=(OWN,), read=(OWN,), rows=(_row(stance="refute"),))
    assert claim_stage(weak) == "read_not_counted"
    assert claim_stage(counted) == "counted"


def test_a_claim_labelled_invalid_or_without_pages_has_no_side_to_miss() -> None:
    invalid = _claim("1", gold="invalid", found=(OWN,), read=(OWN,))
    assert claim_stage(invalid) == "read_no_side"
    assert claim_stage(_claim("2", pages=())) == "no_pages"


def test_a_page_reached_by_a_click_down_counts_as_found() -> None:
    assert claim_stage(_claim("1", found=(OTHER,), read=(OWN,))) == "read_misread"


def test_the_report_counts_stages_by_label_and_the_runs_search_figures() -> None:
    results = [
        _claim("a", found=(OTHER,), read=(OTHER,), crawls=1, queries=2, reason="no_sources"),
        _claim("b", found=(OWN,), crawls=0, queries=4),
        _claim(
            "c",
            gold="true",
            found=(OWN,),
            read=(OWN, OTHER),
            rows=(_row(stance="support"), _row(stance="neutral", own=False, counts=False)),
            crawls=2,
            queries=4,
        ),
    ]
    report = stage_report(results, NAMES)
    assert report["by_claim"] == {"a": "not_found", "b": "found_not_read", "c": "counted"}
    assert report["by_label"]["False"]["not_found"] == 1
    assert report["by_label"]["True"]["counted"] == 1
    assert sum(report["total"].values()) == 3
    assert (report["own_page_found"], report["own_page_read"]) == (2, 1)
    assert report["queries_per_claim"] == {"2": 1, "4": 2}
    assert report["pages_read_per_claim"] == {"0": 1, "1": 1, "2": 1}
    assert report["claims_reading_no_page"] == 1
    assert report["evidence_rows"]["own_pages"] == {"total": 1, "neutral": 0, "counting": 1}
    assert report["evidence_rows"]["other_pages"] == {"total": 1, "neutral": 1, "counting": 0}
    assert report["endings"] == {"insufficient": 2, "no_sources": 1}
    markdown = "\n".join(render_stages(report))
    assert "found, not read" in markdown and "#b" in markdown
    assert "Queries per claim (queries: claims): 2: 1, 4: 2" in markdown
