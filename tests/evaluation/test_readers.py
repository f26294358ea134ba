"""`manage.py evaluate`'s dataset readers: AVeriTeC, Climate-FEVER and COVID-Fact files become
claims with their gold outcome and the pages of an offline web built from their evidence."""

from __future__ import annotations

import json
import re
from datetime import UTC, datetime
from pathlib import Path

import pytest

from evaluation.averitec import answer_paragraphs, read_averitec, title_from_url, unarchive
from evaluation.climate_fever import read_climate_fever
from evaluation.covid_fact import read_covid_fact
from evaluation.dataset import MODEL_CALIBRATION, UNSEEN
from evaluation.web import page_text, render_page
from integrations.http.canonical import canonicalize_url
from training.stance import pairs as stance_pairs

MINI = Path(__file__).parent / "fixtures" / "averitec_mini.json"


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
    assert answer_paragraphs({"answer": "No", "answer_type": "Boolean"}) == []
    assert answer_paragraphs({"answer": "Yes.", "boolean_explanation": "It did, on 3 May."}) == [
        "It did, on 3 May."
    ]
    assert answer_paragraphs({"answer": "Nobody knows  where it came from."}) == [
        "Nobody knows where it came from."
    ]


def test_an_answers_lines_stay_apart_as_on_the_page() -> None:
    """A heading copied with the sentence under it is not one sentence with it: each line of an
    answer is a paragraph of its page, and the page reads them apart."""
    answer = {
        "answer": "Ghana \u2013 Level 3 Reconsider Travel C U H\n\n"
        "Reconsider travel to Ghana due to COVID-19.\nYes",
    }
    assert answer_paragraphs(answer) == [
        "Ghana \u2013 Level 3 Reconsider Travel C U H",
        "Reconsider travel to Ghana due to COVID-19.",
    ]


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


def test_each_claim_carries_the_stance_models_side_of_it(tmp_path: Path) -> None:
    """Held out, calibration (never trained on, no figure measured on it) or neither (trained
    on): the side its pairs took when the stance model was made."""
    (tmp_path / "climate-fever").mkdir()
    (tmp_path / "covid-fact").mkdir()
    (tmp_path / "climate-fever" / "climate-fever.jsonl").write_text(
        "\n".join(
            json.dumps(
                {
                    "claim_id": str(n),
                    "claim": f"Glaciers in range {n} lost {n} km2.",
                    "claim_label": "SUPPORTS",
                    "evidences": [
                        {
                            "evidence_id": f"Glacier:{n}",
                            "article": "Glacier",
                            "evidence": f"Range {n} lost ice.",
                            "evidence_label": "SUPPORTS",
                        }
                    ],
                }
            )
            for n in range(200)
        )
    )
    (tmp_path / "covid-fact" / "COVIDFACT_dataset.jsonl").write_text(
        "\n".join(
            json.dumps(
                {
                    "claim": f"Study {n} found masks cut spread",
                    "label": "SUPPORTED",
                    "evidence": [f"Study {n} saw less spread with masks."],
                    "gold_source": f"https://journal.example.org/{n}",
                }
            )
            for n in range(200)
        )
    )
    sides = {"train": None, "calibration": "calibration", "held_out": "held-out"}
    for dataset, stance_pairs_of in (
        (
            read_climate_fever(tmp_path / "climate-fever" / "climate-fever.jsonl"),
            stance_pairs.climate_fever,
        ),
        (
            read_covid_fact(tmp_path / "covid-fact" / "COVIDFACT_dataset.jsonl"),
            stance_pairs.covid_fact,
        ),
    ):
        side_of_pairs = {pair.claim: sides[pair.split] for pair in stance_pairs_of(tmp_path)}
        assert {c.text: dataset.split_of(c) for c in dataset.claims} == side_of_pairs
        assert set(side_of_pairs.values()) == {None, "calibration", "held-out"}
        assert all(
            (UNSEEN in c.tags, MODEL_CALIBRATION in c.tags)
            == (side_of_pairs[c.text] == "held-out", side_of_pairs[c.text] == "calibration")
            for c in dataset.claims
        )
