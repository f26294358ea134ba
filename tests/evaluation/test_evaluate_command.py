"""`manage.py evaluate`: a report that is complete and consistent (never a score: the figures
themselves are for the report, not for a test), a scratch database, and clear refusals."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from dataclasses import fields
from pathlib import Path
from typing import Any
from unittest import mock

import pytest
from django.conf import settings
from django.core.management import call_command
from django.core.management.base import CommandError

from claims.models import Claim
from decisions.weighing import Reading
from evaluation.averitec import read_averitec
from evaluation.management.commands.evaluate import Command
from evidence.models import Page

MINI = Path(__file__).parent / "fixtures" / "averitec_mini.json"
SHARED = Path(__file__).resolve().parents[2].parent / "shared" / "eval"
AVERITEC = SHARED / "averitec-dev" / "dev.json"


def _check_report(out: Path, *, claims: int, dataset: str) -> dict[str, Any]:
    report = json.loads((out / f"{dataset}-report.json").read_text())
    markdown = (out / f"{dataset}-report.md").read_text()
    assert report["claims"] == claims == len(report["results"])
    scores = report["scores"]
    labels = report["labels"]
    confusion = scores["confusion"]
    assert sum(sum(row.values()) for row in confusion.values()) == claims
    assert {s["label"]: s["support"] for s in scores["per_label"]} == report["gold_counts"]
    assert scores["accuracy"] == round(sum(confusion[label][label] for label in labels) / claims, 4)
    results = report["results"]
    assert report["cost"]["queries_per_claim"]["total"] == sum(r["queries"] for r in results)
    assert report["cost"]["crawls_per_claim"]["total"] == sum(r["crawls"] for r in results)
    assert all(r["status"] == "decided" for r in results)
    by_key = {r["key"]: r for r in results}
    assert len(report["worst_misses"]) == min(10, sum(r["gold"] != r["predicted"] for r in results))
    assert all(by_key[key]["gold"] != by_key[key]["predicted"] for key in report["worst_misses"])
    assert [b["name"] for b in report["baselines"]][1] == "random with label priors"
    for heading in ("## Verdict quality", "Confusion matrix", "## Cost", "worst misses"):
        assert heading in markdown
    assert f"Command: `{report['command']}`" in markdown
    for key in (
        "accuracy",
        "macro_f1",
        "macro_f1_ci",
        "reader_macro_f1",
        "decisive_precision",
        "coverage",
        "retrieval_recall",
        "queries_per_claim",
        "crawls_per_claim",
    ):
        assert key in report, key
    assert report["accuracy"] == scores["accuracy"] and report["macro_f1"] == scores["macro_f1"]
    low, high = report["macro_f1_ci"]
    assert low <= report["macro_f1"] <= high
    given = [r for r in results if r["predicted"] in ("true", "false")]
    assert report["coverage"] == round(len(given) / claims, 4)
    for outcome in ("true", "false"):
        chosen = [r for r in given if r["predicted"] == outcome]
        expected = (
            round(sum(r["gold"] == outcome for r in chosen) / len(chosen), 4) if chosen else None
        )
        assert report["decisive_precision"][outcome] == expected
    assert report["queries_per_claim"] == report["cost"]["queries_per_claim"]["mean"]
    assert "Decisive precision" in markdown and "Retrieval recall" in markdown
    stages = report["stages"]
    assert sum(stages["total"].values()) == claims == len(stages["by_claim"])
    assert sum(stages["queries_per_claim"].values()) == claims
    assert "## Where the misses happen" in markdown
    return report


@pytest.mark.django_db
def test_it_evaluates_the_mini_fixture_and_writes_a_complete_report(tmp_path: Path) -> None:
    call_command(
        "evaluate", str(MINI), "--format", "averitec", "--in-place", "--out", str(tmp_path),
        stdout=(output := _Sink()),
    )  # fmt: skip
    report = _check_report(tmp_path, claims=4, dataset="averitec")
    assert report["gold_counts"] == {"True": 1, "False": 1, "Invalid": 2}
    assert "[4/4]" in output.text
    assert Claim.objects.filter(source_channel__startswith="evaluation averitec").count() == 4
    halvik = report["results"][0]
    assert halvik["queries"] >= 1
    assert any("ports.gov" in row["url"] for row in halvik["evidence_rows"])
    assert set(halvik["page_urls"]) & set(halvik["found_urls"])
    assert report["stages"]["by_claim"][halvik["key"]] != "not_found"
    assert set(report["by_tag"]) == {"extractive", "boolean", "abstractive"}
    assert report["by_tag"]["extractive"]["n"] == 1
    assert "By group" in (tmp_path / "averitec-report.md").read_text()


@pytest.mark.django_db
def test_the_ceiling_scores_a_claim_labelled_invalid_by_what_the_rule_does(tmp_path: Path) -> None:
    call_command(
        "evaluate", str(MINI), "--format", "averitec", "--in-place", "--out", str(tmp_path),
        stdout=_Sink(),
    )  # fmt: skip
    report = json.loads((tmp_path / "averitec-report.json").read_text())
    invalid = [r for r in report["results"] if r["gold"] == "invalid"]
    assert invalid and all(r["own_pages"] in ("true", "false", "invalid") for r in invalid)
    ceiling = report["diagnostics"]["ceiling"]["confusion"]["Invalid"]
    names = {"true": "True", "false": "False", "invalid": "Invalid"}
    expected = {name: 0 for name in names.values()}
    for r in invalid:
        expected[names[r["own_pages"]]] += 1
    assert ceiling == expected


@pytest.mark.django_db
def test_dump_web_writes_every_page_the_run_built(tmp_path: Path) -> None:
    call_command(
        "evaluate", str(MINI), "--format", "averitec", "--in-place", "--limit", "1",
        "--out", str(tmp_path), "--dump-web", str(tmp_path / "web"), stdout=_Sink(),
    )  # fmt: skip
    rows = [json.loads(line) for line in (tmp_path / "web" / "averitec-web.jsonl").open()]
    dataset = read_averitec(MINI)
    assert len(rows) == len(dataset.pages) == 4  # all pages, also with --limit
    assert {tuple(sorted(row)) for row in rows} == {("date", "text", "title", "url")}
    ports = next(row for row in rows if "ports.gov" in row["url"])
    assert ports["title"] == "Container terminal opens"
    assert "12 March 2024" in ports["text"]
    assert ports["date"].startswith("2024-03-15")


@pytest.mark.django_db
def test_the_calibration_and_held_out_splits_run_claims_apart_and_say_which(
    tmp_path: Path,
) -> None:
    keys: dict[str, set[str]] = {}
    for split in ("calibration", "held-out"):
        call_command(
            "evaluate", str(MINI), "--format", "averitec", "--in-place", "--split", split,
            "--out", str(tmp_path / split), stdout=(output := _Sink()),
        )  # fmt: skip
        report = _check_report(tmp_path / split, claims=2, dataset="averitec")
        assert report["split"] == split
        assert f"--split {split}" in report["command"]
        assert f"Split: **{split}**" in (tmp_path / split / "averitec-report.md").read_text()
        assert f"averitec ({split} split): 2 claims" in output.text
        keys[split] = {r["key"] for r in report["results"]}
    assert keys["calibration"].isdisjoint(keys["held-out"])
    assert keys["calibration"] | keys["held-out"] == {"0", "1", "2", "3"}


@pytest.mark.django_db
def test_each_result_carries_what_the_outcome_weighing_reads_in_its_evidence(
    tmp_path: Path,
) -> None:
    call_command(
        "evaluate", str(MINI), "--format", "averitec", "--in-place", "--limit", "1",
        "--out", str(tmp_path), stdout=_Sink(),
    )  # fmt: skip
    report = json.loads((tmp_path / "averitec-report.json").read_text())
    assert report["split"] == "all" and "--split" not in report["command"]
    [halvik] = report["results"]
    assert halvik["readings"]
    assert all(set(r) == {f.name for f in fields(Reading)} for r in halvik["readings"])
    rows = {row["url"]: row for row in halvik["evidence_rows"]}
    for reading in halvik["readings"]:
        row = rows[reading["url"]]
        assert reading["side"] == row["stance"] and reading["weight"] == row["weight"]
        assert 0 <= reading["probability"] <= 1


def test_the_split_is_passed_on_to_the_run_in_the_scratch_database(tmp_path: Path) -> None:
    with mock.patch.object(Command, "_relay") as relay:
        call_command(
            "evaluate", str(MINI), "--format", "averitec", "--split", "held-out",
            "--out", str(tmp_path), stdout=_Sink(),
        )  # fmt: skip
    child = relay.call_args_list[-1].args[0]
    assert child[child.index("--split") + 1] == "held-out"
    assert "--in-place" in child


@pytest.mark.django_db
def test_it_refuses_a_missing_file_and_a_bad_limit(tmp_path: Path) -> None:
    with pytest.raises(CommandError, match="is a folder: give the dataset's file"):
        call_command("evaluate", str(tmp_path), "--format", "averitec")
    with pytest.raises(CommandError, match="--limit"):
        call_command("evaluate", str(MINI), "--format", "averitec", "--limit", "0")


@pytest.mark.django_db(transaction=True)
def test_by_default_it_runs_in_a_scratch_database_and_leaves_this_one_alone(
    tmp_path: Path,
) -> None:
    call_command(
        "evaluate", str(MINI), "--format", "averitec", "--limit", "2", "--out", str(tmp_path),
        stdout=_Sink(),
    )  # fmt: skip
    _check_report(tmp_path, claims=2, dataset="averitec")
    assert not Claim.objects.exists()
    assert not Page.objects.exists()


@pytest.mark.django_db
def test_a_20_claim_slice_of_averitec_gives_a_complete_consistent_report(tmp_path: Path) -> None:
    if not AVERITEC.is_file():
        pytest.skip(f"skipped: {AVERITEC} not found (the shared evaluation data is absent)")
    call_command(
        "evaluate", str(AVERITEC), "--format", "averitec", "--limit", "20", "--in-place",
        "--out", str(tmp_path), stdout=_Sink(),
    )  # fmt: skip
    report = _check_report(tmp_path, claims=20, dataset="averitec")
    assert report["web"]["pages_built"] > 20
    assert report["left_out"]


class _Sink:
    """A stdout for call_command that keeps what was written."""

    def __init__(self) -> None:
        self.parts: list[str] = []

    def write(self, text: str) -> None:
        self.parts.append(text)

    def flush(self) -> None:
        return None

    @property
    def text(self) -> str:
        return "".join(self.parts)


def test_a_dataset_that_is_not_there_stops_the_command_with_one_line_saying_why(
    tmp_path: Path,
) -> None:
    """As on a fresh clone, where the README's ../shared/eval paths lead nowhere."""
    missing = tmp_path / "shared" / "eval" / "averitec-dev" / "dev.json"
    run = subprocess.run(  # noqa: S603 (our interpreter and manage.py)
        [sys.executable, "manage.py", "evaluate", str(missing), "--format", "averitec"],
        cwd=settings.BASE_DIR,
        env={**os.environ, "DJANGO_DEBUG": "true"},
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert run.returncode == 1
    lines = run.stderr.strip().splitlines()
    assert lines == [
        f"CommandError: {missing} not found: the datasets are third-party and not shipped; "
        "give the path of your copy (see the README, 'Measuring verdict quality')"
    ]
