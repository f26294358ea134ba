"""Distillation on page text: the teacher reads only training-side page sentences, the file of
what it read holds no text and reads back exactly, and a file that is not one is refused."""

from __future__ import annotations

import csv
import gzip
import json
from pathlib import Path

import pytest

from training.stance import distil
from training.stance.records import LABELS, TRAIN, Pair, split_of

SENTENCE = "The city council of {n} approved the new budget for parks and schools in March."


def _wice(root: Path, claims: list[str]) -> None:
    rows = []
    for claim in claims:
        page = ["(meta data) title: a page"] + [
            SENTENCE.format(n=n) if n % 2 else f"Short line {n}." for n in range(40)
        ]
        rows.append(
            {
                "claim": claim,
                "label": "supported",
                "evidence": page,
                "supporting_sentences": [[3]],
            }
        )
    path = root / "nli" / "wice" / "claim_dev.jsonl"
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text("\n".join(json.dumps(row) for row in rows), encoding="utf-8")


def _fnc(root: Path, headlines: list[str]) -> None:
    folder = root / "nli" / "fnc-1"
    folder.mkdir(parents=True, exist_ok=True)
    body = " ".join(SENTENCE.format(n=n) for n in range(8))
    with (folder / "train_bodies.csv").open("w", newline="", encoding="utf-8") as out:
        writer = csv.writer(out)
        writer.writerow(["Body ID", "articleBody"])
        writer.writerow(["1", body])
    for name in ("train_train_stances.csv", "train_test_stances.csv"):
        with (folder / name).open("w", newline="", encoding="utf-8") as out:
            writer = csv.writer(out)
            writer.writerow(["Headline", "Body ID", "Stance"])
            for number, headline in enumerate(headlines):
                stance = "unrelated" if number % 5 == 0 else "discuss"
                writer.writerow([headline, "1", stance])


def test_the_teacher_reads_training_side_page_sentences_only_unlabelled_and_each_once(
    tmp_path: Path,
) -> None:
    claims = [f"Council {n} approved a park budget in March" for n in range(40)]
    headlines = [f"Council {n} budget vote" for n in range(200)]
    _wice(tmp_path, claims)
    _fnc(tmp_path, headlines)

    pages = distil.page_pairs(tmp_path)

    assert {(p.label, p.split, p.kind) for p in pages} == {("", TRAIN, distil.KIND)}
    assert {p.source for p in pages} == {"page:wice", "page:fnc-1"}
    # A claim on the held-out or calibration side gives no page sentence.
    assert {p.claim for p in pages if p.source == "page:wice"} == {
        c for c in claims if split_of(c) == TRAIN
    }
    assert all(split_of(p.claim, 0.15) == TRAIN for p in pages if p.source == "page:fnc-1")
    # Short lines are not read; a page gives at most the closest and the drawn sentences.
    assert all(len(p.evidence.split()) >= distil.MIN_WORDS for p in pages)
    per_claim = [sum(p.claim == c for p in pages) for c in claims if split_of(c) == TRAIN]
    assert max(per_claim) == distil.WICE_CLOSEST + distil.WICE_DRAWN
    # Unrelated headlines give none; one related pair in FNC_EVERY gives its body's sentences.
    fnc = {p.claim for p in pages if p.source == "page:fnc-1"}
    assert fnc and all(headlines.index(h) % 5 for h in fnc)
    assert len(fnc) < len(headlines) / 2
    keys = [distil.pair_key(p.claim, p.evidence) for p in pages]
    assert len(keys) == len(set(keys))
    assert distil.page_pairs(tmp_path) == pages  # the same pairs on every run


def test_the_teacher_also_reads_the_labelled_pairs_of_the_measured_sets_each_once(
    tmp_path: Path,
) -> None:
    claims = [f"Council {n} approved a park budget in March" for n in range(40)]
    _wice(tmp_path, claims)
    _fnc(tmp_path, [f"Council {n} budget vote" for n in range(20)])
    pages = distil.page_pairs(tmp_path)
    labelled = [
        Pair("Vaccines cause autism", "Large studies found no link", "refute", "healthver", TRAIN),
        Pair("The bridge opened in 2020", "It opened in May 2020", "support", "wice", TRAIN),
    ]
    # A labelled pair that is also a page sentence is read once, as the labelled pair.
    again = Pair(pages[0].claim, pages[0].evidence, "support", "wice", TRAIN)

    # A general-inference pair keeps its hard label alone.
    general = Pair("A man sleeps", "A man is running a race", "refute", "snli", TRAIN)

    read = distil.teacher_pairs(tmp_path, [*labelled, again, general, labelled[0]])

    assert read == [*labelled, again, *pages[1:]]
    keys = [distil.pair_key(p.claim, p.evidence) for p in read]
    assert len(keys) == len(set(keys))


def _pairs(count: int) -> list[Pair]:
    return [
        Pair(f"claim {n}", f"sentence {n}", "", "page:wice", TRAIN, distil.KIND)
        for n in range(count)
    ]


def test_soft_labels_read_back_as_written_and_hold_no_text(tmp_path: Path) -> None:
    pairs = _pairs(3)
    rows = [[0.7, 0.1, 0.2], [0.05, 0.9, 0.05], [0.3333, 0.3333, 0.3334]]
    path = tmp_path / "soft.jsonl.gz"
    distil.write_soft(path, pairs, rows, {"teacher": "a test teacher"})

    header, soft = distil.read_soft(path)

    assert header["teacher"] == "a test teacher" and header["labels"] == list(LABELS)
    assert header["pairs"] == 3
    assert soft == {
        distil.pair_key(p.claim, p.evidence): tuple(r) for p, r in zip(pairs, rows, strict=True)
    }
    with gzip.open(path, "rt", encoding="utf-8") as stored:
        text = stored.read()
    assert "claim 1" not in text and "sentence 1" not in text
    # The teacher read two of the three pairs another run offers: only those two are taught.
    assert distil.taught([*_pairs(4)], {k: v for k, v in list(soft.items())[:2]}) == pairs[:2]


def test_a_key_names_the_claim_and_the_sentence_together() -> None:
    assert distil.pair_key("a", "b") == distil.pair_key("a", "b")
    assert distil.pair_key("a", "b") != distil.pair_key("b", "a")
    assert distil.pair_key("a b", "c") != distil.pair_key("a", "b c")


def _write(path: Path, header: dict, rows: list[dict]) -> Path:
    with gzip.open(path, "wt", encoding="utf-8") as out:
        out.write(json.dumps(header) + "\n")
        out.writelines(json.dumps(row) + "\n" for row in rows)
    return path


@pytest.mark.parametrize(
    ("header", "rows", "says"),
    [
        ({"labels": ["yes", "no", "maybe"], "pairs": 0}, [], "labels"),
        ({"labels": list(LABELS), "pairs": 1}, [{"k": "x", "p": [0.9, 0.9, 0.9]}], "distribution"),
        ({"labels": list(LABELS), "pairs": 2}, [{"k": "x", "p": [0.2, 0.3, 0.5]}], "holds 1"),
        ({"labels": list(LABELS), "pairs": 1}, [{"p": [0.2, 0.3, 0.5]}], "not a soft-label"),
    ],
)
def test_a_file_that_is_not_soft_labels_is_refused_with_what_is_wrong(
    tmp_path: Path, header: dict, rows: list[dict], says: str
) -> None:
    path = _write(tmp_path / "bad.jsonl.gz", header, rows)
    with pytest.raises(distil.SoftLabelError, match=says):
        distil.read_soft(path)


def test_a_file_that_is_not_gzip_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "plain.jsonl.gz"
    path.write_text("{}\n", encoding="utf-8")
    with pytest.raises(distil.SoftLabelError, match="not a soft-label file"):
        distil.read_soft(path)


def test_writing_as_many_rows_as_pairs_or_nothing(tmp_path: Path) -> None:
    path = tmp_path / "soft.jsonl.gz"
    with pytest.raises(distil.SoftLabelError, match="2 pairs but 1 rows"):
        distil.write_soft(path, _pairs(2), [[0.2, 0.3, 0.5]], {})
    assert not path.exists()


def test_a_reading_stopped_part_way_keeps_a_whole_file_of_what_it_read(tmp_path: Path) -> None:
    pairs = _pairs(5)
    path = tmp_path / "soft.jsonl.gz"
    chunks: list[int] = []

    def read(part):
        if chunks:
            raise KeyboardInterrupt  # stopped during the second chunk
        chunks.append(len(part))
        return [[0.6, 0.3, 0.1]] * len(part)

    with pytest.raises(KeyboardInterrupt):
        distil.read_and_write(path, pairs, read, {"teacher": "t"}, chunk=2)

    header, soft = distil.read_soft(path)
    assert chunks == [2]
    assert header["complete"] is False and header["of"] == 5 and header["pairs"] == 2
    assert set(soft) == {distil.pair_key(p.claim, p.evidence) for p in pairs[:2]}

    rows = distil.read_and_write(path, pairs, lambda part: [[0.1, 0.1, 0.8]] * len(part), {}, 2)
    header, soft = distil.read_soft(path)
    assert len(rows) == 5 and header["complete"] is True and len(soft) == 5


def test_two_teachers_files_read_as_one_the_later_reading_standing(tmp_path: Path) -> None:
    pairs = _pairs(3)
    first, second = tmp_path / "pages.jsonl.gz", tmp_path / "pairs.jsonl.gz"
    distil.write_soft(first, pairs[:2], [[0.8, 0.1, 0.1]] * 2, {"teacher": "one"})
    distil.write_soft(second, pairs[1:], [[0.1, 0.8, 0.1]] * 2, {"teacher": "two"})

    header, soft = distil.read_soft_files([first, second])

    keys = [distil.pair_key(p.claim, p.evidence) for p in pairs]
    assert soft == {keys[0]: (0.8, 0.1, 0.1), keys[1]: (0.1, 0.8, 0.1), keys[2]: (0.1, 0.8, 0.1)}
    assert header["teacher"] == "one; two"
    assert [f["pairs"] for f in header["files"]] == [2, 2]
    with pytest.raises(distil.SoftLabelError):
        distil.read_soft_files([first, tmp_path / "missing.jsonl.gz"])


def test_a_reader_that_returns_too_few_rows_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "soft.jsonl.gz"
    with pytest.raises(distil.SoftLabelError, match="3 pairs read as 1 rows"):
        distil.read_and_write(path, _pairs(3), lambda part: [[0.2, 0.3, 0.5]], {}, chunk=3)
    assert not path.exists()


def test_a_run_is_a_teacher_or_a_student_never_both(capsys: pytest.CaptureFixture[str]) -> None:
    from training.stance import arguments

    teacher = arguments.parse(["--base", "mpnet", "--teach", "t.jsonl.gz"])
    student = arguments.parse(["--soft", "a.jsonl.gz", "b.jsonl.gz", "--soft-weight", "0.3"])
    assert (teacher.teach, teacher.soft) == (Path("t.jsonl.gz"), None)
    assert (student.soft, student.soft_weight, student.temperature) == (
        [Path("a.jsonl.gz"), Path("b.jsonl.gz")],
        0.3,
        2.0,
    )
    with pytest.raises(SystemExit):
        arguments.parse(["--teach", "t.jsonl.gz", "--soft", "t.jsonl.gz"])
    assert "not both in one run" in capsys.readouterr().err


def test_a_teacher_is_checked_on_the_labelled_pairs_it_read_and_never_trained_on() -> None:
    from training.stance import recipe, soft_check

    labelled = [
        Pair(f"claim {n}", f"evidence {n}", LABELS[n % 3], "healthver", TRAIN) for n in range(30)
    ]
    mix = recipe.training_mix(labelled, 13)
    read = {distil.pair_key(p.claim, p.evidence): (0.8, 0.1, 0.1) for p in mix[:25]}
    header = {"seed": 13, "limit": 10}

    unseen = soft_check.unseen_pairs(header, labelled, read)

    assert unseen == mix[10:25]
    assert soft_check.likeliest(read, unseen) == ["support"] * 15
    # Without a limit the teacher trained on every pair of the mix: none is unseen.
    assert soft_check.unseen_pairs({"seed": 13, "limit": 0}, labelled, read) == []
