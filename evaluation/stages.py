"""Where each claim's evidence was lost, stage by stage: its own pages not found by the searches,
found and not read, read and misread, read and not counted. With the cost of getting there
(queries and pages read per claim), where the evidence rows came from, and how claims ended.

A claim's own pages are the pages of the dataset's evidence for it: the ones a fact-checker
cited. They are what the pipeline should find and read; other claims' pages are distractors.
"""

from __future__ import annotations

from collections import Counter
from typing import Any

from claims.models import Outcome
from evaluation.runner import ClaimResult, EvidenceSeen

NO_PAGES = "no_pages"
NOT_FOUND = "not_found"
FOUND_NOT_READ = "found_not_read"
READ_MISREAD = "read_misread"
READ_NOT_COUNTED = "read_not_counted"
COUNTED = "counted"
READ_NO_SIDE = "read_no_side"

STAGES: dict[str, str] = {
    NO_PAGES: "no pages of its own in the data",
    NOT_FOUND: "not found: none of its own pages among the search results",
    FOUND_NOT_READ: "found, not read",
    READ_MISREAD: "read, misread: no reading of its own pages took the label's side",
    READ_NOT_COUNTED: "read, not counted: the label's side read, below the counting bar",
    COUNTED: "read and counted: the label's side read on its own pages counts",
    READ_NO_SIDE: "read, labelled Invalid (no side to take)",
}
MISSES = (NOT_FOUND, FOUND_NOT_READ, READ_MISREAD, READ_NOT_COUNTED)
_SIDE_OF = {Outcome.TRUE.value: "support", Outcome.FALSE.value: "refute"}


def claim_stage(result: ClaimResult) -> str:
    """The furthest stage one of the claim's own pages reached."""
    own = set(result.page_urls)
    if not own:
        return NO_PAGES
    if not own & set(result.found_urls) and not own & set(result.read_urls):
        return NOT_FOUND
    if not own & set(result.read_urls):
        return FOUND_NOT_READ
    side = _SIDE_OF.get(result.gold)
    if side is None:
        return READ_NO_SIDE
    right = [row for row in result.evidence_rows if row.own and row.stance == side]
    if not right:
        return READ_MISREAD
    if not any(row.counts for row in right):
        return READ_NOT_COUNTED
    return COUNTED


def _distribution(values: list[int]) -> dict[str, int]:
    counts = Counter(values)
    return {str(value): counts[value] for value in sorted(counts)}


def _rows(rows: list[EvidenceSeen]) -> dict[str, int]:
    return {
        "total": len(rows),
        "neutral": sum(row.stance == "neutral" for row in rows),
        "counting": sum(row.counts for row in rows),
    }


def stage_report(results: list[ClaimResult], label_names: dict[str, str]) -> dict[str, Any]:
    """The stage table (in total and by gold label), each claim's stage, and the run's
    search and reading figures."""
    stages = {result.key: claim_stage(result) for result in results}
    by_label: dict[str, dict[str, int]] = {}
    for result in results:
        row = by_label.setdefault(label_names[result.gold], dict.fromkeys(STAGES, 0))
        row[stages[result.key]] += 1
    total = dict.fromkeys(STAGES, 0)
    for stage in stages.values():
        total[stage] += 1
    with_pages = [r for r in results if r.page_urls]
    found = [r for r in with_pages if set(r.page_urls) & {*r.found_urls, *r.read_urls}]
    read_own = [r for r in with_pages if set(r.page_urls) & set(r.read_urls)]
    rows = [row for result in results for row in result.evidence_rows]
    endings = Counter(result.reason or result.status or "undecided" for result in results)
    return {
        "stages": STAGES,
        "total": total,
        "by_label": by_label,
        "by_claim": stages,
        "claims_with_pages": len(with_pages),
        "own_page_found": len(found),
        "own_page_read": len(read_own),
        "queries_per_claim": _distribution([r.queries for r in results]),
        "pages_read_per_claim": _distribution([r.crawls for r in results]),
        "claims_reading_no_page": sum(1 for r in results if r.crawls == 0),
        "evidence_rows": {
            "own_pages": _rows([row for row in rows if row.own]),
            "other_pages": _rows([row for row in rows if not row.own]),
        },
        "endings": dict(sorted(endings.items())),
    }


def _table(header: list[str], rows: list[list[str]]) -> list[str]:
    lines = ["| " + " | ".join(header) + " |", "|" + "---|" * len(header)]
    lines.extend("| " + " | ".join(row) + " |" for row in rows)
    return lines


def _spread(distribution: dict[str, int]) -> str:
    return ", ".join(f"{value}: {count}" for value, count in distribution.items()) or "none"


def render_stages(report: dict[str, Any]) -> list[str]:
    """The markdown section of the stage report."""
    labels = list(report["by_label"])
    n = sum(report["total"].values())
    lines = [
        "## Where the misses happen",
        "",
        f"Of {report['claims_with_pages']} claims with pages of their own, "
        f"{report['own_page_found']} had one among their search results and "
        f"{report['own_page_read']} read one. {report['claims_reading_no_page']} of {n} claims "
        "read no page.",
        "",
    ]
    lines += _table(
        ["stage", *labels, "total"],
        [
            [
                description,
                *(str(report["by_label"][label][stage]) for label in labels),
                str(report["total"][stage]),
            ]
            for stage, description in report["stages"].items()
        ],
    )
    rows = report["evidence_rows"]
    lines += [
        "",
        f"- Queries per claim (queries: claims): {_spread(report['queries_per_claim'])}",
        f"- Pages read per claim (pages: claims): {_spread(report['pages_read_per_claim'])}",
        f"- Evidence rows from the claim's own pages: {rows['own_pages']['total']} "
        f"({rows['own_pages']['neutral']} neutral, {rows['own_pages']['counting']} clear the "
        f"counting bar); from other claims' pages: {rows['other_pages']['total']} "
        f"({rows['other_pages']['neutral']} neutral, {rows['other_pages']['counting']} clear "
        "the counting bar)",
        f"- How claims ended: {_spread(report['endings'])}",
        "",
        "Each claim's stage:",
        "",
    ]
    for stage, description in report["stages"].items():
        keys = [key for key, got in report["by_claim"].items() if got == stage]
        if keys:
            lines.append(f"- {description} ({len(keys)}): " + ", ".join(f"#{k}" for k in keys))
    lines.append("")
    return lines


def stage_summary(report: dict[str, Any]) -> str:
    """One line for the console: the misses by stage."""
    total = report["total"]
    return (
        f"Stages: {total[NOT_FOUND]} not found, {total[FOUND_NOT_READ]} found and not read, "
        f"{total[READ_MISREAD]} read and misread, {total[READ_NOT_COUNTED]} read and not "
        f"counted, {total[COUNTED]} counted, {total[READ_NO_SIDE]} read (labelled Invalid), "
        f"{total[NO_PAGES]} without pages; {report['own_page_read']} of "
        f"{report['claims_with_pages']} read one of their own pages; "
        f"{report['claims_reading_no_page']} read no page; queries per claim "
        f"{_spread(report['queries_per_claim'])}; endings {_spread(report['endings'])}"
    )
