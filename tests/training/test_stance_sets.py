"""The inference and news sets read as stance pairs, and the recipe that mixes them: FNC-1's
bodies cut to the passage that bears on the headline, SufficientFacts' reduced evidence saying
nothing, captions detokenised, Perspectrum on its own split, and caps and balance that hold."""

from __future__ import annotations

import csv
import json
from collections import Counter
from pathlib import Path

import pytest

from training.stance import inference, news, recipe
from training.stance.records import CALIBRATION, HELD_OUT, NEUTRAL, REFUTE, SUPPORT, TRAIN, Pair

BODY = (
    "Residents gathered in the square on Sunday morning. "
    "The city council approved the new library budget after a long debate. "
    "Critics said the vote came too late for the summer programme. "
    "Weather was mild across the region."
)


def _fnc(root: Path, rows: list[tuple[str, str]]) -> None:
    folder = root / "nli" / "fnc-1"
    folder.mkdir(parents=True)
    with (folder / "train_bodies.csv").open("w", newline="") as out:
        writer = csv.writer(out)
        writer.writerow(["Body ID", "articleBody"])
        writer.writerow(["7", BODY])
    for name in ("train_train_stances.csv", "train_test_stances.csv"):
        with (folder / name).open("w", newline="") as out:
            writer = csv.writer(out)
            writer.writerow(["Headline", "Body ID", "Stance"])
            if name.startswith("train_train"):
                writer.writerows([(headline, "7", stance) for headline, stance in rows])


def test_a_headline_is_read_against_the_passage_of_its_body_that_bears_on_it(
    tmp_path: Path,
) -> None:
    _fnc(tmp_path, [("Council approves library budget", "agree")])

    [pair] = news.fnc1(tmp_path)

    assert pair.label == SUPPORT and pair.kind == "agree"
    assert pair.evidence.startswith("The city council approved the new library budget")
    assert "Weather" not in pair.evidence


def test_fnc_labels_map_to_stances_and_held_out_headlines_keep_few_unrelated_pairs(
    tmp_path: Path,
) -> None:
    rows = [(f"Headline {n} about the library budget", "unrelated") for n in range(600)]
    rows += [("Council rejects library budget", "disagree"), ("Budget vote debated", "discuss")]
    _fnc(tmp_path, rows)

    made = news.fnc1(tmp_path)

    by_kind = {p.kind: p.label for p in made}
    assert by_kind == {"unrelated": NEUTRAL, "disagree": REFUTE, "discuss": NEUTRAL}
    held = [p for p in made if p.split == HELD_OUT and p.kind == "unrelated"]
    trained = [p for p in made if p.split != HELD_OUT and p.kind == "unrelated"]
    # About 15% of headlines are held out, and of their unrelated pairs one in six is kept.
    assert 0 < len(held) < len(trained) / 20


def test_evidence_missing_its_decisive_part_says_nothing(tmp_path: Path) -> None:
    folder = tmp_path / "nli" / "sufficient-facts"
    folder.mkdir(parents=True)
    rows = [
        {"claim": "Unison was released by Atlantic Records.", "label_before": "REFUTES",
         "label_after": "NOT ENOUGH", "removed": ["by Columbia Records"],
         "evidence": [["Unison", "The album was originally released on 2 April 1990 ."]],
         "text_orig": "[[Unison]] The album was originally released on 2 April 1990 "
                      '<span style="color:red;">by Columbia Records</span> .'},
        {"claim": "Nina Jacobson is American.", "label_before": "SUPPORTS",
         "label_after": "ENOUGH -- IRRELEVANT", "removed": ["( born 1965 )"],
         "evidence": [["Nina Jacobson", "Nina Jacobson is an American film executive ."]],
         "text_orig": '[[Nina Jacobson]] Nina Jacobson <span style="color:red;">( born 1965 )'
                      "</span> is an American film executive ."},
    ]  # fmt: skip
    (folder / "fever_sufficient_facts.jsonl").write_text("\n".join(json.dumps(r) for r in rows))

    made = inference.sufficient_facts(tmp_path)

    read = {(p.claim[:5], p.evidence): p.label for p in made}
    assert (
        read[("Uniso", "The album was originally released on 2 April 1990 by Columbia Records.")]
        == REFUTE
    )
    assert read[("Uniso", "The album was originally released on 2 April 1990.")] == NEUTRAL
    assert read[("Nina ", "Nina Jacobson is an American film executive.")] == SUPPORT
    assert {p.kind for p in made} == {"fever"}


def test_captions_are_detokenised_and_split_by_premise(tmp_path: Path) -> None:
    folder = tmp_path / "nli" / "snli"
    folder.mkdir(parents=True)
    premise = "Two women are embracing while holding to go packages . \n"
    (folder / "s1.dev").write_text(premise * 3)
    hypotheses = ["Two women are n't hugging .", "The sisters are hugging .", "Two are hugging ."]
    (folder / "s2.dev").write_text("".join(f"{h} \n" for h in hypotheses))
    (folder / "labels.dev").write_text("contradiction\nneutral\nentailment\n")
    for name in ("s1.test", "s2.test", "labels.test"):
        (folder / name).write_text("")

    made = inference.snli(tmp_path)

    assert [p.label for p in made] == [REFUTE, NEUTRAL, SUPPORT]
    assert made[0].claim == "Two women aren't hugging."
    assert made[0].evidence == "Two women are embracing while holding to go packages."
    assert len({p.split for p in made}) == 1


def test_perspectrum_keeps_its_own_claim_split(tmp_path: Path) -> None:
    folder = tmp_path / "nli" / "perspectrum"
    folder.mkdir(parents=True)
    (folder / "dataset_split_v1.0.json").write_text(
        json.dumps({"1": "train", "2": "dev", "3": "test"})
    )
    (folder / "perspective_pool_v1.0.json").write_text(
        json.dumps([{"pId": n, "text": f"perspective {n}"} for n in range(1, 4)])
    )
    claims = [
        {"cId": n, "text": f"claim {n}", "perspectives": [
            {"pids": [n], "stance_label_3": "SUPPORT" if n != 2 else "UNDERMINE"}]}
        for n in range(1, 4)
    ]  # fmt: skip
    (folder / "perspectrum_with_answers_v1.0.json").write_text(json.dumps(claims))

    made = inference.perspectrum(tmp_path)

    assert [(p.claim, p.label, p.split) for p in made] == [
        ("claim 1", SUPPORT, TRAIN),
        ("claim 2", REFUTE, CALIBRATION),
        ("claim 3", SUPPORT, HELD_OUT),
    ]


def test_the_recipe_caps_easy_pairs_balances_swaps_and_trains_nothing_held_out() -> None:
    def pair(n: int, source: str, label: str, kind: str = "", split: str = TRAIN) -> Pair:
        return Pair(f"claim {source} {kind} {n}", "evidence", label, source, split, kind)

    rows = [pair(n, "fnc-1", NEUTRAL, "unrelated") for n in range(5000)]
    rows += [pair(n, "fnc-1", REFUTE, "disagree") for n in range(50)]
    rows += [pair(n, "covid-fact", SUPPORT, "real") for n in range(10)]
    rows += [pair(n, "covid-fact", REFUTE, "counter") for n in range(30)]
    rows += [pair(n, "healthver", SUPPORT, split=HELD_OUT) for n in range(10)]
    rows += [pair(n, "healthver", SUPPORT, split=CALIBRATION) for n in range(10)]

    mixed = recipe.training_mix(rows, seed=13)

    assert recipe.describe(mixed) == {"covid-fact": 20, "fnc-1": 3050}
    assert sum(p.kind == "unrelated" for p in mixed) == recipe.CAPS[("fnc-1", "unrelated")]
    assert recipe.weight_of(pair(0, "fnc-1", REFUTE, "disagree")) == 2.0
    assert recipe.weight_of(pair(0, "snli", REFUTE)) == 1.0
    assert mixed == recipe.training_mix(rows, seed=13)


def test_a_run_weighs_sets_over_the_recipe_and_refuses_a_malformed_weight() -> None:
    disagree = Pair("claim", "evidence", REFUTE, "fnc-1", TRAIN, "disagree")
    liar = Pair("claim", "evidence", REFUTE, "liar-plus", TRAIN)

    weights = recipe.weighed("liar-plus=3, fnc-1:disagree=2.5")

    assert recipe.weight_of(liar, weights) == 3.0
    assert recipe.weight_of(disagree, weights) == 2.5
    assert recipe.weight_of(liar) == recipe.WEIGHTS[("liar-plus", "")]
    for malformed in ("liar-plus", "liar-plus=x", "=2", "liar-plus=-1"):
        with pytest.raises(ValueError, match="not a set weight"):
            recipe.weighed(malformed)


def test_a_run_caps_sets_over_the_recipe_and_refuses_a_malformed_cap() -> None:
    def pair(n: int, kind: str, label: str = NEUTRAL) -> Pair:
        return Pair(f"claim {kind} {n}", "evidence", label, "fnc-1", TRAIN, kind)

    rows = [pair(n, "unrelated") for n in range(4000)]
    rows += [pair(n, "discuss") for n in range(4000)]
    rows += [pair(n, "disagree", REFUTE) for n in range(400)]

    whole = recipe.capped("fnc-1=600")
    mixed = recipe.training_mix(rows, seed=13, caps=whole)
    assert len(mixed) == 600
    assert {p.kind for p in mixed} == {"unrelated", "discuss", "disagree"}

    by_kind = recipe.capped("fnc-1:discuss=100")
    assert by_kind[("fnc-1", "unrelated")] == recipe.CAPS[("fnc-1", "unrelated")]
    counted = Counter(p.kind for p in recipe.training_mix(rows, seed=13, caps=by_kind))
    assert counted == {"unrelated": 3000, "discuss": 100, "disagree": 400}
    assert recipe.training_mix(rows, seed=13) == recipe.training_mix(rows, 13, recipe.capped(""))
    for malformed in ("fnc-1", "fnc-1=x", "=2", "fnc-1=-1", "fnc-1=2.5"):
        with pytest.raises(ValueError, match="not a set cap"):
            recipe.capped(malformed)
