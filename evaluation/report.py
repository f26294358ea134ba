"""The evaluation report: one JSON file with every figure and every claim's result, and a
markdown page for people with the same figures, the baselines and the ten worst misses."""

from __future__ import annotations

import json
from dataclasses import asdict
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from claimcheck.config import get_config
from claims.models import Outcome
from evaluation.dataset import OUTCOMES, SPLIT_PURPOSE, Dataset
from evaluation.metrics import (
    baselines,
    coverage,
    decisive_precision,
    macro_f1_interval,
    score,
    summary,
)
from evaluation.runner import ClaimResult
from evaluation.stages import render_stages, stage_report
from evaluation.web import WebSummary
from evaluation.weighed import weighed_line, weighed_report
from registry.hosts import publisher_of
from registry.weighing import weigh_source

WORST = 10
EVIDENCE_SHOWN = 5


def _severity(result: ClaimResult) -> tuple[int, float]:
    """Worst first: the opposite verdict, then a verdict where the label says nothing can be
    decided, then no verdict where one was due; heavier wrong totals first within each."""
    decisive = (Outcome.TRUE.value, Outcome.FALSE.value)
    weight = max(result.support_total, result.refute_total)
    if result.gold in decisive and result.predicted in decisive:
        return 3, weight
    if result.predicted in decisive:
        return 2, weight
    return 1, float(result.evidence)


def worst_misses(results: list[ClaimResult], limit: int = WORST) -> list[ClaimResult]:
    misses = [r for r in results if not r.correct]
    return sorted(misses, key=lambda r: (_severity(r), r.key), reverse=True)[:limit]


def reachable(urls: tuple[str, ...], threshold: float) -> bool:
    """Whether these pages, all read and all on one side, could decide the claim under the
    decision rule: their publishers' best weights reach the agreement score from at least two
    publishers. A claim that cannot is Invalid whatever the stance reader does."""
    best: dict[str, float] = {}
    for url in urls:
        rule = weigh_source(url)
        publisher = publisher_of(url)
        if rule.denied or rule.weight <= 0 or publisher is None:
            continue
        best[publisher] = max(best.get(publisher, 0.0), rule.weight)
    return len(best) >= 2 and sum(best.values()) >= threshold - 1e-9


def weight_lean(result: ClaimResult) -> str:
    """The side with more weight in the evidence read, with no sufficiency bar (each
    publisher's best hit per side; supporting hits dated outside the timeframe and leads never
    read left out)."""
    sides: dict[str, dict[str, float]] = {"support": {}, "refute": {}}
    for row in result.evidence_rows:
        if row.stance not in sides or row.weight <= 0 or not row.read:
            continue
        if row.stance == "support" and row.in_window is False:
            continue
        side = sides[row.stance]
        publisher = row.syndicated_from or row.domain
        side[publisher] = max(side.get(publisher, 0.0), row.weight)
    support, refute = sum(sides["support"].values()), sum(sides["refute"].values())
    if support > refute:
        return Outcome.TRUE.value
    if refute > support:
        return Outcome.FALSE.value
    return Outcome.INVALID.value


def retrieval_recall(results: list[ClaimResult]) -> float | None:
    """Among the claims that have evidence pages, the share for which at least one of their
    own pages was read."""
    with_pages = [r for r in results if r.page_urls]
    if not with_pages:
        return None
    found = sum(1 for r in with_pages if set(r.page_urls) & set(r.read_urls))
    return round(found / len(with_pages), 4)


def _group(results: list[ClaimResult], labels: list[str], names: dict[str, str]) -> dict[str, Any]:
    gold = [r.gold for r in results]
    predicted = [r.predicted for r in results]
    scores = score(
        gold=[names[g] for g in gold], predicted=[names[p] for p in predicted], labels=labels
    )
    return {
        "n": len(results),
        "accuracy": scores.accuracy,
        "macro_f1": scores.macro_f1,
        "decisive_precision": decisive_precision(gold=gold, predicted=predicted),
        "coverage": coverage(predicted),
        "predicted": {names[o]: predicted.count(o) for o in OUTCOMES},
    }


def by_tag(
    results: list[ClaimResult], labels: list[str], names: dict[str, str]
) -> dict[str, dict[str, Any]]:
    """The headline figures for each group of claims (a claim may be in several)."""
    tags = sorted({tag for r in results for tag in r.tags})
    return {tag: _group([r for r in results if tag in r.tags], labels, names) for tag in tags}


def build_report(
    *,
    dataset: Dataset,
    results: list[ClaimResult],
    web: WebSummary,
    command: str,
    started: datetime,
    seconds: float,
    split: str,
) -> dict[str, Any]:
    names = dataset.label_names
    labels = [names[o] for o in OUTCOMES]
    gold = [names[r.gold] for r in results]
    predicted = [names[r.predicted] for r in results]
    scores = score(gold=gold, predicted=predicted, labels=labels)
    page_independent = score(
        gold=gold,
        predicted=[names[r.page_independent or r.predicted] for r in results],
        labels=labels,
    )
    config = get_config()
    threshold = config.budgets.agreement_score
    pages_of = {claim.key: claim.page_urls for claim in dataset.claims}
    decidable = {r.key: reachable(pages_of[r.key], threshold) for r in results}
    # A claim labelled True or False is right in the ceiling when its own pages could decide
    # it; one labelled Invalid gets what the rule does with what was read on its own pages.
    ceiling = [
        (r.own_pages or Outcome.INVALID.value)
        if r.gold == Outcome.INVALID.value
        else (r.gold if decidable[r.key] else Outcome.INVALID.value)
        for r in results
    ]
    diagnostics = {
        "page_independent": page_independent.as_json(),
        "ceiling": score(gold=gold, predicted=[names[p] for p in ceiling], labels=labels).as_json(),
        "decidable_claims": sum(decidable.values()),
        "weight_lean": score(
            gold=gold, predicted=[names[weight_lean(r)] for r in results], labels=labels
        ).as_json(),
    }
    statuses: dict[str, int] = {}
    for result in results:
        statuses[result.status] = statuses.get(result.status, 0) + 1
    outcomes_gold = [r.gold for r in results]
    outcomes_predicted = [r.predicted for r in results]
    reader = score(gold=gold, predicted=[names[weight_lean(r)] for r in results], labels=labels)
    return {
        "accuracy": scores.accuracy,
        "macro_f1": scores.macro_f1,
        "macro_f1_ci": macro_f1_interval(gold=gold, predicted=predicted, labels=labels),
        "reader_macro_f1": reader.macro_f1,
        "decisive_precision": decisive_precision(gold=outcomes_gold, predicted=outcomes_predicted),
        "coverage": coverage(outcomes_predicted),
        "retrieval_recall": retrieval_recall(results),
        "queries_per_claim": summary([r.queries for r in results])["mean"],
        "crawls_per_claim": summary([r.crawls for r in results])["mean"],
        "by_tag": by_tag(results, labels, names),
        "weighed": weighed_report(results, names, labels),
        "stages": stage_report(results, names),
        "dataset": dataset.name,
        "split": split,
        "command": command,
        "started_at": started.isoformat(),
        "finished_at": datetime.now(UTC).isoformat(),
        "wall_seconds": round(seconds, 1),
        "claims": len(results),
        "claim_statuses": statuses,
        "labels": labels,
        "gold_counts": {label: gold.count(label) for label in labels},
        "left_out": dataset.left_out,
        "notes": dataset.notes,
        "web": asdict(web) | {"pages_built": len(dataset.pages)},
        "config": {
            "llm_model": config.llm.model,
            "budgets": config.budgets.model_dump(),
            "weights": config.weights.model_dump(),
            "search": config.search.cascade_order,
        },
        "scores": scores.as_json(),
        "baselines": [asdict(b) for b in baselines(gold=gold, labels=labels)],
        "diagnostics": diagnostics,
        "cost": {
            "queries_per_claim": summary([r.queries for r in results]),
            "crawls_per_claim": summary([r.crawls for r in results]),
            "evidence_per_claim": summary([r.evidence for r in results]),
            "counted_sources_per_verdict": summary([r.counted_sources for r in results]),
            "seconds_per_claim": summary([r.seconds for r in results]),
            "llm_calls_per_claim": summary([r.llm_calls for r in results]),
            "llm_tokens_per_claim": summary([r.llm_tokens for r in results]),
            "llm_cost_usd_per_claim": summary([r.llm_cost_usd for r in results]),
        },
        "worst_misses": [r.key for r in worst_misses(results)],
        "results": [r.as_json() for r in results],
    }


def _pct(value: float) -> str:
    return f"{value:.3f}"


def _table(header: list[str], rows: list[list[str]]) -> list[str]:
    lines = ["| " + " | ".join(header) + " |", "|" + "---|" * len(header)]
    lines.extend("| " + " | ".join(row) + " |" for row in rows)
    return lines


def _cell(text: str) -> str:
    return " ".join(text.split()).replace("|", "\\|")


def _share(value: float | None) -> str:
    return "n/a (none given)" if value is None else f"{value:.3f}"


def render_markdown(report: dict[str, Any]) -> str:
    scores = report["scores"]
    precision = report["decisive_precision"]
    labels: list[str] = report["labels"]
    cost = report["cost"]
    lines = [
        f"# ClaimCheck evaluation: {report['dataset']}",
        "",
        f"Command: `{report['command']}`",
        "",
        f"Split: **{report['split']}**. "
        + SPLIT_PURPOSE.get(report["split"], "Every claim of the dataset."),
        "",
        f"Started {report['started_at']}, {report['claims']} claims in "
        f"{report['wall_seconds']} s. LLM: {report['config']['llm_model'] or 'none'}. "
        f"Claim statuses: {report['claim_statuses']}.",
        "",
        "## Verdict quality",
        "",
        f"- Accuracy: **{_pct(scores['accuracy'])}**",
        f"- Macro-F1 over {' / '.join(labels)}: **{_pct(scores['macro_f1'])}** "
        f"(95% bootstrap interval {_pct(report['macro_f1_ci'][0])} to "
        f"{_pct(report['macro_f1_ci'][1])})",
        f"- Decisive precision: of the claims given True, {_share(precision['true'])} were "
        f"labelled so; of those given False, {_share(precision['false'])}. Coverage (claims "
        f"given True or False): {_pct(report['coverage'])}.",
        f"- {weighed_line(report['weighed'])}.",
        f"- Reader macro-F1 (retrieval and stance without the sufficiency bar): "
        f"{_pct(report['reader_macro_f1'])}",
        f"- Retrieval recall (claims with evidence pages, one of them read): "
        f"{_share(report['retrieval_recall'])}",
        f"- Per claim: {report['queries_per_claim']} queries, {report['crawls_per_claim']} "
        f"pages read, {cost['seconds_per_claim']['mean']} s, "
        f"{cost['llm_tokens_per_claim']['mean']} LLM tokens, "
        f"${cost['llm_cost_usd_per_claim']['mean']} LLM cost",
        "",
    ]
    if report["by_tag"]:
        lines += ["By group (a claim can be in several):", ""]
        lines += _table(
            [
                "group",
                "claims",
                "accuracy",
                "macro-F1",
                "precision True",
                "precision False",
                "coverage",
                "predicted",
            ],
            [
                [
                    tag,
                    str(group["n"]),
                    _pct(group["accuracy"]),
                    _pct(group["macro_f1"]),
                    _share(group["decisive_precision"]["true"]),
                    _share(group["decisive_precision"]["false"]),
                    _pct(group["coverage"]),
                    ", ".join(f"{k} {v}" for k, v in group["predicted"].items()),
                ]
                for tag, group in report["by_tag"].items()
            ],
        )
        lines.append("")
    lines += _table(
        ["system", "accuracy", "macro-F1", "how"],
        [["ClaimCheck", _pct(scores["accuracy"]), _pct(scores["macro_f1"]), "this run"]]
        + [
            [b["name"], _pct(b["accuracy"]), _pct(b["macro_f1"]), b["how"]]
            for b in report["baselines"]
        ],
    )
    diagnostics = report["diagnostics"]
    lines += [
        "",
        "Diagnostics (not verdicts; they say where the misses come from):",
        "",
    ]
    lines += _table(
        ["what if", "accuracy", "macro-F1", "meaning"],
        [
            [
                "ceiling of the decision rule",
                _pct(diagnostics["ceiling"]["accuracy"]),
                _pct(diagnostics["ceiling"]["macro_f1"]),
                f"perfect retrieval and stance: only the {diagnostics['decidable_claims']} "
                "claims whose own pages' publishers can reach the agreement score from two "
                "publishers can get True / False; a claim labelled Invalid gets what the rule "
                "does with the evidence read on its own pages",
            ],
            [
                "every page its own source",
                _pct(diagnostics["page_independent"]["accuracy"]),
                _pct(diagnostics["page_independent"]["macro_f1"]),
                "the same decision rule over the same evidence, without the "
                "independent-domains requirement",
            ],
            [
                "weight lean",
                _pct(diagnostics["weight_lean"]["accuracy"]),
                _pct(diagnostics["weight_lean"]["macro_f1"]),
                "the side with more weight in the evidence found wins, no sufficiency bar "
                "(retrieval and stance alone)",
            ],
        ],
    )
    lines += ["", "Confusion matrix (rows: gold, columns: predicted):", ""]
    lines += _table(
        ["gold \\ predicted", *labels, "total"],
        [
            [g, *(str(scores["confusion"][g][p]) for p in labels), str(report["gold_counts"][g])]
            for g in labels
        ],
    )
    lines += ["", "Per label:", ""]
    lines += _table(
        ["label", "precision", "recall", "F1", "gold", "predicted"],
        [
            [
                s["label"],
                _pct(s["precision"]),
                _pct(s["recall"]),
                _pct(s["f1"]),
                str(s["support"]),
                str(s["predicted"]),
            ]
            for s in scores["per_label"]
        ],
    )
    lines += ["", *render_stages(report["stages"])]
    lines += ["## Cost", ""]
    lines += _table(
        ["per claim", "mean", "median", "max", "total"],
        [
            [name.replace("_", " "), *(str(values[k]) for k in ("mean", "median", "max", "total"))]
            for name, values in cost.items()
        ],
    )
    lines += ["", "## The data", ""]
    lines += [f"- {note}" for note in report["notes"]]
    web = report["web"]
    lines.append(
        f"- Offline web: {web['pages_built']} pages built, {web['pages_stored']} stored in the "
        f"page cache and index, {web['pages_denied']} on denied domains (indexed only), "
        f"{web['pages_unreadable']} unreadable."
    )
    lines += [f"- Left out: {count} {why}" for why, count in report["left_out"].items()]
    lines += ["", f"## The {WORST} worst misses", ""]
    by_key = {r["key"]: r for r in report["results"]}
    names = dict(zip(OUTCOMES, labels, strict=True))
    for number, key in enumerate(report["worst_misses"], start=1):
        result = by_key[key]
        lines += [
            f"### {number}. #{key}: gold {result['gold_label']}, predicted "
            f"{names[result['predicted']]} ({result['reason'] or result['status']})",
            "",
            f"> {_cell(result['text'])}",
            "",
            f"Support {result['support_total']:.1f} / refute {result['refute_total']:.1f}; "
            f"{result['queries']} queries, {result['crawls']} pages read, "
            f"{result['evidence']} evidence rows.",
            "",
        ]
        shown = [e for e in result["evidence_rows"] if e["stance"] != "neutral"][:EVIDENCE_SHOWN]
        if not shown:
            lines += ["No supporting or refuting evidence was found.", ""]
            continue
        lines += _table(
            ["stance", "source", "tier", "weight", "in window", "quote"],
            [
                [
                    e["stance"],
                    e["domain"],
                    e["tier"],
                    f"{e['weight']:.1f}",
                    str(e["in_window"]),
                    _cell(e["quote"])[:200],
                ]
                for e in shown
            ],
        )
        lines.append("")
    return "\n".join(lines) + "\n"


def write_report(*, report: dict[str, Any], out_dir: Path) -> tuple[Path, Path]:
    out_dir.mkdir(parents=True, exist_ok=True)
    stem = f"{report['dataset']}-report"
    json_path = out_dir / f"{stem}.json"
    md_path = out_dir / f"{stem}.md"
    json_path.write_text(json.dumps(report, indent=2, default=str), encoding="utf-8")
    md_path.write_text(render_markdown(report), encoding="utf-8")
    return md_path, json_path
