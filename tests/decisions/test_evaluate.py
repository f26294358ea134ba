"""`manage.py evaluate`: dataset readers, the offline web, metrics, and a report that is complete
and consistent (never a score: the figures themselves are for the report, not for a test)."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import pytest
from django.conf import settings
from django.core.management import call_command
from django.core.management.base import CommandError

from claimcheck.config import get_config
from claims.models import Claim
from decisions.evaluation.averitec import answer_text, read_averitec, title_from_url, unarchive
from decisions.evaluation.climate_fever import read_climate_fever
from decisions.evaluation.covid_fact import read_covid_fact
from decisions.evaluation.dataset import UNSEEN
from decisions.evaluation.metrics import (
    baselines,
    coverage,
    decisive_precision,
    macro_f1_interval,
    score,
)
from decisions.evaluation.report import retrieval_recall
from decisions.evaluation.runner import ClaimResult
from decisions.evaluation.web import offline_web, page_text, render_page, web_load
from evidence.fetching import page_fetch
from evidence.models import Page
from harvester.canonical import canonicalize_url
from harvester.local_index import search_documents
from harvester.models import LocalDocument
from registry.weighing import weigh_source
from training.stance import pairs as stance_pairs

FIXTURES = Path(__file__).parent / "fixtures"
MINI = FIXTURES / "averitec_mini.json"
SHARED = Path(__file__).resolve().parents[2].parent / "shared" / "eval"
AVERITEC = SHARED / "averitec-dev" / "dev.json"
LABELS = ["True", "False", "Invalid"]


# --- readers ------------------------------------------------------------------------------------


def test_the_wayback_prefix_is_removed_and_its_capture_time_kept() -> None:
    url, stamp = unarchive("https://web.archive.org/web/20201129141238/https://scoop.example/a/")
    assert url == "https://scoop.example/a/"
    assert stamp == datetime(2020, 11, 29, 14, 12, 38, tzinfo=UTC)
    assert unarchive("https://web.archive.org/web/20210525130943im_/https://x.example/p.jpg") == (
        "https://x.example/p.jpg",
        datetime(2021, 5, 25, 13, 9, 43, tzinfo=UTC),
    )
    assert unarchive("news.example/story") == ("https://news.example/story", None)


def test_averitec_labels_map_to_outcomes_and_the_claim_date_ends_the_timeframe() -> None:
    dataset = read_averitec(MINI)
    assert [c.gold for c in dataset.claims] == ["true", "false", "invalid", "invalid"]
    first = dataset.claims[0]
    assert first.timeframe_start is None
    assert first.timeframe_end is not None
    assert first.timeframe_end.date().isoformat() == "2024-04-02"


def test_every_answer_becomes_a_page_at_its_original_url_dated_by_the_archive() -> None:
    dataset = read_averitec(MINI)
    page = dataset.pages[canonicalize_url("https://www.ports.gov/halvik/container-terminal-opens")]
    assert page.url == "https://www.ports.gov/halvik/container-terminal-opens"
    assert page.title == "Container terminal opens"
    assert page.published == datetime(2024, 3, 15, 9, 30, tzinfo=UTC)
    assert "12 March 2024" in page.sections[0].paragraphs[0]
    boolean = dataset.pages[
        canonicalize_url("https://apnews.com/article/brannock-council-bicycles-vote")
    ]
    assert boolean.sections[0].paragraphs == [
        "The Brannock city council voted against a ban on bicycles in the city centre."
    ]


def test_no_page_holds_an_annotators_question_or_a_bare_yes_or_no() -> None:
    raw = json.loads(MINI.read_text())
    questions = [q["question"] for item in raw for q in item["questions"]]
    dataset = read_averitec(MINI)
    for page in dataset.pages.values():
        html = render_page(page).decode()
        text = page_text(page)
        for question in questions:
            assert question not in html and question.rstrip("?") not in text
        for paragraph in (p for s in page.sections for p in s.paragraphs):
            assert not re.match(r"^(yes|no)\b", paragraph, re.IGNORECASE), paragraph
    assert all(section.heading == "" for p in dataset.pages.values() for section in p.sections)


@pytest.mark.parametrize(
    ("url", "title"),
    [
        ("https://www.ports.gov/halvik/container-terminal-opens", "Container terminal opens"),
        ("https://news.example/2020/11/fed-raises-rates.html", "Fed raises rates"),
        ("https://news.example/story/12345", ""),
        ("https://news.example/", ""),
        ("https://news.example/a/2020-11-03", ""),
    ],
)
def test_a_page_title_comes_from_the_urls_slug_or_is_empty(url: str, title: str) -> None:
    assert title_from_url(url) == title


def test_a_bare_yes_or_no_without_an_explanation_is_no_page_text() -> None:
    assert answer_text({"answer": "No", "answer_type": "Boolean"}) == ""
    assert answer_text({"answer": "Yes.", "boolean_explanation": "It did, on 3 May."}) == (
        "It did, on 3 May."
    )
    assert answer_text({"answer": "Nobody knows where it came from."}) == (
        "Nobody knows where it came from."
    )


def test_each_claim_records_its_answer_types() -> None:
    dataset = read_averitec(MINI)
    assert [c.tags for c in dataset.claims] == [
        ("extractive",),
        ("boolean", "abstractive"),
        (),
        ("abstractive",),
    ]


def test_no_fact_checking_article_is_ever_a_page() -> None:
    dataset = read_averitec(MINI)
    assert not [url for url in dataset.pages if "checks.example" in url]
    assert dataset.left_out["answers whose source is a fact-checking article"] == 1
    assert dataset.left_out["answers with no source URL (unanswerable, or 'Metadata')"] == 1
    assert dataset.denied_domains == ["fakecures.example"]


def test_climate_fever_builds_one_page_per_article_and_leaves_disputed_claims_out(
    tmp_path: Path,
) -> None:
    def line(claim_id: str, label: str, evidences: list[tuple[str, int, str]]) -> str:
        return json.dumps(
            {
                "claim_id": claim_id,
                "claim": f"Claim {claim_id} about sea ice.",
                "claim_label": label,
                "evidences": [
                    {"evidence_id": f"{a}:{n}", "article": a, "evidence": text}
                    for a, n, text in evidences
                ],
            }
        )

    path = tmp_path / "climate-fever.jsonl"
    path.write_text(
        "\n".join(
            [
                line(
                    "1", "SUPPORTS", [("Sea ice", 7, "Sea ice is thinning."), ("Arctic", 2, "A.")]
                ),
                line("2", "DISPUTED", [("Sea ice", 3, "Sea ice forms in winter.")]),
                line("3", "NOT_ENOUGH_INFO", [("Arctic", 1, "The Arctic is cold.")]),
            ]
        )
    )
    dataset = read_climate_fever(path)
    assert [c.gold for c in dataset.claims] == ["true", "invalid"]
    assert dataset.left_out == {"DISPUTED claims (no single right answer)": 1}
    sea_ice = dataset.pages[canonicalize_url("https://en.wikipedia.org/wiki/Sea_ice")]
    assert sea_ice.sections[0].paragraphs == ["Sea ice forms in winter.", "Sea ice is thinning."]
    assert len(dataset.pages) == 2


# --- metrics ------------------------------------------------------------------------------------


def test_scores_follow_the_confusion_matrix() -> None:
    gold = ["True", "True", "False", "False", "False", "Invalid"]
    predicted = ["True", "False", "False", "False", "Invalid", "Invalid"]
    scores = score(gold=gold, predicted=predicted, labels=LABELS)
    assert scores.confusion["False"] == {"True": 0, "False": 2, "Invalid": 1}
    assert scores.accuracy == round(4 / 6, 4)
    by_label = {s.label: s for s in scores.per_label}
    assert by_label["True"].precision == 1.0
    assert by_label["True"].recall == 0.5
    assert by_label["Invalid"].precision == 0.5
    assert scores.macro_f1 == round((2 / 3 + 2 / 3 + 2 / 3) / 3, 4)


def test_the_majority_baseline_is_exact_and_the_random_one_is_repeatable() -> None:
    gold = ["False"] * 6 + ["True"] * 3 + ["Invalid"]
    first, random_guess = baselines(gold=gold, labels=LABELS)
    assert first.name == "always False"
    assert first.accuracy == 0.6
    assert first.macro_f1 == round((2 * 0.6 / 1.6) / 3, 4)
    assert baselines(gold=gold, labels=LABELS)[1] == random_guess


def test_the_bootstrap_interval_holds_the_point_estimate_and_is_repeatable() -> None:
    gold = ["True"] * 10 + ["False"] * 20 + ["Invalid"] * 5
    predicted = ["True"] * 7 + ["False"] * 3 + ["False"] * 15 + ["Invalid"] * 5 + ["True"] * 5
    point = score(gold=gold, predicted=predicted, labels=LABELS).macro_f1
    low, high = macro_f1_interval(gold=gold, predicted=predicted, labels=LABELS, draws=300)
    assert low < point < high
    assert macro_f1_interval(gold=gold, predicted=predicted, labels=LABELS, draws=300) == [
        low,
        high,
    ]


def test_decisive_precision_and_coverage_count_only_true_and_false_verdicts() -> None:
    gold = ["true", "true", "false", "invalid", "false", "invalid"]
    predicted = ["true", "false", "false", "true", "invalid", "invalid"]
    assert decisive_precision(gold=gold, predicted=predicted) == {"true": 0.5, "false": 0.5}
    assert decisive_precision(gold=["true"], predicted=["invalid"]) == {
        "true": None,
        "false": None,
    }
    assert coverage(predicted) == round(4 / 6, 4)


def _result(key: str, *, pages: list[str], read: list[str]) -> ClaimResult:
    return ClaimResult(
        key=key,
        text="",
        gold="true",
        gold_label="Supported",
        predicted="invalid",
        status="decided",
        page_urls=pages,
        read_urls=read,
    )


def test_retrieval_recall_counts_claims_one_of_whose_own_pages_was_read() -> None:
    results = [
        _result(
            "1", pages=["https://a.example/x", "https://b.example/y"], read=["https://b.example/y"]
        ),
        _result("2", pages=["https://c.example/z"], read=["https://a.example/x"]),
        _result("3", pages=[], read=["https://a.example/x"]),
    ]
    assert retrieval_recall(results) == 0.5


def test_covid_fact_keeps_a_claim_and_its_counter_claims_on_one_page(tmp_path: Path) -> None:
    source = "https://www.biorxiv.org/content/10.1101/2020.03.13.990226v1"
    rows = [
        {
            "claim": "Reinfection could not occur in infected macaques",
            "label": "SUPPORTED",
            "evidence": ["The monkeys with re-exposure showed no recurrence."],
            "gold_source": source,
        },
        {
            "claim": "Reinfection could still occur in infected macaques",
            "label": "REFUTED",
            "evidence": ["The monkeys with re-exposure showed no recurrence.", "Viral loads fell."],
            "gold_source": source,
        },
        {
            "claim": "A claim with nowhere to go",
            "label": "SUPPORTED",
            "evidence": [],
            "gold_source": "",
        },
    ]
    path = tmp_path / "covidfact.jsonl"
    path.write_text("\n".join(json.dumps(row) for row in rows))

    dataset = read_covid_fact(path)

    assert [c.gold for c in dataset.claims] == ["true", "false", "true"]
    assert [c.tags[0] for c in dataset.claims] == ["real", "counter-claim", "real"]
    [page] = dataset.pages.values()
    assert page.sections[0].paragraphs == [
        "The monkeys with re-exposure showed no recurrence.",
        "Viral loads fell.",
    ]
    assert dataset.claims[0].page_urls == dataset.claims[1].page_urls == (canonicalize_url(source),)
    assert dataset.claims[2].page_urls == ()
    assert dataset.left_out == {"claims with no source page or no evidence sentence": 1}


def test_claims_whose_sources_the_stance_model_trained_on_are_told_apart(tmp_path: Path) -> None:
    rows = [
        {
            "claim": f"Trial {n} found the drug lowered fever",
            "label": "SUPPORTED" if n % 2 else "REFUTED",
            "evidence": [f"In trial {n} the drug lowered fever in most patients."],
            "gold_source": f"https://journal.example.org/articles/{n}",
        }
        for n in range(40)
    ]
    path = tmp_path / "covid-fact" / "COVIDFACT_dataset.jsonl"
    path.parent.mkdir()
    path.write_text("\n".join(json.dumps(row) for row in rows))

    dataset = read_covid_fact(path)
    trained_on = {pair.claim for pair in stance_pairs.covid_fact(tmp_path)}
    trained_on -= {p.claim for p in stance_pairs.covid_fact(tmp_path) if p.split == "held_out"}

    unseen = {c.text for c in dataset.claims if UNSEEN in c.tags}
    assert unseen == {c.text for c in dataset.claims} - trained_on
    assert 0 < len(unseen) < 40


# --- the offline web ----------------------------------------------------------------------------


@pytest.mark.django_db
def test_the_offline_web_is_found_only_by_searching_and_denied_pages_are_not_stored() -> None:
    dataset = read_averitec(MINI)
    with offline_web():
        summary = web_load(dataset=dataset)
    assert summary.pages_stored == 3
    assert summary.pages_denied == 1
    page = Page.objects.get(
        url=canonicalize_url("https://www.ports.gov/halvik/container-terminal-opens")
    )
    assert page.published_at == datetime(2024, 3, 15, 9, 30, tzinfo=UTC)
    assert "opened its new container terminal on 12 March 2024" in page.text
    hits = search_documents(query="Halvik container terminal")
    assert {hit.url for hit in hits} >= {page.url}
    assert weigh_source("https://fakecures.example/tessel-water-cures-colds").denied
    assert not Page.objects.filter(url__contains="fakecures").exists()
    assert LocalDocument.objects.filter(url__contains="fakecures").exists()


@pytest.mark.django_db
def test_the_run_cannot_reach_the_internet_and_searches_only_the_local_index() -> None:
    with offline_web():
        config = get_config()
        assert config.search.cascade_order == ["local"]
        assert config.factcheck.enabled is False
        page = page_fetch(url="https://not-in-the-corpus.example/story")
        assert page.error == "offline"  # refused before any look-up
    assert get_config().search.cascade_order == ["local"]  # the shipped config is back


# --- the command --------------------------------------------------------------------------------


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
