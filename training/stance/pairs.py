"""(claim, evidence, label) pairs for the stance model, read from `../shared/eval` at run time.

Every set is split by claim with a stable hash (`records.py`), so a claim's pairs are all in one
of training, calibration or held out, and the benchmark scores exactly the pairs training never
saw. Nothing here imports a training library: `bench/stance_bench.py` uses the same splits with
the runtime only. DATA_CARD.md says where each set comes from, its licence and how its pairs are
made; this module holds the fact-checking sets and the registry, `inference.py` the general
inference sets and `news.py` FNC-1.
"""

from __future__ import annotations

import csv
import random
import re
from collections.abc import Callable
from pathlib import Path

from training.stance import inference, news, swaps
from training.stance.records import (
    CALIBRATION,
    HELD_OUT,
    LABELS,
    NEUTRAL,
    REFUTE,
    SUPPORT,
    TRAIN,
    Pair,
    content_words,
    held_out,
    jsonl,
    not_held,
    split_of,
)

__all__ = ["CALIBRATION", "HELD_OUT", "LABELS", "NEUTRAL", "REFUTE", "SUPPORT", "TRAIN", "Pair"]
_split = split_of
_jsonl = jsonl


_CLIMATE = {"SUPPORTS": SUPPORT, "REFUTES": REFUTE, "NOT_ENOUGH_INFO": NEUTRAL}


def climate_fever_held_out(index: int) -> bool:
    """Odd claims (counted from 0) are held out, as bench/stance_bench.py always had them."""
    return index % 2 == 1


def climate_fever(root: Path) -> list[Pair]:
    """Per-sentence labels."""
    pairs = []
    for index, item in enumerate(_jsonl(root / "climate-fever" / "climate-fever.jsonl")):
        split = HELD_OUT if climate_fever_held_out(index) else not_held(item["claim"])
        for evidence in item["evidences"]:
            label = _CLIMATE.get(evidence["evidence_label"])
            if label:
                pairs.append(
                    Pair(item["claim"], evidence["evidence"], label, "climate-fever", split)
                )
    return pairs


def covid_fact_held_out(item: dict) -> bool:
    """A counter-claim shares its original's evidence (and source), so the split goes by source:
    both sides of a swap land on the same side."""
    evidence = " ".join(item.get("evidence") or []).strip()
    return held_out(item.get("gold_source") or evidence, 0.2)


def covid_fact(root: Path) -> list[Pair]:
    """A claim against its evidence sentences joined."""
    pairs = []
    for item in _jsonl(root / "covid-fact" / "COVIDFACT_dataset.jsonl"):
        evidence = " ".join(item["evidence"]).strip()
        if not evidence:
            continue
        real = item["label"] == "SUPPORTED"
        key = item.get("gold_source") or evidence
        pairs.append(
            Pair(
                item["claim"],
                evidence,
                SUPPORT if real else REFUTE,
                "covid-fact",
                HELD_OUT if covid_fact_held_out(item) else not_held(key),
                "real" if real else "counter",
            )
        )
    return pairs


_HEALTHVER = {"Supports": SUPPORT, "Refutes": REFUTE, "Neutral": NEUTRAL}


def healthver(root: Path) -> list[Pair]:
    pairs = []
    with (root / "nli" / "healthver" / "healthver_dev.csv").open(encoding="utf-8") as rows:
        for row in csv.DictReader(rows):
            label = _HEALTHVER.get(row["label"])
            if label:
                pairs.append(
                    Pair(row["claim"], row["evidence"], label, "healthver", _split(row["claim"]))
                )
    return pairs


_SICK = {"ENTAILMENT": SUPPORT, "CONTRADICTION": REFUTE, "NEUTRAL": NEUTRAL}


def sick(root: Path) -> list[Pair]:
    """Sentence B as the claim, sentence A as the evidence; the trial file is held out."""
    pairs = []
    folder = root / "nli" / "sick"
    for name, held in (
        ("SICK_train.txt", False),
        ("SICK_test_annotated.txt", False),
        ("SICK_trial.txt", True),
    ):
        with (folder / name).open(encoding="utf-8") as rows:
            for row in csv.DictReader(rows, delimiter="\t"):
                label = _SICK.get(row["entailment_judgment"])
                if label:
                    split = HELD_OUT if held else not_held(row["sentence_A"])
                    pairs.append(Pair(row["sentence_B"], row["sentence_A"], label, "sick", split))
    return pairs


def _wice_items(root: Path) -> list[dict]:
    return list(_jsonl(root / "nli" / "wice" / "claim_dev.jsonl"))


def wice_page(item: dict) -> tuple[list[str], set[int]]:
    """A WiCE claim's cited page as sentences (its metadata lines left out) and the indices,
    in that list, of the sentences annotators chose as backing the claim or part of it."""
    offset = sum(1 for s in item["evidence"] if s.startswith("(meta data)"))
    sentences = item["evidence"][offset:]
    chosen = {i - offset for group in item["supporting_sentences"] for i in group if i >= offset}
    return sentences, {i for i in chosen if i < len(sentences)}


def wice_split(item: dict) -> str:
    return _split(item["claim"])


def wice(root: Path, neutrals: int = 4) -> list[Pair]:
    """Finding what backs a claim on a long real page. A claim against each sentence annotators
    chose as backing it, alone and joined with the rest of its group (support; `partial` when it
    backs only part of the claim), and against sentences nobody chose (neutral): half of them
    the page's sentences that share the most words with the claim, since those are the ones a
    reader must learn to tell apart, half drawn at random."""
    pairs = []
    rng = random.Random(13)
    for item in _wice_items(root):
        claim = item["claim"]
        split = wice_split(item)
        sentences, chosen = wice_page(item)
        kind = "partial" if item["label"] == "partially_supported" else ""
        for index in sorted(chosen):
            pairs.append(Pair(claim, sentences[index], SUPPORT, "wice", split, kind or "sentence"))
        offset = len(item["evidence"]) - len(sentences)
        for group in item["supporting_sentences"][:2]:
            members = [i - offset for i in group if 0 <= i - offset < len(sentences)]
            if len(members) > 1:
                text = " ".join(sentences[i] for i in members)
                pairs.append(Pair(claim, text, SUPPORT, "wice", split, kind or "group"))
        others = [i for i, s in enumerate(sentences) if i not in chosen and len(s.split()) >= 6]
        words = content_words(claim)
        closest = sorted(others, key=lambda i: -len(words & content_words(sentences[i])))
        picked = closest[: neutrals // 2]
        rest = [i for i in others if i not in picked]
        picked += rng.sample(rest, min(neutrals - len(picked), len(rest)))
        for index in picked:
            pairs.append(Pair(claim, sentences[index], NEUTRAL, "wice", split, "unchosen"))
    return pairs


_LIAR = {"true": SUPPORT, "mostly-true": SUPPORT, "false": REFUTE, "pants-fire": REFUTE}


def liar_plus(root: Path) -> list[Pair]:
    """A PolitiFact statement against its ruling's justification, the clear rulings only."""
    pairs = []
    for name in ("val2.tsv", "test2.tsv"):
        with (root / "liar-plus" / name).open(encoding="utf-8") as rows:
            for row in csv.reader(rows, delimiter="\t"):
                if len(row) < 16:
                    continue
                label = _LIAR.get(row[2])
                justification = row[15].strip()
                if label and len(justification.split()) >= 8:
                    pairs.append(
                        Pair(row[3], justification, label, "liar-plus", _split(row[3], 0.2))
                    )
    return pairs


_SENTENCE_END = re.compile(r"(?<=[.!?])\s+(?=[A-Z\"'])")
_NUMBER = re.compile(r"\b\d[\d,]*(?:\.\d+)?\b")
_AUXILIARY = re.compile(r"\b(is|are|was|were|has|have|had|will|can|could|would|should|did)\b")
_NEGATED = re.compile(r"\b(is|are|was|were|has|have|had|will|can|could|would|should|did) not\b")
_NAME = re.compile(r"\b[A-Z][a-z]{2,}(?: [A-Z][a-z]{2,})*\b")
_ENGLISH = {"us", "uk", "gb", "au", "ca", "ie", "nz", "in", "za", "sg"}


def page_sentences(root: Path) -> list[tuple[str, list[str]]]:
    """English news articles' body sentences, by article (Fundus test pages)."""
    articles = []
    for item in _jsonl(root / "fundus-news" / "fundus_gold_index.jsonl"):
        if item.get("country", "").lower() not in _ENGLISH:
            continue
        sentences = []
        for paragraph in item.get("body_paragraphs") or []:
            for sentence in _SENTENCE_END.split(paragraph):
                words = sentence.split()
                if 8 <= len(words) <= 45:
                    sentences.append(sentence.strip())
        if sentences:
            articles.append((item["url"], sentences))
    return articles


def _changed_number(sentence: str, rng: random.Random) -> str | None:
    numbers = list(_NUMBER.finditer(sentence))
    if not numbers:
        return None
    match = rng.choice(numbers)
    digits = match.group().replace(",", "")
    try:
        value = float(digits)
    except ValueError:
        return None
    factor = rng.choice((0.5, 0.7, 1.4, 2, 3))
    new = value * factor + rng.choice((1, 2, 3)) if value < 3 else value * factor
    text = f"{new:,.1f}" if "." in digits else f"{round(new):,}"
    if text.replace(",", "") == digits:
        return None
    return sentence[: match.start()] + text + sentence[match.end() :]


def _flipped_polarity(sentence: str) -> str | None:
    negated = _NEGATED.search(sentence)
    if negated:
        return sentence[: negated.start()] + negated.group(1) + sentence[negated.end() :]
    auxiliary = _AUXILIARY.search(sentence)
    if auxiliary:
        return sentence[: auxiliary.end()] + " not" + sentence[auxiliary.end() :]
    return None


def _swapped_name(sentence: str, names: list[str], rng: random.Random) -> str | None:
    present = [m for m in _NAME.finditer(sentence) if m.start() > 0]
    if not present or not names:
        return None
    match = rng.choice(present)
    other = rng.choice(names)
    if other == match.group():
        return None
    return sentence[: match.start()] + other + sentence[match.end() :]


def _shortened(sentence: str) -> str | None:
    """The sentence without a trailing or leading clause: something the full sentence says."""
    for mark in (", which ", ", who ", ", according to ", ", said ", ", but ", " because "):
        cut = sentence.find(mark)
        if cut > len(sentence) // 3:
            return sentence[:cut].rstrip(",") + "."
    words = sentence.split()
    if len(words) >= 14:
        return " ".join(words[: len(words) * 2 // 3]).rstrip(",;:") + "."
    return None


def contrastive(root: Path, per_article: int = 12) -> list[Pair]:
    """Pairs made from real page text. The claim is a real sentence or a shortened copy of it;
    against the full sentence it supports, and with a number, a name or its polarity changed it
    refutes (so neither label can be told by length alone). A sentence of another article and
    another sentence of the same article are neutral. Split by article."""
    rng = random.Random(7)
    articles = page_sentences(root)
    names = sorted(
        {m.group() for _, sentences in articles for s in sentences for m in _NAME.finditer(s)}
    )
    pairs = []
    for index, (url, sentences) in enumerate(articles):
        split = _split(url, 0.2)
        picked = rng.sample(sentences, min(per_article, len(sentences)))
        for sentence in picked:
            short = _shortened(sentence)
            if short:
                pairs.append(Pair(short, sentence, SUPPORT, "contrastive", split))
            base = short if short and rng.random() < 0.5 else sentence
            for claim in (
                _changed_number(base, rng),
                _flipped_polarity(base),
                _swapped_name(base, names, rng),
            ):
                if claim and claim != base:
                    pairs.append(Pair(claim, sentence, REFUTE, "contrastive", split))
            other_article = articles[(index + rng.randrange(1, len(articles))) % len(articles)][1]
            pairs.append(Pair(rng.choice(other_article), sentence, NEUTRAL, "contrastive", split))
            same = [s for s in sentences if s != sentence]
            if same:
                pairs.append(Pair(rng.choice(same), sentence, NEUTRAL, "contrastive", split))
    return pairs


def distractors(
    root: Path, per_source: int = 600, held_per_source: int = 150, candidates: int = 40
) -> list[Pair]:
    """A claim against the evidence of another claim of its own set: on its topic (it shares
    the claim's words), about something else, so neutral. Pages are full of such sentences, and
    without them the sets above teach that a COVID-19 sentence always bears on a COVID-19 claim
    (COVID-Fact has no neutral pairs at all). The other claim comes from the same split, is not
    a near copy of this one (a counter-claim shares its original's evidence) and its evidence
    is among the three closest in words of `candidates` drawn at random."""
    rng = random.Random(11)
    pairs = []
    for name in ("climate-fever", "covid-fact", "healthver", "liar-plus"):
        try:
            rows = SETS[name](root)
        except FileNotFoundError:
            continue
        for split, cap in (
            (TRAIN, per_source),
            (CALIBRATION, held_per_source),
            (HELD_OUT, held_per_source),
        ):
            evidence: dict[str, list[str]] = {}
            for row in rows:
                if row.split == split:
                    evidence.setdefault(row.claim, []).append(row.evidence)
            claims = sorted(evidence)
            for claim in rng.sample(claims, min(cap, len(claims))):
                words = content_words(claim)
                own = set(evidence[claim])
                scored = []
                for other in rng.sample(claims, min(candidates, len(claims))):
                    other_words = content_words(other)
                    if other == claim or len(words & other_words) > 0.25 * len(words | other_words):
                        continue
                    text = rng.choice(evidence[other])
                    if text not in own:
                        scored.append((len(words & content_words(text)), text))
                scored.sort(key=lambda item: -item[0])
                top = [text for overlap, text in scored[:3] if overlap > 0]
                if top:
                    pairs.append(Pair(claim, rng.choice(top), NEUTRAL, "distractors", split, name))
    return pairs


def one_detail_swaps(root: Path) -> list[Pair]:
    """One-detail swaps of the supporting pairs of the real claim sets (`swaps.py`)."""
    return swaps.swaps(root, (healthver, climate_fever, wice, inference.sufficient_facts))


SETS: dict[str, Callable[[Path], list[Pair]]] = {
    "climate-fever": climate_fever,
    "covid-fact": covid_fact,
    "healthver": healthver,
    "sick": sick,
    "wice": wice,
    "liar-plus": liar_plus,
    "contrastive": contrastive,
    "distractors": distractors,
    "fnc-1": news.fnc1,
    "mnli": inference.mnli,
    "snli": inference.snli,
    "anli": inference.anli,
    "rte": inference.rte,
    "sufficient-facts": inference.sufficient_facts,
    "perspectrum": inference.perspectrum,
    "swaps": one_detail_swaps,
}

# What the shipped model is trained on (`python -m training.stance.train` by default): every set.
TRAINED = tuple(SETS)
# The sets whose terms are open (DATA_CARD.md): `train --open` trains on these alone. ANLI is
# non-commercial, SICK BY-NC-SA, and the others state no licence or keep their publishers' text.
OPEN = ("mnli", "snli", "perspectrum", "wice", "liar-plus")
# The sets of real claims and real evidence, where the precision of counted readings is judged.
REAL_TEXT = ("climate-fever", "healthver", "liar-plus", "fnc-1", "wice")
# The sets a new model may not read more than GUARD_MARGIN worse (held-out macro-F1) than the
# model it would replace: what the shipped reader already does well.
GUARDS = ("climate-fever", "covid-fact", "liar-plus", "sick", "contrastive")
GUARD_MARGIN = 0.02


def load(root: Path, names: tuple[str, ...] = tuple(SETS)) -> list[Pair]:
    """Every pair of the named sets whose folder is present under `root` (../shared/eval)."""
    pairs: list[Pair] = []
    for name in names:
        try:
            pairs.extend(SETS[name](root))
        except FileNotFoundError:
            continue
    return pairs
