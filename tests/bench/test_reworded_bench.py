"""The reworded-facts benchmark counts what it says: decided share, right when given, wrong with
high confidence, and silent facts given an outcome."""

from __future__ import annotations

import json
from typing import Any

from bench.reworded_bench import DATA, UNTOUCHED, summary


def _row(expected: str, outcome: str, tier: str = "medium", sources: int = 2) -> dict[str, Any]:
    return {
        "text": "a claim",
        "expected": expected,
        "kind": "synonym",
        "sources": sources,
        "outcome": outcome,
        "tier": tier,
    }


def test_the_summary_counts_each_figure() -> None:
    rows = [
        _row("true", "true", "high"),
        _row("true", "invalid", sources=1),
        _row("false", "false"),
        _row("false", "true", "high"),
        _row("invalid", "invalid"),
        _row("invalid", "false"),
    ]
    lines = summary(rows)
    assert lines[0] == (
        "true and false rewordings decided: 3/4 (75%); "
        "of those with two publishers or more: 3/3 (100%)"
    )
    assert "True given 2 times, right 1/2 (50%)" in lines
    assert "False given 2 times, right 1/2 (50%)" in lines
    assert "wrong True or False with high confidence: 1" in lines
    assert "silent facts given True or False: 1/2 (50%)" in lines


def test_the_reworded_facts_are_at_least_forty_of_each_kind_asked() -> None:
    claims = json.loads(DATA.read_text())["claims"]
    assert len(claims) >= 40
    assert {c["expected"] for c in claims} == {"true", "false", "invalid"}
    assert len({c["text"] for c in claims}) == len(claims)


def test_the_untouched_rewordings_are_new_facts_of_each_kind() -> None:
    tuned = {c["text"] for c in json.loads(DATA.read_text())["claims"]}
    claims = json.loads(UNTOUCHED.read_text())["claims"]
    assert {c["expected"] for c in claims} == {"true", "false", "invalid"}
    assert len({c["text"] for c in claims}) == len(claims)
    assert not tuned & {c["text"] for c in claims}
