"""The demo corpus's facts reworded: does the engine read a fact written otherwise, and does it
stay silent on what the corpus does not say?

Runs the twelve demo claims and the hand-written rewordings in `bench/data/reworded_demo.json`
(true, false, and silent: events the corpus says nothing of) through the whole claim pipeline,
offline, on a scratch SQLite database. Prints one line per claim and then, over the true and
false rewordings, the share decided, how often True and False were right when given, and the
wrong verdicts given with high confidence; over the silent ones, any True or False given.

    DJANGO_DEBUG=1 .venv/bin/python bench/reworded_bench.py [--only TEXT] [--json FILE]

`--untouched` runs `bench/data/reworded_demo_untouched.json` instead: rewordings no rule or fit
was tuned on, reported apart (see its `about`).
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import tempfile
import time
from collections import Counter
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
DATA = ROOT / "bench/data/reworded_demo.json"
UNTOUCHED = ROOT / "bench/data/reworded_demo_untouched.json"


def _readings(claim: Any, verdict: Any) -> list[dict[str, Any]]:
    """The readings the claim was weighed on, as the evaluation reports them, for the fit."""
    from decisions.types import ClaimQuestion
    from evaluation.runner import verdict_readings
    from evidence.models import Evidence

    rows = Evidence.objects.filter(claim=claim).select_related("page")
    question = ClaimQuestion(
        text=claim.text, timeframe_start=claim.timeframe_start, timeframe_end=claim.timeframe_end
    )
    return verdict_readings(
        verdict, list(rows.order_by("-weight", "-stance_score", "id")), question=question
    )


def _run(text: str, **fields: Any) -> dict[str, Any]:
    from claims.models import Claim
    from decisions.pipeline import claim_pipeline_run
    from decisions.services import claim_submit

    created, _ = claim_submit(text=text, enqueue=False, **fields)
    started = time.monotonic()
    verdict = claim_pipeline_run(claim_id=created.pk)
    claim = Claim.objects.get(pk=created.pk)
    return {
        "status": str(claim.status),
        "readings": _readings(claim, verdict),
        "outcome": verdict.outcome if verdict else "",
        "reason": verdict.reason if verdict else "",
        "tier": claim.fact_check_tier,
        "support": round(verdict.support_total, 2) if verdict else 0.0,
        "refute": round(verdict.refute_total, 2) if verdict else 0.0,
        "seconds": round(time.monotonic() - started, 2),
    }


def _share(part: int, whole: int) -> str:
    return f"{part}/{whole} ({part / whole:.0%})" if whole else "0/0"


def summary(rows: list[dict[str, Any]]) -> list[str]:
    """The figures over the rewordings (the demo claims are reported apart)."""
    sided = [r for r in rows if r["expected"] in ("true", "false")]
    decided = [r for r in sided if r["outcome"] in ("true", "false")]
    many = [r for r in sided if r["sources"] >= 2]
    lines = [
        f"true and false rewordings decided: {_share(len(decided), len(sided))}; "
        f"of those with two publishers or more: "
        f"{_share(sum(r['outcome'] in ('true', 'false') for r in many), len(many))}"
    ]
    for side in ("true", "false"):
        given = [r for r in rows if r["outcome"] == side]
        right = sum(r["expected"] == side for r in given)
        lines.append(f"{side.title()} given {len(given)} times, right {_share(right, len(given))}")
    given = [r for r in rows if r["outcome"] in ("true", "false")]
    decided_wrong = [r for r in given if r["outcome"] != r["expected"]]
    wrong_high = [r for r in decided_wrong if r["tier"] == "high"]
    lines.append(f"wrong True or False with high confidence: {len(wrong_high)}")
    silent = [r for r in rows if r["expected"] == "invalid"]
    spoke = sum(r["outcome"] in ("true", "false") for r in silent)
    lines.append(f"silent facts given True or False: {_share(spoke, len(silent))}")
    kinds = Counter(r["kind"] for r in sided if r["outcome"] != r["expected"])
    if kinds:
        lines.append("missed, by kind: " + ", ".join(f"{k} {n}" for k, n in kinds.most_common()))
    return lines


def fit_report(rows: list[dict[str, Any]], *, untouched: bool) -> dict[str, Any]:
    """The rewordings as `training.outcome.fit` reads an evaluation report: each one's gold
    outcome, how its run ended and the readings it was weighed on. The untouched set's report
    is named apart, to measure with and never to fit on."""
    return {
        "dataset": "reworded-demo-untouched" if untouched else "reworded-demo",
        "results": [
            {
                "key": str(number),
                "text": row["text"],
                "gold": row["expected"],
                "status": row["status"],
                "readings": row["readings"],
            }
            for number, row in enumerate(rows)
        ],
    }


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--only", default="", help="only claims whose text contains this")
    parser.add_argument("--json", default="", help="write every row to this file")
    parser.add_argument("--no-demo", action="store_true", help="leave the twelve demo claims out")
    parser.add_argument(
        "--untouched", action="store_true", help="run the untouched rewordings instead"
    )
    parser.add_argument(
        "--report",
        default="",
        help="write the rewordings' readings here as a report the outcome fit reads",
    )
    args = parser.parse_args()

    scratch = tempfile.mkdtemp(prefix="claimcheck-reworded-")
    os.environ.setdefault("DATABASE_URL", f"sqlite:///{scratch}/bench.sqlite3")
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
    sys.path.insert(0, str(ROOT))
    import django

    django.setup()
    from django.core.management import call_command

    call_command("migrate", verbosity=0)
    from demo.loader import demo_claims, demo_load

    demo_load()
    demo_rows = []
    if not args.no_demo and not args.only:
        for claim in demo_claims():
            got = _run(
                claim.text,
                timeframe_start=claim.timeframe_start,
                timeframe_end=claim.timeframe_end,
                source_channel=claim.source_channel,
            )
            demo_rows.append({"text": claim.text, "expected": claim.expected, **got})
            mark = "ok " if got["outcome"] == claim.expected else "MISS"
            print(f"demo {mark} {claim.expected:>7} -> {got['outcome']:<7} {claim.text[:70]}")
    rows = []
    for item in json.loads((UNTOUCHED if args.untouched else DATA).read_text())["claims"]:
        if args.only and args.only not in item["text"]:
            continue
        got = _run(item["text"])
        rows.append({**item, **got})
        mark = "ok " if got["outcome"] == item["expected"] else "MISS"
        print(
            f"{mark} {item['expected']:>7} -> {got['outcome']:<7} {got['reason']:<12} "
            f"{got['tier']:<6} +{got['support']:.1f} -{got['refute']:.1f} {item['text'][:80]}"
        )
    if demo_rows:
        reached = sum(r["outcome"] == r["expected"] for r in demo_rows)
        print(f"demo claims at their outcomes: {_share(reached, len(demo_rows))}")
    for line in summary(rows):
        print(line)
    seconds = [r["seconds"] for r in rows + demo_rows]
    if seconds:
        print(f"median {sorted(seconds)[len(seconds) // 2]:.2f} s a claim")
    if args.json:
        Path(args.json).write_text(json.dumps({"demo": demo_rows, "reworded": rows}, indent=1))
    if args.report:
        report = Path(args.report)
        report.parent.mkdir(parents=True, exist_ok=True)
        report.write_text(json.dumps(fit_report(rows, untouched=args.untouched)))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
