"""`manage.py evaluate`: dataset readers, the offline web, metrics, and a report that is complete
and consistent (never a score: the figures themselves are for the report, not for a test)."""

from __future__ import annotations

import json
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import pytest
from django.core.management import call_command
from django.core.management.base import CommandError

from claimcheck.config import get_config
from claimcheck.models import Claim
from decisions.evaluation.averitec import read_averitec, unarchive
from decisions.evaluation.climate_fever import read_climate_fever
from decisions.evaluation.metrics import baselines, score
from decisions.evaluation.web import offline_web, web_load
from evidence.domains import lookup
from evidence.fetching import page_fetch
from evidence.models import Page
from harvester.canonical import canonicalize_url
from harvester.local_index import search_documents
from harvester.models import LocalDocument

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
    assert page.title == "When did the Port of Halvik open its new container terminal?"
    assert page.published == datetime(2024, 3, 15, 9, 30, tzinfo=UTC)
    assert "12 March 2024" in page.sections[0].paragraphs[0]
    boolean = dataset.pages[
        canonicalize_url("https://apnews.com/article/brannock-council-bicycles-vote")
    ]
    assert boolean.sections[0].paragraphs == [
        "No: The Brannock city council voted against a ban on bicycles in the city centre."
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
    assert lookup("https://fakecures.example/tessel-water-cures-colds").denied
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


@pytest.mark.django_db
def test_it_refuses_a_missing_file_and_a_bad_limit(tmp_path: Path) -> None:
    with pytest.raises(CommandError, match="is not a file"):
        call_command("evaluate", str(tmp_path / "none.json"), "--format", "averitec")
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
