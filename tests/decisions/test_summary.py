"""The verdict in plain words: which sources, published when, said what."""

from __future__ import annotations

from decisions.summary import verdict_summary


def _source(publisher: str, tier: str, stance: str, pub: str, event: str | None) -> dict[str, str]:
    item = {"publisher": publisher, "tier": tier, "stance": stance, "pub_date": pub}
    if event:
        item["event_date"] = event
    return item


def test_a_false_verdict_names_its_sources_and_their_publication_days() -> None:
    text = verdict_summary(
        outcome="false",
        reason="sufficient",
        sources=[
            _source("stats-office.example", "official", "refute", "2025-02-03", None),
            _source("meridianwire.example", "wire", "refute", "2025-02-05", "2025-01-31"),
        ],
        lean=None,
    )
    assert text == (
        "Two independent sources, stats-office.example (official) and meridianwire.example"
        " (wire service), published between 3 and 5 Feb 2025, contradict the claim;"
        " they date the event on 31 Jan 2025."
    )


def test_a_true_verdict_counts_a_publisher_once() -> None:
    text = verdict_summary(
        outcome="true",
        reason="sufficient",
        sources=[
            _source("council.example", "official", "support", "2025-04-03", "2025-03-28"),
            _source("council.example", "official", "support", "2025-04-03", "2025-03-28"),
            _source("energy-trade.example", "trade", "support", "2025-04-01", "2025-03-28"),
        ],
        lean=None,
    )
    assert text.startswith("Two independent sources, council.example (official) and")
    assert "published between 1 and 3 Apr 2025, confirm the claim" in text


def test_conflicting_sources_are_said_to_disagree() -> None:
    text = verdict_summary(
        outcome="invalid",
        reason="conflicting",
        sources=[
            _source("a.example", "official", "support", "2024-12-19", None),
            _source("b.example", "official", "refute", "2025-01-16", None),
        ],
        lean=None,
    )
    assert text == (
        "The sources disagree. Confirming the claim: a.example (official)."
        " Contradicting it: b.example (official). An editor should decide which to trust."
    )


def test_one_source_is_not_enough_and_the_lean_is_a_hint() -> None:
    text = verdict_summary(
        outcome="invalid",
        reason="insufficient",
        sources=[_source("someblog.example", "other", "support", "2025-01-01", None)],
        lean={"outcome": "true"},
    )
    assert text.startswith("One source, someblog.example (other site), published on 1 Jan 2025,")
    assert "confirms the claim. That is not enough for a verdict" in text
    assert text.endswith("The evidence leans True.")


def test_no_source_says_so() -> None:
    text = verdict_summary(outcome="invalid", reason="no_sources", sources=[], lean=None)
    assert text == "No source that was read took a side on this claim, so it could not be checked."


def _at(url: str, item: dict[str, str]) -> dict[str, str]:
    return {**item, "url": url}


def test_an_undecided_verdict_names_only_the_sources_that_counted() -> None:
    counted = _at(
        "https://competition.example/decision.pdf",
        _source("competition.example", "official", "refute", "2024-11-21", None),
    )
    unsure = _at(
        "https://railtrade.example/story",
        _source("railtrade.example", "trade", "refute", "2024-11-22", None),
    )
    text = verdict_summary(
        outcome="invalid",
        reason="insufficient",
        sources=[counted, unsure],
        lean=None,
        counted_urls={"https://competition.example/decision.pdf"},
    )
    assert text.startswith("One source, competition.example (official)")
    assert "railtrade.example" not in text
    assert "not enough for a verdict" in text


def test_an_undecided_verdict_whose_readings_all_fell_short_says_none_counted() -> None:
    unsure = _at(
        "https://railtrade.example/story",
        _source("railtrade.example", "trade", "refute", "2024-11-22", None),
    )
    text = verdict_summary(
        outcome="invalid", reason="insufficient", sources=[unsure], lean=None, counted_urls=set()
    )
    assert text == (
        "One source read took a side, and none of those readings counted (each row below says"
        " why), so it could not be checked."
    )
